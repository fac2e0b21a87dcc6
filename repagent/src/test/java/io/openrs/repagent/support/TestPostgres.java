package io.openrs.repagent.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/** The PostgreSQL 15 on this machine ({@code scripts/} set it up): role openrs, db openrs_test. */
public final class TestPostgres {

  public static final String HOST = "127.0.0.1";
  public static final int PORT = 5432;
  public static final String DATABASE = "openrs_test";
  public static final String USER = "openrs";
  public static final String PASSWORD = "openrs";
  public static final String URL = "jdbc:postgresql://" + HOST + ":" + PORT + "/" + DATABASE;

  private static final AtomicLong IDS = new AtomicLong();

  private TestPostgres() {}

  /** A name unique to this JVM and test run: {@code prefix_<pid>_<n>}, lower case. */
  public static String unique(String prefix) {
    return (prefix + "_" + ProcessHandle.current().pid() + "_" + IDS.incrementAndGet())
        .toLowerCase(java.util.Locale.ROOT);
  }

  public static Connection connect() throws SQLException {
    return DriverManager.getConnection(URL, USER, PASSWORD);
  }

  public static void exec(String... sql) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String q : sql) {
        s.execute(q);
      }
    }
  }

  /** Drops the slot (ending its walsender if one still holds it) and the publication. */
  public static void dropSlotAndPublication(String slot, String publication) throws SQLException {
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(30))
        .pollInterval(java.time.Duration.ofMillis(100))
        .ignoreExceptions()
        .until(() -> tryDropSlot(slot));
    exec("DROP PUBLICATION IF EXISTS " + publication);
  }

  private static boolean tryDropSlot(String slot) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      try (ResultSet r =
          s.executeQuery(
              "SELECT active_pid FROM pg_replication_slots WHERE slot_name = '" + slot + "'")) {
        if (!r.next()) {
          return true;
        }
        int pid = r.getInt(1);
        if (!r.wasNull()) {
          s.execute("SELECT pg_terminate_backend(" + pid + ")");
        }
      }
      s.execute("SELECT pg_drop_replication_slot('" + slot + "')");
      return true;
    }
  }

  /** The slot's confirmed_flush_lsn, if the slot exists and has one. */
  public static Optional<Long> confirmedFlushLsn(String slot) throws SQLException {
    return slotLsn(slot, "confirmed_flush_lsn");
  }

  /** The slot's restart_lsn, if the slot exists and has one. */
  public static Optional<Long> restartLsn(String slot) throws SQLException {
    return slotLsn(slot, "restart_lsn");
  }

  private static Optional<Long> slotLsn(String slot, String column) throws SQLException {
    try (Connection c = connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT "
                    + column
                    + " - '0/0'::pg_lsn FROM pg_replication_slots WHERE slot_name = ?")) {
      ps.setString(1, slot);
      try (ResultSet r = ps.executeQuery()) {
        if (!r.next()) {
          return Optional.empty();
        }
        long v = r.getLong(1);
        return r.wasNull() ? Optional.empty() : Optional.of(v);
      }
    }
  }

  public static long currentLsn() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")) {
      r.next();
      return r.getLong(1);
    }
  }
}
