package io.openrs.dsi.internal.hvar;

import io.micrometer.core.instrument.MeterRegistry;
import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.DsiSettings;
import io.openrs.dsi.testkit.Meters;
import io.openrs.dsi.testkit.TestDb;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Settings, counters and replicate reads for the HVAR tests. */
final class Hvar {
  private Hvar() {}

  /** Catalogue defaults, {@code dsi_compile_enable on}, then {@code nameValues}. */
  static DsiSettings settings(String... nameValues) {
    ParameterValues v = ParameterValues.defaults(Scope.CONNECTION).with("dsi_compile_enable", "on");
    for (int i = 0; i < nameValues.length; i += 2) {
      v = v.with(nameValues[i], nameValues[i + 1]);
    }
    return DsiSettings.from(v);
  }

  /** The same settings with {@code dsi_compile_max_cmds} below the catalogue's minimum. */
  static DsiSettings maxCmds(DsiSettings s, int n) {
    return s.withHvar(s.hvar().withMaxCmds(n));
  }

  /** A DSI counter's value (summed over DSIEXEC threads), read from the registry. */
  static long counter(MeterRegistry r, DsiCounter c) {
    return Meters.counter(r, c);
  }

  /** A summary's count of observations. */
  static long observations(MeterRegistry r, DsiCounter c) {
    return Meters.observations(r, c);
  }

  /** Rows of a query, each as its columns' text joined by commas, in the query's order. */
  static List<String> rows(TestDb.Scratch s, String sql) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = s.connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          sb.append(i == 1 ? "" : ",").append(rs.getString(i));
        }
        out.add(sb.toString());
      }
    }
    return out;
  }

  /** Terminates the DSI's replicate sessions; how many. */
  static int killDsiSessions(TestDb.Scratch s) throws Exception {
    List<Long> ids = new ArrayList<>();
    try (Connection c = s.connect()) {
      if (s.db() == TestDb.POSTGRESQL) {
        try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name"
                    + " = ?")) {
          ps.setString(1, "openrs-dsi rds." + s.name());
          try (ResultSet rs = ps.executeQuery()) {
            int n = 0;
            while (rs.next()) {
              n++;
            }
            return n;
          }
        }
      }
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT id FROM information_schema.processlist WHERE db = ? AND id <>"
                  + " CONNECTION_ID()")) {
        ps.setString(1, s.name());
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            ids.add(rs.getLong(1));
          }
        }
      }
      try (Statement st = c.createStatement()) {
        for (long id : ids) {
          try {
            st.execute("KILL CONNECTION " + id);
          } catch (java.sql.SQLException gone) {
            // ended meanwhile
          }
        }
      }
    }
    return ids.size();
  }
}
