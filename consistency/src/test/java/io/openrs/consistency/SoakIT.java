package io.openrs.consistency;

import io.openrs.consistency.support.Kind;
import io.openrs.consistency.support.Pipeline;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The long variants (tag {@code soak}, not in the default run): every product pair in every DSI
 * mode with a longer workload, the fan-out with the modes swapped, and every fault with more
 * rounds, on both products where the fault allows. {@code -Dopenrs.cs.soak.transactions} and {@code
 * -Dopenrs.cs.soak.rounds} scale them.
 */
@Tag("soak")
class SoakIT {

  static final int TRANSACTIONS = Integer.getInteger("openrs.cs.soak.transactions", 400);
  static final int ROUNDS = Integer.getInteger("openrs.cs.soak.rounds", 5);

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  static Stream<Arguments> pairsAndModes() {
    return ReplicationMatrixIT.pairsAndModes();
  }

  @ParameterizedTest(name = "{0} to {1}, {2}")
  @MethodSource("pairsAndModes")
  void longWorkload(Kind primary, Kind replicate, String mode, int seedOffset) throws Exception {
    Scenarios.runWithoutFaults(
        dir,
        Scenarios.oneToOne(primary, replicate, ReplicationMatrixIT.MODES.get(mode)),
        100 + seedOffset,
        TRANSACTIONS);
  }

  @Test
  void fanOutWithModesSwapped() throws Exception {
    Scenarios.runWithoutFaults(
        dir, FanOutIT.spec(Scenarios.PARALLEL, Scenarios.HVAR), 120, TRANSACTIONS);
  }

  @Test
  void agentKilledOnPostgres() throws Exception {
    FaultsIT.agentKilled(
        dir, Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, Scenarios.PARALLEL), ROUNDS, 130);
  }

  @Test
  void agentKilledOnMariaDb() throws Exception {
    FaultsIT.agentKilled(
        dir, Scenarios.oneToOne(Kind.MARIADB, Kind.POSTGRESQL, Scenarios.CONTINUOUS), ROUNDS, 131);
  }

  @Test
  void serverKilledOnPostgres() throws Exception {
    FaultsIT.serverKilled(
        dir,
        Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, Scenarios.CONTINUOUS),
        ROUNDS,
        132);
  }

  @Test
  void serverKilledWithMariaDbReplicate() throws Exception {
    FaultsIT.serverKilled(
        dir, Scenarios.oneToOne(Kind.POSTGRESQL, Kind.MARIADB, Scenarios.PARALLEL), ROUNDS, 133);
  }

  @Test
  void serverKilledWithMariaDbPrimary() throws Exception {
    FaultsIT.serverKilled(
        dir, Scenarios.oneToOne(Kind.MARIADB, Kind.POSTGRESQL, Scenarios.PARALLEL), ROUNDS, 134);
  }

  @Test
  void replicateRestartedManyTimes() throws Exception {
    FaultsIT.replicateRestarted(
        dir,
        Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, Scenarios.CONTINUOUS),
        ROUNDS * 2,
        135);
  }

  @Test
  void partitionFilledInParallelMode() throws Exception {
    FaultsIT.partitionFull(dir, Scenarios.PARALLEL, 136, false, false, Scenarios.DELIVERY);
  }

  @Test
  void fanOutWithServerKilled() throws Exception {
    Pipeline.Spec spec = FanOutIT.spec(Scenarios.CONTINUOUS, Scenarios.PARALLEL);
    FaultsIT.serverKilled(dir, spec, ROUNDS, 137);
  }

  /** Log transfer suspended and resumed by the DBA while the workload runs (no other fault). */
  @Test
  void logTransferSuspendedAndResumedMidWorkload() throws Exception {
    Pipeline.Spec spec = Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, Scenarios.CONTINUOUS);
    try (Pipeline p = Pipeline.start(dir, spec)) {
      io.openrs.consistency.support.Workload w =
          Scenarios.startWorkload(p, Scenarios.untilStopped(spec, 138));
      long mark = 0;
      for (int i = 0; i < ROUNDS; i++) {
        Scenarios.awaitStep(p, w, mark);
        p.admin().exec("suspend log transfer from " + p.origin());
        mark = Scenarios.awaitStep(p, w, w.committed());
        p.admin().exec("resume log transfer from " + p.origin());
      }
      Scenarios.awaitStep(p, w, mark);
      w.stop();
      Scenarios.finish(p, w);
      p.stop();
    }
  }
}
