package io.openrs.repserver.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.openrs.repserver.ReplicationServer;
import io.openrs.repserver.support.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every example of docs/admin-commands.md, in order, against a live server through the
 * PostgreSQL JDBC driver: {@code sql} blocks must succeed, {@code sql error=<SQLSTATE>} blocks must
 * fail with that SQLSTATE. The last example is {@code shutdown}: the server must stop.
 */
class AdminCommandsDocIT {

  private record Example(int line, String sql, Optional<String> sqlState) {}

  @TempDir Path dir;
  private ReplicationServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  static List<Example> examples() throws Exception {
    List<String> lines = Files.readAllLines(Path.of("..", "docs", "admin-commands.md"));
    List<Example> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i).strip();
      if (!l.startsWith("```sql")) {
        continue;
      }
      String info = l.substring(6).strip();
      Optional<String> state =
          info.startsWith("error=") ? Optional.of(info.substring(6)) : Optional.empty();
      StringBuilder sql = new StringBuilder();
      int start = i + 1;
      for (i = i + 1; !lines.get(i).strip().equals("```"); i++) {
        sql.append(lines.get(i)).append('\n');
      }
      out.add(new Example(start, sql.toString().strip(), state));
    }
    return out;
  }

  @Test
  void everyExampleRunsAsDocumented() throws Exception {
    List<Example> examples = examples();
    assertThat(examples).hasSizeGreaterThan(50);
    assertThat(examples.get(examples.size() - 1).sql()).isEqualTo("shutdown");
    server = TestServers.start(dir, Map.of());
    Properties p = new Properties();
    p.setProperty("user", "sa");
    p.setProperty("password", TestServers.ADMIN_PASSWORD);
    p.setProperty("sslmode", "disable");
    String url = "jdbc:postgresql://127.0.0.1:" + server.adminPort() + "/rssd";
    try (Connection c = DriverManager.getConnection(url, p);
        Statement s = c.createStatement()) {
      for (Example e : examples) {
        if (e.sqlState().isPresent()) {
          assertThatThrownBy(() -> s.execute(e.sql()))
              .as("docs/admin-commands.md line %d: %s", e.line(), e.sql())
              .isInstanceOfSatisfying(
                  SQLException.class,
                  ex -> assertThat(ex.getSQLState()).isEqualTo(e.sqlState().get()));
        } else {
          try {
            s.execute(e.sql());
          } catch (SQLException ex) {
            throw new AssertionError(
                "docs/admin-commands.md line " + e.line() + ": " + e.sql() + " failed: " + ex, ex);
          }
        }
      }
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              try (Connection c = DriverManager.getConnection(url, p)) {
                return false;
              } catch (SQLException e) {
                return true;
              }
            });
  }
}
