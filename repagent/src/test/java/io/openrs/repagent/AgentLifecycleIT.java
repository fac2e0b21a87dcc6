package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Value;
import io.openrs.repagent.support.AgentHarness;
import io.openrs.repagent.support.TestMariaDb;
import io.openrs.repagent.support.TestPostgres;
import io.openrs.repagent.support.TestServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent process as an operator sees it ({@code io.openrs.repagent.Main}, what {@code
 * bin/repagent} runs, in a child JVM): its "started" line comes only once the log reader covers
 * every later commit, so a row written right after the line arrives; and SIGTERM stops it within
 * the bound docs/repagent.md gives (issue 28, item 8).
 */
class AgentLifecycleIT {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  private AgentHarness h;
  private Process child;
  private final List<String> output = new CopyOnWriteArrayList<>();
  private Thread outputReader;

  @AfterEach
  void tearDown() throws Exception {
    if (child != null) {
      child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    if (h != null) {
      h.close();
    }
  }

  /** Starts Main in a child JVM, collecting its output lines. */
  private void startProcess(Map<String, String> overrides) throws Exception {
    Map<String, String> cfg = h.agentConfig(overrides);
    StringBuilder file = new StringBuilder("# written by AgentLifecycleIT\n");
    cfg.forEach((k, v) -> file.append(k).append(" = ").append(v).append('\n'));
    Path config = dir.resolve("agent.cfg");
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
    child = pb.start();
    BufferedReader lines =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    outputReader =
        new Thread(
            () -> {
              try {
                for (String l = lines.readLine(); l != null; l = lines.readLine()) {
                  output.add(l);
                }
              } catch (java.io.IOException e) {
                // the child ended
              }
            },
            "agent-output");
    outputReader.setDaemon(true);
    outputReader.start();
  }

  private String banner() {
    return "repagent " + h.agentName + " started: origin ";
  }

  private boolean printed(String prefix) {
    return output.stream().anyMatch(l -> l.startsWith(prefix));
  }

  /** Starts Main in a child JVM; returns once it printed its "started" line. */
  private void startAgentProcess(Map<String, String> overrides) throws Exception {
    startProcess(overrides);
    await()
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(5))
        .until(() -> printed(banner()) || !child.isAlive());
    assertThat(printed(banner())).as(String.join("\n", output)).isTrue();
  }

  /** Sends SIGTERM and returns the milliseconds until the process exited. */
  private long sigtermToExitMillis() throws Exception {
    long start = System.nanoTime();
    // ProcessHandle.destroy() sends SIGTERM; Process.destroy() would also close our end of the
    // child's output, losing its last lines.
    child.toHandle().destroy();
    assertThat(child.waitFor(90, TimeUnit.SECONDS)).isTrue();
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    outputReader.join(TimeUnit.SECONDS.toMillis(10));
    System.out.println("AgentLifecycleIT: SIGTERM to exit " + millis + " ms");
    return millis;
  }

  /** The ids of the inserts into {@code table} that reached the server's inbound queue. */
  private List<Integer> inserted(String table) throws Exception {
    List<Integer> ids = new ArrayList<>();
    for (LtlCommand.InTransaction c : h.inbound()) {
      if (c instanceof LtlCommand.Insert i && i.table().table().equals(table)) {
        ids.add(((Value.Int32) i.after().get(0).value()).value());
      }
    }
    return ids;
  }

  @Test
  void postgresRowWrittenRightAfterTheStartedLineArrives() throws Exception {
    h = new AgentHarness(dir);
    h.startServer();
    TestPostgres.exec("CREATE TABLE " + h.schema + ".early (id int PRIMARY KEY)");
    // A new agent: no slot yet; the line must wait for Debezium to create it.
    assertThat(TestPostgres.confirmedFlushLsn(h.slot)).isEmpty();
    startAgentProcess(Map.of("heartbeat_interval_ms", "0"));
    TestPostgres.exec("INSERT INTO " + h.schema + ".early VALUES (1)");
    await().atMost(WAIT).untilAsserted(() -> assertThat(inserted("early")).containsExactly(1));
  }

  @Test
  void mariadbRowWrittenRightAfterTheStartedLineArrives() throws Exception {
    h = new AgentHarness(dir, true);
    h.startServer();
    TestMariaDb.exec("CREATE TABLE " + h.schema + ".early (id int PRIMARY KEY)");
    startAgentProcess(Map.of("heartbeat_interval_ms", "0"));
    TestMariaDb.exec("INSERT INTO " + h.schema + ".early VALUES (1)");
    await().atMost(WAIT).untilAsserted(() -> assertThat(inserted("early")).containsExactly(1));
  }

