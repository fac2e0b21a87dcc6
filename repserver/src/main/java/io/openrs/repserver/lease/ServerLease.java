package io.openrs.repserver.lease;

import io.openrs.config.rssd.LeaseTable;
import io.openrs.config.rssd.RssdException;
import io.openrs.runtime.ThreadNames;
import io.openrs.runtime.WorkerThread;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This server's hold on the RSSD's server lease ({@code server_lease_ms}): {@link #acquire} waits
 * until the lease is free or expired and takes it (a standby waits here); a renewal thread then
 * extends it every third of its time. The server holds the lease, by its own monotonic clock, until
 * a {@code server_lease_ms} minus a tenth after the start of its last successful renewal, which
 * ends before the RSSD lets another server take it; when that time passes without a renewal, or a
 * renewal finds the lease taken, the lease is lost and {@code onLost} runs once (the process stops
 * at once, writing nothing more).
 */
public final class ServerLease implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ServerLease.class);

  private final LeaseTable table;
  private final String holder;
  private final Duration ttl;
  private final long epoch;
  private final Renewer renewer;
  private volatile long heldUntilNanos;
  private volatile boolean lost;

  private ServerLease(
      LeaseTable table, String holder, Duration ttl, long epoch, long requestStartNanos) {
    this.table = table;
    this.holder = holder;
    this.ttl = ttl;
    this.epoch = epoch;
    this.heldUntilNanos = requestStartNanos + safeNanos(ttl);
    this.renewer = new Renewer();
  }

  /** The part of the lease time this server counts on: nine tenths, against clock drift. */
  private static long safeNanos(Duration ttl) {
    return ttl.toNanos() - ttl.toNanos() / 10;
  }

  /**
   * Waits until the lease can be taken and takes it; says once per holder who holds it and when it
   * expires, and once per failure when the RSSD cannot be reached.
   *
   * @param holder this server process, as the RSSD and the other servers see it
   * @param ttl {@code server_lease_ms}
   * @param onLost what runs, once, when the lease is lost
   * @throws InterruptedException when the thread is interrupted while waiting
   */
  public static ServerLease acquire(LeaseTable table, String holder, Duration ttl, Runnable onLost)
      throws InterruptedException {
    Objects.requireNonNull(onLost, "onLost");
    long pollMs = Math.max(100, ttl.toMillis() / 3);
    String lastSaid = null;
    while (true) {
      long start = System.nanoTime();
      try {
        Optional<Long> epoch = table.tryAcquire(holder, ttl);
        if (epoch.isPresent()) {
          ServerLease lease = new ServerLease(table, holder, ttl, epoch.get(), start);
          lease.start(onLost);
          LOG.info(
              "server lease taken by {} (epoch {}, {} ms, renewed every {} ms)",
              holder,
              epoch.get(),
              ttl.toMillis(),
              pollMs);
          return lease;
        }
        LeaseTable.LeaseState s = table.read();
        String said = "held by " + s.holder().orElse("nobody");
        if (!said.equals(lastSaid)) {
          LOG.info(
              "standby: the server lease is {} (epoch {}, expires in {} ms); waiting to take over",
              said,
              s.epoch(),
              s.remaining().toMillis());
          lastSaid = said;
        }
      } catch (RssdException e) {
        String said = "RSSD: " + e.getMessage();
        if (!said.equals(lastSaid)) {
          LOG.warn("standby: cannot reach the server lease in the {}; retrying", said);
          lastSaid = said;
        }
      }
      Thread.sleep(pollMs);
    }
  }

  private void start(Runnable onLost) {
    renewer.onLost = onLost;
    renewer.start();
  }

  /** The epoch at which this server took the lease. */
  public long epoch() {
    return epoch;
  }

  /** This server process as the lease names it. */
  public String holder() {
    return holder;
  }

  /** Whether the lease is still this server's, by its own clock. */
  public boolean held() {
    return !lost && System.nanoTime() - heldUntilNanos < 0;
  }

  /** The lease as this server holds it now. */
  public LeaseStatus status() {
    return new LeaseStatus(
        holder, epoch, ttl, Duration.ofNanos(heldUntilNanos - System.nanoTime()), held());
  }

  /** Stops renewing and gives the lease up, so a standby takes it at once. */
  @Override
  public void close() {
    try {
      renewer.shutdown(Duration.ofSeconds(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!lost) {
      try {
        table.release(holder, epoch);
        LOG.info("server lease released by {} (epoch {})", holder, epoch);
      } catch (RssdException e) {
        LOG.warn("cannot release the server lease (it expires by itself): {}", e.getMessage());
      }
    }
  }

  /** Renews every third of the lease time; declares the lease lost when it cannot. */
  private final class Renewer extends WorkerThread {
    private final Object wake = new Object();
    private volatile Runnable onLost;
    private String lastProblem;

    Renewer() {
      super(ThreadNames.of("repserver", "lease"), StopPolicy.AFTER_STEP);
    }

    @Override
    protected boolean doWork() throws InterruptedException {
      synchronized (wake) {
        long waitMs = Math.max(1, ttl.toMillis() / 3);
        long untilDeadlineMs = (heldUntilNanos - System.nanoTime()) / 1_000_000;
        wake.wait(Math.max(1, Math.min(waitMs, untilDeadlineMs)));
      }
      if (shutdownRequested()) {
        return false;
      }
      long start = System.nanoTime();
      if (System.nanoTime() - heldUntilNanos >= 0) {
        return lose(
            "not renewed in time (" + (lastProblem == null ? "no answer" : lastProblem) + ")");
      }
      try {
        if (table.renew(holder, epoch, ttl)) {
          heldUntilNanos = start + safeNanos(ttl);
          if (lastProblem != null) {
            LOG.info("server lease renewed again after: {}", lastProblem);
            lastProblem = null;
          }
          return true;
        }
        return lose("another server took it");
      } catch (RssdException e) {
        if (lastProblem == null) {
          LOG.warn("cannot renew the server lease: {}; retrying until it runs out", e.getMessage());
        }
        lastProblem = e.getMessage();
        return true;
      }
    }

    private boolean lose(String why) {
      lost = true;
      LOG.error(
          "server lease of {} (epoch {}) lost: {}; this server stops now", holder, epoch, why);
      onLost.run();
      return false;
    }

    @Override
    protected void wakeUp() {
      synchronized (wake) {
        wake.notifyAll();
      }
    }
  }
}
