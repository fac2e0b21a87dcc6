package io.openrs.consistency;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.consistency.support.Kind;
import io.openrs.consistency.support.Pipeline;
import io.openrs.consistency.support.Workload;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Faults during the workload, in bounded rounds at fixed points of its progress: SIGKILL of the
 * agent, SIGKILL of the server, the replicate database dropping the DSI's sessions, and the
 * server's partition filled to its limit. After recovery every replicate equals its primary:
 * nothing lost, nothing applied twice (the table without a key would show a second copy).
 */
class FaultsIT {
  private static final Logger LOG = LoggerFactory.getLogger(FaultsIT.class);

  /** Rounds of each fault in the default run; the soak run raises them. */
  static final int ROUNDS = Integer.getInteger("openrs.cs.faultRounds", 2);

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @Test
  void agentKilledMidWorkload() throws Exception {
    agentKilled(
        dir,
        Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, Scenarios.CONTINUOUS),
        ROUNDS,
        30);
  }

  @Test
  void serverKilledMidWorkload() throws Exception {
    serverKilled(
        dir, Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, Scenarios.PARALLEL), ROUNDS, 31);
  }

  @Test
  void replicateRestartedMidWorkload() throws Exception {
    replicateRestarted(
        dir,
        Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, Scenarios.PARALLEL),
        ROUNDS + 1,
        32);
  }

  /**
   * HVAR over two DSIEXEC threads, where a group's new rows go in on one session while the previous
   * group applies on the other: the server killed, then the replicate's sessions dropped.
   */
  @Test
  void serverKilledMidWorkloadUnderHvarOnTwoThreads() throws Exception {
    serverKilled(
        dir,
        Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, Scenarios.HVAR_TWO_THREADS),
        ROUNDS,
        34);
  }

  @Test
  void replicateRestartedMidWorkloadUnderHvarOnTwoThreads() throws Exception {
    replicateRestarted(
        dir,
        Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, Scenarios.HVAR_TWO_THREADS),
        ROUNDS + 1,
        35);
  }

  @Test
  void partitionFilledToItsLimit() throws Exception {
    partitionFull(dir, Scenarios.CONTINUOUS, 33, false, false, Scenarios.DELIVERY);
  }

  // ---------------------------------------------------------------------------------------------

  static void agentKilled(Path dir, Pipeline.Spec spec, int rounds, long seedOffset)
      throws Exception {
    try (Pipeline p = Pipeline.start(dir, spec)) {
      Workload w = Scenarios.startWorkload(p, Scenarios.untilStopped(spec, seedOffset));
      long mark = 0;
      for (int i = 1; i <= rounds; i++) {
        Scenarios.awaitStep(p, w, mark);
        p.killAgent();
        p.startAgent();
        mark = w.committed();
      }
      Scenarios.awaitStep(p, w, mark);
      w.stop();
      Scenarios.finish(p, w);
      LOG.info(
          "after {} agent kills: NRM Duplicates {}, REPAGENT {}",
          rounds,
          p.admin().total("NRM", "Duplicates"),
          p.admin().show("admin stats, repagent"));
      p.stop();
    }
  }

  static void serverKilled(Path dir, Pipeline.Spec spec, int rounds, long seedOffset)
      throws Exception {
    spec.server("sqm_write_flush", "on");
    try (Pipeline p = Pipeline.start(dir, spec)) {
      Workload w = Scenarios.startWorkload(p, Scenarios.untilStopped(spec, seedOffset));
      long mark = 0;
      for (int i = 1; i <= rounds; i++) {
        Scenarios.awaitStep(p, w, mark);
        p.killServer();
        p.startServer();
        mark = w.committed();
      }
      Scenarios.awaitStep(p, w, mark);
      w.stop();
      Scenarios.finish(p, w);
      LOG.info(
          "after {} server kills: DSITransIgnored {}, DSITransDropped {}",
          rounds,
          p.admin().total("DSI", "DSITransIgnored"),
          p.admin().total("DSI", "DSITransDropped"));
      p.stop();
    }
  }

  /**
   * A restart of the replicate database as the DSI sees it: its sessions end ({@code
   * pg_terminate_backend}, SQLSTATE 57P01). The shared database servers of the build machine may
   * not be restarted; a real restart of PostgreSQL under the DSI is covered by the dsi module's
   * tests of killed connections.
   */
  static void replicateRestarted(Path dir, Pipeline.Spec spec, int rounds, long seedOffset)
      throws Exception {
    try (Pipeline p = Pipeline.start(dir, spec)) {
      Pipeline.ReplicateSide r = p.replicates().get(0);
      Workload w = Scenarios.startWorkload(p, Scenarios.untilStopped(spec, seedOffset));
      long mark = 0;
      for (int i = 1; i <= rounds; i++) {
        Scenarios.awaitStep(p, w, mark);
        assertThat(p.terminateDsiSessions(r)).as("DSI sessions ended, round %d", i).isPositive();
        mark = w.committed();
      }
      Scenarios.awaitStep(p, w, mark);
      w.stop();
      Scenarios.finish(p, w);
      double reconnects = p.admin().total("DSI", "DSIReconnects");
      LOG.info("after {} terminations: DSIReconnects {}", rounds, reconnects);
      assertThat(reconnects).as("DSIReconnects").isGreaterThanOrEqualTo(1);
      p.stop();
    }
  }

  /**
   * A partition of 8 MiB (1 MiB segments, small hand-off limits) and a replicate that stops
   * applying (suspend connection) while the workload writes large values: the outbound queue fills
   * the partition, DIST, NRM and EXEC wait in turn and the agent is held back; nothing is dropped.
   * Then the replicate applies again (resume connection) and the backlog drains; the replicate
   * equals the primary and the counters show the waits.
   *
   * <p>With {@code holdAgentWhileDraining}, log transfer is suspended before the connection is
   * resumed and resumed once the queues stopped waiting: the agent then reconnects from the resume
   * blob the server saved, which must still be available in the slot.
   */
  static void partitionFull(
      Path dir,
      Map<String, String> mode,
      long seedOffset,
      boolean holdAgentWhileDraining,
      boolean smallHandOffs,
      java.time.Duration delivery)
      throws Exception {
    Pipeline.Spec spec =
        Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, mode)
            .partitionSize("8m")
            .server("sqm_segment_size", "1048576")
            .server("block_size", "16384");
    if (smallHandOffs) {
      spec.server("exec_nrm_request_limit", "262144")
          .server("exec_sqm_write_request_limit", "262144");
    }
    try (Pipeline p = Pipeline.start(dir, spec)) {
      Pipeline.ReplicateSide r = p.replicates().get(0);
      Workload w =
          Scenarios.startWorkload(
              p, Scenarios.untilStopped(spec, seedOffset).withLargeTextOneIn(2));
      p.admin().exec("suspend connection to " + r.connection());
      Scenarios.awaitCondition(
          p,
          w,
          "the partition to fill and the inbound queue to wait for a segment",
          () -> queueWaiting(p, ":1"));
      LOG.info(
          "partition full:\n{}{}{}",
          p.admin().show("admin disk_space"),
          p.admin().show("admin who"),
          p.admin().show("admin who, sqm"));
      // Full but for the outbound reserve: an inbound writer leaves (outbound queues + 1) = 2 of
      // the 8 segments free (docs/stable-queue.md, "The outbound reserve"), which the outbound
      // queue may have taken meanwhile.
      assertThat(p.admin().rows("admin disk_space"))
          .singleElement()
          .satisfies(
              d ->
                  assertThat(Double.parseDouble(d.get("used_percent")))
                      .isGreaterThanOrEqualTo(75.0));
      // The agent is held back: nothing more becomes durable, so it releases no more of the
      // primary's log while the workload goes on. What became durable just before the queue
      // waited may still reach the slot at the agent's next offset flush; once a whole step went
      // by with no locator saved and the slot unmoved, the slot must stay where it is.
      Held held = awaitAgentHeld(p, w);
      long mark = held.mark();
      for (int i = 1; i <= 2; i++) {
        mark = Scenarios.awaitStep(p, w, mark);
        assertThat(p.slotConfirmedLsn())
            .as("the slot's confirmed position while the partition is full, step %d", i)
            .isEqualTo(held.slot());
      }
      if (holdAgentWhileDraining) {
        p.admin().exec("suspend log transfer from " + p.origin());
        p.admin().exec("resume connection to " + r.connection());
        Scenarios.awaitCondition(
            p,
            w,
            "the queues to stop waiting for segments",
            () -> !queueWaiting(p, ":0") && !queueWaiting(p, ":1"));
        p.admin().exec("resume log transfer from " + p.origin());
      } else {
        p.admin().exec("resume connection to " + r.connection());
      }
      Scenarios.awaitStep(p, w, mark);
      w.stop();
      Scenarios.finish(p, w, delivery);
      Map<String, Double> waits =
          Map.of(
              "SQMWaitSegTime", p.admin().total("SQM", "SQMWaitSegTime"),
              "RAWriteWaitsTime", p.admin().total("REPAGENT", "RAWriteWaitsTime"),
              "ExecNrmWaitTime", p.admin().total("REPAGENT", "ExecNrmWaitTime"),
              "DISTOutboundWaitTime", p.admin().total("DIST", "DISTOutboundWaitTime"));
      LOG.info("waits (ms): {}", waits);
      assertThat(p.admin().observations("SQM", "SQMWaitSegTime"))
          .as("waits for a segment")
          .isPositive();
      assertThat(waits.get("SQMWaitSegTime")).as("time waited for a segment").isPositive();
      assertThat(waits.get("RAWriteWaitsTime")).as("NRM waited for the queue writer").isPositive();
      assertThat(p.server().logged("going to wait for a segment to be freed"))
          .as("the server warned that a queue waits for space")
          .isTrue();
      p.stop();
    }
  }

  /** The slot's confirmed position once the agent is held back, and the workload's mark then. */
  private record Held(String slot, long mark) {}

  /**
   * Waits for a workload step during which the server saved no locator ({@code UpdsRslocater}
   * unchanged: nothing more became durable, no resume blob arrived) and the slot did not move.
   */
  private static Held awaitAgentHeld(Pipeline p, Workload w) throws java.sql.SQLException {
    long mark = w.committed();
    for (int step = 1; ; step++) {
      double saves = p.admin().total("REPAGENT", "UpdsRslocater");
      String slot = p.slotConfirmedLsn();
      mark = Scenarios.awaitStep(p, w, mark);
      if (saves == p.admin().total("REPAGENT", "UpdsRslocater")
          && slot.equals(p.slotConfirmedLsn())) {
        return new Held(slot, mark);
      }
      assertThat(step)
          .as("workload steps before the full partition held the agent back (slot %s)", slot)
          .isLessThan(20);
    }
  }

  /** Whether a queue whose id ends with {@code suffix} waits for a segment. */
  private static boolean queueWaiting(Pipeline p, String suffix) throws java.sql.SQLException {
    return p.admin().rows("admin who, sqm").stream()
        .anyMatch(
            q ->
                q.get("queue").endsWith(suffix)
                    && q.get("state").contains("waiting for a segment"));
  }
}
