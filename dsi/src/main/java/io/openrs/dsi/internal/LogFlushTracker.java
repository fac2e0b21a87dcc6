package io.openrs.dsi.internal;

import io.openrs.dsi.DsiCounter;
import io.openrs.queue.QueuePosition;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * With {@code dsi_synchronous_commit off}, the replicate's commits return before its log is
 * flushed, so a crash of the replicate database may lose the last ones. The outbound queue must
 * keep them until they are durable: this tracker tells DSI-S how far it may confirm.
 *
 * <p>How: it takes the DSI's progress (every transaction done so far: its commit has returned),
 * then reads the replicate's log insert position; every commit counted in that progress is written
 * below that position. Once the replicate's flushed position reaches it, that progress is durable.
 * It checks at most every {@link #INTERVAL}, and only while progress is ahead of the durable point;
 * PostgreSQL's WAL writer flushes asynchronous commits within {@code 3 x wal_writer_delay}.
 * Transactions found already applied (rs_lastcommit) are covered the same way: they are in the log
 * below the position read after them.
 *
 * <p>A position says something about a commit only if no crash of the replicate came between the
 * commit and the read, and a crash ends every connection. So the tracker opens its connection at
 * the start of the run, before the run's first transaction is done, and never opens another in the
 * same run: while that connection lives, the replicate has not restarted since any commit the run
 * counted. If it cannot be opened before the first transaction is done, or it is lost, the
 * replicate may have crashed and lost unflushed commits: the tracker forgets what it read and
 * restarts the run (a new run reads the unconfirmed transactions again and skips those
 * rs_lastcommit holds). Any other failure just leaves the queue unconfirmed until a check succeeds.
 * (A connection pooler between the DSI and the replicate can keep a client connection across a
 * restart of the database; with one, use {@code dsi_synchronous_commit on}.)
 *
 * <p>Owned by DSI-S; it reads the positions on a connection of its own.
 */
final class LogFlushTracker {
  private static final Logger LOG = LoggerFactory.getLogger(LogFlushTracker.class);
  static final Duration INTERVAL = Duration.ofMillis(50);

  private final RunContext ctx;
  private QueuePosition durable;
  private QueuePosition pending;
  private long pendingLogPosition;
  private long lastCheckNanos;
  private boolean warned;
  private Connection connection;

  /** The connection was lost or could not vouch for the run: this run confirms no further. */
  private boolean abandoned;

  LogFlushTracker(RunContext ctx) {
    this.ctx = ctx;
  }

  /** How far the queue may be confirmed now: everything done whose commit is on disk. */
  QueuePosition confirmable() {
    if (!ctx.asynchronousCommit()) {
      return ctx.progress();
    }
    long now = System.nanoTime();
    if (connection == null) {
      if (abandoned || now - lastCheckNanos < INTERVAL.toNanos()) {
        return durable;
      }
      lastCheckNanos = now;
      if (!openBeforeFirstCommit()) {
        return durable;
      }
    }
    QueuePosition progress = ctx.progress();
    if (progress == null || (durable != null && !progress.isAfter(durable))) {
      return durable;
    }
    if (now - lastCheckNanos < INTERVAL.toNanos()) {
      return durable;
    }
    lastCheckNanos = now;
    check(progress);
    return durable;
  }

  /**
   * Opens the tracker's connection; true if it can vouch for the run (nothing was done before it
   * was open, {@link RunContext#openedBeforeFirstCommit}); otherwise the run restarts.
   */
  private boolean openBeforeFirstCommit() {
    try {
      open();
    } catch (SQLException | RuntimeException e) {
      warnOnce(e);
      return false;
    }
    // First the connection, then the progress: nothing done yet means every commit the run will
    // count comes after the connection was open.
    if (!ctx.openedBeforeFirstCommit(
        "the connection that reads the replicate's log flush position")) {
      abandoned = true;
      close();
      return false;
    }
    return true;
  }

  /** One check on the connection opened at the run's start (never another: see the class). */
  private void check(QueuePosition progress) {
    try {
      Connection c = connection;
      if (pending == null) {
        pending = progress; // first the progress, then the position: it covers that progress
        pendingLogPosition = ctx.dialect.logInsertPosition(c);
      }
      long flushed = ctx.dialect.logFlushPosition(c);
      ctx.meters.add(DsiCounter.LOG_FLUSH_CHECKS, 1);
      if (flushed >= pendingLogPosition) {
        durable = pending;
        pending = null;
      }
      warned = false;
    } catch (SQLException | RuntimeException e) {
      if (lostConnection(e)) {
        // The replicate may have crashed and lost unflushed commits: a position read before the
        // crash says nothing about the log after it. A new run starts from what is durable.
        pending = null;
        abandoned = true;
        close();
        ctx.restartRun(
            "lost the connection that reads the replicate's log flush position (" + e + ")");
        return;
      }
      warnOnce(e);
    }
  }

  private void warnOnce(Exception e) {
    if (!warned) {
      LOG.warn(
          "{}: cannot read the replicate's log flush position ({}); the outbound queue is not"
              + " confirmed further until it can",
          ctx.name(),
          e.toString());
      warned = true;
    }
  }

  private boolean lostConnection(Exception e) {
    if (e instanceof SQLException sql
        && sql.getSQLState() != null
        && sql.getSQLState().startsWith("08")) {
      return true;
    }
    try {
      return connection == null || !connection.isValid(2);
    } catch (SQLException invalid) {
      return true;
    }
  }

  /**
   * Opens the tracker's own connection, outside the pool (sized for the executors: waiting for one
   * of theirs would stall DSI-S), autocommit.
   */
  private void open() throws SQLException {
    Properties p = new Properties();
    ctx.dialect.driverProperties("openrs-dsi-flush " + ctx.name()).forEach(p::setProperty);
    p.setProperty("user", ctx.target.user());
    p.setProperty("password", ctx.target.password());
    Connection c = DriverManager.getConnection(ctx.target.jdbcUrl(), p);
    try {
      c.setAutoCommit(true);
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    connection = c;
  }

  /** Closes the tracker's connection (DSI-S's exit, or after an error). */
  void close() {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException | RuntimeException e) {
        LOG.debug("{}: closing the log flush connection failed", ctx.name(), e);
      }
      connection = null;
    }
  }
}
