package io.openrs.consistency;

import io.openrs.consistency.support.Kind;
import io.openrs.consistency.support.Pipeline;
import io.openrs.consistency.support.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What every scenario shares: seeds, workload sizes, and the run without faults. */
final class Scenarios {
  private static final Logger LOG = LoggerFactory.getLogger(Scenarios.class);

  /** The seed of every workload; {@code -Dopenrs.cs.seed=...} reproduces another run. */
  static final long SEED = Long.getLong("openrs.cs.seed", 20261121L);

  /** Transactions per client in the default run; soak runs scale it. */
  static final int TRANSACTIONS = Integer.getInteger("openrs.cs.transactions", 100);

  /**
   * Whether primary-key updates leave large values alone: off by default until the bug
   * KnownBugsIT#primaryKeyUpdateKeepsAnUnchangedLargeValue shows is fixed; {@code
   * -Dopenrs.cs.keyUpdatesKeepLargeValues=true} turns it on.
   */
  static final boolean KEY_UPDATES_KEEP_LARGE_VALUES =
      Boolean.getBoolean("openrs.cs.keyUpdatesKeepLargeValues");

  static final Duration DELIVERY = Duration.ofSeconds(180);

  static final Map<String, String> CONTINUOUS = Map.of();
  static final Map<String, String> PARALLEL =
      Map.of("dsi_num_threads", "4", "dsi_serialization_method", "dependency_aware");
  static final Map<String, String> HVAR = Map.of("dsi_compile_enable", "on");

  private Scenarios() {}

  /**
   * The default workload: 3 clients, fixed seed, one in 12 transactions rolled back, one acct.big
   * value in 12 of 65..100 KiB, one transaction in 40 of 50..300 rows.
   */
  static Workload.Settings workload(Pipeline.Spec spec, long seedOffset) {
    return new Workload.Settings(
        3,
        TRANSACTIONS,
        SEED + seedOffset,
        12,
        12,
        40,
        20,
        spec.postgresOnly(),
        KEY_UPDATES_KEEP_LARGE_VALUES);
  }

  static Pipeline.Spec oneToOne(Kind primary, Kind replicate, Map<String, String> mode) {
    return new Pipeline.Spec().primary(primary).replicate(Pipeline.Replicate.of(replicate, mode));
  }

  /**
   * Starts the pipeline, runs the workload to its end, waits until the replicates applied it and
   * compares every table.
   */
  static void runWithoutFaults(Path dir, Pipeline.Spec spec, long seedOffset) throws Exception {
    try (Pipeline p = Pipeline.start(dir, spec)) {
      Workload w = p.workload(workload(spec, seedOffset));
      w.createHotRows();
      long t0 = System.nanoTime();
      w.start().await(600);
      LOG.info("workload done in {} ms: {}", (System.nanoTime() - t0) / 1_000_000, w.summary());
      p.awaitDelivered(DELIVERY);
      p.assertConsistent();
      p.stop();
    }
  }
}
