package io.openrs.dsi.internal;

import io.openrs.dsi.DsiCounter;
import io.openrs.queue.QueuePosition;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
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
 * below the position read after them. If a check fails, the queue is simply not confirmed further
 * (the next check tries again); a restart reads the unconfirmed transactions again and skips those
 * rs_lastcommit holds.
 *
 * <p>Owned by DSI-S.
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
    try (Connection c = ctx.pool.getConnection()) {
      try {
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
      } finally {
        c.rollback();
      }
      warned = false;
    } catch (SQLException | RuntimeException e) {
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
}
