package io.openrs.config.rssd;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/** The RSSD databases tests run on: embedded H2 in a temp directory, and the local PostgreSQL. */
final class TestDatabases {
  static final String PG_URL =
      System.getProperty("openrs.test.pg.url", "jdbc:postgresql://127.0.0.1:5432/openrs_test");
  static final String PG_USER = System.getProperty("openrs.test.pg.user", "openrs");
  static final String PG_PASSWORD = System.getProperty("openrs.test.pg.password", "openrs");

  /** Deleted in this order so foreign keys hold. */
  private static final List<SystemTable> DELETE_ORDER =
      List.of(
          SystemTable.RS_SUBSCRIPTIONS,
          SystemTable.RS_COLUMNS,
          SystemTable.RS_OBJECTS,
          SystemTable.RS_DBSUBSETS,
          SystemTable.RS_DBREPS,
          SystemTable.RS_LOCATER,
          SystemTable.RS_CONFIG,
          SystemTable.RS_CONNECTIONS,
          SystemTable.RS_CONNECT_SOURCE,
          SystemTable.RS_USERS,
          SystemTable.RS_EXCEPTSCMD,
          SystemTable.RS_EXCEPTSHDR,
          SystemTable.RS_STATDETAIL,
          SystemTable.RS_TICKET_HISTORY,
          SystemTable.RS_ERRORACTIONS,
          SystemTable.RS_CLASSES);

  /**
   * Which rows of a table are not the migrations' built-in rows (a SQL condition): emptying the
   * tables keeps the built-in error classes.
   */
  static final Map<SystemTable, String> NON_BUILTIN_ROWS =
      Map.of(
          SystemTable.RS_CLASSES,
          "builtin = false",
          SystemTable.RS_ERRORACTIONS,
          "classname in (select classname from rs_classes where builtin = false)",
          SystemTable.RS_LEASE,
          "holder is not null or epoch <> 0");

  private TestDatabases() {}

  /** Settings for a fresh PostgreSQL schema {@code rssd_test_<random>}. */
  static RssdSettings freshPostgresSchema() {
    String schema =
        "rssd_test_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
    return new RssdSettings(PG_URL, PG_USER, PG_PASSWORD, Optional.of(schema));
  }

  static void dropPostgresSchema(RssdSettings settings) throws SQLException {
    try (Connection c = DriverManager.getConnection(PG_URL, PG_USER, PG_PASSWORD);
        Statement st = c.createStatement()) {
      st.execute("drop schema if exists " + settings.schema().orElseThrow() + " cascade");
    }
  }

  /** Empties every system table (not the migration history). */
  static void deleteAllRows(Rssd rssd) throws SQLException {
    try (Connection c = rssd.dataSource().getConnection();
        Statement st = c.createStatement()) {
      for (SystemTable t : DELETE_ORDER) {
        String where = NON_BUILTIN_ROWS.containsKey(t) ? " where " + NON_BUILTIN_ROWS.get(t) : "";
        st.executeUpdate("delete from " + t.sqlName() + where);
      }
      st.executeUpdate(
          "update rs_lease set holder = null, epoch = 0, acquired = null, expires_at = null");
    }
  }

  /** Runs one statement on the RSSD's own pool. */
  static void execute(Rssd rssd, String sql) throws SQLException {
    try (Connection c = rssd.dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }
}
