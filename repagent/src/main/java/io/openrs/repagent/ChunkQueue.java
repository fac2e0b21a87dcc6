package io.openrs.repagent;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The chunks the log reader has handed to the {@link Sender} and the sender has not taken yet:
 * bounded by count (the reader waits while it is full), with the bytes they hold and a flush
 * request. The sender's wait ends when the bytes waiting fill a batch, when the queue is full, when
 * the reader asks for a flush, or when the wait times out; so under load it is woken once per full
 * batch, not once per chunk.
 *
 * <p>Threads: {@link #offer} and {@link #flush} are called by the log reader's thread, {@link
 * #takeBatch} by the sender's; all under one lock.
 */
final class ChunkQueue {

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition batchReady = lock.newCondition();
  private final Condition notFull = lock.newCondition();
  private final ArrayDeque<LtlChunk> chunks = new ArrayDeque<>();
  private final int capacity;
  private final int batchBytes;
  private long bytes;
  private boolean flushRequested;

  /**
   * @param capacity chunks the queue holds before {@link #offer} waits
   * @param batchBytes bytes that make a batch ({@code ltl_batch_size})
   */
  ChunkQueue(int capacity, int batchBytes) {
    if (capacity < 1 || batchBytes < 1) {
      throw new IllegalArgumentException(
          "capacity " + capacity + " and batchBytes " + batchBytes + " must be positive");
    }
    this.capacity = capacity;
    this.batchBytes = batchBytes;
  }

  /** Queues {@code chunk}, waiting up to {@code timeout} for room; whether it was queued. */
  boolean offer(LtlChunk chunk, Duration timeout) throws InterruptedException {
    long nanos = timeout.toNanos();
    lock.lockInterruptibly();
    try {
      while (chunks.size() >= capacity) {
        if (nanos <= 0) {
          return false;
        }
        nanos = notFull.awaitNanos(nanos);
      }
      chunks.addLast(chunk);
      bytes += chunk.text().length;
      if (ready()) {
        batchReady.signal();
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Everything queued now is to go out without waiting to fill a batch. */
  void flush() {
    lock.lock();
    try {
      if (!chunks.isEmpty()) {
        flushRequested = true;
        batchReady.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Moves into {@code out} (empty on entry) the chunks of one batch, oldest first: as many as fit
   * in {@code batchBytes} (at least one). Waits up to {@code timeout} for a batch to be ready; when
   * the wait times out it takes what is queued all the same, and {@code out} stays empty only if
   * nothing is.
   */
  void takeBatch(Duration timeout, List<LtlChunk> out) throws InterruptedException {
    long nanos = timeout.toNanos();
    lock.lockInterruptibly();
    try {
      while (!ready() && nanos > 0) {
        nanos = batchReady.awaitNanos(nanos);
      }
      int size = 0;
      LtlChunk next;
      while ((next = chunks.peekFirst()) != null
          && (out.isEmpty() || size + next.text().length <= batchBytes)) {
        chunks.removeFirst();
        bytes -= next.text().length;
        size += next.text().length;
        out.add(next);
      }
      if (chunks.isEmpty()) {
        flushRequested = false;
      }
      if (!out.isEmpty()) {
        notFull.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Whether {@link #takeBatch} would return without waiting now: the wake rule, observable without
   * timing a wait (ChunkQueueTest).
   */
  boolean isReady() {
    lock.lock();
    try {
      return ready();
    } finally {
      lock.unlock();
    }
  }

  private boolean ready() {
    return bytes >= batchBytes
        || chunks.size() >= capacity
        || (flushRequested && !chunks.isEmpty());
  }
}
