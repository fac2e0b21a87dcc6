package io.openrs.dsi.testkit;

import io.openrs.dsi.DsiTarget;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/** The real databases on this machine: PostgreSQL 15 and MariaDB 10.11. */
public enum TestDb {
  POSTGRESQL("postgresql"),
  MARIADB("mariadb");

  private static final String PG_BASE = "jdbc:postgresql://127.0.0.1:5432/openrs_test";
  private static final String MARIADB_BASE = "jdbc:mariadb://127.0.0.1:3306/";
  public static final String USER = "openrs";
  public static final String PASSWORD = "openrs";

  private final String dialect;

  TestDb(String dialect) {
    this.dialect = dialect;
  }

  public String dialect() {
    return dialect;
  }

  /** A fresh schema (PostgreSQL) or database (MariaDB), dropped on close. */
  public Scratch scratch(String prefix) throws SQLException {
    String name =
        (prefix + "_" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36))
            .toLowerCase(Locale.ROOT);
    Scratch s = new Scratch(this, name, this == POSTGRESQL ? PG_BASE : MARIADB_BASE);
    s.create();
    return s;
  }

  /**
   * A fresh schema in another PostgreSQL server (a private instance), dropped on close.
   *
   * @param pgBaseUrl {@code jdbc:postgresql://host:port/db} of a database user {@link #USER} may
   *     create schemas in, password {@link #PASSWORD} (or trust)
   */
  public static Scratch postgresScratchAt(String pgBaseUrl, String prefix) throws SQLException {
    String name =
        (prefix + "_" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36))
            .toLowerCase(Locale.ROOT);
    Scratch s = new Scratch(POSTGRESQL, name, pgBaseUrl);
    s.create();
    return s;
  }

  /** A schema or database of one test class. */
  public static final class Scratch implements AutoCloseable {
    private final TestDb db;
    private final String name;
    private final String base;

    private Scratch(TestDb db, String name, String base) {
      this.db = db;
      this.name = name;
      this.base = base;
    }

    public TestDb db() {
      return db;
    }

    public String name() {
      return name;
    }

    /** The URL the DSI uses: its default schema / database is this scratch. */
    public String dsiUrl() {
      return db == POSTGRESQL ? base + "?currentSchema=" + name : base + name;
    }

    public DsiTarget target(int connectionId) {
      return new DsiTarget(connectionId, "rds." + name, db.dialect, dsiUrl(), USER, PASSWORD);
    }

    /**
     * A connection for setting up and reading, in this scratch, autocommit on (MariaDB: binary
     * protocol, so floats read back exactly).
     */
    public Connection connect() throws SQLException {
      if (db == POSTGRESQL) {
        return DriverManager.getConnection(base + "?currentSchema=" + name, USER, PASSWORD);
      }
      return DriverManager.getConnection(base + name + "?useServerPrepStmts=true", USER, PASSWORD);
    }

    public void exec(String... sql) throws SQLException {
      try (Connection c = connect();
          Statement s = c.createStatement()) {
        for (String q : sql) {
          s.execute(q);
        }
      }
    }

    void create() throws SQLException {
      if (db == POSTGRESQL) {
        try (Connection c = DriverManager.getConnection(base, USER, PASSWORD);
            Statement s = c.createStatement()) {
          s.execute("CREATE SCHEMA " + name);
        }
      } else {
        try (Connection c = DriverManager.getConnection(base, USER, PASSWORD);
            Statement s = c.createStatement()) {
          s.execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4");
        }
      }
    }

    @Override
    public void close() throws SQLException {
      if (db == POSTGRESQL) {
        try (Connection c = DriverManager.getConnection(base, USER, PASSWORD);
            Statement s = c.createStatement()) {
          s.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
        }
      } else {
        try (Connection c = DriverManager.getConnection(base, USER, PASSWORD);
            Statement s = c.createStatement()) {
          s.execute("DROP DATABASE IF EXISTS " + name);
        }
      }
    }
  }
}
