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
 * below the position read after them. If the tracker loses its connection, the replicate may have
 * crashed: it forgets the position it read and restarts the run (a new run reads the unconfirmed
 * transactions again and skips those rs_lastcommit holds); any other failure just leaves the queue
 * unconfirmed until a check succeeds.
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

  LogFlushTracker(RunContext ctx) {
    this.ctx = ctx;
  }

  /** How far the queue may be confirmed now: everything done whose commit is on disk. */
  QueuePosition confirmable() {
    QueuePosition progress = ctx.progress();
    if (!ctx.asynchronousCommit()) {
      return progress;
    }
    if (progress == null || (durable != null && !progress.isAfter(durable))) {
      return durable;
    }
    long now = System.nanoTime();
    if (now - lastCheckNanos < INTERVAL.toNanos()) {
      return durable;
    }
    lastCheckNanos = now;
    check(progress);
    return durable;
  }

  private void check(QueuePosition progress) {
    try {
      Connection c = connection();
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
        close();
        ctx.restartRun(
            "lost the connection that reads the replicate's log flush position (" + e + ")");
        return;
      }
      if (!warned) {
        LOG.warn(
            "{}: cannot read the replicate's log flush position ({}); the outbound queue is not"
                + " confirmed further until it can",
            ctx.name(),
            e.toString());
        warned = true;
      }
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
   * The tracker's own connection, outside the pool (sized for the executors: waiting for one of
   * theirs would stall DSI-S), opened when first needed, autocommit.
   */
  private Connection connection() throws SQLException {
    if (connection == null) {
      Properties p = new Properties();
      ctx.dialect.driverProperties("openrs-dsi-flush " + ctx.name()).forEach(p::setProperty);
      p.setProperty("user", ctx.target.user());
      p.setProperty("password", ctx.target.password());
      connection = DriverManager.getConnection(ctx.target.jdbcUrl(), p);
      connection.setAutoCommit(true);
    }
    return connection;
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
