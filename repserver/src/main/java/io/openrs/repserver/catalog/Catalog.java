package io.openrs.repserver.catalog;

import io.openrs.config.param.ParameterValues;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.ConnectionState;
import io.openrs.config.rssd.DatabaseRepDef;
import io.openrs.config.rssd.ErrorClassDef;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.RepDefColumn;
import io.openrs.config.rssd.Rssd;
import io.openrs.config.rssd.RssdUser;
import io.openrs.config.rssd.ScramVerifier;
import io.openrs.config.rssd.SourceGrant;
import io.openrs.config.rssd.StsCache;
import io.openrs.config.rssd.UserRole;
import io.openrs.repserver.dist.WhereClause;
import io.openrs.repserver.nrm.ColumnTypes;
import io.openrs.repserver.rules.ReplicationRules;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * <p>What the admin commands read goes through {@link #view()}, which hands out rows, never the
 * RSSD's tables.
 *
 * <p>Thread-safe: a change that checks the RSSD before it writes is made under {@code lock}, so a
 * check and the write it allows are never split by another change.
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
  private final CatalogView view;
  private final ReplicationRules rules;
  private final Object lock = new Object();
  private final Subscriptions subscriptions;

  /**
   * @param sts the STS cache over {@code rssd} (the view's lookups by name)
   * @param parameters the server's parameters (a replicate's DSI parameters are read over them)
   * @param replicates starts a replicate's outbound queue and DSI when it gets a subscription
   */
  public Catalog(
      Rssd rssd,
      StsCache sts,
      ReplicationRules rules,
      ParameterValues parameters,
      Replicates replicates) {
    this.rssd = rssd;
    this.view = new CatalogView(rssd, sts);
    this.rules = rules;
    this.subscriptions = new Subscriptions(rssd, rules, parameters, replicates, lock);
  }

  /** {@code create subscription}, {@code drop subscription} and their materialization. */
  public Subscriptions subscriptions() {
    return subscriptions;
  }

  /** What the admin commands read of the RSSD. */
  public CatalogView view() {
    return view;
  }

  // ---- connections -----------------------------------------------------------------------------

  /** {@code create connection}: the RSSD row (the server then opens its queues and pipeline). */
  public ConnectionDef createConnection(
      String dataserver,
      String database,
      Profile profile,
      boolean logTransfer,
      Map<String, String> properties) {
    synchronized (lock) {
      ConnectionDef c =
          rssd.connections().create(dataserver, database, profile, logTransfer, properties);
      rules.changed();
      return c;
    }
  }

  /**
   * {@code drop connection}: refused by the RSSD while definitions or subscriptions use it (the
   * error names them).
   */
  public void dropConnection(int connectionId) {
    synchronized (lock) {
      rssd.connections().drop(connectionId);
      rules.changed();
    }
  }

  /** {@code suspend connection} and {@code resume connection}: the DSI's saved state. */
  public void setConnectionState(int connectionId, ConnectionState state) {
    rssd.connections().setState(connectionId, state);
  }

  /** {@code suspend log transfer} and {@code resume log transfer}: the origin's saved state. */
  public void setLogTransferState(int connectionId, ConnectionState state) {
    rssd.connections().setLogTransferState(connectionId, state);
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

  /**
   * At the first start, the RSSD has no user: creates the administrator {@code name} with the
   * password the DBA gave (an RSSD that has users is left alone).
   *
   * @return whether it was created
   * @throws IllegalStateException when the RSSD has no user and no password was given
   */
  public boolean ensureAdministrator(String name, Optional<char[]> password) {
    synchronized (lock) {
      if (!rssd.users().all().isEmpty()) {
        return false;
      }
      createUser(
          name,
          UserRole.ADMIN,
          password.orElseThrow(
              () ->
                  new IllegalStateException(
                      "the RSSD has no user yet: give the first administrator's password"
                          + " (configuration admin_password_env / admin_password_file, or the"
                          + " environment variable OPENRS_ADMIN_PASSWORD); there is no built-in"
                          + " default")));
      return true;
    }
  }

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

  // ---- the exceptions log
  // ------------------------------------------------------------------------

  /** {@code rs_delexception_id id}. */
  public void deleteException(long id) {
    rssd.exceptions().delete(id);
  }

  /**
   * {@code rs_delexception_id first, last}.
   *
   * @return how many logged transactions were deleted
   */
  public int deleteExceptions(long first, long last) {
    return rssd.exceptions().deleteRange(first, last);
  }
}
