package io.openrs.consistency;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.consistency.support.Kind;
import io.openrs.consistency.support.Pipeline;
import io.openrs.consistency.support.Workload;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The warm standby (docs/scale-out.md) under the real agent and DSI: two server processes share the
 * server directory and an RSSD on PostgreSQL with {@code server_lease_ms}; the agent lists both.
 * SIGKILL of the active server at fixed points of the workload, in bounded rounds: the standby
 * takes over, the agent moves to it, and in the end the replicate equals the primary, nothing lost
 * and nothing applied twice. The time from each kill to the standby's ready line and to the first
 * transaction applied after it is logged.
 */
class StandbyIT {
  private static final Logger LOG = LoggerFactory.getLogger(StandbyIT.class);

  private static final long LEASE_MS = 3000;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @Test
  void theStandbyTakesOverFromAKilledActiveServerAndTheReplicateEqualsThePrimary()
      throws Exception {
    Pipeline.Spec spec =
        Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, Scenarios.CONTINUOUS)
            .standby(LEASE_MS);
    spec.server("sqm_write_flush", "on");
    List<Pipeline.Takeover> takeovers = new ArrayList<>();
    try (Pipeline p = Pipeline.start(dir, spec)) {
      Workload w = Scenarios.startWorkload(p, Scenarios.untilStopped(spec, 40));
      long mark = 0;
      for (int i = 1; i <= FaultsIT.ROUNDS; i++) {
        Scenarios.awaitStep(p, w, mark);
        takeovers.add(p.killActiveServer());
        mark = w.committed();
      }
      Scenarios.awaitStep(p, w, mark);
      w.stop();
      Scenarios.finish(p, w);
      p.stop();
    }
    assertThat(takeovers).hasSize(FaultsIT.ROUNDS);
    LOG.warn(
        "standby takeovers (server_lease_ms {}): to ready {} ms, to the first applied transaction"
            + " {} ms",
        LEASE_MS,
        takeovers.stream().map(t -> t.ready().toMillis()).toList(),
        takeovers.stream().map(t -> t.applied().toMillis()).toList());
  }
}
