package io.openrs.queue.kafka;

import io.openrs.queue.QueueClosedException;
import io.openrs.queue.QueueException;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A named reader of a {@link KafkaStableQueue}: its own consumer reads from its position; a record
 * is returned only once the queue's writer had it acknowledged ({@code durableEnd}), and {@link
 * #poll(Duration)} waits for the writer's signal. {@link #confirm} persists the position as the
 * reader group's committed offset ({@link ReaderMark}) before the queue deletes anything behind it.
 *
 * <p>Not thread-safe: owned by the thread that first reads from it (asserted with {@code -ea}).
 */
final class KafkaQueueReader implements QueueReader {

  private final KafkaStableQueue queue;
  private final String name;
  private final RecordFetcher fetcher;
  private final ArrayDeque<ConsumerRecord<byte[], byte[]>> fetched = new ArrayDeque<>();
  private long nextOffset;
  private volatile long recordsRead;
  private boolean fetchFailing;
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(KafkaQueueReader.class);
  private volatile boolean released;
  private Thread owner;

  KafkaQueueReader(KafkaStableQueue queue, String name, RecordFetcher fetcher, long nextOffset) {
    this.queue = queue;
    this.name = name;
    this.fetcher = fetcher;
    this.nextOffset = nextOffset;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Optional<QueueMessage> poll() {
    try {
      return read(0);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueueException(queue.id(), "reader " + name + " interrupted", e);
    }
  }

  @Override
  public Optional<QueueMessage> poll(Duration timeout) throws InterruptedException {
    return read(Math.max(0, timeout.toNanos()));
  }

  private Optional<QueueMessage> read(long waitNanos) throws InterruptedException {
    assert ownedByCaller() : "reader " + name + " used by a second thread";
    long left = waitNanos;
    while (true) {
      checkOpen();
      skipPurged();
      long durable = queue.durableEnd();
      ConsumerRecord<byte[], byte[]> head = fetched.peek();
      if (head != null) {
        if (head.offset() < nextOffset) {
          fetched.poll();
          continue;
        }
        if (head.offset() < durable) {
          fetched.poll();
          nextOffset = head.offset() + 1;
          recordsRead++; // only the owner thread writes it
          return Optional.of(QueueRecordFormat.message(head));
        }
      } else if (nextOffset < durable) {
        try {
          fetched.addAll(fetcher.fetch(nextOffset, durable));
        } catch (QueueClosedException e) {
          throw e;
        } catch (QueueException e) {
          // The brokers do not hand over records the queue holds (no leader, unreachable): the
          // reader has nothing to return now and tries again at its next poll.
          if (!fetchFailing) {
            fetchFailing = true;
            LOG.warn(
                "queue {}: reader {} waits for the cluster: {}", queue.id(), name, e.getMessage());
          }
          return Optional.empty();
        }
        if (fetchFailing) {
          fetchFailing = false;
          LOG.info("queue {}: reader {} fetches again", queue.id(), name);
        }
        if (fetched.isEmpty()) {
          nextOffset = durable; // what lay before was deleted (a purge)
        }
        continue;
      }
      if (left <= 0) {
        return Optional.empty();
      }
      long before = System.nanoTime();
      queue.awaitDurable(head != null ? head.offset() : nextOffset, left);
      left -= System.nanoTime() - before;
    }
  }

  /** After a purge, what the reader fetched before it is gone. */
  private void skipPurged() {
    long held = queue.heldFrom();
    if (nextOffset < held) {
      nextOffset = held;
      while (!fetched.isEmpty() && fetched.peek().offset() < held) {
        fetched.poll();
      }
    }
  }

  /** Records this reader returned. */
  long recordsRead() {
    return recordsRead;
  }

  /** Its fetches from the brokers. */
  TrafficStats fetcherStats() {
    return fetcher.stats();
  }

  @Override
  public void confirm(QueuePosition position) {
    checkOpen();
    long offset = KafkaPositions.offsetOf(position);
    ReaderMark current =
        queue
            .mark(name)
            .orElseThrow(() -> new IllegalStateException("reader " + name + " was dropped"));
    if (offset < current.keepFrom() || (current.confirmed() && offset == current.keepFrom())) {
      return;
    }
    if (offset >= queue.durableEnd()) {
      throw new IllegalArgumentException(
          "queue " + queue.id() + ": cannot confirm " + position + ", it is not durable yet");
    }
    queue.confirm(name, ReaderMark.confirmedAt(offset));
  }

  @Override
  public Optional<QueuePosition> confirmed() {
    return queue.mark(name).flatMap(ReaderMark::confirmedPosition);
  }

  @Override
  public void close() {
    if (!released) {
      released = true;
      fetcher.close();
      queue.readerClosed(name, this);
    }
  }

  /** Called by the queue on close or drop: further calls fail. */
  void release() {
    released = true;
    fetcher.close();
  }

  private void checkOpen() {
    if (released) {
      throw new QueueClosedException(queue.id(), queue.state(), queue.failure());
    }
    queue.checkReadable();
  }

  private boolean ownedByCaller() {
    if (owner == null) {
      owner = Thread.currentThread();
    }
    return owner == Thread.currentThread();
  }
}
