package io.openrs.bench.comparison;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * error (the lag is over-estimated by at most one poll plus the query). {@link #series} gives every
 * heartbeat's lag against its time in the run, to tell a steady lag from one that grows.
 */
final class LagProbe implements AutoCloseable {
  private final BenchDb primary;
  private final BenchDb replicate;
  private final Histogram histogram = Stats.lagHistogram();
  private final List<long[]> seen = new ArrayList<>(); // {id, primary time us, lag us}, by poller
  private final long startUs = nowMicros();
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
          long nowUs = nowMicros();
          while (r.next()) {
            long id = r.getLong(1);
            long lag = Math.max(0, nowUs - r.getLong(2));
            synchronized (histogram) {
              histogram.recordValue(Math.min(lag, histogram.getHighestTrackableValue()));
              seen.add(new long[] {id, r.getLong(2), lag});
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

  private static long nowMicros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
  }

  /**
   * One line per heartbeat seen at the replicate: its id, its primary time in seconds since the
   * probe started, and its lag in milliseconds.
   */
  List<String> series() {
    List<String> lines = new ArrayList<>();
    lines.add("id  primary_s  lag_ms");
    synchronized (histogram) {
      for (long[] h : seen) {
        lines.add(
            String.format(Locale.ROOT, "%d  %.3f  %.1f", h[0], (h[1] - startUs) / 1e6, h[2] / 1e3));
      }
    }
    return lines;
  }

  @Override
  public void close() throws InterruptedException {
    sending = false;
    polling = false;
    sender.join(10_000);
    poller.join(10_000);
  }
}
