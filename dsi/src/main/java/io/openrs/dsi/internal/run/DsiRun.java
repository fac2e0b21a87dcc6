package io.openrs.dsi.internal.run;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.openrs.dsi.DsiErrorSink;
import io.openrs.dsi.DsiFailure;
import io.openrs.dsi.DsiSettings;
import io.openrs.dsi.DsiTarget;
import io.openrs.dsi.dialect.Dialect;
import io.openrs.dsi.internal.DsiMeters;
import io.openrs.dsi.internal.PoolEviction;
import io.openrs.dsi.internal.RunContext;
import io.openrs.dsi.internal.Scheduler;
import io.openrs.dsi.internal.SerialExecutor;
import io.openrs.dsi.internal.hvar.HvarExecutor;
import io.openrs.dsi.internal.parallel.ParallelCoordinator;
import io.openrs.dsi.internal.parallel.ParallelWorker;
import io.openrs.queue.StableQueue;
import io.openrs.runtime.WorkerThread;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of a DSI, from start (or resume) to stop: a HikariCP pool sized for its threads, the
 * DSI-S thread and the DSIEXEC thread(s) of the settings' {@link io.openrs.dsi.ApplyMode}:
 * continuous, parallel, or HVAR's ({@link HvarExecutor}). This is the one place that switches on
 * the mode: which DSIEXEC threads run, and how DSI-S holds the transactions it reads for them. A
 * run is not restarted: resume makes a new one, which reads the queue from the reader's confirmed
 * position and {@code rs_lastcommit} again.
 */
public final class DsiRun {
  private static final Logger LOG = LoggerFactory.getLogger(DsiRun.class);

  private final RunContext ctx;
  private final Scheduler scheduler;
  private final List<WorkerThread> executors = new ArrayList<>();

  /**
   * Prepares a run (nothing starts until {@link #start()}).
   *
   * @param skipFirst hand the first transaction not yet applied to the exceptions log instead of
   *     applying it ({@code resume connection ... skip transaction})
   * @param onFailure called (on a DSI thread) when the run stops because of an error
   * @param onRestart called (on a DSI thread, at most once) when the run stops so that a new run
   *     starts from the queue's confirmed position (asynchronous commits after a lost connection)
   * @param origins each origin's profile: whether its transactions are applied in replica mode
   */
  public DsiRun(
      DsiTarget target,
      Dialect dialect,
      StableQueue outbound,
      DsiSettings settings,
      DsiErrorSink sink,
      DsiMeters meters,
      Clock clock,
      boolean skipFirst,
      Consumer<DsiFailure> onFailure,
      Runnable onRestart,
      io.openrs.dsi.OriginProfiles origins) {
    HikariConfig hc = new HikariConfig();
    hc.setJdbcUrl(target.jdbcUrl());
    hc.setUsername(target.user());
    hc.setPassword(target.password());
    hc.setPoolName("rs-dsi-" + target.name());
    // A fixed pool: the DSI's sessions (and HVAR's catalog connection) are opened in the
    // background from the resume on, while DSI-S reads its first transactions, instead of one by
    // one when each thread first asks (tens of milliseconds each on a busy replicate).
    hc.setMaximumPoolSize(settings.numThreads() + 1);
    hc.setMinimumIdle(settings.numThreads() + 1);
    hc.setAutoCommit(false);
    hc.setConnectionTimeout(5_000);
    hc.setValidationTimeout(2_000);
    hc.setInitializationFailTimeout(-1);
    hc.setExceptionOverride(new PoolEviction(dialect));
    dialect.driverProperties("openrs-dsi " + target.name()).forEach(hc::addDataSourceProperty);
    RunContext.asynchronousCommitStatement(settings, dialect).ifPresent(hc::setConnectionInitSql);
    HikariDataSource pool = new HikariDataSource(hc);
    this.ctx =
        new RunContext(
            target, dialect, settings, meters, sink, pool, clock, skipFirst, onFailure, onRestart,
            origins);
    this.scheduler =
        switch (settings.applyMode()) {
          case CONTINUOUS -> {
            executors.add(new SerialExecutor(ctx));
            yield new Scheduler(ctx, outbound, executors, Scheduler.Holding.WHOLE);
          }
          case PARALLEL -> {
            // the last dsi_num_large_xact_threads threads are kept for large transactions, which
            // DSI-S streams to them before their commit is read
            int largeThreads = settings.numLargeXactThreads();
            ParallelCoordinator coordinator = new ParallelCoordinator(ctx, largeThreads);
            for (int t = 1; t <= settings.numThreads(); t++) {
              executors.add(
                  new ParallelWorker(ctx, coordinator, t, t > coordinator.normalThreads()));
            }
            yield new Scheduler(
                ctx,
                outbound,
                executors,
                largeThreads > 0 ? Scheduler.Holding.STREAMED_WHEN_LARGE : Scheduler.Holding.WHOLE);
          }
          case HVAR -> {
            executors.addAll(HvarExecutor.threads(ctx));
            yield new Scheduler(ctx, outbound, executors, Scheduler.Holding.PACKED);
          }
        };
    meters.watch(ctx.handoff);
  }

  /** Starts the threads. */
  public void start() {
    executors.forEach(Thread::start);
    scheduler.start();
  }

  /** Asks every thread to stop after its current transaction; does not wait. */
  public void initiateStop() {
    ctx.requestStop();
  }

  /**
   * Stops the run: executors finish the transaction in hand, the reader is confirmed up to what was
   * applied and closed, the pool closed.
   *
   * @return false if the threads did not end within {@code timeout}
   */
  public boolean stop(Duration timeout) throws InterruptedException {
    ctx.requestStop();
    for (WorkerThread e : executors) {
      e.initiateShutdown();
    }
    scheduler.initiateShutdown();
    boolean ended = scheduler.awaitShutdown(timeout);
    if (!ended) {
      LOG.warn("{}: the DSI threads did not stop within {}", ctx.name(), timeout);
    }
    return ended;
  }

  /** True while the run's DSI-S thread is alive. */
  public boolean alive() {
    return !scheduler.ended();
  }
}
