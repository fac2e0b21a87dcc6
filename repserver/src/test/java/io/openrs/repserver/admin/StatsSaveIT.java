package io.openrs.repserver.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.repserver.ReplicationServer;
import io.openrs.repserver.support.TestServers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28, item 8: a stats save of 31 years was accepted and could not be cancelled, though
 * docs/monitoring.md says a save can be. {@code admin stats, cancel} stops it; a period above
 * {@code StatsSampler.MAX_SAMPLE_PERIOD} (7 days) is refused.
 */
class StatsSaveIT {

  @TempDir Path dir;
  private ReplicationServer server;

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dir, Map.of());
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private Connection connect() throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "sa");
    p.setProperty("password", TestServers.ADMIN_PASSWORD);
    p.setProperty("preferQueryMode", "simple");
    p.setProperty("sslmode", "disable");
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + server.adminPort() + "/rssd", p);
  }

  private static String status(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("admin stats, status")) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1);
    }
  }

  private static List<String> notices(Statement s) throws SQLException {
    List<String> out = new ArrayList<>();
    for (SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) {
      out.add(w.getMessage());
    }
    s.clearWarnings();
    return out;
  }

  @Test
  void aRunningSaveIsCancelledAndAnotherCanStart() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute("admin stats, \"all\", save, 60, '168:00:00'"); // the longest: a week
      assertThat(status(s)).contains("state=RUNNING");
      assertThatThrownBy(() -> s.execute("admin stats, \"all\", save, 60, 120"))
          .hasMessageContaining("a stats save is already running")
          .hasMessageContaining("cancel it first");

      s.clearWarnings();
      s.execute("admin stats, cancel");
      assertThat(notices(s))
          .singleElement()
          .asString()
          .startsWith("stats save cancelled after 0 of 10080 observations");
      assertThat(status(s)).contains("state=CANCELLED");

      s.execute("admin stats, cancel");
      assertThat(notices(s)).containsExactly("no stats save is running (CANCELLED)");
      s.execute("admin stats, \"all\", save, 60, 120");
      assertThat(status(s)).contains("state=RUNNING");
      s.execute("admin stats, cancel");
    }
  }

  @Test
  void aSamplePeriodAboveSevenDaysIsRefused() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.execute("admin stats, \"all\", save, 15, 977616000")) // 31 years
          .hasMessageContaining(
              "sample period 977616000 s is above the maximum of 604800 s (7 days)");
      assertThat(status(s)).contains("state=IDLE");
    }
  }

  @Test
  void theMonitorRoleMayNotCancelASave() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute("create user watcher set password 'watch-pw-1'"); // the monitor role
      s.execute("admin stats, \"all\", save, 60, 120");
    }
    Properties p = new Properties();
    p.setProperty("user", "watcher");
    p.setProperty("password", "watch-pw-1");
    p.setProperty("preferQueryMode", "simple");
    p.setProperty("sslmode", "disable");
    try (Connection m =
            DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + server.adminPort() + "/rssd", p);
        Statement s = m.createStatement()) {
      assertThatThrownBy(() -> s.execute("admin stats, cancel"))
          .hasMessageContaining("has the monitor role");
      assertThat(status(s)).contains("state=RUNNING");
    }
  }
}
