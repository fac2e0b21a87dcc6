package io.openrs.queue.kafka;

import io.openrs.queue.QueuePosition;

/**
 * Kafka offsets as queue positions. A queue is one single-partition topic, so a message's offset is
 * its place in the queue: position {@code seg.blk.row} = {@code <offset>.0.0}. The record is also
 * the unit of truncation ({@code deleteRecords}), as the segment is in the file engine, so {@link
 * io.openrs.queue.QueueInfo}'s segment fields count records. Positions strictly increase and are
 * never reused (Kafka never reuses an offset, not even after a purge).
 */
final class KafkaPositions {

  private KafkaPositions() {}

  /** The position of the record at {@code offset}. */
  static QueuePosition of(long offset) {
    return new QueuePosition(offset, 0, 0);
  }

  /** The offset of a position made by {@link #of}. */
  static long offsetOf(QueuePosition position) {
    return position.segment();
  }

  /**
   * The first offset at or after {@code position}: a position with a non-zero block or row (not one
   * this engine hands out) lies after its segment's record.
   */
  static long firstOffsetFrom(QueuePosition position) {
    boolean exact = position.block() == 0 && position.row() == 0;
    return exact ? position.segment() : position.segment() + 1;
  }
}
