package io.openrs.consistency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.consistency.support.Kind;
import io.openrs.consistency.support.Pipeline;
import io.openrs.consistency.support.Workload;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import org.awaitility.core.ConditionTimeoutException;
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
   * Whether primary-key updates leave large values alone (so a PostgreSQL primary sends them as
   * unchanged TOAST values); {@code -Dopenrs.cs.keyUpdatesKeepLargeValues=false} makes them assign
   * new large values too.
   */
  static final boolean KEY_UPDATES_KEEP_LARGE_VALUES =
      Boolean.parseBoolean(System.getProperty("openrs.cs.keyUpdatesKeepLargeValues", "true"));

  static final Duration DELIVERY = Duration.ofSeconds(180);

  static final Map<String, String> CONTINUOUS = Map.of();
  static final Map<String, String> PARALLEL =
      Map.of("dsi_num_threads", "4", "dsi_serialization_method", "dependency_aware");
  static final Map<String, String> HVAR = Map.of("dsi_compile_enable", "on");

  /**
   * HVAR over two DSIEXEC threads: a group's inserts ahead go on the second session while the
   * previous group applies on the first.
   */
  static final Map<String, String> HVAR_TWO_THREADS =
      Map.of("dsi_compile_enable", "on", "dsi_num_threads", "2");

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
    runWithoutFaults(dir, spec, seedOffset, TRANSACTIONS);
  }

  /** {@link #runWithoutFaults(Path, Pipeline.Spec, long)} with {@code transactions} per client. */
  static void runWithoutFaults(Path dir, Pipeline.Spec spec, long seedOffset, int transactions)
      throws Exception {
    try (Pipeline p = Pipeline.start(dir, spec)) {
      Workload w =
          startWorkload(p, workload(spec, seedOffset).withTransactionsPerClient(transactions));
      finish(p, w);
      p.stop();
    }
  }

  /** Creates the hot rows and starts the default workload's clients. */
  static Workload startWorkload(Pipeline p, Pipeline.Spec spec, long seedOffset)
      throws SQLException {
    return startWorkload(p, workload(spec, seedOffset));
  }

  /** Creates the hot rows and starts {@code settings}' clients. */
  static Workload startWorkload(Pipeline p, Workload.Settings settings) throws SQLException {
    Workload w = p.workload(settings);
    w.createHotRows();
    LOG.info("workload {}", w.settings());
    return w.start();
  }

  /**
   * Waits for the workload's end, then until every replicate applied everything, then compares
   * every table.
   */
  static void finish(Pipeline p, Workload w) throws Exception {
    finish(p, w, DELIVERY);
  }

  /** {@link #finish(Pipeline, Workload)} waiting at most {@code delivery} for the replicates. */
  static void finish(Pipeline p, Workload w, Duration delivery) throws Exception {
    long t0 = System.nanoTime();
    w.await(600);
    LOG.info("workload done ({} ms more): {}", (System.nanoTime() - t0) / 1_000_000, w.summary());
    p.awaitDelivered(delivery);
    p.assertConsistent();
  }

  /**
   * Transactions per client of a workload that runs until the scenario stops it (a bound, not a
   * target).
   */
  static final int UNTIL_STOPPED = 20_000;

  /** Transactions the workload commits between two faults, and after the last one. */
  static final int STEP = Integer.getInteger("openrs.cs.faultStep", 60);

  /** A workload for fault scenarios: runs until {@link Workload#stop}. */
  static Workload.Settings untilStopped(Pipeline.Spec spec, long seedOffset) {
    return workload(spec, seedOffset).withTransactionsPerClient(UNTIL_STOPPED);
  }

  /** Waits until the workload committed {@link #STEP} transactions more than {@code since}. */
  static long awaitStep(Pipeline p, Workload w, long since) {
    awaitProgress(p, w, since + STEP);
    return w.committed();
  }

  /**
   * Waits until the workload committed {@code transactions} transactions, while it still runs (so a
   * fault lands in the middle of it).
   */
  static void awaitProgress(Pipeline p, Workload w, long transactions) {
    awaitCondition(
        p, w, transactions + " committed transactions", () -> w.committed() >= transactions);
    assertThat(w.running())
        .as("the workload still runs after %d transactions", transactions)
        .isTrue();
  }

  /** Waits for {@code condition}, failing early if the workload failed. */
  static void awaitCondition(
      Pipeline p, Workload w, String what, java.util.concurrent.Callable<Boolean> condition) {
    try {
      await()
          .atMost(Duration.ofSeconds(180))
          .pollInterval(Duration.ofMillis(50))
          .until(
              () -> {
                w.checkFailure();
                return condition.call();
              });
    } catch (ConditionTimeoutException e) {
      throw new AssertionError("waited in vain for " + what + "\n" + p.diagnostics(), e);
    }
  }
}
