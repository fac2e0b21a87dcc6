package io.openrs.dsi.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiPredicate;

/**
 * The bounded hand-off from DSI-S (reading and assembling) to the DSIEXEC threads, bounded by the
 * bytes of the transactions it holds ({@code dsi_sqt_max_cache_size}); a transaction larger than
 * the bound is admitted alone. Closing it wakes every waiter. Thread-safe.
 */
final class TransactionHandoff {
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
      while (!closed && !queue.isEmpty() && bytes + t.bytes() > maxBytes) {
        if (nanos <= 0) {
          return false;
        }
        nanos = notFull.awaitNanos(nanos);
      }
      if (closed) {
        return false;
      }
      queue.addLast(t);
      bytes += t.bytes();
      notEmpty.signalAll();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Takes the first transaction, waiting up to {@code timeoutMillis}, and after it every following
   * one already waiting that {@code joins(group, next)} accepts: the group is what is there, so a
   * light load gives small groups and low latency.
   *
   * @return the group, empty on time-out or when closed
   */
  List<SourceTransaction> takeGroup(
      BiPredicate<List<SourceTransaction>, SourceTransaction> joins, long timeoutMillis)
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
      List<SourceTransaction> group = new ArrayList<>();
      group.add(remove());
      while (!queue.isEmpty() && joins.test(group, queue.peekFirst())) {
        group.add(remove());
      }
      return group;
    } finally {
      lock.unlock();
    }
  }

  private SourceTransaction remove() {
    SourceTransaction t = queue.removeFirst();
    bytes -= t.bytes();
    notFull.signalAll();
    return t;
  }

  /** Bytes held now. */
  long bytes() {
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
