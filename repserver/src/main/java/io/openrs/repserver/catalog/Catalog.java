package io.openrs.repserver.catalog;

import io.openrs.config.param.ParameterValues;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.DatabaseRepDef;
import io.openrs.config.rssd.ErrorClassDef;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.RepDefColumn;
import io.openrs.config.rssd.Rssd;
import io.openrs.config.rssd.RssdUser;
import io.openrs.config.rssd.ScramVerifier;
import io.openrs.config.rssd.SourceGrant;
import io.openrs.config.rssd.SubscriptionState;
import io.openrs.config.rssd.UserRole;
import io.openrs.dsi.DsiTarget;
import io.openrs.dsi.ReplicaIdentity;
import io.openrs.dsi.SnapshotSignal;
import io.openrs.repserver.dist.WhereClause;
import io.openrs.repserver.dsi.DsiTargets;
import io.openrs.repserver.nrm.ColumnTypes;
import io.openrs.repserver.rules.ReplicationRules;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one door through which the RSSD's catalog changes: replication definitions, subscriptions and
 * their materialization bookkeeping, users, connection settings, the server's configuration values
 * and error classes. Each change checks what it is given, writes the RSSD and tells the replication
 * rules (whose version moves, so cached lookups over the STS cache are dropped).
 *
 * <p>Thread-safe: a change that checks the RSSD before it writes is made under {@code lock}, the
 * lock the server holds for the catalog changes it still makes itself (creating and dropping
 * connections), so a check and the write it allows are never split by another change.
 */
public final class Catalog {

  private static final Logger LOG = LoggerFactory.getLogger(Catalog.class);

  /** What the server does when a replicate connection gets a subscription. */
  @FunctionalInterface
  public interface Replicates {
    /**
     * Opens the replicate's outbound queue and starts its DSI.
     *
     * @return notices for the DBA (a DSI that cannot start yet)
     */
    List<String> subscribed(ConnectionDef replicate);
  }

  private final Rssd rssd;
  private final ReplicationRules rules;
  private final ParameterValues parameters;
  private final Replicates replicates;
  private final Object lock;

  /**
   * @param parameters the server's parameters (a replicate's DSI parameters are read over them)
   * @param replicates starts a replicate's outbound queue and DSI when it gets a subscription
   * @param lock serializes catalog changes (shared with the server's own RSSD changes)
   */
  public Catalog(
      Rssd rssd,
      ReplicationRules rules,
      ParameterValues parameters,
      Replicates replicates,
      Object lock) {
    this.rssd = rssd;
    this.rules = rules;
    this.parameters = parameters;
    this.replicates = replicates;
    this.lock = lock;
  }

  /**
   * {@code create replication definition}: checks its column types, key and searchable columns.
   *
   * @throws IllegalArgumentException naming the column and what is wrong with it
   */
  public void createRepDef(RepDef d) {
    synchronized (lock) {
      checkColumns(d);
      requirePrimary(d.primaryConnectionId(), d.name());
      rssd.repDefs().create(d);
      rules.changed();
    }
  }

  /**
   * {@code alter replication definition}: the definition's columns and searchable columns become
   * those of {@code changed}; its tables and primary key stay. A searchable column a subscription's
   * where clause reads cannot be dropped.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public void alterRepDef(RepDef changed) {
    synchronized (lock) {
      RepDef before =
          rssd.repDefs()
              .find(changed.name())
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "no replication definition named " + changed.name()));
      if (!before.primaryKey().equals(changed.primaryKey())
          || before.primaryConnectionId() != changed.primaryConnectionId()
          || !before.primaryTable().equals(changed.primaryTable())
          || !before.replicateTable().equals(changed.replicateTable())) {
        throw new IllegalArgumentException(
            "replication definition "
                + changed.name()
                + ": alter changes columns and searchable columns only, not tables or the key");
      }
      checkColumns(changed);
      Set<String> searchable = new HashSet<>();
      changed.searchableColumns().forEach(c -> searchable.add(c.toLowerCase(Locale.ROOT)));
      for (io.openrs.config.rssd.Subscription sub :
          rssd.subscriptions().forRepDef(changed.name())) {
        if (sub.databaseLevel() || sub.whereClause().isEmpty()) {
          continue;
        }
        for (String col : WhereClause.parse(sub.whereClause().get()).columns()) {
          boolean wasSearchable =
              before.searchableColumns().stream().anyMatch(b -> b.equalsIgnoreCase(col));
          if (wasSearchable && !searchable.contains(col.toLowerCase(Locale.ROOT))) {
            throw new IllegalStateException(
                "replication definition "
                    + changed.name()
                    + ": searchable column "
                    + col
                    + " is read by the where clause of subscription "
                    + sub.name()
                    + "; drop or change that subscription first");
          }
        }
      }
      rssd.repDefs().alterColumns(changed);
      rules.changed();
    }
  }

  private void checkColumns(RepDef d) {
    Set<String> names = new LinkedHashSet<>();
    for (RepDefColumn c : d.columns()) {
      if (!names.add(c.name())) {
        throw new IllegalArgumentException(
            "replication definition " + d.name() + ": column " + c.name() + " is listed twice");
      }
      if (ColumnTypes.familyOf(c.type()).isEmpty()) {
        throw new IllegalArgumentException(
            "replication definition "
                + d.name()
                + ": column "
                + c.name()
                + " has unknown datatype '"
                + c.type()
                + "'; known: "
                + new java.util.TreeSet<>(ColumnTypes.knownTypes()));
      }
    }
    for (String k : d.primaryKey()) {
      if (!names.contains(k)) {
        throw new IllegalArgumentException(
            "replication definition " + d.name() + ": primary key column " + k + " is not listed");
      }
    }
    for (String k : d.searchableColumns()) {
      if (!names.contains(k)) {
        throw new IllegalArgumentException(
            "replication definition " + d.name() + ": searchable column " + k + " is not listed");
      }
    }
  }

  public void createDatabaseRepDef(DatabaseRepDef d) {
    synchronized (lock) {
      requirePrimary(d.primaryConnectionId(), d.name());
      rssd.repDefs().createDatabaseRepDef(d);
      rules.changed();
    }
  }

  private void requirePrimary(int connectionId, String repDef) {
    ConnectionDef c =
        rssd.connections()
            .find(connectionId)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "replication definition "
                            + repDef
                            + ": no connection with id "
                            + connectionId));
    if (!c.logTransfer()) {
      throw new IllegalArgumentException(
          "replication definition "
              + repDef
              + ": connection "
              + c.name()
              + " has no log transfer, so it is not a primary");
    }
  }

  /**
   * {@code alter connection ... set p to 'v'}: saved with the connection; DSI parameters take
   * effect when the connection resumes.
   */
  public void setConnectionProperty(String dataserver, String database, String key, String value) {
    synchronized (lock) {
      ConnectionDef c = requireConnection(dataserver, database);
      rssd.connections().setProperty(c.id(), key, value);
      rules.changed();
    }
  }

