package io.openrs.repserver.admin;

import static io.openrs.repserver.support.Origin.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.RepDefColumn;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.TableName;
import io.openrs.queue.InvalidSettingException;
import io.openrs.repserver.ReplicationServer;
import io.openrs.repserver.support.Origin;
import io.openrs.repserver.support.TestServers;
import io.openrs.wire.LtlClient;
import io.openrs.wire.WireProtocol;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28, item 8: a partition smaller than one segment was accepted and the first write waited
 * forever while {@code admin health} said HEALTHY. Such a partition is refused at start; a writer
 * that cannot get a segment makes {@code admin health} SUSPECT, naming the queue.
 */
class PartitionHealthIT {

  private static final long MIB = 1024L * 1024;
  private static final TableName T = new TableName("shop", "notes");

  @TempDir Path dir;
  private ReplicationServer server;
  private LtlClient client;
  private Thread sender;

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (sender != null) {
      sender.join(Duration.ofSeconds(30).toMillis());
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aServerWhosePartitionCannotHoldASegmentDoesNotStart() {
    assertThatThrownBy(
            () ->
                ReplicationServer.start(
                    TestServers.settings(dir, Map.of("sqm_segment_size", "4194304"), MIB),
                    new SimpleMeterRegistry()))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("partition size = '1048576'")
        .hasMessageContaining("at least one segment of 4194304 bytes (sqm_segment_size)")
        .hasMessageContaining("partition p1");
  }

  @Test
  void aWriterWaitingForASegmentMakesAdminHealthSuspect() throws Exception {
    // Three segments of 1 MiB; one open transaction of about 4 MB: the transaction sorter cannot
    // confirm any of it, so the inbound writer waits for a segment that is never freed.
    server =
        ReplicationServer.start(
            TestServers.settings(
                dir, Map.of("sqm_segment_size", String.valueOf(MIB), "block_size", "16k"), 3 * MIB),
            new SimpleMeterRegistry());
    ConnectionDef primary =
        server.createConnection("pds", "pdb", Profile.POSTGRESQL, true, Map.of());
    server
        .catalog()
        .createRepDef(
            new RepDef(
                "notes_rd",
                primary.id(),
                "shop",
                "notes",
                "public",
                "notes",
                List.of(new RepDefColumn("id", "int"), new RepDefColumn("note", "text")),
                List.of("id"),
                List.of()));
    client =
        LtlClient.connect(
            "127.0.0.1",
            server.ltlPort(),
            new LtlCommand.Connect(
                "pds",
                "pdb",
                WireProtocol.MIN_VERSION,
                WireProtocol.MAX_VERSION,
                "sa",
                TestServers.ADMIN_PASSWORD,
                Optional.of("health-agent")),
            Duration.ofSeconds(10));
    try (Connection admin = admin();
        Statement s = admin.createStatement()) {
      Map<String, String> before = row(s, "admin health");
      assertThat(before).containsEntry("status", "HEALTHY");
      assertThat(before).containsEntry("queues_waiting_for_space", "0");
      assertThat(before.get("reason")).isNull();

      Origin origin = new Origin();
      List<LtlCommand> open = new ArrayList<>();
      open.add(origin.begin(1));
      String note = "x".repeat(4000);
      for (int i = 0; i < 1000; i++) {
        open.add(origin.insert(1, T, col("id", i), col("note", note)));
      }
      sender =
          new Thread(
              () -> {
                try {
                  for (List<LtlCommand> chunk : Origin.chunks(open, 50)) {
                    client.sendBatch(origin.text(chunk));
                  }
                } catch (Exception e) {
                  // The client is closed at the end of the test while the server still waits.
                }
              },
              "health-sender");
      sender.setDaemon(true);
      sender.start();

      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> assertThat(row(s, "admin health")).containsEntry("status", "SUSPECT"));
      Map<String, String> after = row(s, "admin health");
      assertThat(after).containsEntry("threads_down", "0");
      assertThat(after).containsEntry("queues_waiting_for_space", "1");
      assertThat(after.get("reason"))
          .startsWith("queue " + primary.id() + ":1 (pds.pdb) has waited ")
          .contains("s for a segment");
      assertThat(rows(s, "admin who"))
          .anySatisfy(
              w ->
                  assertThat(w)
                      .containsEntry("name", "SQM")
                      .containsEntry("state", "Waiting for Segment"));
    }
  }

  private Connection admin() throws Exception {
    Properties p = new Properties();
    p.setProperty("user", "sa");
    p.setProperty("password", TestServers.ADMIN_PASSWORD);
    p.setProperty("preferQueryMode", "simple");
    p.setProperty("sslmode", "disable");
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + server.adminPort() + "/rssd", p);
  }

  private static Map<String, String> row(Statement s, String command) throws Exception {
    List<Map<String, String>> rows = rows(s, command);
    assertThat(rows).hasSize(1);
    return rows.get(0);
  }

  private static List<Map<String, String>> rows(Statement s, String command) throws Exception {
    List<Map<String, String>> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(command)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 1; i <= n; i++) {
          row.put(rs.getMetaData().getColumnLabel(i), rs.getString(i));
        }
        out.add(row);
      }
    }
    return out;
  }
}
