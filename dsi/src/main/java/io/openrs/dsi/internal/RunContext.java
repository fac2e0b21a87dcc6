package io.openrs.dsi.internal;

import com.zaxxer.hikari.HikariDataSource;
import io.openrs.dsi.DsiErrorSink;
import io.openrs.dsi.DsiFailure;
import io.openrs.dsi.DsiSettings;
import io.openrs.dsi.DsiTarget;
import io.openrs.dsi.dialect.Dialect;
import io.openrs.queue.QueuePosition;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * What the threads of one DSI run (start or resume until stop) share: settings, the pool, the
 * hand-off, the applied position, the stop signal and where failures go. Thread-safe.
 */
public final class RunContext {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RunContext.class);

  final DsiTarget target;
  public final Dialect dialect;
  public final DsiSettings settings;
  public final DsiMeters meters;
  final DsiErrorSink sink;
  final ErrorPolicy policy;
  public final HikariDataSource pool;
  public final TransactionHandoff handoff;
  public final Clock clock;

  /** Which origins' transactions are applied in replica mode, and whether the user may. */
  public final OriginRules rules;

  /** Source transactions and commands committed by this DSI (rs_ticket's DSI_T and DSI_C). */
  final LongAdder transactionsCommitted = new LongAdder();

  final LongAdder commandsCommitted = new LongAdder();

  private final AtomicReference<QueuePosition> progress = new AtomicReference<>();
  private final CountDownLatch stopping = new CountDownLatch(1);
  private final AtomicBoolean skipFirst;
  private final Consumer<DsiFailure> onFailure;
  private final Runnable onRestart;
  private final AtomicBoolean restartRequested = new AtomicBoolean();
  private volatile LastCommitStore lastCommit;
  private volatile String schema;

  public RunContext(
      DsiTarget target,
      Dialect dialect,
      DsiSettings settings,
      DsiMeters meters,
      DsiErrorSink sink,
      HikariDataSource pool,
      Clock clock,
      boolean skipFirst,
      Consumer<DsiFailure> onFailure,
      Runnable onRestart,
      io.openrs.dsi.OriginProfiles origins) {
    this.target = target;
    this.rules = new OriginRules(target.name(), origins, settings.keepTriggers());
    this.dialect = dialect;
    this.settings = settings;
    this.meters = meters;
    this.sink = sink;
    this.policy = new ErrorPolicy(dialect, settings.errorClass());
    this.pool = pool;
    this.handoff = new TransactionHandoff(settings.sqtMaxCacheBytes());
    this.clock = clock;
    this.skipFirst = new AtomicBoolean(skipFirst);
    this.onFailure = onFailure;
    this.onRestart = onRestart;
  }

  /** {@code ds.db}. */
  public String name() {
    return target.name();
  }

  /** Rows of {@code rs_threads}: one per in-flight transaction a parallel DSI may have. */
  public int threadRows() {
    return settings.numThreads() > 1 ? 2 * settings.numThreads() + 1 : 0;
  }

  /**
   * Once per run, on the first connection: learns the replicate's schema and creates {@code
   * rs_lastcommit} (and {@code rs_threads}) when missing.
   */
  public synchronized void ensureProgressTables(Connection c) throws SQLException {
    if (lastCommit == null) {
      String s = dialect.currentSchema(c);
      dialect.createProgressTables(c, s, threadRows());
      schema = s;
      lastCommit = new LastCommitStore(dialect, s);
    }
  }

  public LastCommitStore lastCommit() {
    return lastCommit;
  }

  String schema() {
    return schema;
  }

  /** {@code t} is done (committed, already applied, or logged): the queue may be confirmed. */
  public void done(SourceTransaction t) {
    progress.accumulateAndGet(t.last(), (a, b) -> a == null || b.isAfter(a) ? b : a);
  }

  /** Everything up to here is done at the replicate, if anything is. */
  QueuePosition progress() {
    return progress.get();
  }

  /**
   * Whether replicate commits return before the replicate's log is flushed ({@code
   * dsi_synchronous_commit off} on a dialect that can): then the queue is confirmed only up to
   * {@link LogFlushTracker}'s durable point, not up to {@link #progress}.
   */
  boolean asynchronousCommit() {
    return asynchronousCommitStatement(settings, dialect).isPresent();
  }

  /**
   * The statement a new DSI connection runs to commit asynchronously: present when {@code
   * dsi_synchronous_commit} is off and the dialect can.
   */
  public static java.util.Optional<String> asynchronousCommitStatement(
      DsiSettings settings, Dialect dialect) {
    return settings.synchronousCommit()
        ? java.util.Optional.empty()
        : dialect.asynchronousCommitStatement();
  }

  /**
   * Whether a connection just opened ({@code who}) may serve this run: with asynchronous commits,
   * only if nothing is done yet. A crash of the replicate ends every connection, so one opened
   * before the run's first commit and still alive shows no crash came after any commit the run
   * counts; one opened later may follow a crash that lost such a commit (the pool opens new
   * connections silently). If it may not serve, the run restarts: the next one starts from the
   * queue's confirmed position and skips what rs_lastcommit holds.
   */
  boolean openedBeforeFirstCommit(String who) {
    if (!asynchronousCommit() || progress.get() == null) {
      return true;
    }
    restartRun(
        who
            + " connected only after the run's first commit, so it cannot tell whether a crash"
            + " lost that commit");
    return false;
  }

  /** True once (and only once) if this run must skip its first transaction. */
  boolean takeSkip() {
    return skipFirst.compareAndSet(true, false);
  }

  public boolean skipPending() {
    return skipFirst.get();
  }

  /** Asks every thread of the run to stop and wakes those waiting. */
  public void requestStop() {
    stopping.countDown();
    handoff.close();
  }

  public boolean stopping() {
    return stopping.getCount() == 0;
  }

  /** Waits up to {@code d} (a reconnect back-off); true if the run is stopping. */
  public boolean awaitStop(Duration d) throws InterruptedException {
    return stopping.await(d.toNanos(), TimeUnit.NANOSECONDS);
  }

  /**
   * Stops this run and asks for a new one to start from the queue's confirmed position (once per
   * run): with asynchronous commits, after the replicate connection was lost.
   */
  void restartRun(String why) {
    if (restartRequested.compareAndSet(false, true)) {
      LOG.warn("{}: {}; starting the DSI again from the last commit on disk", name(), why);
      requestStop();
      onRestart.run();
    }
  }

  /** Reports the run's failure (the connection goes DOWN) and stops it. */
  public void fail(DsiFailure f) {
    onFailure.accept(f);
    requestStop();
  }
}
