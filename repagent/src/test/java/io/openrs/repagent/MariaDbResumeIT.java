package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.Value;
import io.openrs.repagent.support.AgentHarness;
import io.openrs.repagent.support.QueueContents.Transaction;
import io.openrs.repagent.support.TestMariaDb;
import io.openrs.repagent.support.TestPostgres;
import io.openrs.repagent.support.TestServer;
import io.openrs.repserver.origin.OriginPipeline;
import io.openrs.wire.BatchAnswer;
import io.openrs.wire.LtlClient;
import io.openrs.wire.LtlClientSettings;
import io.openrs.wire.WireProtocol;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * MariaDB has no replication slot: the resume blob the server keeps is the only record of where the
 * agent's log reader stands. These tests stop or kill the agent right after its first transaction
 * is durable at the server (before any later record or periodic offset flush could carry its
 * position), change the primary while it is down, and check that every change arrives exactly once
 * after the restart; and that an agent given a truncation point without a resume position refuses
 * to start from the current binlog position.
 */
class MariaDbResumeIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  private AgentHarness h;
  private final List<Process> children = new ArrayList<>();

  /**
   * No heartbeats and a periodic offset flush far beyond the test: nothing but the first
   * transaction itself (and the agent's close) can carry its position to the server.
   */
  private static final Map<String, String> QUIET =
      Map.of("heartbeat_interval_ms", "0", "offset_flush_interval_ms", "600000");

  @BeforeEach
  void setUp() throws Exception {
    h = new AgentHarness(dir, true);
    h.startServer();
    TestMariaDb.exec(
        "CREATE TABLE " + t("items") + " (id int PRIMARY KEY, v varchar(20))",
        "CREATE TABLE " + t("marker") + " (id int PRIMARY KEY)");
  }

  @AfterEach
  void tearDown() throws Exception {
    for (Process p : children) {
      p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    h.close();
  }

  private String t(String table) {
    return h.schema + "." + table;
  }

  private OriginPipeline origin() {
    return h.server.origin(AgentHarness.DS, AgentHarness.DB).orElseThrow();
  }

  @Test
  void gracefulStopRightAfterTheFirstDurableTransactionLosesNothing() throws Exception {
    RepAgent first = h.startAgent(QUIET);
    await().atMost(WAIT).until(this::binlogReaderConnected);
    TestMariaDb.exec("INSERT INTO " + t("items") + " VALUES (1, 'a')");
    // The only transaction so far is durable at the server: stop at once.
    await().atMost(WAIT).until(() -> origin().state().durableOqid().isPresent());
    first.close();
    assertThat(first.state()).isEqualTo(RepAgent.State.STOPPED);

    changesWhileStopped();
    h.startAgent(QUIET);
    TestMariaDb.exec("INSERT INTO " + t("items") + " VALUES (3, 'c')");
    assertEveryItemChangeArrivesOnce();
  }

  @Test
  void killRightAfterTheFirstDurableTransactionLosesNothing() throws Exception {
    Process child = startChild(1, QUIET);
    // The first start reads from the current binlog position once connected: write markers
    // until one arrives; the first that arrives is the agent's first durable transaction.
    AtomicInteger marker = new AtomicInteger();
    await()
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              TestMariaDb.exec(
                  "INSERT INTO " + t("marker") + " VALUES (" + marker.incrementAndGet() + ")");
              return origin().state().durableOqid().isPresent();
            });
    // Its position reaches the server without any later record or periodic flush.
    await().atMost(WAIT).until(() -> origin().locator().resumeBlob().length > 0);
    child.destroyForcibly(); // SIGKILL
    assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();

    TestMariaDb.exec("INSERT INTO " + t("items") + " VALUES (1, 'a')");
    changesWhileStopped();
    h.startAgent(QUIET);
    TestMariaDb.exec("INSERT INTO " + t("items") + " VALUES (3, 'c')");
    assertEveryItemChangeArrivesOnce();
  }

  @Test
  void aTruncationPointWithoutResumePositionIsRefusedNotSkipped() throws Exception {
    // Another agent made a transaction durable at the server and vanished before handing over
    // its position (what a crash of the server right after the commit can leave behind).
    Oqid point = fakeAgentSendsOneTransactionAtTheBinlogEnd();
    TestMariaDb.exec("INSERT INTO " + t("items") + " VALUES (1, 'a')");
    int before = h.inbound().size();

    RepAgent refused = h.startAgent(QUIET);
    await().atMost(WAIT).until(() -> refused.state() == RepAgent.State.FAILED);
    String message = refused.failure().orElseThrow().getMessage();
    assertThat(message)
        .startsWith("RA-7 ")
        .contains(AgentHarness.DS + "." + AgentHarness.DB)
        .contains(point.toString())
        .contains("snapshot = on");
    assertThat(h.inbound()).hasSize(before);

    // The remedy the message names: one start with snapshot = on reads the tables again.
    Map<String, String> snapshot = new HashMap<>(QUIET);
    snapshot.put("snapshot", "on");
    h.startAgent(snapshot);
    await()
        .atMost(WAIT)
        .until(
            () ->
                h.outbound().stream()
                    .flatMap(x -> x.body().stream())
                    .anyMatch(
                        c ->
                            c instanceof LtlCommand.Insert i
                                && i.snapshot()
                                && i.table().equals(new TableName(h.schema, "items"))
                                && i.after().get(0).value().equals(new Value.Int32(1))));
    PostgresAgentIT.assertOqidsIncrease(h.outbound(), 16);
  }

  /** T2..T4 of every test: committed while no agent runs. */
  private void changesWhileStopped() throws Exception {
    TestMariaDb.exec("INSERT INTO " + t("items") + " VALUES (2, 'b')");
    TestMariaDb.exec("UPDATE " + t("items") + " SET v = 'a2' WHERE id = 1");
    TestMariaDb.exec("DELETE FROM " + t("items") + " WHERE id = 2");
  }

  private List<Transaction> itemTransactions() throws Exception {
    TableName items = new TableName(h.schema, "items");
    List<Transaction> out = new ArrayList<>();
    for (Transaction x : h.outbound()) {
      if (x.body().stream()
          .anyMatch(c -> c instanceof LtlCommand.RowChange ch && ch.table().equals(items))) {
        out.add(x);
      }
    }
    return out;
  }

  private void assertEveryItemChangeArrivesOnce() throws Exception {
    try {
      await().atMost(WAIT).until(() -> itemTransactions().size() >= 5);
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      for (Transaction x : h.outbound()) {
        System.out.println("OUT " + x.begin().oqid() + " " + x.body());
      }
      throw e;
    }
    List<Transaction> items = itemTransactions();
    assertThat(items).hasSize(5);
    assertThat(items.get(0).body()).singleElement().isInstanceOf(LtlCommand.Insert.class);
    assertThat(items.get(1).body()).singleElement().isInstanceOf(LtlCommand.Insert.class);
    assertThat(items.get(2).body()).singleElement().isInstanceOf(LtlCommand.Update.class);
    assertThat(items.get(3).body()).singleElement().isInstanceOf(LtlCommand.Delete.class);
    assertThat(items.get(4).body()).singleElement().isInstanceOf(LtlCommand.Insert.class);
    List<Value> ids = new ArrayList<>();
    for (Transaction x : items) {
      LtlCommand.InTransaction c = x.body().get(0);
      ids.add(
          c instanceof LtlCommand.Delete d
              ? d.before().get(0).value()
              : c instanceof LtlCommand.Update u
                  ? u.after().get(0).value()
                  : ((LtlCommand.Insert) c).after().get(0).value());
    }
    assertThat(ids)
        .containsExactly(
            new Value.Int32(1),
            new Value.Int32(2),
            new Value.Int32(1),
            new Value.Int32(2),
            new Value.Int32(3));
    // Nothing arrived twice, markers included.
    PostgresAgentIT.assertOqidsIncrease(h.outbound(), 16);
  }

  /** Whether the Debezium binlog client of this test's agent is connected (its JMX metrics). */
  private boolean binlogReaderConnected() throws Exception {
    MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
    String prefix = AgentSession.topicPrefix(h.settings(Map.of()));
    Set<ObjectName> names =
        jmx.queryNames(
            new ObjectName("debezium.*:context=streaming,server=" + prefix + ",*"), null);
    for (ObjectName n : names) {
      if (Boolean.TRUE.equals(jmx.getAttribute(n, "Connected"))) {
        return true;
      }
    }
    return false;
  }

  private Process startChild(int round, Map<String, String> overrides) throws Exception {
    Map<String, String> cfg = h.agentConfig(overrides);
    StringBuilder file = new StringBuilder("# written by MariaDbResumeIT\n");
    cfg.forEach((k, v) -> file.append(k).append(" = ").append(v).append('\n'));
    Path config = dir.resolve("agent-" + round + ".cfg");
    Files.writeString(config, file.toString(), StandardCharsets.UTF_8);
    ProcessBuilder pb =
        new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx512m",
            "-cp",
            System.getProperty("java.class.path"),
            Main.class.getName(),
            "-C",
            config.toString());
    pb.environment().put("RS_PW", TestServer.ADMIN_PASSWORD);
    pb.environment().put("PG_PW", TestPostgres.PASSWORD);
    pb.redirectErrorStream(true);
    pb.redirectOutput(dir.resolve("agent-" + round + ".log").toFile());
    Process p = pb.start();
    children.add(p);
    return p;
  }

  /**
   * Connects to the server as an agent of the origin, sends one transaction whose OQID is the
   * primary's current binlog end, waits until it is durable, and disconnects without handing over a
   * resume position. Returns the server's truncation point.
   */
  private Oqid fakeAgentSendsOneTransactionAtTheBinlogEnd() throws Exception {
    String file;
    long pos;
    try (Connection c = TestMariaDb.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SHOW MASTER STATUS")) {
      r.next();
      file = r.getString(1);
      pos = r.getLong(2);
    }
    String prefix = HexFormat.of().formatHex(MariaDbDialect.prefix(file, pos));
    String text =
        "begin tran 0x01 oqid 0x"
            + prefix
            + "00000000 time 2026-01-01T00:00:00Z\n"
            + "insert tran 0x01 oqid 0x"
            + prefix
            + "00000001 "
            + h.schema
            + ".items after (id=i32 100, v='fake')\n"
            + "commit tran 0x01 oqid 0x"
            + prefix
            + "00000002 time 2026-01-01T00:00:00Z\n";
    try (LtlClient fake =
        LtlClient.connect(
            LtlClientSettings.defaults("127.0.0.1", h.server.ltlPort()),
            new LtlCommand.Connect(
                AgentHarness.DS,
                AgentHarness.DB,
                WireProtocol.MIN_VERSION,
                WireProtocol.MAX_VERSION,
                "sa",
                TestServer.ADMIN_PASSWORD,
                Optional.of("vanished")))) {
      assertThat(fake.sendBatch(text.getBytes(StandardCharsets.UTF_8)).get())
          .isInstanceOf(BatchAnswer.Accepted.class);
      Oqid commit = Oqid.parse("0x" + prefix + "00000002");
      await()
          .atMost(WAIT)
          .until(() -> fake.truncation().get().filter(p -> p.compareTo(commit) >= 0).isPresent());
      return fake.truncation().get().orElseThrow();
    }
  }
}
