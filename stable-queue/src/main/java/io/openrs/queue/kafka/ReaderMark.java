/*
 * A reader's persisted position: the committed offset of its consumer group
 * (openrs.<server>.queue.<n>-<t>.reader.<name>) on partition 0 of the queue's topic.
 *
 *   +-------------------+---------------------------------------------------------------+
 *   | committed offset  | the next offset the reader reads (Kafka's convention)          |
 *   | metadata          | "openrs-reader-v1 confirmed": the reader confirmed offset - 1  |
 *   |                   | "openrs-reader-v1 start":     the reader confirmed nothing yet |
 *   |                   |                               and starts at offset             |
 *   +-------------------+---------------------------------------------------------------+
 *
 * Written with Admin.alterConsumerGroupOffsets (the groups never have members: the engine's
 * consumers are assigned their partition, they do not subscribe) when the reader is created, on
 * each confirmation, and when a purge resets the readers. A group of that name whose commit holds
 * other metadata is not taken as a reader (logged at WARN).
 */
package io.openrs.queue.kafka;

import io.openrs.queue.QueuePosition;
import java.util.Optional;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * Where a reader stands, as drawn at the top of this file.
 *
 * @param nextOffset the next offset the reader reads
 * @param confirmed true if the reader confirmed the record before {@code nextOffset}
 */
record ReaderMark(long nextOffset, boolean confirmed) {

  static final String CONFIRMED = "openrs-reader-v1 confirmed";
  static final String START = "openrs-reader-v1 start";

  ReaderMark {
    if (nextOffset < 0 || (confirmed && nextOffset == 0)) {
      throw new IllegalArgumentException(
          "reader mark: next offset " + nextOffset + (confirmed ? " after a confirmation" : ""));
    }
  }

  /** A new reader starting at {@code offset}, nothing confirmed. */
  static ReaderMark startingAt(long offset) {
    return new ReaderMark(offset, false);
  }

  /** A reader that confirmed the record at {@code offset}. */
  static ReaderMark confirmedAt(long offset) {
    return new ReaderMark(offset + 1, true);
  }

  /** The confirmed position, if any. */
  Optional<QueuePosition> confirmedPosition() {
    return confirmed ? Optional.of(KafkaPositions.of(nextOffset - 1)) : Optional.empty();
  }

  /**
   * The first offset this reader needs kept: the confirmed record itself (as the file engine keeps
   * the segment holding a confirmation, so the last message survives every reader confirming it),
   * or where it starts.
   */
  long keepFrom() {
    return confirmed ? nextOffset - 1 : nextOffset;
  }

  OffsetAndMetadata toCommit() {
    return new OffsetAndMetadata(nextOffset, confirmed ? CONFIRMED : START);
  }

  /** The mark a committed offset holds, if the engine wrote it. */
  static Optional<ReaderMark> fromCommit(OffsetAndMetadata committed) {
    if (committed == null) {
      return Optional.empty();
    }
    String metadata = committed.metadata();
    if (CONFIRMED.equals(metadata) && committed.offset() > 0) {
      return Optional.of(new ReaderMark(committed.offset(), true));
    }
    if (START.equals(metadata)) {
      return Optional.of(new ReaderMark(committed.offset(), false));
    }
    return Optional.empty();
  }
}
