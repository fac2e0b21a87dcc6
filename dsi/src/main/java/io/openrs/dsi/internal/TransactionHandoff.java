package io.openrs.dsi.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The bounded hand-off from DSI-S (reading and assembling) to the DSIEXEC threads, bounded by the
 * bytes of the transactions it holds ({@code dsi_sqt_max_cache_size}); a transaction larger than
 * the bound is admitted alone. The same budget bounds the buffered commands of a streamed large
 * transaction ({@link TransactionStream}: {@link #acquire}, {@link #release}), so what DSI-S has
 * read and the executors have not taken stays within the bound. Closing it wakes every waiter.
 * Thread-safe.
 */
public final class TransactionHandoff {
  private final long maxBytes;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notFull = lock.newCondition();
  private final Condition notEmpty = lock.newCondition();
  private final ArrayDeque<SourceTransaction> queue = new ArrayDeque<>();
  private long bytes;
  private boolean closed;

  TransactionHandoff(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /**
   * Adds {@code t}, waiting up to {@code timeoutMillis} for room.
   *
   * @return false if it timed out or the hand-off is closed
   */
  boolean offer(SourceTransaction t, long timeoutMillis) throws InterruptedException {
    long nanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    lock.lock();
    try {
      // a streamed transaction (0 bytes: its stream counts its commands) never waits: what it
      // already holds can only be taken once it is here
      while (!closed && t.handoffBytes() > 0 && bytes > 0 && bytes + t.handoffBytes() > maxBytes) {
        if (nanos <= 0) {
          return false;
        }
        nanos = notFull.awaitNanos(nanos);
      }
      if (closed) {
        return false;
      }
      queue.addLast(t);
      bytes += t.handoffBytes();
      notEmpty.signalAll();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Takes the first transaction, waiting up to {@code timeoutMillis}, and after it every following
   * one already waiting that a new {@link GroupBound} from {@code bounds} lets join: the group is
   * what is there, so a light load gives small groups and low latency.
   *
   * @return the group, empty on time-out or when closed
   */
  public List<SourceTransaction> takeGroup(Supplier<GroupBound> bounds, long timeoutMillis)
      throws InterruptedException {
    long nanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    lock.lock();
    try {
      while (!closed && queue.isEmpty()) {
        if (nanos <= 0) {
          return List.of();
        }
        nanos = notEmpty.awaitNanos(nanos);
      }
      if (closed) {
        return List.of();
      }
      GroupBound bound = bounds.get();
      List<SourceTransaction> group = new ArrayList<>();
      SourceTransaction first = remove();
      bound.first(first);
      group.add(first);
      while (!queue.isEmpty() && bound.joins(queue.peekFirst())) {
        group.add(remove());
      }
      notFull.signalAll();
      return group;
    } finally {
      lock.unlock();
    }
  }

  private SourceTransaction remove() {
    SourceTransaction t = queue.removeFirst();
    bytes -= t.handoffBytes();
    return t;
  }

  /**
   * Reserves {@code n} bytes for a streamed command, waiting up to {@code timeoutMillis} for room
   * (always granted when nothing is held).
   *
   * @return false if it timed out or the hand-off is closed
   */
  boolean acquire(long n, long timeoutMillis) throws InterruptedException {
    long nanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    lock.lock();
    try {
      while (!closed && bytes > 0 && bytes + n > maxBytes) {
        if (nanos <= 0) {
          return false;
        }
        nanos = notFull.awaitNanos(nanos);
      }
      if (closed) {
        return false;
      }
      bytes += n;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Reserves {@code n} bytes without waiting (the commands a stream starts with). */
  void forceAcquire(long n) {
    lock.lock();
    try {
      bytes += n;
    } finally {
      lock.unlock();
    }
  }

  /** Gives back bytes reserved by {@link #acquire} or {@link #forceAcquire}. */
  void release(long n) {
    if (n == 0) {
      return;
    }
    lock.lock();
    try {
      bytes -= n;
      notFull.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Bytes held now. */
  public long bytes() {
    lock.lock();
    try {
      return bytes;
    } finally {
      lock.unlock();
    }
  }

  /** Wakes every waiter; later offers and takes return at once. */
  void close() {
    lock.lock();
    try {
      closed = true;
      notEmpty.signalAll();
      notFull.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
