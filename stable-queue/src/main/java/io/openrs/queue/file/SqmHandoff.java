package io.openrs.queue.file;

import io.openrs.queue.QueueClosedException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The two bounded hand-offs of a queue's write path, under one lock so the packer can wait for
 * either side:
 *
 * <ol>
 *   <li>producers → {@link SqmPacker}: {@link WriteTask}s, bounded by {@code
 *       exec_sqm_write_request_limit} bytes (producers block while it is full);
 *   <li>{@link SqmPacker} → {@link SqmWriter}: packed {@link PageBuffer}s and purge orders, in
 *       order, bounded by the number of page buffers; and back: pages marked durable.
 * </ol>
 *
 * <p>Producers wake the packer only when enough bytes wait for what it is waiting for ({@link
 * #packerWakeBytes}), not on every message. Thread-safe: every field is guarded by {@link #lock}.
 */
final class SqmHandoff {

  /** What the writer thread is handed, in order. */
  sealed interface WriterTask permits PageBuffer, WriterTask.Purge {

    /** Drop every segment before {@code newFirst}; writing continues there. */
    record Purge(long newFirst, CompletableFuture<Void> future) implements WriterTask {}
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition packerWork = lock.newCondition();
  private final Condition writerWork = lock.newCondition();
  private final Condition bufferSpace = lock.newCondition();
  private final long limitBytes;

  // producers -> packer
  private final ArrayDeque<WriteTask> pending = new ArrayDeque<>();
  private long pendingBytes;
  private boolean accepting = true;
  private long packerWakeBytes = 1;

  // packer <-> writer
  private final ArrayDeque<WriterTask> toWrite = new ArrayDeque<>();
  private boolean writerBusy;
  private boolean truncationMoved;
  private boolean packerDone;
  private boolean writerDone;
  private boolean stopped;

  SqmHandoff(long limitBytes) {
    this.limitBytes = limitBytes;
  }

  // ---- producers ---------------------------------------------------------------------------

  /**
   * Queues {@code task}, blocking while {@code bytes} more would exceed the limit (a request is
   * always accepted into an empty buffer, whatever its size).
   *
   * @throws QueueClosedException from {@code closed} if the queue stops accepting meanwhile
   */
  void put(WriteTask task, long bytes, Supplier<QueueClosedException> closed)
      throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (accepting && pendingBytes > 0 && pendingBytes + bytes > limitBytes) {
        bufferSpace.await();
      }
      if (!accepting) {
        throw closed.get();
      }
      pending.addLast(task);
      pendingBytes += bytes;
      if (pendingBytes >= packerWakeBytes || task instanceof WriteTask.Purge) {
        packerWork.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Queues a purge request without waiting for buffer space (it holds no bytes). */
  void putPurge(WriteTask.Purge task, Supplier<QueueClosedException> closed) {
    lock.lock();
    try {
      if (!accepting) {
        throw closed.get();
      }
      pending.addLast(task);
      packerWork.signal();
    } finally {
      lock.unlock();
    }
  }

  /** No more producer requests: blocked producers wake and get {@code QueueClosedException}. */
  void stopAccepting() {
    lock.lock();
    try {
      accepting = false;
      bufferSpace.signalAll();
    } finally {
      lock.unlock();
    }
  }

  // ---- packer ------------------------------------------------------------------------------

  /**
   * Packer side: moves waiting appends into {@code into}, up to {@code budgetBytes} (at least one),
   * stopping at a purge.
   */
  void takeAppends(ArrayDeque<WriteTask.Append> into, long budgetBytes) {
    lock.lock();
    try {
      long moved = 0;
      while (!pending.isEmpty()
          && pending.peekFirst() instanceof WriteTask.Append a
          && (moved == 0 || moved + a.bytes() <= budgetBytes)) {
        pending.pollFirst();
        into.addLast(a);
        moved += a.bytes();
      }
      if (moved > 0) {
        pendingBytes -= moved;
        bufferSpace.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Packer side: takes the purge request if it is next in line. */
  WriteTask.Purge takePurgeAtHead() {
    lock.lock();
    try {
      if (pending.peekFirst() instanceof WriteTask.Purge p) {
        pending.pollFirst();
        return p;
      }
      return null;
    } finally {
      lock.unlock();
    }
  }

  /** What the packer may act on, read under the lock by {@link #awaitPackerWork}. */
  interface PackerView {
    /**
     * True if the packer has something to do now, given what waits from producers ({@code
     * pendingBytes}, {@code purgeAtHead}) and whether the writer is idle.
     */
    boolean ready(long pendingBytes, boolean purgeAtHead, boolean writerIdle);

    /** Producer bytes that should wake the packer (Long.MAX_VALUE: only the writer wakes it). */
    long wakeBytes(boolean writerIdle);

    /** True if the packer has nothing in flight or half-packed and may end on shutdown. */
    boolean idle();
  }

  /**
   * Packer side: waits until {@code view} is ready, or the packer should end: on shutdown once idle
   * with nothing pending, or when the writer has ended or the queue stopped. Returns false to end.
   */
  boolean awaitPackerWork(PackerView view, BooleanSupplier shutdown) throws InterruptedException {
    lock.lock();
    try {
      while (true) {
        if (stopped || writerDone) {
          return false;
        }
        boolean writerIdle = toWrite.isEmpty() && !writerBusy;
        boolean purgeAtHead = pending.peekFirst() instanceof WriteTask.Purge;
        if (view.ready(pendingBytes, purgeAtHead, writerIdle)) {
          packerWakeBytes = 1;
          return true;
        }
        if (shutdown.getAsBoolean() && pending.isEmpty() && view.idle()) {
          return false;
        }
        packerWakeBytes = view.wakeBytes(writerIdle);
        packerWork.await();
      }
    } finally {
      lock.unlock();
    }
  }

  /** True if the writer has nothing queued and is not writing. */
  boolean writerIdle() {
    lock.lock();
    try {
      return toWrite.isEmpty() && !writerBusy;
    } finally {
      lock.unlock();
    }
  }

  /** True if {@code page} has been marked durable by the writer. */
  boolean isDurable(PageBuffer page) {
    lock.lock();
    try {
      return page.durable;
    } finally {
      lock.unlock();
    }
  }

  /** Packer side: hands a page or a purge order to the writer. */
  void submit(WriterTask task) {
    lock.lock();
    try {
      toWrite.addLast(task);
      writerWork.signal();
    } finally {
      lock.unlock();
    }
  }

  /** Packer side, on exit: no more pages will come. */
  void packerDone() {
    lock.lock();
    try {
      packerDone = true;
      writerWork.signal();
    } finally {
      lock.unlock();
    }
  }

  // ---- writer ------------------------------------------------------------------------------

  /**
   * Writer side: the next page or purge order, waiting for one. Returns null after a truncation
   * point moved (the writer may free segments) or when the writer should end ({@link
   * #writerShouldEnd}).
   */
  WriterTask awaitWriterWork(BooleanSupplier shutdown) throws InterruptedException {
    lock.lock();
    try {
      while (toWrite.isEmpty() && !truncationMoved) {
        if (stopped || (shutdown.getAsBoolean() && packerDone)) {
          return null;
        }
        writerWork.await();
      }
      truncationMoved = false;
      if (stopped) {
        return null;
      }
      WriterTask t = toWrite.pollFirst();
      writerBusy = t != null;
      return t;
    } finally {
      lock.unlock();
    }
  }

  /** True once the writer has nothing more to do: stopped, or shut down after the packer. */
  boolean writerShouldEnd(boolean shutdownRequested) {
    lock.lock();
    try {
      return stopped || (shutdownRequested && packerDone && toWrite.isEmpty());
    } finally {
      lock.unlock();
    }
  }

  /** Writer side: {@code page} is durable; the packer completes its requests. */
  void markDurable(PageBuffer page) {
    lock.lock();
    try {
      page.durable = true;
      writerBusy = false;
      packerWork.signal();
    } finally {
      lock.unlock();
    }
  }

  /** Writer side: a purge order is done. */
  void writerIdleAgain() {
    lock.lock();
    try {
      writerBusy = false;
      packerWork.signal();
    } finally {
      lock.unlock();
    }
  }

  /** Writer side, on exit: pages still queued will never be written. */
  void writerDone() {
    lock.lock();
    try {
      writerDone = true;
      writerBusy = false;
      packerWork.signal();
    } finally {
      lock.unlock();
    }
  }

  /** A reader's truncation point moved: the writer looks for segments to free. */
  void truncationMoved() {
    lock.lock();
    try {
      truncationMoved = true;
      writerWork.signal();
    } finally {
      lock.unlock();
    }
  }

  boolean stopped() {
    lock.lock();
    try {
      return stopped;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The queue stopped (fatal error): fails every request still waiting and every queued purge with
   * {@code closed}, and wakes producers, the packer and the writer. Queued pages are left to the
   * packer, which fails their requests.
   */
  void stop(QueueClosedException closed) {
    List<CompletableFuture<?>> failed = new ArrayList<>();
    lock.lock();
    try {
      stopped = true;
      accepting = false;
      drainPending(failed);
      for (WriterTask t : toWrite) {
        if (t instanceof WriterTask.Purge p) {
          failed.add(p.future());
        }
      }
      toWrite.removeIf(t -> t instanceof WriterTask.Purge);
      packerWork.signalAll();
      writerWork.signalAll();
    } finally {
      lock.unlock();
    }
    failed.forEach(f -> f.completeExceptionally(closed));
  }

  /** Fails every request still waiting for the packer (packer exit, stop). */
  void failPending(QueueClosedException closed) {
    List<CompletableFuture<?>> failed = new ArrayList<>();
    lock.lock();
    try {
      drainPending(failed);
    } finally {
      lock.unlock();
    }
    // Outside the lock: a dependent action may call back into the queue.
    failed.forEach(f -> f.completeExceptionally(closed));
  }

  private void drainPending(List<CompletableFuture<?>> into) {
    for (WriteTask t : pending) {
      if (t instanceof WriteTask.Append a) {
        into.add(a.future());
      } else if (t instanceof WriteTask.Purge p) {
        into.add(p.future());
      }
    }
    pending.clear();
    pendingBytes = 0;
    bufferSpace.signalAll();
  }

  /** Wakes the packer wherever it waits (shutdown). */
  void wakePacker() {
    lock.lock();
    try {
      packerWork.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Wakes the writer wherever it waits on this hand-off (shutdown). */
  void wakeWriter() {
    lock.lock();
    try {
      writerWork.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
