package io.openrs.queue.kafka;

import io.openrs.queue.QueueException;
import io.openrs.queue.QueueId;

/**
 * A record in a queue's topic that this engine did not write (its layout is drawn in {@code
 * QueueRecordFormat}); the queue refuses it rather than guess.
 */
public final class KafkaQueueFormatException extends QueueException {

  private final String topic;
  private final long offset;

  public KafkaQueueFormatException(QueueId queue, String topic, long offset, String detail) {
    super(
        queue,
        "record at offset " + offset + " of topic " + topic + " is not a queue record: " + detail,
        null);
    this.topic = topic;
    this.offset = offset;
  }

  /** The topic. */
  public String topic() {
    return topic;
  }

  /** The record's offset. */
  public long offset() {
    return offset;
  }
}
