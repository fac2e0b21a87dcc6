package io.openrs.repserver.nrm;

import io.openrs.ltl.LtlCommand;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bounded hand-off from EXEC (network thread) to NRM: parsed commands, bounded by {@code
 * exec_nrm_request_limit} bytes of LTL text. EXEC never blocks on it: when a batch does not fit,
 * {@link #offer} refuses it and remembers a callback that runs (on NRM's thread) once NRM has taken
 * enough; EXEC stops reading from the agent until then. One batch always fits an empty queue, so a
 * batch larger than the limit still passes, alone.
 */
public final class NrmRequestQueue {

  /** Parsed commands of one batch (or its part before a parse error). */
  public record Request(List<LtlCommand.InTransaction> commands, long textBytes) {}

  private final long limitBytes;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  private final ArrayDeque<Request> requests = new ArrayDeque<>();
  private final List<Runnable> waitingForSpace = new ArrayList<>();
  private long queuedBytes;

  public NrmRequestQueue(long limitBytes) {
    if (limitBytes <= 0) {
      throw new IllegalArgumentException("exec_nrm_request_limit must be positive: " + limitBytes);
    }
    this.limitBytes = limitBytes;
  }

  /**
   * Queues the request if it fits.
   *
   * @param onSpace run once when space frees, if the request was refused
   * @return whether it was queued
   */
  public boolean offer(Request r, Runnable onSpace) {
    lock.lock();
    try {
      if (!requests.isEmpty() && queuedBytes + r.textBytes() > limitBytes) {
        waitingForSpace.add(onSpace);
        return false;
      }
      requests.add(r);
      queuedBytes += r.textBytes();
      notEmpty.signal();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** The next request, waiting up to {@code timeoutMillis}. */
  public Optional<Request> take(long timeoutMillis) throws InterruptedException {
    List<Runnable> wake;
    Request r;
    lock.lock();
    try {
      long nanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
      while (requests.isEmpty()) {
        if (nanos <= 0) {
          return Optional.empty();
        }
        nanos = notEmpty.awaitNanos(nanos);
      }
      r = requests.poll();
      queuedBytes -= r.textBytes();
      wake = waitingForSpace.isEmpty() ? List.of() : new ArrayList<>(waitingForSpace);
      waitingForSpace.clear();
    } finally {
      lock.unlock();
    }
    for (Runnable w : wake) {
      w.run();
    }
    return Optional.of(r);
  }

  /** Drops every queued request (log transfer stopped); wakes whoever waits for space. */
  public int clear() {
    List<Runnable> wake;
    int n;
    lock.lock();
    try {
      n = requests.size();
      requests.clear();
      queuedBytes = 0;
      wake = new ArrayList<>(waitingForSpace);
      waitingForSpace.clear();
    } finally {
      lock.unlock();
    }
    wake.forEach(Runnable::run);
    return n;
  }
}
