package io.openrs.consistency.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Lag from primary commit to replicate commit, by heartbeat rows: one thread inserts a row into
 * {@code bench_hb} at the primary every {@code intervalMs} (autocommit, its time {@code
 * clock_timestamp()} at the insert, just before the commit); another polls the replicate every
 * {@code pollMs} for rows it has not seen and records, for each, the time it became visible minus
 * its primary time, in microseconds. Both clocks are this machine's. The poll interval bounds the
 * error (the lag is over-estimated by at most one poll plus the query).
 */
final class LagProbe implements AutoCloseable {
  private final BenchDb primary;
  private final BenchDb replicate;
  private final Histogram histogram = Stats.lagHistogram();
  private final AtomicLong lastSent = new AtomicLong(-1);
  private final AtomicLong lastSeen = new AtomicLong(-1);
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private volatile boolean sending = true;
  private volatile boolean polling = true;
  private final Thread sender;
  private final Thread poller;

  LagProbe(BenchDb primary, BenchDb replicate, int intervalMs, int pollMs) throws SQLException {
    this.primary = primary;
    this.replicate = replicate;
    String max =
        replicate.scalar("SELECT coalesce(max(id), 0) FROM " + replicate.schema() + ".bench_hb");
    lastSeen.set(Long.parseLong(max));
    sender = new Thread(() -> send(intervalMs), "lag-sender");
    poller = new Thread(() -> poll(pollMs), "lag-poller");
    sender.setDaemon(true);
    poller.setDaemon(true);
    poller.start();
    sender.start();
  }

  private void send(int intervalMs) {
    try (Connection c = primary.connect();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO " + primary.schema() + ".bench_hb DEFAULT VALUES RETURNING id")) {
      long next = System.nanoTime();
      while (sending) {
        try (ResultSet r = ps.executeQuery()) {
          r.next();
          lastSent.set(r.getLong(1));
        }
        next += TimeUnit.MILLISECONDS.toNanos(intervalMs);
        long wait = next - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait); // pacing the heartbeat, not synchronization
        } else {
          next = System.nanoTime();
        }
      }
    } catch (Throwable e) {
      failure.compareAndSet(null, e);
    }
  }

  private void poll(int pollMs) {
    try (Connection c = replicate.connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT id, (extract(epoch FROM t) * 1000000)::bigint FROM "
                    + replicate.schema()
                    + ".bench_hb WHERE id > ? ORDER BY id")) {
      while (polling) {
        ps.setLong(1, lastSeen.get());
        try (ResultSet r = ps.executeQuery()) {
          Instant now = Instant.now();
          long nowUs = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
          while (r.next()) {
            long id = r.getLong(1);
            long lag = Math.max(0, nowUs - r.getLong(2));
            synchronized (histogram) {
              histogram.recordValue(Math.min(lag, histogram.getHighestTrackableValue()));
            }
            lastSeen.set(id);
          }
        }
        TimeUnit.MILLISECONDS.sleep(pollMs); // the poll interval, not synchronization
      }
    } catch (Throwable e) {
      failure.compareAndSet(null, e);
    }
  }

  /** Stops the heartbeat, waits until its last row reached the replicate, returns the lags. */
  Histogram finish(long timeoutMs) throws Exception {
    sending = false;
    sender.join(10_000);
    long last = lastSent.get();
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (lastSeen.get() < last) {
      if (failure.get() != null) {
        throw new IllegalStateException("lag probe failed", failure.get());
      }
      if (System.nanoTime() > end) {
        throw new IllegalStateException(
            "heartbeat " + last + " did not reach " + replicate + " within " + timeoutMs + " ms");
      }
      poller.join(20);
    }
    close();
    if (failure.get() != null) {
      throw new IllegalStateException("lag probe failed", failure.get());
    }
    synchronized (histogram) {
      return histogram.copy();
    }
  }

  @Override
  public void close() throws InterruptedException {
    sending = false;
    polling = false;
    sender.join(10_000);
    poller.join(10_000);
  }
}
