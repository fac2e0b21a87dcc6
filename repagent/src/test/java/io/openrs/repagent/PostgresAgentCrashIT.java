package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.Value;
import io.openrs.repagent.support.AgentHarness;
import io.openrs.repagent.support.QueueContents.Transaction;
import io.openrs.repagent.support.TestPostgres;
import io.openrs.repagent.support.TestServer;
import io.openrs.repagent.support.Workload;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Invariants 1 and 2 end to end under crashes: while transactions run on the primary, the agent (a
 * child JVM running {@code io.openrs.repagent.Main}) is killed with SIGKILL at random moments
 * (fixed seed) and restarted, the server is restarted once, and the agent is also stopped and
 * started in-process. Afterwards every committed transaction is at the server exactly once, whole,
 * in commit order; and the slot's {@code confirmed_flush_lsn}, sampled from {@code
 * pg_replication_slots} all along, never passed a transaction the server did not yet hold.
 */
class PostgresAgentCrashIT {

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final long SEED = 20261121L;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  private AgentHarness h;
  private int ltlPort;
  private final List<Process> children = new ArrayList<>();

  /** A sample: the slot's confirmed position, then the server's durable point read after it. */
  private record Sample(long confirmedLsn, Optional<Oqid> durable) {}

  @BeforeEach
  void setUp() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      ltlPort = s.getLocalPort();
    }
    h = new AgentHarness(dir).serverOverride("ltl_port", Integer.toString(ltlPort));
    h.startServer();
    Workload.createTables(h.schema);
  }

  @AfterEach
  void tearDown() throws Exception {
    for (Process p : children) {
      p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    h.close();
  }

  private Process startChild(int round) throws Exception {
    Map<String, String> cfg = h.agentConfig(Map.of("rs_port", Integer.toString(ltlPort)));
    StringBuilder file = new StringBuilder("# written by PostgresAgentCrashIT\n");
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

  private int outboundSize() throws Exception {
    return h.server == null ? -1 : h.outbound().size();
  }

  @Test
  void killedAndRestartedAgentDeliversEveryCommittedTransactionExactlyOnce() throws Exception {
    Random random = new Random(SEED);
    Workload w = new Workload(h.schema);
    AtomicBoolean stop = new AtomicBoolean();
    List<Sample> samples = new CopyOnWriteArrayList<>();
    Thread sampler =
        new Thread(
            () -> {
              while (!stop.get()) {
                try {
                  Optional<Long> c = TestPostgres.confirmedFlushLsn(h.slot);
                  var server = h.server;
                  if (c.isPresent() && server != null) {
                    Optional<Oqid> d =
                        server
                            .origin(AgentHarness.DS, AgentHarness.DB)
                            .orElseThrow()
                            .state()
                            .durableOqid();
                    samples.add(new Sample(c.get(), d));
                  }
                } catch (Exception e) {
                  // The server is restarting; sample again.
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
              }
            },
            "slot-sampler");
    sampler.start();
    int rounds = 4;
    List<Thread> writers = List.of();
    for (int round = 1; round <= rounds; round++) {
      Process child = startChild(round);
      if (round == 1) {
        // Changes are captured from the slot's creation on: start writing once it exists.
        await().atMost(WAIT).until(() -> TestPostgres.confirmedFlushLsn(h.slot).isPresent());
        writers = w.start(2, 0, 15, 6, SEED, stop, 30);
      }
      int target = Math.max(0, outboundSize()) + 5 + random.nextInt(40);
      await()
          .atMost(WAIT)
          .pollInterval(Duration.ofMillis(500))
          .until(() -> outboundSize() >= target);
      if (round == 2) {
        // Restart the server under the running agent: it reconnects and resends.
        h.stopServer();
        h.startServer();
        int again = outboundSize() + 5 + random.nextInt(20);
        await()
            .atMost(WAIT)
            .pollInterval(Duration.ofMillis(500))
            .until(() -> outboundSize() >= again);
      }
      child.destroyForcibly(); // SIGKILL
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    // An in-process agent, stopped gracefully and started again, on top.
    RepAgent inProcess = h.startAgent(Map.of());
    int target = outboundSize() + 10;
    await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> outboundSize() >= target);
    inProcess.close();
    stop.set(true);
    for (Thread t : writers) {
      t.join();
    }
    sampler.join();
    // Final run: everything committed arrives.
    Process last = startChild(rounds + 1);
    int committed = w.committed().size();
    System.out.println("crash test dir " + dir + ", committed " + committed);
    try {
      await()
          .atMost(WAIT)
          .pollInterval(Duration.ofMillis(500))
          .until(() -> outboundSize() >= committed);
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      Set<String> got = new HashSet<>();
      Map<String, Integer> counts = new HashMap<>();
      for (Transaction t : h.outbound()) {
        String tag =
            ((Value.Text) ((LtlCommand.Insert) t.body().get(0)).after().get(0).value()).value();
        got.add(tag);
        counts.merge(tag, 1, Integer::sum);
      }
      List<String> missing = new ArrayList<>();
      for (Workload.Committed c : w.committed()) {
        if (!got.contains(c.tag())) {
          missing.add(c.tag() + "#" + c.seq());
        }
      }
      System.out.println(
          "DIAG outbound="
              + h.outbound().size()
              + " missing="
              + missing.size()
              + " "
              + missing.subList(0, Math.min(20, missing.size())));
      counts.forEach(
          (k, v) -> {
            if (v > 1) System.out.println("DIAG dup " + k + " x" + v);
          });
      System.out.println(
          "DIAG durable="
              + h.server
                  .origin(AgentHarness.DS, AgentHarness.DB)
                  .orElseThrow()
                  .state()
                  .durableOqid()
              + " slot="
              + TestPostgres.confirmedFlushLsn(h.slot));
      throw e;
    }
    last.destroyForcibly().waitFor(30, TimeUnit.SECONDS);

    List<Transaction> out = h.outbound();
    Map<String, Workload.Committed> byTag = new HashMap<>();
    for (Workload.Committed c : w.committed()) {
      byTag.put(c.tag(), c);
    }
    Set<String> seen = new HashSet<>();
    long lastSeq = 0;
    for (Transaction t : out) {
      LtlCommand.Insert first = (LtlCommand.Insert) t.body().get(0);
      String tag = ((Value.Text) first.after().get(0).value()).value();
      Workload.Committed c = byTag.get(tag);
      assertThat(c).as("%s was committed", tag).isNotNull();
      assertThat(seen.add(tag)).as("%s arrives once", tag).isTrue();
      assertThat(t.body()).as("%s arrives whole", tag).hasSize(c.rows() + 1);
      LtlCommand.Update seq = (LtlCommand.Update) t.body().get(c.rows());
      long n = ((Value.Int64) seq.after().get(1).value()).value();
      assertThat(n).isEqualTo(c.seq()).isGreaterThan(lastSeq);
      lastSeq = n;
    }
    assertThat(seen).hasSize(committed);
    PostgresAgentIT.assertOqidsIncrease(out);
    // The inbound queue holds each command once: OQIDs strictly increase.
    Oqid prev = null;
    for (LtlCommand.InTransaction c : h.inbound()) {
      if (prev != null) {
        assertThat(c.oqid()).isGreaterThan(prev);
      }
      prev = c.oqid();
    }
    // The slot never confirmed a transaction the server did not hold durably.
    assertThat(samples).isNotEmpty();
    for (Sample s : samples) {
      for (Transaction t : out) {
        long commitLsn = ByteBuffer.wrap(t.commit().oqid().toBytes()).getLong();
        if (commitLsn <= s.confirmedLsn()) {
          assertThat(s.durable())
              .as("slot confirmed %s while the server held %s", s.confirmedLsn(), s.durable())
              .isPresent();
          assertThat(t.commit().oqid()).isLessThanOrEqualTo(s.durable().get());
        }
      }
    }
  }
}
