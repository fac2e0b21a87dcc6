package io.openrs.repserver.catalog;

import io.openrs.config.param.ParameterValues;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.Rssd;
import io.openrs.config.rssd.SubscriptionState;
import io.openrs.dsi.DsiTarget;
import io.openrs.dsi.ReplicaIdentity;
import io.openrs.dsi.SnapshotSignal;
import io.openrs.repserver.dist.WhereClause;
import io.openrs.repserver.dsi.DsiTargets;
import io.openrs.repserver.rules.ReplicationRules;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Subscriptions and their materialization bookkeeping, the part of the {@link Catalog} that binds
 * replication definitions to replicate connections: {@code create subscription} (checked against
 * the definition, the where clause and, with materialization, the primary's replica identity), the
 * snapshot requests it sends through the origin, their completion, and {@code drop subscription}.
 *
 * <p>Its changes are made under the catalog's lock and tell the replication rules, as the catalog's
 * own do.
 */
public final class Subscriptions {

  private static final Logger LOG = LoggerFactory.getLogger(Subscriptions.class);

  private final Rssd rssd;
  private final ReplicationRules rules;
  private final ParameterValues parameters;
  private final Catalog.Replicates replicates;
  private final Object lock;

  Subscriptions(
      Rssd rssd,
      ReplicationRules rules,
      ParameterValues parameters,
      Catalog.Replicates replicates,
      Object lock) {
    this.rssd = rssd;
    this.rules = rules;
    this.parameters = parameters;
    this.replicates = replicates;
    this.lock = lock;
  }

  /**
   * {@code create subscription}: binds a replication definition to a replicate connection, with an
   * optional where clause over the definition's columns.
   *
   * @return notices for the DBA (for example what the primary must send for the where clause)
   * @throws IllegalArgumentException naming what is wrong
   */
  public List<String> create(
      String name,
      String repDefName,
      boolean databaseLevel,
      String replicateDataserver,
      String replicateDatabase,
      Optional<String> whereClause) {
    return create(
        name,
        repDefName,
        databaseLevel,
        replicateDataserver,
        replicateDatabase,
        whereClause,
        false);
  }

  /**
   * {@code create subscription}, {@code with materialization} when {@code materialize}: the
   * subscription is created {@code MATERIALIZING} (changes flow to it from now on, autocorrected),
   * then the primary's agent is asked for an incremental snapshot of the table (a signal row in the
   * primary, {@link SnapshotSignal}); DIST sends the snapshot's rows to it and makes it {@code
   * VALID} when the agent's completion marker has been distributed.
   *
   * @throws IllegalArgumentException naming what is wrong
   * @throws IllegalStateException when materialization cannot start (the subscription is not kept)
   */
  public List<String> create(
      String name,
      String repDefName,
      boolean databaseLevel,
      String replicateDataserver,
      String replicateDatabase,
      Optional<String> whereClause,
      boolean materialize) {
    synchronized (lock) {
      Optional<DsiTarget> signalAt = Optional.empty();
      String dataCollection = null;
      if (materialize) {
        RepDef d =
            checkMaterialization(
                name, repDefName, databaseLevel, replicateDataserver, replicateDatabase);
        ConnectionDef primary = rssd.connections().find(d.primaryConnectionId()).orElseThrow();
        DsiTarget target = DsiTargets.target(primary, rssd.secrets());
        try {
          SnapshotSignal.locate(target);
        } catch (IllegalStateException e) {
          throw new IllegalStateException(
              "subscription "
                  + name
                  + ": cannot ask the agent of "
                  + primary.name()
                  + " for a snapshot: "
                  + e.getMessage(),
              e);
        }
        signalAt = Optional.of(target);
        dataCollection = d.primarySchema() + "." + d.primaryTable();
      }
      List<String> notices =
          createSubscriptionRow(
              name,
              repDefName,
              databaseLevel,
              replicateDataserver,
              replicateDatabase,
              whereClause,
              materialize ? SubscriptionState.MATERIALIZING : SubscriptionState.VALID);
      if (signalAt.isPresent()) {
        ConnectionDef replicate =
            rssd.connections().find(replicateDataserver, replicateDatabase).orElseThrow();
        io.openrs.config.rssd.Subscription sub =
            rssd.subscriptions().find(name, replicate.id()).orElseThrow();
        String id = materializationId(sub);
        try {
          SnapshotSignal.request(signalAt.get(), id, List.of(dataCollection));
        } catch (RuntimeException e) {
          rssd.subscriptions().drop(name, replicate.id());
          rules.changed();
          throw new IllegalStateException(
              "subscription "
                  + name
                  + ": the snapshot request could not be written at the primary ("
                  + e.getMessage()
                  + "); the subscription was not kept");
        }
        notices.add(
            "subscription "
                + name
                + " is materializing: the agent reads "
                + dataCollection
                + " in chunks (snapshot request "
                + id
                + "); check subscription shows VALID once every row has been sent");
        LOG.info("subscription {} materializing, snapshot request {}", name, id);
      }
      return notices;
    }
  }

  /**
   * The checks of {@code with materialization}, before anything changes.
   *
   * @return the table replication definition
   */
  private RepDef checkMaterialization(
      String name,
      String repDefName,
      boolean databaseLevel,
      String replicateDataserver,
      String replicateDatabase) {
    if (databaseLevel) {
      throw new UnsupportedOperationException(
          "subscription "
              + name
              + ": with materialization copies the table of a table replication definition;"
              + " for database replication definition "
              + repDefName
              + " create it without materialization and load the replicate first");
    }
    RepDef d =
        rssd.repDefs()
            .find(repDefName)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "subscription " + name + ": no replication definition " + repDefName));
    if (d.primaryKey().isEmpty()) {
      throw new UnsupportedOperationException(
          "subscription "
              + name
              + ": with materialization reads the table in primary-key order and applies its rows"
              + " as upserts, but replication definition "
              + repDefName
              + " names no primary key");
    }
    ConnectionDef primary = rssd.connections().find(d.primaryConnectionId()).orElseThrow();
    if (primary.profile() != Profile.POSTGRESQL) {
      throw new UnsupportedOperationException(
          "subscription "
              + name
              + ": with materialization is available for PostgreSQL primaries only; "
              + primary.name()
              + " is "
              + primary.profile().name().toLowerCase(Locale.ROOT)
              + ", whose agent does not run incremental snapshots yet (it has no signal table)."
              + " Create the subscription without materialization and load the replicate first");
    }
    ConnectionDef replicate = subscriptionReplicate(name, replicateDataserver, replicateDatabase);
    if (DsiTargets.parameters(replicate, parameters).getBoolean("dsi_row_count_validation")) {
      throw new IllegalStateException(
          "subscription "
              + name
              + ": while it materializes, deletes of rows whose chunk has not been copied yet"
              + " touch no row at "
              + replicate.name()
              + ", which checks row counts (dsi_row_count_validation is on). Run alter connection"
              + " to "
              + replicate.name()
              + " set dsi_row_count_validation to 'off' and resume connection to "
              + replicate.name()
              + " first (set it on again once check subscription shows VALID)");
    }
    for (RepDef other : rssd.repDefs().forPrimaryConnection(primary.id())) {
      for (io.openrs.config.rssd.Subscription s : rssd.subscriptions().forRepDef(other.name())) {
        if (s.state() == SubscriptionState.MATERIALIZING) {
          throw new IllegalStateException(
              "subscription "
                  + name
                  + ": subscription "
                  + s.name()
                  + " is materializing from the same primary "
                  + primary.name()
                  + " (one snapshot at a time); create this one when check subscription shows"
                  + " it VALID");
        }
      }
    }
    return d;
  }

  static String materializationId(io.openrs.config.rssd.Subscription s) {
    try {
      java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
      md.update(
          (s.replicateConnectionId() + "\n" + s.name() + "\n" + s.created().toEpochMilli())
              .getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return "rs_mat_" + java.util.HexFormat.of().formatHex(md.digest(), 0, 12);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * DIST distributed the completion marker of snapshot requests {@code ids} of origin {@code
   * originId}: their materializing subscriptions become VALID. Runs on the RSSD writer thread.
   */
  public void materializationsCompleted(int originId, List<String> ids) {
    boolean any = false;
    for (RepDef d : rssd.repDefs().forPrimaryConnection(originId)) {
      for (io.openrs.config.rssd.Subscription s : rssd.subscriptions().forRepDef(d.name())) {
        if (s.state() == SubscriptionState.MATERIALIZING && ids.contains(materializationId(s))) {
          rssd.subscriptions()
              .setState(s.name(), s.replicateConnectionId(), SubscriptionState.VALID);
          LOG.info("subscription {} materialized: VALID", s.name());
          any = true;
        }
      }
    }
    if (any) {
      rules.changed();
    } else {
      LOG.info(
          "snapshot(s) {} of origin {} completed; no materializing subscription waits for them",
          ids,
          originId);
    }
  }

  private ConnectionDef subscriptionReplicate(String name, String dataserver, String database) {
    return rssd.connections()
        .find(dataserver, database)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "subscription " + name + ": no connection " + dataserver + "." + database));
  }

  private List<String> createSubscriptionRow(
      String name,
      String repDefName,
      boolean databaseLevel,
      String replicateDataserver,
      String replicateDatabase,
      Optional<String> whereClause,
      SubscriptionState state) {
    ConnectionDef replicate = subscriptionReplicate(name, replicateDataserver, replicateDatabase);
    List<String> notices = new ArrayList<>();
    if (whereClause.isPresent()) {
      WhereClause w = WhereClause.parse(whereClause.get());
      if (!databaseLevel) {
        RepDef d =
            rssd.repDefs()
                .find(repDefName)
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            "subscription " + name + ": no replication definition " + repDefName));
        Set<String> columns = new HashSet<>();
        d.columns().forEach(c -> columns.add(c.name().toLowerCase(Locale.ROOT)));
        Set<String> key = new HashSet<>();
        (d.primaryKey().isEmpty() ? new ArrayList<>(columns) : d.primaryKey())
            .forEach(k -> key.add(k.toLowerCase(Locale.ROOT)));
        List<String> nonKey = new ArrayList<>();
        for (String c : w.columns()) {
          if (!columns.contains(c.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException(
                "subscription "
                    + name
                    + ": the where clause reads column "
                    + c
                    + ", which replication definition "
                    + repDefName
                    + " does not list");
          }
          if (!key.contains(c.toLowerCase(Locale.ROOT))) {
            nonKey.add(c);
          }
        }
        ConnectionDef primary = rssd.connections().find(d.primaryConnectionId()).orElseThrow();
        if (!nonKey.isEmpty() && !replicaIdentityFull(primary, d)) {
          String table = d.primarySchema() + "." + d.primaryTable();
          notices.add(
              primary.profile() == Profile.POSTGRESQL
                  ? "subscription "
                      + name
                      + " filters on non-key column(s) "
                      + nonKey
                      + " of "
                      + table
                      + ": PostgreSQL sends their old values only with REPLICA IDENTITY FULL. Run"
                      + " ALTER TABLE "
                      + table
                      + " REPLICA IDENTITY FULL at "
                      + primary.name()
                      + "; otherwise an update of such a row stops the distributor with an error"
                      + " naming it (nothing is guessed)."
                  : "subscription "
                      + name
                      + " filters on non-key column(s) "
                      + nonKey
                      + " of "
                      + table
                      + ": the primary must log full before images (binlog_row_image=FULL on"
                      + " MariaDB/MySQL).");
        }
      }
    }
    rssd.subscriptions()
        .create(name, repDefName, databaseLevel, replicate.id(), whereClause, state);
    rules.changed();
    notices.addAll(replicates.subscribed(replicate));
    notices.forEach(n -> LOG.warn("{}", n));
    return notices;
  }

  public void drop(String name, String replicateDataserver, String replicateDatabase) {
    synchronized (lock) {
      ConnectionDef replicate =
          rssd.connections()
              .find(replicateDataserver, replicateDatabase)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "no connection " + replicateDataserver + "." + replicateDatabase));
      Optional<io.openrs.config.rssd.Subscription> sub =
          rssd.subscriptions().find(name, replicate.id());
      rssd.subscriptions().drop(name, replicate.id());
      rules.changed();
      if (sub.isPresent() && sub.get().state() == SubscriptionState.MATERIALIZING) {
        stopMaterialization(sub.get());
      }
    }
  }

  /**
   * A subscription dropped while materializing: the agent's snapshot of its table is stopped (a
   * {@code stop-snapshot} signal), so a later {@code with materialization} starts a snapshot of its
   * own. Best effort: when the primary cannot be reached the snapshot runs on, its rows reach no
   * replicate, and the next materialization from that primary waits for it (logged).
   */
  private void stopMaterialization(io.openrs.config.rssd.Subscription s) {
    Optional<RepDef> d = rssd.repDefs().find(s.repDefName());
    if (d.isEmpty()) {
      return;
    }
    ConnectionDef primary = rssd.connections().find(d.get().primaryConnectionId()).orElse(null);
    if (primary == null || primary.profile() != Profile.POSTGRESQL) {
      return;
    }
    String id = materializationId(s) + "_stop";
    try {
      SnapshotSignal.stop(
          DsiTargets.target(primary, rssd.secrets()),
          id,
          List.of(d.get().primarySchema() + "." + d.get().primaryTable()));
      LOG.info("subscription {} dropped while materializing: snapshot stopped ({})", s.name(), id);
    } catch (RuntimeException e) {
      LOG.warn(
          "subscription {} dropped while materializing; the agent's snapshot could not be stopped"
              + " at {}: {}",
          s.name(),
          primary.name(),
          e.getMessage());
    }
  }

  /**
   * Whether the primary table of {@code d} is known to have {@code REPLICA IDENTITY FULL} (a
   * PostgreSQL primary whose connection has login settings and answers); false when that cannot be
   * told, so the subscription's notice stays.
   */
  private boolean replicaIdentityFull(ConnectionDef primary, RepDef d) {
    if (primary.profile() != Profile.POSTGRESQL) {
      return false;
    }
    try {
      return ReplicaIdentity.isFull(
              DsiTargets.target(primary, rssd.secrets()), d.primarySchema(), d.primaryTable())
          .orElse(false);
    } catch (IllegalArgumentException noLoginSettings) {
      return false;
    }
  }
}
