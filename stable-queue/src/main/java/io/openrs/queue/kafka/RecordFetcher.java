package io.openrs.queue.kafka;

import io.openrs.queue.QueueClosedException;
import io.openrs.queue.QueueException;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * One consumer assigned the queue's partition (no group), read from a given offset: a reader's
 * sequential reads and the queue's random-access reads ({@code dump}, {@code lastMessage}).
 * Thread-safe by its monitor; every call is bounded by the engine's operation timeout. An offset
 * already deleted reads from the oldest record held ({@code auto.offset.reset=earliest}).
 */
final class RecordFetcher implements AutoCloseable {

  private static final Duration POLL_SLICE = Duration.ofMillis(100);

  private final QueueId queue;
  private final TopicPartition partition;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Duration timeout;

  /** Where the consumer stands, -1 if unknown; guarded by this. */
  private long position = -1;

  private boolean closed;

  RecordFetcher(
      QueueId queue,
      TopicPartition partition,
      KafkaConsumer<byte[], byte[]> consumer,
      Duration timeout) {
    this.queue = queue;
    this.partition = partition;
    this.consumer = consumer;
    this.timeout = timeout;
    consumer.assign(List.of(partition));
  }

  private final TrafficStats stats = new TrafficStats();

  /**
   * The next records Kafka returns from {@code from} on (possibly past {@code stop}); none only if
   * the records before {@code stop} no longer exist (the consumer moved to the oldest held, at or
   * after {@code stop}).
   *
   * @param stop an offset the caller knows is held up to (exclusive): a record before it exists or
   *     was deleted, so waiting the whole timeout for one is an error
   * @throws QueueException if nothing arrives within the timeout
   */
  /** Its fetches that brought records, and their time. */
  TrafficStats stats() {
    return stats;
  }

  synchronized List<ConsumerRecord<byte[], byte[]>> fetch(long from, long stop) {
    return fetch(from, stop, timeout);
  }

  private List<ConsumerRecord<byte[], byte[]>> fetch(long from, long stop, Duration timeout) {
    if (closed) {
      throw new QueueClosedException(queue, QueueState.CLOSED, null);
    }
    if (position != from) {
      consumer.seek(partition, from);
      position = from;
    }
    long started = System.nanoTime();
    long deadline = started + timeout.toNanos();
    while (true) {
      List<ConsumerRecord<byte[], byte[]>> got = consumer.poll(POLL_SLICE).records(partition);
      if (!got.isEmpty()) {
        position = got.get(got.size() - 1).offset() + 1;
        stats.fetched(got.size(), System.nanoTime() - started);
        return got;
      }
      position = consumer.position(partition, timeout);
      if (position >= stop) {
        return List.of();
      }
      if (System.nanoTime() - deadline > 0) {
        throw new QueueException(
            queue,
            "no record at offset "
                + position
                + " of topic "
                + partition.topic()
                + " within "
                + timeout
                + " although the queue holds offsets up to "
                + (stop - 1),
            null);
      }
    }
  }

  /** The records in {@code [from, stop)} still held, in order. */
  synchronized List<ConsumerRecord<byte[], byte[]>> read(long from, long stop) {
    return read(from, stop, timeout);
  }

  /** As {@link #read(long, long)}, each fetch bounded by {@code within} instead of the timeout. */
  synchronized List<ConsumerRecord<byte[], byte[]>> read(long from, long stop, Duration within) {
    List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
    long next = from;
    while (next < stop) {
      List<ConsumerRecord<byte[], byte[]>> got = fetch(next, stop, within);
      if (got.isEmpty()) {
        break;
      }
      for (ConsumerRecord<byte[], byte[]> r : got) {
        if (r.offset() >= next && r.offset() < stop) {
          out.add(r);
        }
      }
      next = position;
    }
    return out;
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      consumer.close(Duration.ZERO);
    }
  }
}
