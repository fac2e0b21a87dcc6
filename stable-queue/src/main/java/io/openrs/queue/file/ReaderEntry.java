package io.openrs.queue.file;

import io.openrs.queue.QueuePosition;
import java.util.Optional;

/**
 * A named reader's state kept by its queue: its truncation point and its counters. The confirmed
 * position is written by the reader's thread and read by the writer thread (to free segments) and
 * admin calls. The counters are written only by the thread that owns the open reader handle.
 */
final class ReaderEntry {

  final String name;
  private volatile QueuePosition confirmed;

  volatile long cmdsRead;
  volatile long blocksRead;
  volatile long blocksReadCached;
  volatile long diskReads;
  volatile long diskReadNanos;
  volatile long sleepsWriteQ;

  /** The open handle, if any; guarded by the queue's reader lock. */
  FileQueueReader handle;

  ReaderEntry(String name, Optional<QueuePosition> confirmed) {
    this.name = name;
    this.confirmed = confirmed.orElse(null);
  }

  Optional<QueuePosition> confirmed() {
    return Optional.ofNullable(confirmed);
  }

  /** Moves the confirmation forward; returns the previous one. Only the owning thread calls. */
  Optional<QueuePosition> advance(QueuePosition position) {
    QueuePosition old = confirmed;
    confirmed = position;
    return Optional.ofNullable(old);
  }

  /** Forgets the confirmation (purge). */
  void reset() {
    confirmed = null;
  }
}
