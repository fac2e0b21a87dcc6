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
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.util.PSQLException;

/**
 * The admin port's limits are the server's parameters: a statement above {@code
 * admin_max_statement_bytes} from a monitor is refused with 54000 and the session goes on, and
 * {@code admin_max_login_failures} wrong passwords make the address wait.
 */
class AdminPortLimitsIT {
  @TempDir Path dir;
  private ReplicationServer server;

  @BeforeEach
  void start() throws Exception {
    server =
        TestServers.start(
            dir, Map.of("admin_max_statement_bytes", "4096", "admin_max_login_failures", "2"));
    try (Connection c = connect("sa", TestServers.ADMIN_PASSWORD);
        Statement s = c.createStatement()) {
      s.execute("create user watcher set password 'watch-only-42'");
    }
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private Connection connect(String user, String password) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    p.setProperty("password", password);
    p.setProperty("preferQueryMode", "simple");
    p.setProperty("sslmode", "disable");
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + server.adminPort() + "/rssd", p);
  }

  @Test
  void aStatementAboveTheLimitIsRefusedAndTheSessionGoesOn() throws Exception {
    try (Connection c = connect("watcher", "watch-only-42");
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.execute("admin who " + ";".repeat(8192)))
          .isInstanceOfSatisfying(
              PSQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("54000");
                assertThat(e.getServerErrorMessage().getMessage())
                    .endsWith("is longer than the statement limit of 4096 bytes");
                assertThat(e.getServerErrorMessage().getHint())
                    .contains("admin_max_statement_bytes");
              });
      try (ResultSet rs = s.executeQuery("admin version")) {
        assertThat(rs.next()).isTrue();
      }
    }
  }

  @Test
  void wrongPasswordsMakeTheAddressWait() throws Exception {
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> connect("watcher", "wrong"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
    }
    assertThatThrownBy(() -> connect("watcher", "watch-only-42"))
        .isInstanceOfSatisfying(
            PSQLException.class,
            e -> {
              assertThat(e.getSQLState()).isEqualTo("28P01");
              assertThat(e.getServerErrorMessage().getMessage())
                  .matches("too many failed logins from 127\\.0\\.0\\.1, retry in [12] s");
            });
  }
}
