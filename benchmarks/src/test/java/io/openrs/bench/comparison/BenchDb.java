package io.openrs.bench.comparison;

import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A PostgreSQL database of the benchmark on the local cluster (127.0.0.1:5432, user openrs), its
 * tables in schema {@link #schema()}. Names start with {@code openrs_cs_<pid>_}, so the consistency
 * suite's {@code Database} drops what a killed run left behind.
 */
final class BenchDb implements AutoCloseable {
  static final String HOST = "127.0.0.1";
  static final String USER = "openrs";
  static final String PASSWORD = "openrs";
  private static final String ADMIN_URL = "jdbc:postgresql://127.0.0.1:5432/openrs_test";

  private final String name;
  private final String schema;

  private BenchDb(String name, String schema) {
    this.name = name;
    this.schema = schema;
  }

  /** Creates database {@code name} holding an empty schema {@code schema}. */
  static BenchDb create(String name, String schema) throws SQLException {
    adminExec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)", "CREATE DATABASE " + name);
    BenchDb d = new BenchDb(name, schema);
    d.exec("CREATE SCHEMA " + schema);
    return d;
  }

  /**
   * Creates database {@code name} as a copy of {@code template} (which nobody may be connected to).
   */
  static BenchDb copyOf(BenchDb template, String name) throws SQLException {
    adminExec(
        "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)",
        "CREATE DATABASE " + name + " TEMPLATE " + template.name);
    return new BenchDb(name, template.schema);
  }

  private static void adminExec(String... sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(ADMIN_URL, USER, PASSWORD);
        Statement s = c.createStatement()) {
      for (String q : sql) {
        s.execute(q);
      }
    }
  }

  String name() {
    return name;
  }

  String schema() {
    return schema;
  }

  String url() {
    return "jdbc:postgresql://" + HOST + ":5432/" + name;
  }

  Connection connect() throws SQLException {
    return connect(new Properties());
  }

  Connection connect(Properties extra) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", USER);
    p.setProperty("password", PASSWORD);
    p.setProperty("ApplicationName", "openrs-bench");
    p.putAll(extra);
    return DriverManager.getConnection(url(), p);
  }

  void exec(String... sql) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String q : sql) {
        s.execute(q);
      }
    }
  }

  /** First column of the first row, as text; null when there is no row. */
  String scalar(String query) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(query)) {
      return r.next() ? r.getString(1) : null;
    }
  }

  /**
   * Per table, {@code rows:hash}: the row count and the sum of a 64-bit hash of every row's text.
   * Independent of row order (tables without a key compare too); a changed, missing or extra row
   * changes it.
   */
  Map<String, String> digest(List<String> tables) throws SQLException {
    Map<String, String> out = new LinkedHashMap<>();
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String t : tables) {
        try (ResultSet r =
            s.executeQuery(
                "SELECT count(*), coalesce(sum(hashtextextended(x::text, 0)::numeric), 0) FROM "
                    + schema
                    + "."
                    + t
                    + " x")) {
          r.next();
          out.put(t, r.getLong(1) + ":" + r.getString(2));
        }
      }
    }
    return out;
  }

  /**
   * Waits until {@code bench_marker} holds row {@code id}, looking every 20 ms on one connection
   * (opened at the first look and again after a failed one): a catch-up timed to 20 ms polls then
   * costs the database a query per poll, not a new session (a backend's start takes milliseconds of
   * the CPU both systems share).
   */
  void awaitMarker(long id, Duration timeout) {
    try (MarkerWatch watch = new MarkerWatch()) {
      await()
          .atMost(timeout)
          .pollInterval(Duration.ofMillis(20))
          .pollInSameThread() // the watch's connection has one user
          .until(() -> watch.has(id));
    }
  }

  /** The connection {@link #awaitMarker} looks on. Not thread-safe: one poller. */
  private final class MarkerWatch implements AutoCloseable {
    private Connection c;

    boolean has(long id) {
      try {
        if (c == null) {
          c = connect();
        }
        try (Statement s = c.createStatement();
            ResultSet r =
                s.executeQuery("SELECT 1 FROM " + schema + ".bench_marker WHERE id = " + id)) {
          return r.next();
        }
      } catch (SQLException e) {
        close();
        return false;
      }
    }

    @Override
    public void close() {
      if (c != null) {
        try {
          c.close();
        } catch (SQLException e) {
          // dropped by the server: nothing to release
        }
        c = null;
      }
    }
  }

  /** Waits until {@code condition}, a query of one boolean, answers true (every 50 ms). */
  void awaitTrue(String condition, Duration timeout) {
    await()
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> "t".equals(scalar(condition)));
  }

  void writeMarker(long id) throws SQLException {
    exec("INSERT INTO " + schema + ".bench_marker (id, note) VALUES (" + id + ", 'marker')");
  }

  /** Drops the database, its replication slots first. */
  @Override
  public void close() throws SQLException {
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .until(
            () -> {
              adminExec(
                  "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE database"
                      + " = '"
                      + name
                      + "' AND active_pid IS NOT NULL",
                  "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE"
                      + " database = '"
                      + name
                      + "'");
              return true;
            });
    adminExec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
  }

  @Override
  public String toString() {
    return name;
  }
}
