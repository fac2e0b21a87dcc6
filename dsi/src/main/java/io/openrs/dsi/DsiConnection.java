package io.openrs.dsi;

import io.micrometer.core.instrument.MeterRegistry;
import io.openrs.dsi.dialect.Dialect;
import io.openrs.dsi.internal.DsiMeters;
import io.openrs.dsi.internal.run.DsiRun;
import io.openrs.queue.StableQueue;
import io.openrs.runtime.ThreadNames;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DSI of one replicate connection: reads the connection's outbound queue and applies it to the
 * replicate database, in commit order, exactly once ({@code rs_lastcommit}), with the connection's
 * error actions.
 *
 * <p>Lifecycle: {@link #start} runs it; {@link #suspend()} stops it after the current transaction;
 * {@link #resume()} starts it again where it stopped (re-reading {@code rs_lastcommit}); an error
 * whose action is to stop puts it {@link DsiState.Status#DOWN DOWN} with the failing transaction's
 * OQID, statement and message, from which {@link #resume()} retries the transaction and {@link
 * #resumeSkippingTransaction()} hands it to the exceptions log and moves on. {@link #close()} stops
 * it for good. Every transition is logged and reported to the {@link DsiErrorSink}.
 *
 * <p>Thread-safe. Lifecycle calls block until the DSI's threads have stopped (bounded).
 */
public final class DsiConnection implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DsiConnection.class);

  /** How long lifecycle calls wait for the running transaction to end. */
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(90);

  private final DsiTarget target;
  private final Dialect dialect;
  private final StableQueue outbound;
  private final DsiErrorSink sink;
  private final DsiMeters meters;
  private final Clock clock;
  private final OriginProfiles origins;
  private final Object lifecycle = new Object();
  private final AtomicReference<Current> current;
  private volatile DsiSettings settings;
  private boolean closed;

  /** The run in charge and the state; replaced as a whole, so a stale run cannot change it. */
  private record Current(DsiRun run, DsiState state) {}

  private DsiConnection(
      DsiTarget target,
      StableQueue outbound,
      DsiSettings settings,
      DsiErrorSink sink,
      MeterRegistry registry,
      Clock clock,
      OriginProfiles origins) {
    this.origins = Objects.requireNonNull(origins, "origins");
    this.target = Objects.requireNonNull(target, "target");
    this.dialect = Dialect.forName(target.dialect());
    this.outbound = Objects.requireNonNull(outbound, "outbound");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.sink = Objects.requireNonNull(sink, "errors");
    this.meters = new DsiMeters(registry, target.name());
    this.clock = clock;
    this.current = new AtomicReference<>(new Current(null, DsiState.SUSPENDED));
    meters.watchConnection(
        () -> state().status() == DsiState.Status.RUNNING,
        () -> state().status() == DsiState.Status.DOWN,
        this::backlogBytes,
        clock);
  }

  /**
   * Starts the DSI of {@code target}: it reads {@code outbound} with reader {@code DSI} and applies
   * to the replicate. A replicate that cannot be reached is retried with back-off (the state stays
   * RUNNING).
   *
   * @param errors where skipped or logged transactions and state changes go
   * @param registry where the {@link DsiCounter} meters are registered (removed on close)
   */
  public static DsiConnection start(
      DsiTarget target,
      StableQueue outbound,
      DsiSettings settings,
      DsiErrorSink errors,
      MeterRegistry registry) {
    return start(target, outbound, settings, errors, registry, OriginProfiles.unknown());
  }

  /**
   * As {@link #start(DsiTarget, StableQueue, DsiSettings, DsiErrorSink, MeterRegistry)}, knowing
   * each origin's profile: transactions of origins whose log holds their cascaded changes and
   * trigger rows (PostgreSQL) are applied in replica mode, so the replicate does not repeat them
   * (docs/dsi.md, "The replicate's own rules").
   */
  public static DsiConnection start(
      DsiTarget target,
      StableQueue outbound,
      DsiSettings settings,
      DsiErrorSink errors,
      MeterRegistry registry,
      OriginProfiles origins) {
    DsiConnection c =
        new DsiConnection(target, outbound, settings, errors, registry, Clock.systemUTC(), origins);
    synchronized (c.lifecycle) {
      c.startRun(false);
    }
    return c;
  }

  /**
   * A DSI of {@code target} that does not apply yet: SUSPENDED until {@link #resume()} or {@link
   * #resumeSkippingTransaction()} (a connection suspended before the server stopped).
   */
  public static DsiConnection createSuspended(
      DsiTarget target,
      StableQueue outbound,
      DsiSettings settings,
      DsiErrorSink errors,
      MeterRegistry registry) {
    return createSuspended(target, outbound, settings, errors, registry, OriginProfiles.unknown());
  }

  /** As {@link #createSuspended}, knowing each origin's profile (see {@link #start}). */
  public static DsiConnection createSuspended(
      DsiTarget target,
      StableQueue outbound,
      DsiSettings settings,
      DsiErrorSink errors,
      MeterRegistry registry,
      OriginProfiles origins) {
    return new DsiConnection(
        target, outbound, settings, errors, registry, Clock.systemUTC(), origins);
  }

  /**
   * Bytes of the outbound queue after the DSI reader's confirmed position (everything held before
   * the reader first confirms); 0 when the queue cannot say.
   */
  public long backlogBytes() {
    try {
      io.openrs.queue.QueueInfo info = outbound.info();
      return info.readers().stream()
          .filter(r -> r.name().equals(io.openrs.dsi.internal.Scheduler.READER))
          .mapToLong(io.openrs.queue.ReaderInfo::backlogBytes)
          .findFirst()
          .orElse(info.backlogBytes());
    } catch (RuntimeException e) {
      return 0; // a closed queue: nothing left to apply through this connection
    }
  }

  /**
   * How far the replicate is behind, in seconds ({@code DSILag}: 0 when caught up, NaN unknown),
   * given the {@link #backlogBytes()} just read.
   */
  public double lagSeconds(long backlogBytes) {
    return meters.lagSeconds(backlogBytes);
  }

  /** The origin commit time of the last transaction this DSI applied since it started. */
  public java.util.Optional<java.time.Instant> lastApplied() {
    return meters.lastApplied();
  }

  /** The current state. */
  public DsiState state() {
    return current.get().state();
  }

  /** The settings in use (those of the last start or resume). */
  public DsiSettings settings() {
    return settings;
  }

  /** The target. */
  public DsiTarget target() {
    return target;
  }

  /**
   * {@code suspend connection}: stops applying after the current transaction; nothing is lost, the
   * next resume continues there. Suspending a DOWN connection makes it SUSPENDED.
   */
  public void suspend() {
    synchronized (lifecycle) {
      requireOpen();
      stopRun();
      transition(DsiState.SUSPENDED, null);
    }
  }

  /**
   * {@code resume connection}: starts applying again (retrying the transaction that failed, if
   * DOWN) with the settings of the last start or resume. No effect when RUNNING.
   */
  public void resume() {
    resume(settings);
  }

  /**
   * {@code resume connection} with new settings (parameters changed by {@code alter connection}
   * take effect here). When RUNNING the DSI is restarted to pick them up.
   */
  public void resume(DsiSettings newSettings) {
    Objects.requireNonNull(newSettings, "newSettings");
    synchronized (lifecycle) {
      requireOpen();
      boolean changed = !newSettings.equals(settings);
      if (state().status() == DsiState.Status.RUNNING && !changed) {
        return;
      }
      settings = newSettings;
      stopRun();
      startRun(false);
    }
  }

  /**
   * {@code resume connection ... skip transaction}: the first transaction not yet applied (when
   * DOWN, the one that failed) is handed, with every command, to {@link
   * DsiErrorSink#logTransaction} and recorded as done in {@code rs_lastcommit}; applying continues
   * after it.
   *
   * @throws IllegalStateException if the DSI is running
   */
  public void resumeSkippingTransaction() {
    synchronized (lifecycle) {
      requireOpen();
      if (state().status() == DsiState.Status.RUNNING) {
        throw new IllegalStateException(
            "DSI " + target.name() + " is running; suspend it before skipping a transaction");
      }
      stopRun();
      startRun(true);
    }
  }

  /** Stops the DSI for good and removes its meters. */
  @Override
  public void close() {
    synchronized (lifecycle) {
      if (closed) {
        return;
      }
      stopRun();
      transition(DsiState.SUSPENDED, null);
      closed = true;
      meters.close();
    }
  }

  // ---- internals -----------------------------------------------------------------------------

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("DSI " + target.name() + " is closed");
    }
  }

  /** Under {@code lifecycle}. */
  private void startRun(boolean skipFirst) {
    DsiRun[] self = new DsiRun[1];
    DsiRun run =
        new DsiRun(
            target,
            dialect,
            outbound,
            settings,
            sink,
            meters,
            clock,
            skipFirst,
            failure -> onRunFailed(self[0], failure),
            () -> restartLater(self[0]),
            origins);
    self[0] = run;
    transition(DsiState.RUNNING, run);
    run.start();
  }

  /** Under {@code lifecycle}: stops the current run, if any, and waits for it. */
  private void stopRun() {
    DsiRun run = current.get().run();
    if (run == null) {
      return;
    }
    try {
      run.stop(STOP_TIMEOUT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stopping DSI " + target.name(), e);
    }
  }

  /** Sets the state (under {@code lifecycle}), logs and reports the transition. */
  private void transition(DsiState next, DsiRun run) {
    Current before = current.getAndSet(new Current(run, next));
    if (!before.state().equals(next)) {
      LOG.info("DSI {}: {} -> {}", target.name(), before.state().status(), next);
      report(next);
    }
  }

  /** From a DSI thread: the run stopped because of {@code failure}. Never blocks on lifecycle. */
  private void onRunFailed(DsiRun run, DsiFailure failure) {
    while (true) {
      Current c = current.get();
      if (c.run() != run || c.state().status() != DsiState.Status.RUNNING) {
        return; // a later run, or a suspend/close, has taken over
      }
      DsiState down = DsiState.down(failure);
      if (current.compareAndSet(c, new Current(run, down))) {
        LOG.error("DSI {}: RUNNING -> DOWN: {}", target.name(), failure.describe());
        report(down);
        run.initiateStop();
        return;
      }
    }
  }

  /**
   * From a DSI thread: {@code run} stopped itself to be started again (asynchronous commits after a
   * lost replicate connection). A thread of its own restarts it, unless a suspend, a close or
   * another run has taken over meanwhile.
   */
  private void restartLater(DsiRun run) {
    Thread t =
        ThreadNames.factory("dsi", "restart", target.name())
            .newThread(
                () -> {
                  synchronized (lifecycle) {
                    Current c = current.get();
                    if (closed || c.run() != run || c.state().status() != DsiState.Status.RUNNING) {
                      return;
                    }
                    stopRun();
                    startRun(false);
                  }
                });
    t.start();
  }

  private void report(DsiState s) {
    try {
      sink.stateChanged(s);
    } catch (RuntimeException e) {
      LOG.warn("DSI {}: the error sink failed on a state change", target.name(), e);
    }
  }

  /** For tests: a meter value of this connection's DSI module. */
  long counter(DsiCounter c) {
    return meters.value(c);
  }
}
