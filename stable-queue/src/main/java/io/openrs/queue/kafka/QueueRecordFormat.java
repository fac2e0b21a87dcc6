/*
 * The Kafka record of one queue message (topic openrs.<server>.queue.<n>-<t>, partition 0):
 *
 *   +-----------+------------------------------------------------------------------+
 *   | key       | none (null): one partition, nothing to route by                  |
 *   | value     | the message, byte for byte (0..sqm_max_message_size bytes)       |
 *   | header    | "openrs.byte-offset": 8 bytes, big-endian signed long: the       |
 *   |           | payload bytes written to the queue before this message (the sum  |
 *   |           | of the value lengths of every earlier record, including purged   |
 *   |           | and truncated ones). The first message has 0.                    |
 *   | timestamp | the producer's create time (not used by the engine)              |
 *   +-----------+------------------------------------------------------------------+
 *
 * The offset of the record is the message's position (KafkaPositions). The byte offset lets the
 * engine tell backlog and held bytes from two records without reading what lies between.
 */
package io.openrs.queue.kafka;

import io.openrs.queue.QueueId;
import io.openrs.queue.QueueMessage;
import java.nio.ByteBuffer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;

/** Encodes and decodes the record layout drawn at the top of this file. */
final class QueueRecordFormat {

  static final String BYTE_OFFSET_HEADER = "openrs.byte-offset";

  private QueueRecordFormat() {}

  /** The record for {@code payload}, the {@code byteOffset}-th payload byte of the queue. */
  static ProducerRecord<byte[], byte[]> encode(String topic, byte[] payload, long byteOffset) {
    RecordHeaders headers = new RecordHeaders();
    headers.add(
        new RecordHeader(
            BYTE_OFFSET_HEADER, ByteBuffer.allocate(Long.BYTES).putLong(byteOffset).array()));
    return new ProducerRecord<>(topic, 0, null, null, payload, headers);
  }

  /** The message a record holds. */
  static QueueMessage message(ConsumerRecord<byte[], byte[]> record) {
    byte[] value = record.value();
    return new QueueMessage(
        KafkaPositions.of(record.offset()), value == null ? new byte[0] : value);
  }

  /**
   * The byte offset of a record written by this engine.
   *
   * @throws KafkaQueueFormatException if the header is missing or not 8 bytes (the topic holds a
   *     record some other client wrote)
   */
  static long byteOffset(QueueId queue, ConsumerRecord<byte[], byte[]> record) {
    Header h = record.headers().lastHeader(BYTE_OFFSET_HEADER);
    if (h == null || h.value() == null || h.value().length != Long.BYTES) {
      throw new KafkaQueueFormatException(
          queue,
          record.topic(),
          record.offset(),
          "header "
              + BYTE_OFFSET_HEADER
              + (h == null || h.value() == null
                  ? " is missing"
                  : " is " + h.value().length + " bytes, not 8"));
    }
    return ByteBuffer.wrap(h.value()).getLong();
  }

  /** The byte offset just after the record's payload. */
  static long byteEnd(QueueId queue, ConsumerRecord<byte[], byte[]> record) {
    return byteOffset(queue, record) + (record.value() == null ? 0 : record.value().length);
  }
}
