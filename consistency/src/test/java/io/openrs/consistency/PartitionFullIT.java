package io.openrs.consistency;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.consistency.support.Kind;
import io.openrs.consistency.support.Pipeline;
import io.openrs.consistency.support.Workload;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full partition and what the DBA does about it, beyond {@link
 * FaultsIT#partitionFilledToItsLimit} (formerly known bugs, docs/consistency.md): with small EXEC
 * hand-offs the inbound queue used to take the segments the DSI freed until DIST waited for an
 * outbound segment forever; after {@code suspend log transfer} the agent could find the resume blob
 * the server saved older than the slot's {@code restart_lsn} and fail for good; the {@code
 * sqm_warning_thr*} thresholds did nothing.
 */
class PartitionFullIT {

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  /**
   * The partition fills while the replicate's connection is suspended (EXEC's hand-offs at 256
   * KiB); then the DBA resumes the connection and nothing else. The inbound queue's writer leaves
   * the outbound reserve, so DIST always gets an outbound segment and the backlog drains.
   */
  @Test
  void partitionFullThenResumeConnectionRecovers() throws Exception {
    FaultsIT.partitionFull(dir, Scenarios.CONTINUOUS, 40, false, true, Duration.ofSeconds(60));
  }

  /**
   * As above, but the DBA suspends log transfer before resuming the connection, and resumes it once
   * the queues stopped waiting. The agent reconnects from the resume blob the server saved; its
   * offsets were committed to the slot only once the server had saved them, so the slot still holds
   * that position.
   */
  @Test
  void partitionFullThenHoldAgentResumeConnectionRecovers() throws Exception {
    FaultsIT.partitionFull(dir, Scenarios.CONTINUOUS, 33, true, true, Duration.ofSeconds(60));
  }

  /**
   * {@code sqm_warning_thr1} makes the server log {@code WARNING: Stable Storage Use is Above N
   * percent} when the partitions fill beyond it, and a CANCEL line once use falls again. The
   * threshold is 60 % here: with one replicate the inbound queue leaves 2 of the 8 segments to the
   * outbound reserve, so use may stop at 75 %, the default threshold, which counts only above.
   */
  @Test
  void partitionUseAboveThresholdIsWarned() throws Exception {
    Pipeline.Spec spec =
        Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, Scenarios.CONTINUOUS)
            .partitionSize("8m")
            .server("sqm_segment_size", "1048576")
            .server("block_size", "16384")
            .server("sqm_warning_thr1", "60");
    try (Pipeline p = Pipeline.start(dir, spec)) {
      Pipeline.ReplicateSide r = p.replicates().get(0);
      Workload w =
          Scenarios.startWorkload(p, Scenarios.untilStopped(spec, 42).withLargeTextOneIn(2));
      p.admin().exec("suspend connection to " + r.connection());
      Scenarios.awaitCondition(
          p,
          w,
          "partition use above 60 %",
          () ->
              Double.parseDouble(p.admin().rows("admin disk_space").get(0).get("used_percent"))
                  > 60);
      assertThat(p.server().logged("WARNING: Stable Storage Use is Above 60 percent"))
          .as("the warning of sqm_warning_thr1")
          .isTrue();
      p.admin().exec("resume connection to " + r.connection());
      w.stop();
      Scenarios.finish(p, w);
      assertThat(p.server().logged("CANCEL WARNING: Stable Storage Use is Below 60 percent"))
          .as("the warning cancelled once the backlog drained")
          .isTrue();
      p.stop();
    }
  }
}
