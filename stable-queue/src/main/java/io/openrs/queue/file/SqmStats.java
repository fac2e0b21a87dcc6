package io.openrs.queue.file;

/**
 * The write path's counters, each written by one thread only (per page, not per message): the
 * packer ({@link SqmPacker}) keeps {@code cmdsWritten} (counted once durable), {@code
 * blocksFullWrite} and the {@code flushes*}; the writer ({@link SqmWriter}) keeps the rest. Read by
 * Micrometer function meters on any thread, hence {@code volatile}.
 */
final class SqmStats {
  volatile long cmdsWritten;
  volatile long blocksWritten;
  volatile long blocksFullWrite;
  volatile long bytesWritten;
  volatile long writes;
  volatile long writeNanos;
  volatile long flushesPageFull;
  volatile long flushesDrained;
  volatile long flushesSegmentEnd;
  volatile long segWaits;
  volatile long segWaitNanos;
  volatile long segsAllocated;
  volatile long segsDeallocated;

  /**
   * Clock time ({@code monotonicTime}) the ongoing wait for a segment started, when {@code
   * segWaiting}: SQMWaitSegTime counts an ongoing wait as an observation with the time so far, so
   * an operator sees a stuck writer without waiting for the wait to end.
   */
  private long segWaitStart;

  private boolean segWaiting;

  synchronized void segWaitStarted(long now) {
    segWaitStart = now;
    segWaiting = true;
  }

  synchronized void segWaitEnded(long waitedNanos) {
    segWaitNanos += waitedNanos;
    segWaits++;
    segWaiting = false;
  }

  /** Waits for a segment, the ongoing one included. */
  synchronized long segWaitCount() {
    return segWaits + (segWaiting ? 1 : 0);
  }

  /** How long the ongoing wait for a segment has lasted, 0 when the writer does not wait. */
  synchronized long segWaitSoFar(long now) {
    return segWaiting ? Math.max(0, now - segWaitStart) : 0;
  }

  /** Time waited for segments, the ongoing wait's time so far included. */
  synchronized long segWaitNanos(long now) {
    return segWaitNanos + (segWaiting ? Math.max(0, now - segWaitStart) : 0);
  }
}
