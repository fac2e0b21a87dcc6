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
    Map<Integer, Oqid> m = new TreeMap<>();
    try (Connection c = s.connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT origin, origin_qid FROM rs_lastcommit")) {
      while (rs.next()) {
        m.put(rs.getInt(1), Oqid.of(rs.getBytes(2)));
      }
    } catch (SQLException e) {
      return Map.of();
    }
    return m;
  }

  /** True once rs_lastcommit holds exactly {@code expected}. */
  public static boolean reached(TestDb.Scratch s, Map<Integer, Oqid> expected) {
    return lastCommits(s).equals(expected);
  }
}
