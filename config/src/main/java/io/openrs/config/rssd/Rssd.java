package io.openrs.config.rssd;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.openrs.config.rssd.RssdException.Reason;
import io.openrs.config.secret.SecretBox;
import io.openrs.config.secret.Secrets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Replication Server System Database: the system tables on an embedded H2 database or on
 * PostgreSQL, behind a small connection pool. {@link #open} brings the schema to the version this
 * build knows (Flyway migrations {@code db/migration/rssd/V<n>__*.sql}, history in {@code
 * rs_schema_history}) and refuses a schema newer than that.
 *
 * <p>Thread-safe: every table object may be used by any thread; each call borrows a pooled
 * connection for its duration. Writes to definitions (connections, repdefs, subscriptions, users)
 * are announced, after their commit and before the call returns, to every {@link StsCache} built on
 * this instance, so cached definitions are never stale after a write returns.
 */
public final class Rssd implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Rssd.class);

  /** Where the migrations are on the class path. */
  static final String MIGRATIONS = "classpath:db/migration/rssd";

  /** Flyway's history table. */
  static final String HISTORY_TABLE = "rs_schema_history";

  /** Pooled connections. The RSSD sees little traffic; a few connections serve every thread. */
  static final int POOL_SIZE = 4;

  private final RssdSettings settings;
  private final HikariDataSource dataSource;
  private final String schemaVersion;
  private final List<Consumer<SystemTable>> listeners = new CopyOnWriteArrayList<>();
  private final ConnectionsTable connections;
  private final SqlRepDefsTable repDefs;
  private final SubscriptionsTable subscriptions;
  private final LocatorsTable locators;
  private final ConfigTable config;
  private final UsersTable users;
  private final ExceptionsLog exceptions;
  private final CounterSamplesTable counterSamples;
  private final LeaseTable lease;
  private final TicketsTable tickets;
  private final ErrorClassesTable errorClasses;
  private final Secrets secrets;

  private Rssd(
      RssdSettings settings,
      HikariDataSource dataSource,
      String schemaVersion,
      Clock clock,
      Secrets secrets) {
    this.settings = settings;
    this.dataSource = dataSource;
    this.schemaVersion = schemaVersion;
    this.secrets = secrets;
    Jdbc jdbc = new Jdbc(dataSource, this::changed);
    this.connections = new SqlConnectionsTable(jdbc, clock, secrets);
    this.repDefs = new SqlRepDefsTable(jdbc, clock);
    this.subscriptions = new SqlSubscriptionsTable(jdbc, clock);
    this.locators = new SqlLocatorsTable(jdbc, clock);
    this.config = new SqlConfigTable(jdbc, clock, secrets);
    this.users = new SqlUsersTable(jdbc, clock);
    this.exceptions = new SqlExceptionsLog(jdbc, clock);
    this.counterSamples = new SqlCounterSamplesTable(jdbc);
    this.tickets = new SqlTicketsTable(jdbc, clock);
    this.lease = new SqlLeaseTable(jdbc);
    this.errorClasses = new SqlErrorClassesTable(jdbc, clock);
  }

  /**
   * Opens the RSSD with the system clock and no key: secret settings (connection passwords) can
   * only be given as references ({@code env:NAME}, {@code file:/path}); the server opens it with
   * {@link #open(RssdSettings, Clock, SecretBox)}.
   */
  public static Rssd open(RssdSettings settings) {
    return open(settings, Clock.systemUTC());
  }

  /** {@link #open(RssdSettings)} with {@code clock}. */
  public static Rssd open(RssdSettings settings, Clock clock) {
    return open(settings, clock, Secrets.withoutKey());
  }

  /**
   * Opens the RSSD with the key secret settings are sealed with: after the migrations, every secret
   * setting still stored in clear (written before the server sealed them) is sealed, and the old
   * clear copies are purged from the database files where the database allows it (H2: the file is
   * compacted; PostgreSQL: {@code VACUUM FULL rs_config}).
   */
  public static Rssd open(RssdSettings settings, Clock clock, SecretBox box) {
    return open(settings, clock, Secrets.sealedWith(box));
  }

  /**
   * Opens the RSSD: migrates the schema, then starts the pool.
   *
   * @param clock stamps rows ({@code created}, {@code updated}, {@code log_time}, ...)
   * @throws RssdException {@code SCHEMA} when the schema is newer than this build or a migration
   *     fails, {@code DATABASE} when the database cannot be reached (e.g. the embedded file is in
   *     use by another process)
   */
  public static Rssd open(RssdSettings settings, Clock clock, Secrets secrets) {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(secrets, "secrets");
    String version = migrateAndSeal(settings, secrets);
    // A first connection of our own tells a database that cannot be reached apart from a schema
    // that cannot be migrated, and keeps an embedded database open until the pool has started.
    try (Connection probe = connect(settings)) {
      HikariDataSource ds = pool(settings);
      LOG.info("RSSD open at {} (schema version {})", settings.redactedUrl(), version);
      return new Rssd(settings, ds, version, clock, secrets);
    } catch (SQLException e) {
      throw cannotOpen(settings, Jdbc.describe(e), e);
    }
  }

  /**
   * Migrates the schema, then seals the secrets stored in clear (and purges their old copies);
   * returns the schema version.
   */
  private static String migrateAndSeal(RssdSettings settings, Secrets secrets) {
    Connection c = connect(settings);
    try {
      String version = migrate(settings);
      if (secrets.hasKey() && ClearSecrets.seal(c, settings.schema(), secrets) > 0) {
        ClearSecrets.purgeOldCopies(c, settings);
      }
      return version;
    } catch (SQLException e) {
      throw cannotOpen(settings, Jdbc.describe(e), e);
    } finally {
      try {
        c.close();
      } catch (SQLException e) {
        // An embedded database shut down by the compaction may complain; nothing is lost.
        LOG.debug("closing the RSSD migration connection: {}", e.toString());
      }
    }
  }

  private static Connection connect(RssdSettings settings) {
    try {
      return DriverManager.getConnection(settings.jdbcUrl(), settings.user(), settings.password());
    } catch (SQLException e) {
      throw cannotOpen(settings, Jdbc.describe(e), e);
    }
  }

  private static RssdException cannotOpen(RssdSettings settings, String why, Exception cause) {
    return new RssdException(
        Reason.DATABASE,
        "rssd",
        settings.redactedUrl(),
        "cannot open the RSSD at " + settings.redactedUrl() + " as " + settings.user() + ": " + why,
        cause);
  }

  private static String migrate(RssdSettings settings) {
    FluentConfiguration conf =
        Flyway.configure(Rssd.class.getClassLoader())
            .dataSource(settings.jdbcUrl(), settings.user(), settings.password())
            .locations(MIGRATIONS)
            .table(HISTORY_TABLE)
            .validateMigrationNaming(true)
            .cleanDisabled(true)
            .loggers("slf4j");
    settings.schema().ifPresent(s -> conf.schemas(s));
    Flyway flyway = conf.load();
    try {
      refuseNewerSchema(flyway.info(), settings);
      flyway.migrate();
      MigrationInfo current = flyway.info().current();
      return current == null ? "none" : current.getVersion().getVersion();
    } catch (FlywayException e) {
      throw new RssdException(
          Reason.SCHEMA,
          HISTORY_TABLE,
          settings.redactedUrl(),
          "cannot migrate the RSSD at "
              + settings.redactedUrl()
              + " as "
              + settings.user()
              + ": "
              + firstLine(e.getMessage()),
          e);
    }
  }

  /** A schema migrated by a newer build must not be used (nor "validated" away) by this one. */
  private static void refuseNewerSchema(MigrationInfoService info, RssdSettings settings) {
    MigrationVersion known = MigrationVersion.EMPTY;
    MigrationVersion newest = null;
    for (MigrationInfo m : info.all()) {
      MigrationState state = m.getState();
      if (state == MigrationState.FUTURE_SUCCESS || state == MigrationState.FUTURE_FAILED) {
        if (newest == null || m.getVersion().compareTo(newest) > 0) {
          newest = m.getVersion();
        }
      } else if (m.getVersion() != null && m.getVersion().compareTo(known) > 0) {
        known = m.getVersion();
      }
    }
    if (newest != null) {
      throw new RssdException(
          Reason.SCHEMA,
          HISTORY_TABLE,
          settings.redactedUrl(),
          "the RSSD at "
              + settings.redactedUrl()
              + " has schema version "
              + newest.getVersion()
              + ", newer than this server knows (up to "
              + known.getVersion()
              + "); run a server release that knows it");
    }
  }

  private static HikariDataSource pool(RssdSettings settings) {
    HikariConfig hc = new HikariConfig();
    hc.setPoolName("rssd");
    hc.setJdbcUrl(settings.jdbcUrl());
    hc.setUsername(settings.user());
    hc.setPassword(settings.password());
    hc.setMaximumPoolSize(POOL_SIZE);
    hc.setMinimumIdle(1);
    hc.setConnectionTimeout(10_000);
    hc.setAutoCommit(true);
    settings.schema().ifPresent(hc::setSchema);
    try {
      return new HikariDataSource(hc);
    } catch (RuntimeException e) {
      throw cannotOpen(settings, firstLine(e.getMessage()), e);
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }

  public ConnectionsTable connections() {
    return connections;
  }

  /** Table-level and database-level replication definitions. */
  public RepDefsTable repDefs() {
    return repDefs;
  }

  public SubscriptionsTable subscriptions() {
    return subscriptions;
  }

  public LocatorsTable locators() {
    return locators;
  }

  public ConfigTable config() {
    return config;
  }

  public UsersTable users() {
    return users;
  }

  public ExceptionsLog exceptions() {
    return exceptions;
  }

  public CounterSamplesTable counterSamples() {
    return counterSamples;
  }

  public TicketsTable tickets() {
    return tickets;
  }

  /** The server lease ({@code rs_lease}): which server sharing this RSSD is active. */
  public LeaseTable lease() {
    return lease;
  }

  /** Error classes and their actions ({@code rs_classes}, {@code rs_erroractions}). */
  public ErrorClassesTable errorClasses() {
    return errorClasses;
  }

  /**
   * Seals secret settings on write and gives their clear values back ({@link Secrets#reveal}) to
   * the component that needs one, e.g. the DSI logging in to a replicate.
   */
  public Secrets secrets() {
    return secrets;
  }

  public RssdSettings settings() {
    return settings;
  }

  /** The schema version after the migrations at open, e.g. {@code 1}. */
  public String schemaVersion() {
    return schemaVersion;
  }

  /** The full repdef set, for the STS full cache. */
  SqlRepDefsTable repDefsSql() {
    return repDefs;
  }

  void addChangeListener(Consumer<SystemTable> listener) {
    listeners.add(listener);
  }

  void removeChangeListener(Consumer<SystemTable> listener) {
    listeners.remove(listener);
  }

  private void changed(SystemTable table) {
    for (Consumer<SystemTable> l : listeners) {
      l.accept(table);
    }
  }

  /** The pool, for tests in this package. */
  HikariDataSource dataSource() {
    return dataSource;
  }

  /** Closes the pool. Idempotent. */
  @Override
  public void close() {
    if (!dataSource.isClosed()) {
      dataSource.close();
      LOG.info("RSSD closed at {}", settings.redactedUrl());
    }
  }
}
