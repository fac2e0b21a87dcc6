package io.openrs.demo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The demo's databases: checks that the servers can be used, drops and re-creates the primary and
 * the replicate, creates the schema in both, and drops the demo's replication slot when the demo
 * ends. Every database it touches is named by {@link DemoSettings} ({@code <prefix>_primary},
 * {@code <prefix>_replicate}).
 */
final class DemoDatabases {
  private static final String PG_MAINTENANCE_DB = "postgres";

  private final DemoSettings s;

  DemoDatabases(DemoSettings settings) {
    this.s = settings;
  }

  /** Connects to each server the demo needs and checks its settings; the first problem throws. */
  List<String> check() throws DemoException {
    List<String> facts = new ArrayList<>();
    Endpoint pg = s.pg();
    try (Connection c = open(pg, PG_MAINTENANCE_DB);
        Statement st = c.createStatement()) {
      String version = one(st, "SHOW server_version");
      String walLevel = one(st, "SHOW wal_level");
      facts.add(
          "PostgreSQL "
              + version.split(" ")[0]
              + " at "
              + pg.address()
              + ": reachable as "
              + pg.user()
              + (s.source() == Source.POSTGRESQL ? ", wal_level = " + walLevel : ""));
      if (s.source() == Source.POSTGRESQL) {
        fail(Checks.walLevelProblem(pg, walLevel));
        try (ResultSet rs =
            st.executeQuery(
                "SELECT rolsuper, rolreplication FROM pg_roles WHERE rolname = current_user")) {
          rs.next();
          fail(Checks.replicationRoleProblem(pg, rs.getBoolean(1), rs.getBoolean(2)));
        }
        int max = Integer.parseInt(one(st, "SHOW max_replication_slots"));
        List<String> used = new ArrayList<>();
        try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT slot_name FROM pg_replication_slots WHERE slot_name <> ?"
                    + " AND database IS DISTINCT FROM ? ORDER BY slot_name")) {
          ps.setString(1, s.slotName());
          ps.setString(2, s.primaryDatabase());
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              used.add(rs.getString(1));
            }
          }
        }
        fail(Checks.slotProblem(pg, max, used));
      }
    } catch (SQLException e) {
      throw new DemoException("PostgreSQL check failed: " + Checks.describe(e), e);
    }
    if (s.source() == Source.MARIADB) {
      Endpoint m = s.mariadb();
      try (Connection c = open(m, "");
          Statement st = c.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT VERSION(), @@GLOBAL.log_bin, @@GLOBAL.binlog_format,"
                      + " @@GLOBAL.binlog_row_image")) {
        rs.next();
        facts.add(
            "MariaDB "
                + rs.getString(1)
                + " at "
                + m.address()
                + ": reachable as "
                + m.user()
                + ", binlog_format = "
                + rs.getString(3)
                + ", binlog_row_image = "
                + rs.getString(4));
        List<String> problems =
            Checks.binlogProblems(m, rs.getString(2), rs.getString(3), rs.getString(4));
        if (!problems.isEmpty()) {
          throw new DemoException(String.join("\n", problems));
        }
      } catch (SQLException e) {
        throw new DemoException("MariaDB check failed: " + Checks.describe(e), e);
      }
    }
    return facts;
  }

  /**
   * Drops the demo's databases (and the replication slot left by an earlier run, which would keep
   * the primary's WAL) and creates them again with the schema. Returns what it did.
   */
  List<String> prepare() throws DemoException {
    List<String> done = new ArrayList<>();
    Endpoint pg = s.pg();
    String replicateSchema = s.replicateSchema();
    try (Connection c = open(pg, PG_MAINTENANCE_DB);
        Statement st = c.createStatement()) {
      dropSlot(c).ifPresent(done::add);
      st.execute("DROP DATABASE IF EXISTS " + s.primaryDatabase() + " WITH (FORCE)");
      st.execute("DROP DATABASE IF EXISTS " + s.replicateDatabase() + " WITH (FORCE)");
      if (s.source() == Source.POSTGRESQL) {
        st.execute("CREATE DATABASE " + s.primaryDatabase());
      }
      st.execute("CREATE DATABASE " + s.replicateDatabase());
    } catch (SQLException e) {
      throw new DemoException(
          "cannot re-create the demo's databases on PostgreSQL at "
              + pg.address()
              + ": "
              + Checks.describe(e),
          e);
    }
    if (s.source() == Source.POSTGRESQL) {
      exec(pg, s.primaryDatabase(), DemoSchema.postgres("public"));
      done.add(
          "PostgreSQL "
              + pg.address()
              + ": dropped and created "
              + s.primaryDatabase()
              + " (primary) and "
              + s.replicateDatabase()
              + " (replicate)");
    } else {
      Endpoint m = s.mariadb();
      try (Connection c = open(m, "");
          Statement st = c.createStatement()) {
        st.execute("DROP DATABASE IF EXISTS " + s.primaryDatabase());
        st.execute("CREATE DATABASE " + s.primaryDatabase() + " CHARACTER SET utf8mb4");
      } catch (SQLException e) {
        throw new DemoException(
            "cannot re-create database "
                + s.primaryDatabase()
                + " on MariaDB at "
                + m.address()
                + ": "
                + Checks.describe(e),
            e);
      }
      exec(m, s.primaryDatabase(), DemoSchema.mariadb());
      done.add(
          "MariaDB "
              + m.address()
              + ": dropped and created "
              + s.primaryDatabase()
              + " (primary, utf8mb4)");
      done.add(
          "PostgreSQL "
              + pg.address()
              + ": dropped and created "
              + s.replicateDatabase()
              + " (replicate) with schema "
              + replicateSchema
              + " (a database-level definition keeps the MariaDB database's name as the schema)");
      exec(pg, s.replicateDatabase(), List.of("CREATE SCHEMA " + replicateSchema));
    }
    exec(pg, s.replicateDatabase(), DemoSchema.postgres(replicateSchema));
    done.add(
        "tables in both: branches, accounts (foreign key to branches), history (foreign key to"
            + " accounts)");
    return done;
  }

  /** Drops the demo's replication slot (PostgreSQL primary), so the primary keeps no WAL for it. */
  Optional<String> dropSlot() {
    if (s.source() != Source.POSTGRESQL) {
      return Optional.empty();
    }
    try (Connection c = open(s.pg(), PG_MAINTENANCE_DB)) {
      return dropSlot(c);
    } catch (SQLException | DemoException e) {
      return Optional.of("could not drop replication slot " + s.slotName() + ": " + e.getMessage());
    }
  }

  private Optional<String> dropSlot(Connection c) throws SQLException {
    List<String> dropped = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT slot_name, active_pid FROM pg_replication_slots WHERE slot_name = ?"
                + " OR database = ?")) {
      ps.setString(1, s.slotName());
      ps.setString(2, s.primaryDatabase());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String slot = rs.getString(1);
          int pid = rs.getInt(2);
          if (!rs.wasNull()) {
            try (PreparedStatement t = c.prepareStatement("SELECT pg_terminate_backend(?)")) {
              t.setInt(1, pid);
              t.execute();
            }
          }
          dropped.add(slot);
        }
      }
    }
    for (String slot : dropped) {
      // A terminated walsender releases its slot asynchronously: try a few times.
      SQLException last = null;
      for (int attempt = 0; attempt < 50; attempt++) {
        try (PreparedStatement d = c.prepareStatement("SELECT pg_drop_replication_slot(?)")) {
          d.setString(1, slot);
          d.execute();
          last = null;
          break;
        } catch (SQLException e) {
          last = e;
          pause(100);
        }
      }
      if (last != null) {
        throw last;
      }
    }
    return dropped.isEmpty()
        ? Optional.empty()
        : Optional.of(
            "PostgreSQL "
                + s.pg().address()
                + ": dropped replication slot "
                + String.join(", ", dropped));
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void exec(Endpoint e, String database, List<String> sql) throws DemoException {
    try (Connection c = open(e, database);
        Statement st = c.createStatement()) {
      for (String q : sql) {
        st.execute(q);
      }
    } catch (SQLException ex) {
      throw new DemoException(
          "cannot create the demo's tables in "
              + database
              + " on "
              + e.kind().title()
              + " at "
              + e.address()
              + ": "
              + Checks.describe(ex),
          ex);
    }
  }

  /** Connects, turning a connection failure into the message a new user needs. */
  static Connection open(Endpoint e, String database) throws DemoException {
    try {
      return e.connect(database);
    } catch (SQLException ex) {
      throw new DemoException(Checks.connectProblem(e, ex), ex);
    }
  }

  private static String one(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static void fail(Optional<String> problem) throws DemoException {
    if (problem.isPresent()) {
      throw new DemoException(problem.get());
    }
  }
}
