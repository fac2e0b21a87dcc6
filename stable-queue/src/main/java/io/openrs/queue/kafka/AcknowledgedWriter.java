package io.openrs.queue.kafka;

import io.openrs.queue.QueueClosedException;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueuePosition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;

/**
 * The write path of a Kafka queue: one idempotent producer ({@code acks=all}), records sent under
 * one lock so their order is the order of the sends, and the acknowledged end: the offset (and byte
 * offset) after the last record Kafka acknowledged, which readers wait on. A send's future
 * completes only when Kafka acknowledged the record. The first failure is reported once to the
 * queue, which stops.
 *
 * <p>Thread-safe. Acknowledgements arrive on the producer's I/O thread, in send order.
 */
final class AcknowledgedWriter {

  private final QueueId queue;
  private final String topic;
  private final KafkaProducer<byte[], byte[]> producer;
  private final Consumer<Throwable> onFailure;
  private final Supplier<QueueClosedException> closed;

  /** Held while records are handed to the producer. */
  private final ReentrantLock sendLock = new ReentrantLock();

  /** Byte offset of the next message sent; guarded by {@link #sendLock}. */
  private long nextByteOffset;

  private final ReentrantLock endLock = new ReentrantLock();
  private final Condition endAdvanced = endLock.newCondition();

  /** The offset after the last acknowledged record; guarded by {@link #endLock}. */
  private long end;

  /** The byte offset after the last acknowledged record; guarded by {@link #endLock}. */
  private long byteEnd;

  private final Set<CompletableFuture<QueuePosition>> pending = ConcurrentHashMap.newKeySet();

  private final TrafficStats stats = new TrafficStats();

  /**
   * Send times ({@link System#nanoTime}) of the records not yet acknowledged, oldest first: added
   * under {@link #sendLock}, removed by the acknowledgements, which come in send order.
   */
  private final java.util.concurrent.ConcurrentLinkedDeque<Long> unacknowledgedSince =
      new java.util.concurrent.ConcurrentLinkedDeque<>();

  /** Whether the end of the current long wait was logged (producer I/O thread only). */
  private boolean longWaitLogged;

  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(AcknowledgedWriter.class);

  /** The acknowledged end: offset and byte offset after the last acknowledged record. */
  record End(long offset, long byteOffset) {}

  /**
   * @param end the end found at open (everything below it is acknowledged)
   * @param onFailure told of the first write Kafka did not take
   * @param closed the error futures and sends fail with once the queue stopped
   */
  AcknowledgedWriter(
      QueueId queue,
      String topic,
      KafkaProducer<byte[], byte[]> producer,
      End end,
      Consumer<Throwable> onFailure,
      Supplier<QueueClosedException> closed) {
    this.queue = queue;
    this.topic = topic;
    this.producer = producer;
    this.onFailure = onFailure;
    this.closed = closed;
    this.nextByteOffset = end.byteOffset();
    this.end = end.offset();
    this.byteEnd = end.byteOffset();
  }

  /**
   * Sends {@code messages} as consecutive records, after {@code check} (which throws if the queue
   * no longer takes writes) under the send lock.
   */
  List<CompletableFuture<QueuePosition>> send(List<byte[]> messages, Runnable check)
      throws InterruptedException {
    List<CompletableFuture<QueuePosition>> futures = new ArrayList<>(messages.size());
    sendLock.lockInterruptibly();
    try {
      check.run();
      for (byte[] m : messages) {
        futures.add(send(m));
      }
    } finally {
      sendLock.unlock();
    }
    return futures;
  }

  private CompletableFuture<QueuePosition> send(byte[] message) throws InterruptedException {
    long byteOffset = nextByteOffset;
    long recordByteEnd = byteOffset + message.length;
    nextByteOffset = recordByteEnd;
    CompletableFuture<QueuePosition> future = new CompletableFuture<>();
    pending.add(future);
    long sent = System.nanoTime();
    unacknowledgedSince.addLast(sent);
    try {
      producer.send(
          QueueRecordFormat.encode(topic, message, byteOffset),
          (metadata, error) -> {
            unacknowledgedSince.pollFirst();
            if (error == null) {
              long waited = System.nanoTime() - sent;
              stats.acknowledged(message.length, waited);
              noteWait(waited);
            }
            acknowledged(future, metadata, error, recordByteEnd);
          });
    } catch (InterruptException e) {
      unacknowledgedSince.pollLast(); // no callback comes for it
      onFailure.accept(e);
      throw new InterruptedException(
          "interrupted while handing a write to Kafka (queue " + queue + ")");
    } catch (KafkaException e) {
      unacknowledgedSince.pollLast();
      onFailure.accept(e);
      throw closed.get();
    }
    return future;
  }

