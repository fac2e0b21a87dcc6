package io.openrs.dsi.testkit;

import io.openrs.ltl.Oqid;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;

/** Reads the replicate's progress table. */
public final class Replicate {
  private Replicate() {}

  /** rs_lastcommit as origin to OQID (empty if the table does not exist yet). */
  public static Map<Integer, Oqid> lastCommits(TestDb.Scratch s) {
    try (Connection c = s.connect()) {
      return lastCommits(c);
    } catch (SQLException e) {
      return Map.of();
    }
  }

  /** True if rs_lastcommit holds exactly {@code expected}. */
  public static boolean reached(TestDb.Scratch s, Map<Integer, Oqid> expected) {
    return lastCommits(s).equals(expected);
  }

  /**
   * Reads rs_lastcommit again and again on one connection, opened at the first read and again after
   * a failed one (a restarted replicate): a poll every few milliseconds then costs the replicate a
   * query, not a new session each time (a backend's start takes a few milliseconds of its CPU).
   */
  public static Watch watch(TestDb.Scratch s) {
    return new Watch(s);
  }

  /** See {@link #watch}. Not thread-safe: one poller. */
  public static final class Watch implements AutoCloseable {
    private final TestDb.Scratch s;
    private Connection c;

    private Watch(TestDb.Scratch s) {
      this.s = s;
    }

    /** True if rs_lastcommit holds exactly {@code expected} (false if it cannot be read now). */
    public boolean reached(Map<Integer, Oqid> expected) {
      try {
        if (c == null) {
          c = s.connect();
        }
        return lastCommits(c).equals(expected);
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
          // a connection the replicate dropped: nothing to release
        }
        c = null;
      }
    }
  }

  private static Map<Integer, Oqid> lastCommits(Connection c) throws SQLException {
    Map<Integer, Oqid> m = new TreeMap<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT origin, origin_qid FROM rs_lastcommit")) {
      while (rs.next()) {
        m.put(rs.getInt(1), Oqid.of(rs.getBytes(2)));
      }
    }
    return m;
  }
}