  public void dropRepDef(String name) {
    synchronized (lock) {
      rssd.repDefs().drop(name);
      rules.changed();
    }
  }

  public void dropDatabaseRepDef(String name) {
    synchronized (lock) {
      rssd.repDefs().dropDatabaseRepDef(name);
      rules.changed();
    }
  }

  public ConnectionDef requireConnection(String dataserver, String database) {
    return rssd.connections()
        .find(dataserver, database)
        .orElseThrow(
            () -> new IllegalArgumentException("no connection " + dataserver + "." + database));
  }

  // ---- users -----------------------------------------------------------------------------------

  /** {@code create user}: stored with the SCRAM-SHA-256 verifier of its password. */
  public void createUser(String name, UserRole role, char[] password) {
    rssd.users().create(new RssdUser(name, role, ScramVerifier.derive(password)));
  }

  /** {@code alter user ... set password}: the password's SCRAM verifier replaces the user's. */
  public void setPassword(String name, char[] password) {
    rssd.users().setSecret(name, ScramVerifier.derive(password));
  }

  /** {@code drop user}. */
  public void dropUser(String name) {
    rssd.users().drop(name);
  }

  /** {@code grant} and {@code revoke} of {@code sa} or {@code monitor}: the user's role. */
  public void setRole(String name, UserRole role) {
    rssd.users().setRole(name, role);
  }

  /**
   * {@code grant connect source}.
   *
   * @return false when the user already had that grant
   */
  public boolean grantSource(String name, SourceGrant grant) {
    return rssd.users().grantSource(name, grant);
  }

  /**
   * {@code revoke connect source on ds.db}.
   *
   * @return false when the user had no such grant
   */
  public boolean revokeSource(String name, SourceGrant grant) {
    return rssd.users().revokeSource(name, grant);
  }

  /**
   * {@code revoke connect source} (every grant of the user).
   *
   * @return how many grants were removed
   */
  public int revokeAllSources(String name) {
    return rssd.users().revokeAllSources(name);
  }

  // ---- configuration ---------------------------------------------------------------------------

  /**
   * {@code configure replication server set p to 'v'}: saved in the RSSD over the configuration
   * file's value ({@code value} already normalized by the parameter's type).
   */
  public void setServerValue(String name, String value) {
    rssd.config().setServerValue(name, value);
  }

  // ---- error classes
  // -----------------------------------------------------------------------------

  /**
   * {@code create error class}, empty or with the actions of {@code template}.
   *
   * @return the class as stored
   */
  public ErrorClassDef createErrorClass(String name, Optional<String> template) {
    return rssd.errorClasses().create(name, template);
  }

  /** {@code alter error class ... set template to t}: the template's actions are copied in. */
  public void alterErrorClass(String name, String template) {
    rssd.errorClasses().alter(name, template);
  }

  /** {@code drop error class}: refused (by the RSSD) while a connection or the server names it. */
  public void dropErrorClass(String name) {
    rssd.errorClasses().drop(name);
  }

  /** {@code assign action}: one action for codes of a class. */
  public void assignErrorAction(String errorClass, String action, List<String> codes) {
    rssd.errorClasses().assign(errorClass, action, codes);
  }

  // ---- subscriptions and their materialization -----------------------------------------------

  /**
   * {@code create subscription}: binds a replication definition to a replicate connection, with an
   * optional where clause over the definition's columns.
   *
   * @return notices for the DBA (for example what the primary must send for the where clause)
   * @throws IllegalArgumentException naming what is wrong
   */
  public List<String> createSubscription(
      String name,
      String repDefName,
      boolean databaseLevel,
      String replicateDataserver,
      String replicateDatabase,
      Optional<String> whereClause) {
    return createSubscription(
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
  public List<String> createSubscription(
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

  public void dropSubscription(String name, String replicateDataserver, String replicateDatabase) {
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