  /** docs/repagent.md: SIGTERM stops the agent gracefully within 10 s. */
  @Test
  void sigtermStopsAStreamingAgentWithinTheDocumentedBound() throws Exception {
    h = new AgentHarness(dir);
    h.startServer();
    TestPostgres.exec("CREATE TABLE " + h.schema + ".t (id int PRIMARY KEY)");
    startAgentProcess(Map.of());
    TestPostgres.exec("INSERT INTO " + h.schema + ".t SELECT g FROM generate_series(1, 100) g");
    await().atMost(WAIT).untilAsserted(() -> assertThat(inserted("t")).hasSize(100));

    long millis = sigtermToExitMillis();
    assertThat(output)
        .as(String.join("\n", output))
        .contains("repagent " + h.agentName + " stopped");
    assertThat(millis).as(String.join("\n", output)).isLessThanOrEqualTo(10_000);
  }

  /**
   * A stop while Debezium's task is still starting: PostgreSQL creates the slot then, and that
   * waits for every transaction running at the primary. Debezium refuses to stop an engine whose
   * tasks are starting; the session then waited 30 s for it (the SIGTERM that took over 20 s).
   */
  @Test
  void sigtermWhileTheSlotIsBeingCreatedStopsWithinTheDocumentedBound() throws Exception {
    h = new AgentHarness(dir);
    h.startServer();
    TestPostgres.exec("CREATE TABLE " + h.schema + ".blocker (id int PRIMARY KEY)");
    try (java.sql.Connection blocker = TestPostgres.connect()) {
      blocker.setAutoCommit(false);
      try (java.sql.Statement st = blocker.createStatement()) {
        st.execute("INSERT INTO " + h.schema + ".blocker VALUES (1)"); // holds an xid open
      }
      startProcess(Map.of());
      await().atMost(WAIT).until(this::slotCreationWaiting);
      assertThat(printed(banner())).as("no started line before the slot exists").isFalse();

      long millis = sigtermToExitMillis();
      assertThat(output)
          .as(String.join("\n", output))
          .contains("repagent " + h.agentName + " stopped");
      assertThat(millis).as(String.join("\n", output)).isLessThanOrEqualTo(10_000);
      blocker.rollback();
    }
  }

  /**
   * A stop while the server takes nothing (its partition is full: the replicate's DSI cannot run,
   * so nothing leaves the queues) and answers nothing: the waits for the server's confirmation,
   * Debezium's final offset flush, the last save's answer and the batches in flight each took up to
   * 10 s before.
   */
  @Test
  void sigtermWhileTheServerAnswersNothingStopsWithinTheDocumentedBound() throws Exception {
    h =
        new AgentHarness(dir)
            .serverOverride("sqm_segment_size", String.valueOf(1024 * 1024))
            .serverOverride("block_size", "16k")
            .partitionBytes(4L * 1024 * 1024);
    h.startServer();
    TestPostgres.exec("CREATE TABLE " + h.schema + ".t (id int PRIMARY KEY, note text)");
    startAgentProcess(Map.of());
    TestPostgres.exec(
        "INSERT INTO "
            + h.schema
            + ".t SELECT g, repeat('x', 500) FROM generate_series(1, 30000) g");
    await()
        .atMost(WAIT)
        .until(
            () ->
                h.server.queues().queueInfos().stream()
                    .anyMatch(io.openrs.queue.QueueInfo::waitingForSegment));

    long millis = sigtermToExitMillis();
    assertThat(output)
        .as(String.join("\n", output))
        .contains("repagent " + h.agentName + " stopped");
    assertThat(millis).as(String.join("\n", output)).isLessThanOrEqualTo(10_000);
  }

  /** Whether a walsender is creating this agent's slot (waiting for running transactions). */
  private boolean slotCreationWaiting() throws Exception {
    try (java.sql.Connection c = TestPostgres.connect();
        java.sql.PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'walsender'"
                    + " AND query LIKE 'CREATE_REPLICATION_SLOT%' AND query LIKE ?")) {
      ps.setString(1, "%" + h.slot + "%");
      try (java.sql.ResultSet r = ps.executeQuery()) {
        return r.next() && r.getInt(1) > 0;
      }
    }
  }
}
