package io.openrs.queue.kafka;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts of a Kafka queue's traffic, for its meters ({@link KafkaQueueMeters}): what its writer had
 * acknowledged, or what one reader's fetcher fetched. Written by the thread doing the work (the
 * producer's I/O thread, the reader's thread), read by any.
 */
final class TrafficStats {
  private final LongAdder records = new LongAdder();
  private final LongAdder bytes = new LongAdder();
  private final LongAdder calls = new LongAdder();
  private final LongAdder nanos = new LongAdder();

  /** One record of {@code bytes} payload bytes, acknowledged {@code nanos} after its send. */
  void acknowledged(long payloadBytes, long elapsedNanos) {
    records.increment();
    bytes.add(payloadBytes);
    calls.increment();
    nanos.add(elapsedNanos);
  }

  /** One fetch from the brokers that took {@code nanos} and brought {@code n} records. */
  void fetched(int n, long elapsedNanos) {
    records.add(n);
    calls.increment();
    nanos.add(elapsedNanos);
  }

  long recordsAcknowledged() {
    return records.sum();
  }

  long bytesAcknowledged() {
    return bytes.sum();
  }

  long acknowledgeNanos() {
    return nanos.sum();
  }

  long fetches() {
    return calls.sum();
  }

  long fetchNanos() {
    return nanos.sum();
  }
}