  private void acknowledged(
      CompletableFuture<QueuePosition> future,
      RecordMetadata metadata,
      Exception error,
      long recordByteEnd) {
    pending.remove(future);
    if (error != null) {
      onFailure.accept(error);
      future.completeExceptionally(closed.get());
      return;
    }
    endLock.lock();
    try {
      end = Math.max(end, metadata.offset() + 1);
      byteEnd = Math.max(byteEnd, recordByteEnd);
      endAdvanced.signalAll();
    } finally {
      endLock.unlock();
    }
    future.complete(KafkaPositions.of(metadata.offset()));
  }

  /**
   * Runs {@code action} while no record is being sent, once every record sent before is
   * acknowledged (or failed).
   */
  <T> T afterEverySend(Supplier<T> action) throws InterruptedException {
    sendLock.lockInterruptibly();
    try {
      producer.flush();
      return action.get();
    } finally {
      sendLock.unlock();
    }
  }

  /**
   * How long the oldest record not yet acknowledged has waited (zero when none waits): long while
   * the cluster cannot acknowledge (too few in-sync replicas, no leader, unreachable), which the
   * producer rides out by retrying until {@code delivery.timeout.ms}.
   */
  Duration oldestWait() {
    Long oldest = unacknowledgedSince.peekFirst();
    return oldest == null
        ? Duration.ZERO
        : Duration.ofNanos(Math.max(0, System.nanoTime() - oldest));
  }

  /** Logs the end of a long wait once, when acknowledgements come again (producer I/O thread). */
  private void noteWait(long waitedNanos) {
    if (waitedNanos >= io.openrs.queue.QueueInfo.LONG_ACKNOWLEDGEMENT_WAIT.toNanos()) {
      if (!longWaitLogged) {
        longWaitLogged = true;
        LOG.info(
            "queue {}: Kafka acknowledges writes again; a write waited {} ms for it",
            queue,
            waitedNanos / 1_000_000);
      }
    } else {
      longWaitLogged = false;
    }
  }

  /** Records and bytes Kafka acknowledged, and the time from send to acknowledgement. */
  TrafficStats stats() {
    return stats;
  }

  /** The acknowledged end. */
  End end() {
    endLock.lock();
    try {
      return new End(end, byteEnd);
    } finally {
      endLock.unlock();
    }
  }

  /** The offset after the last acknowledged record. */
  long endOffset() {
    endLock.lock();
    try {
      return end;
    } finally {
      endLock.unlock();
    }
  }

  /**
   * Waits until a record at or after {@code offset} is acknowledged, {@code running} turns false
   * (checked when {@link #wakeWaiters} is called), or {@code nanos} pass; returns the nanoseconds
   * left.
   */
  long awaitEndAfter(long offset, long nanos, BooleanSupplier running) throws InterruptedException {
    endLock.lock();
    try {
      while (end <= offset && running.getAsBoolean() && nanos > 0) {
        nanos = endAdvanced.awaitNanos(nanos);
      }
      return nanos;
    } finally {
      endLock.unlock();
    }
  }

  /** Wakes readers waiting for the end to move (the queue stopped). */
  void wakeWaiters() {
    endLock.lock();
    try {
      endAdvanced.signalAll();
    } finally {
      endLock.unlock();
    }
  }

  /** Waits (within {@code timeout}) for Kafka to acknowledge what was sent, then closes. */
  void close(Duration timeout) {
    sendLock.lock();
    try {
      producer.close(timeout);
    } finally {
      sendLock.unlock();
    }
  }

  /** Closes the producer at once: nothing not yet sent is sent. Allowed in a producer callback. */
  void abort() {
    producer.close(Duration.ZERO);
  }

  /** Fails every future not yet completed. */
  void failPending() {
    for (CompletableFuture<QueuePosition> f : List.copyOf(pending)) {
      pending.remove(f);
      f.completeExceptionally(closed.get());
    }
  }
}
