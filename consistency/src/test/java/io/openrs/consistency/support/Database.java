package io.openrs.consistency.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A database of the suite on the machine's shared servers (PostgreSQL 15 at 127.0.0.1:5432, MariaDB
 * 10.11 at 127.0.0.1:3306 for primaries and its replicate instance at 127.0.0.1:3307 for
 * replicates, {@code scripts/setup-databases.sh}; user openrs). Every name starts with {@code
 * openrs_cs_<pid>_} so concurrent runs never meet; databases left by a run whose JVM no longer
 * exists are dropped (with their replication slots) when the first database of a run is created.
 *
 * <p>The tables live in schema {@link #schema()}: on PostgreSQL a schema of that name inside
 * database {@link #name()}, on MariaDB the database itself. So a table has the same qualified name
 * {@code schema.table} on every side, and a database-level replication definition maps names as
 * they are; that is why a MariaDB replicate lives on another server than a MariaDB primary.
 */
public final class Database implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Database.class);

  public static final String HOST = "127.0.0.1";
  public static final String USER = "openrs";
  public static final String PASSWORD = "openrs";
  private static final String PG_ADMIN_URL = "jdbc:postgresql://127.0.0.1:5432/openrs_test";
  private static final int MARIA_PRIMARY_PORT = 3306;
  private static final int MARIA_REPLICATE_PORT =
      Integer.parseInt(System.getenv().getOrDefault("OPENRS_MARIADB_REPLICATE_PORT", "3307"));

  /** The role {@link #create} takes for a primary; every other role is a replicate. */
  public static final String PRIMARY_ROLE = "p";

  private static final String PREFIX = "openrs_cs_";
  private static final Pattern OURS = Pattern.compile("openrs_cs_(\\d+)_.*");
  private static final AtomicInteger STEMS = new AtomicInteger();
  private static volatile boolean leftoversDropped;

  private final Kind kind;
  private final String name;
  private final String schema;
  private final int port;

  private Database(Kind kind, String name, String schema, int port) {
    this.kind = kind;
    this.name = name;
    this.schema = schema;
    this.port = port;
  }

  private static String mariaAdminUrl(int port) {
    return "jdbc:mariadb://" + HOST + ":" + port + "/";
  }

  /** A fresh stem {@code openrs_cs_<pid>_<n>}: the schema name of one scenario's tables. */
  public static String newStem() {
    return (PREFIX + ProcessHandle.current().pid() + "_" + STEMS.incrementAndGet())
        .toLowerCase(Locale.ROOT);
  }

  /** The name {@link #create} gives the database of {@code stem} and {@code role}. */
  public static String nameFor(Kind kind, String stem, String role) {
    return kind == Kind.POSTGRESQL ? stem + "_" + role : stem;
  }

  /**
   * Creates a database for schema {@code stem}: PostgreSQL database {@code <stem>_<role>} holding
   * schema {@code stem}; MariaDB database {@code stem} (utf8mb4, binary collation, so text compares
   * as exactly as on PostgreSQL), on the primary server for role {@link #PRIMARY_ROLE} and on the
   * replicate instance for any other role.
   */
  public static Database create(Kind kind, String stem, String role) throws SQLException {
    dropLeftovers();
    if (kind == Kind.POSTGRESQL) {
      String name = nameFor(kind, stem, role);
      try (Connection c = DriverManager.getConnection(PG_ADMIN_URL, USER, PASSWORD);
          Statement s = c.createStatement()) {
        s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        s.execute("CREATE DATABASE " + name);
      }
      Database d = new Database(kind, name, stem, 5432);
      d.exec("CREATE SCHEMA " + stem);
      return d;
    }
    int port = PRIMARY_ROLE.equals(role) ? MARIA_PRIMARY_PORT : MARIA_REPLICATE_PORT;
    try (Connection c = DriverManager.getConnection(mariaAdminUrl(port), USER, PASSWORD);
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + stem);
      s.execute("CREATE DATABASE " + stem + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
    }
    return new Database(kind, stem, stem, port);
  }

  public Kind kind() {
    return kind;
  }

  /** The database's name (what a connection names). */
  public String name() {
    return name;
  }

  /** The schema (PostgreSQL) or database (MariaDB) holding the tables. */
  public String schema() {
    return schema;
  }

  public int port() {
    return port;
  }

  public String url() {
    return kind == Kind.POSTGRESQL
        ? "jdbc:postgresql://" + HOST + ":" + port + "/" + name
        : mariaAdminUrl(port) + name;
  }

  /**
   * A connection; on MariaDB the session runs in UTC (TIMESTAMP values are bound and read as UTC
   * wall times) and statements are server-prepared (the binary protocol reads floating-point values
   * exactly).
   */
  public Connection connect() throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", USER);
    p.setProperty("password", PASSWORD);
    if (kind == Kind.MARIADB) {
      p.setProperty("useServerPrepStmts", "true");
    } else {
      p.setProperty("ApplicationName", "openrs-cs");
    }
    Connection c = DriverManager.getConnection(url(), p);
    if (kind == Kind.MARIADB) {
      try (Statement s = c.createStatement()) {
        s.execute("SET time_zone = '+00:00'");
      }
    }
    return c;
  }

  public void exec(String... sql) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String q : sql) {
        s.execute(q);
      }
    }
  }

  /** The first column of the first row of {@code query}, as text (null if no row). */
  public String scalar(String query) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(query)) {
      return r.next() ? r.getString(1) : null;
    }
  }

  /** Creates the suite's tables; {@code foreignKeys} false leaves the foreign key out. */
  public void createTables(boolean foreignKeys) throws SQLException {
    List<String> ddl = new ArrayList<>();
    for (Schema.Table t : Schema.TABLES) {
      ddl.add(t.createTable(kind, schema, foreignKeys));
    }
    exec(ddl.toArray(String[]::new));
  }

  /** PostgreSQL: {@code ALTER TABLE ... REPLICA IDENTITY FULL} (old values of every column). */
  public void replicaIdentityFull(String table) throws SQLException {
    if (kind == Kind.POSTGRESQL) {
      exec("ALTER TABLE " + schema + "." + table + " REPLICA IDENTITY FULL");
    }
  }

  /** Drops the database, and on PostgreSQL the replication slots in it first. */
  @Override
  public void close() throws SQLException {
    if (kind == Kind.POSTGRESQL) {
      dropPostgres(name);
    } else {
      try (Connection c = DriverManager.getConnection(mariaAdminUrl(port), USER, PASSWORD);
          Statement s = c.createStatement()) {
        s.execute("DROP DATABASE IF EXISTS " + name);
      }
    }
  }

  private static void dropPostgres(String name) throws SQLException {
    // A walsender that was just terminated may hold its slot for a moment longer.
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(30))
        .pollInterval(java.time.Duration.ofMillis(100))
        .ignoreExceptions()
        .until(() -> dropSlots(name));
    try (Connection c = DriverManager.getConnection(PG_ADMIN_URL, USER, PASSWORD);
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
  }

  private static boolean dropSlots(String database) throws SQLException {
    try (Connection c = DriverManager.getConnection(PG_ADMIN_URL, USER, PASSWORD);
        Statement s = c.createStatement()) {
      s.execute(
          "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots"
              + " WHERE database = '"
              + database
              + "' AND active_pid IS NOT NULL");
      s.execute(
          "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
              + " WHERE database = '"
              + database
              + "'");
      return true;
    }
  }

  /** Drops databases (and slots) named for a JVM that is gone: a run that was killed. */
  private static synchronized void dropLeftovers() {
    if (leftoversDropped) {
      return;
    }
    leftoversDropped = true;
    try (Connection c = DriverManager.getConnection(PG_ADMIN_URL, USER, PASSWORD);
        Statement s = c.createStatement()) {
      List<String> stale = new ArrayList<>();
      try (ResultSet r =
          s.executeQuery("SELECT datname FROM pg_database WHERE datname LIKE 'openrs\\_cs\\_%'")) {
        while (r.next()) {
          if (stale(r.getString(1))) {
            stale.add(r.getString(1));
          }
        }
      }
      for (String db : stale) {
        LOG.info("dropping database {} left by an earlier run", db);
        dropPostgres(db);
      }
    } catch (SQLException e) {
      LOG.warn("could not drop leftover PostgreSQL databases", e);
    }
    for (int port : new int[] {MARIA_PRIMARY_PORT, MARIA_REPLICATE_PORT}) {
      try (Connection c = DriverManager.getConnection(mariaAdminUrl(port), USER, PASSWORD);
          Statement s = c.createStatement()) {
        List<String> stale = new ArrayList<>();
        try (ResultSet r = s.executeQuery("SHOW DATABASES LIKE 'openrs\\_cs\\_%'")) {
          while (r.next()) {
            if (stale(r.getString(1))) {
              stale.add(r.getString(1));
            }
          }
        }
        for (String db : stale) {
          LOG.info("dropping database {} left by an earlier run (port {})", db, port);
          s.execute("DROP DATABASE IF EXISTS " + db);
        }
      } catch (SQLException e) {
        LOG.warn("could not drop leftover MariaDB databases on port {}", port, e);
      }
    }
  }

  private static boolean stale(String name) {
    Matcher m = OURS.matcher(name);
    if (!m.matches()) {
      return false;
    }
    long pid = Long.parseLong(m.group(1));
    return pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).isEmpty();
  }

  @Override
  public String toString() {
    return kind.profile() + " " + name;
  }

  /** Creates schema {@code name} in the test database (an RSSD's, for servers sharing it). */
  public static void createPostgresSchema(String name) throws SQLException {
    try (Connection c = DriverManager.getConnection(PG_ADMIN_URL, USER, PASSWORD);
        Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA " + name);
    }
  }

  /** Drops schema {@code name} of the test database and everything in it. */
  public static void dropPostgresSchema(String name) throws SQLException {
    try (Connection c = DriverManager.getConnection(PG_ADMIN_URL, USER, PASSWORD);
        Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
    }
  }
}
