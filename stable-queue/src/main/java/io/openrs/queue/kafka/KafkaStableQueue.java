package io.openrs.queue.kafka;

import io.micrometer.core.instrument.MeterRegistry;
import io.openrs.queue.QueueClosedException;
import io.openrs.queue.QueueException;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueInfo;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.QueueState;
import io.openrs.queue.ReaderInfo;
import io.openrs.queue.StableQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stable queue held in one single-partition Kafka topic ({@link KafkaNames}).
 *
 * <p>Writes ({@link AcknowledgedWriter}): one idempotent producer with {@code acks=all} ({@link
 * KafkaClientProperties}); records are sent under one lock, so their order is the order of the
 * sends and the offsets of an {@link #appendAll} are consecutive. A write is durable when Kafka
 * acknowledged it: only then does its future complete, and only then do this queue's readers return
 * it. The first write Kafka does not acknowledge stops the queue ({@code FAILED}): the producer is
 * closed at once, so nothing sent after it can be acknowledged out of order, and every pending
 * future completes with {@link QueueClosedException}. Reopening resumes from what Kafka holds.
 *
 * <p>Readers: their positions are the committed offsets of one consumer group each ({@link
 * ReaderMark}), written before anything is deleted behind them. Truncation ({@link RecordDeletion})
 * deletes the records before the slowest reader's confirmed record with {@code deleteRecords}
 * (never by retention), never the last record, and nothing while the queue has no reader.
 *
 * <p>Threads: none of its own. Futures complete on the producer's I/O thread (keep dependent
 * actions short); truncations complete on the admin client's thread. Thread-safe; each reader
 * belongs to one thread.
 */
public final class KafkaStableQueue implements StableQueue {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaStableQueue.class);
  private static final int MAX_READER_NAME_LENGTH = 200;

  private final QueueId id;
  private final QueueSettings settings;
  private final QueueTopic topic;
  private final KafkaClientProperties clients;
  private final Duration timeout;
  private final Consumer<KafkaStableQueue> onClose;

  /** Guards lifecycle changes of {@link #state}. */
  private final Object lifecycle = new Object();

  private volatile QueueState state = QueueState.RECOVERING;
  private volatile QueueException failure;

  /** Readers' persisted marks and open handles; guarded by {@link #readers}' monitor. */
  private final Map<String, ReaderMark> readers = new TreeMap<>();

  private final Map<String, KafkaQueueReader> handles = new HashMap<>();

  /** Deletion behind the readers; knows the oldest offset held. */
  private final RecordDeletion deletion;

  private final RecordFetcher dumpFetcher;
  private final AcknowledgedWriter writer;
  private final KafkaQueueMeters meters;

  private KafkaStableQueue(
      QueueId id,
      QueueSettings settings,
      QueueTopic topic,
      KafkaClientProperties clients,
      Duration timeout,
      Consumer<KafkaStableQueue> onClose,
      RecordFetcher dumpFetcher,
      long start,
      AcknowledgedWriter.End end,
      Map<String, ReaderMark> marks,
      MeterRegistry registry) {
    this.id = id;
    this.settings = settings;
    this.topic = topic;
    this.clients = clients;
    this.timeout = timeout;
    this.onClose = onClose;
    this.dumpFetcher = dumpFetcher;
    this.deletion = new RecordDeletion(id, topic, start, () -> state == QueueState.RUNNING);
    this.readers.putAll(marks);
    this.writer =
        new AcknowledgedWriter(
            id,
            topic.name(),
            new KafkaProducer<>(
                clients.producer(topic.name() + "-writer", settings.maxMessageBytes())),
            end,
            this::fail,
            this::closed);
    this.meters = new KafkaQueueMeters(registry, this, writer);
  }

  /**
   * Opens the queue held in an existing topic: finds its oldest and end offsets, the byte offset
   * after its last record, and its readers; then deletes what its readers no longer need (a
   * deletion that failed, or was cut short by a close, is done now).
   */
  static KafkaStableQueue open(
      QueueId id,
      QueueSettings settings,
      QueueTopic topic,
      KafkaClientProperties clients,
      Duration timeout,
      Consumer<KafkaStableQueue> onClose,
      MeterRegistry registry) {
    RecordFetcher dumpFetcher =
        new RecordFetcher(
            id,
            topic.partition(),
            new KafkaConsumer<>(clients.randomAccessConsumer(topic.name() + "-dump")),
            timeout);
    KafkaStableQueue q;
    try {
      long start = topic.startOffset();
      long end = topic.endOffset();
      long byteEnd = 0;
      if (end > start) {
        List<ConsumerRecord<byte[], byte[]>> last = dumpFetcher.read(end - 1, end);
        if (last.isEmpty()) {
          throw new QueueException(
              id,
              "cannot read the last record (offset " + (end - 1) + ") of " + topic.name(),
              null);
        }
        byteEnd = QueueRecordFormat.byteEnd(id, last.get(last.size() - 1));
      }
      Map<String, ReaderMark> marks = topic.readerMarks();
      q =
          new KafkaStableQueue(
              id,
              settings,
              topic,
              clients,
              timeout,
              onClose,
              dumpFetcher,
              start,
              new AcknowledgedWriter.End(end, byteEnd),
              marks,
              registry);
      LOG.info(
          "queue {}: opened topic {}: offsets {}..{}, {} reader(s) {}",
          id,
          topic.name(),
          start,
          end,
          marks.size(),
          marks);
    } catch (RuntimeException e) {
      dumpFetcher.close();
      throw e;
    }
    q.state = QueueState.RUNNING;
    q.truncate();
    q.info(); // the figures info() falls back on while the cluster does not answer
    return q;
  }

  @Override
  public QueueId id() {
    return id;
  }

  @Override
  public QueueState state() {
    return state;
  }

  /** The topic holding the queue. */
  public String topicName() {
    return topic.name();
  }

  // ---- writes ------------------------------------------------------------------------------

  @Override
  public CompletableFuture<QueuePosition> append(byte[] message) throws InterruptedException {
    checkSize(message);
    return writer.send(List.of(message), this::checkRunning).get(0);
  }

  @Override
  public CompletableFuture<QueuePosition> appendAll(List<byte[]> messages)
      throws InterruptedException {
    if (messages.isEmpty()) {
      throw new IllegalArgumentException("appendAll needs at least one message");
    }
    messages.forEach(this::checkSize);
    List<CompletableFuture<QueuePosition>> futures = writer.send(messages, this::checkRunning);
    CompletableFuture<QueuePosition> last = futures.get(futures.size() - 1);
    return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
        .thenApply(v -> last.join());
  }

  private void checkSize(byte[] message) {
    if (message.length > settings.maxMessageBytes()) {
      throw new IllegalArgumentException(
          "message of "
              + message.length
              + " bytes exceeds sqm_max_message_size="
              + settings.maxMessageBytes()
              + " (queue "
              + id
              + ")");
    }
  }

  /**
   * Stops the queue on its first write error (called by the writer, possibly on the producer's I/O
   * thread); idempotent.
   */
  private void fail(Throwable cause) {
    synchronized (lifecycle) {
      if (state == QueueState.FAILED || state == QueueState.CLOSED) {
        return;
      }
      failure =
          new QueueException(
              id, "Kafka did not take a write to topic " + topic.name() + ": " + cause, cause);
      state = QueueState.FAILED;
    }
    LOG.error("queue {}: stopped: {}", id, failure.getMessage(), cause);
    writer.abort(); // nothing queued behind the failed record is sent
    writer.wakeWaiters();
    writer.failPending();
  }

  private QueueClosedException closed() {
    return new QueueClosedException(id, state, failure);
  }

  private void checkRunning() {
    if (state != QueueState.RUNNING) {
      throw closed();
    }
  }

  // ---- what readers see --------------------------------------------------------------------

  /** The offset after the last acknowledged record. */
  long durableEnd() {
    return writer.endOffset();
  }

  /** The oldest offset held, as last known. */
  long heldFrom() {
    return deletion.heldFrom();
  }

  /**
   * Waits until a record at or after {@code offset} is durable, the queue stops, or {@code nanos}
   * pass; returns the nanoseconds left.
   */
  long awaitDurable(long offset, long nanos) throws InterruptedException {
    return writer.awaitEndAfter(offset, nanos, () -> state == QueueState.RUNNING);
  }

  void checkReadable() {
    checkRunning();
  }

  // ---- readers -----------------------------------------------------------------------------

  @Override
  public QueueReader openReader(String name) {
    checkReadable();
    if (name.isBlank() || name.length() > MAX_READER_NAME_LENGTH) {
      throw new IllegalArgumentException(
          "reader name must be 1.." + MAX_READER_NAME_LENGTH + " characters, got '" + name + "'");
    }
    synchronized (readers) {
      if (handles.containsKey(name)) {
        throw new IllegalStateException("reader " + name + " of queue " + id + " is already open");
      }
      ReaderMark mark = readers.get(name);
      if (mark == null) {
        mark = ReaderMark.startingAt(deletion.heldFrom());
        topic.saveMark(name, mark);
        readers.put(name, mark);
        LOG.info("queue {}: created reader {} at offset {}", id, name, mark.nextOffset());
      }
      KafkaQueueReader reader =
          new KafkaQueueReader(
              this,
              name,
              new RecordFetcher(
                  id,
                  topic.partition(),
                  new KafkaConsumer<>(clients.consumer(topic.name() + "-" + name)),
                  timeout),
              mark.nextOffset());
      handles.put(name, reader);
      meters.registerReader(reader);
      return reader;
    }
  }

  /** The reader's persisted mark. */
  Optional<ReaderMark> mark(String name) {
    synchronized (readers) {
      return Optional.ofNullable(readers.get(name));
    }
  }

  /**
   * A reader's confirmation: persists it, then deletes what no reader needs any more. A cluster
   * that does not answer (no group coordinator, unreachable) makes the confirmation wait and retry,
   * as writes do, while the queue runs; the readers' lock is not held meanwhile, so the other
   * readers and the admin commands go on.
   */
  void confirm(String name, ReaderMark mark) {
    synchronized (readers) {
      if (!readers.containsKey(name)) {
        throw new IllegalStateException("reader " + name + " of queue " + id + " was dropped");
      }
    }
    saveMarkRetrying(name, mark);
    synchronized (readers) {
      if (readers.containsKey(name)) {
        readers.put(name, mark);
      } else {
        // Dropped while the commit was under way: the commit may have re-created its group.
        topic.deleteReader(name);
        throw new IllegalStateException("reader " + name + " of queue " + id + " was dropped");
      }
    }
    truncate();
  }

  private void saveMarkRetrying(String name, ReaderMark mark) {
    boolean warned = false;
    while (true) {
      try {
        topic.saveMark(name, mark);
        if (warned) {
          LOG.info("queue {}: the position of reader {} is committed again", id, name);
        }
        return;
      } catch (QueueException e) {
        if (!clusterDidNotAnswer(e) || state != QueueState.RUNNING) {
          throw e;
        }
        if (!warned) {
          warned = true;
          LOG.warn(
              "queue {}: cannot commit the position of reader {} ({}); it waits and retries until"
                  + " the cluster answers",
              id,
              name,
              e.getMessage());
        }
      }
    }
  }

  /** Whether {@code e} says the cluster did not answer in time (worth waiting for). */
  static boolean clusterDidNotAnswer(QueueException e) {
    return e.getCause() instanceof java.util.concurrent.TimeoutException
        || e.getCause() instanceof org.apache.kafka.common.errors.RetriableException;
  }

  void readerClosed(String name, KafkaQueueReader handle) {
    synchronized (readers) {
      handles.remove(name, handle);
    }
    meters.removeReader(handle);
  }

  /** How long the oldest write not yet acknowledged has waited; asks the brokers nothing. */
  Duration acknowledgementWait() {
    return writer.oldestWait();
  }

  /** Records the topic holds, as last known (a meter; asks the brokers nothing). */
  long recordsHeld() {
    return Math.max(0, durableEnd() - deletion.heldFrom());
  }

  /** Acknowledged records after a reader's confirmed position (a meter; no broker call). */
  long recordsAfterMark(String name) {
    long end = durableEnd();
    return mark(name).map(m -> Math.max(0, end - Math.max(m.nextOffset(), heldFrom()))).orElse(0L);
  }

  @Override
  public void dropReader(String name) {
    KafkaQueueReader handle;
    synchronized (readers) {
      if (!readers.containsKey(name)) {
        throw new IllegalArgumentException("queue " + id + " has no reader " + name);
      }
      handle = handles.remove(name);
      topic.deleteReader(name);
      readers.remove(name);
    }
    if (handle != null) {
      handle.release();
      meters.removeReader(handle);
    }
    LOG.info("queue {}: dropped reader {}", id, name);
    truncate();
  }

  /**
   * Deletes the records before the slowest reader's confirmed record (or its start), never the last
   * record; nothing while no reader exists. Asynchronous: the log start moves when Kafka has done
   * it; a failure (a replica's broker lost while the deletion waited for it) is logged and retried
   * at the next confirmation or the next open.
   */
  private void truncate() {
    long keep;
    synchronized (readers) {
      if (readers.isEmpty()) {
        return;
      }
      keep = readers.values().stream().mapToLong(ReaderMark::keepFrom).min().orElseThrow();
    }
    // The last record stays (lastMessage).
    deletion.deleteBefore(Math.min(keep, Math.max(0, durableEnd() - 1)));
  }

  // ---- random access -----------------------------------------------------------------------

  @Override
  public List<QueueMessage> dump(QueuePosition from, int maxMessages) {
    checkReadable();
    if (maxMessages <= 0) {
      return List.of();
    }
    long first = Math.max(KafkaPositions.firstOffsetFrom(from), deletion.heldFrom());
    long end = durableEnd();
    if (first >= end) {
      return List.of();
    }
    long stop = first + Math.min(maxMessages, end - first);
    List<QueueMessage> out = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r : dumpFetcher.read(first, stop)) {
      if (out.size() < maxMessages && r.offset() < end) {
        out.add(QueueRecordFormat.message(r));
      }
    }
    return out;
  }

  @Override
  public List<QueueMessage> dumpFromStart(int maxMessages) {
    return dump(KafkaPositions.of(deletion.heldFrom()), maxMessages);
  }

  @Override
  public Optional<QueueMessage> lastMessage() {
    checkReadable();
    long end = durableEnd();
    if (end <= deletion.heldFrom()) {
      return Optional.empty();
    }
    List<ConsumerRecord<byte[], byte[]>> last = dumpFetcher.read(end - 1, end);
    return last.stream()
        .filter(r -> r.offset() == end - 1)
        .findFirst()
        .map(QueueRecordFormat::message);
  }

  // ---- purge, info, close --------------------------------------------------------------------

  /**
   * Deletes every record acknowledged before this call and sets every reader at the end (nothing
   * confirmed). Done when the returned future is: the work is done in the call.
   */
  @Override
  public CompletableFuture<Void> purge() {
    try {
      checkRunning();
      long end =
          writer.afterEverySend(
              () -> {
                checkRunning();
                long e = durableEnd();
                synchronized (readers) {
                  deletion.deleteBeforeAndWait(e);
                  for (String name : List.copyOf(readers.keySet())) {
                    ReaderMark mark = ReaderMark.startingAt(e);
                    topic.saveMark(name, mark);
                    readers.put(name, mark);
                  }
                }
                return e;
              });
      LOG.info("queue {}: purged: records before offset {} deleted, readers reset", id, end);
      return CompletableFuture.completedFuture(null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return CompletableFuture.failedFuture(e);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Sizes and backlog. Segment fields count records ({@link KafkaPositions}): {@code firstSegment}
   * is the oldest offset held, {@code lastSegment} the last offset written (0 if none), {@code
   * segmentsActive} the records held; {@code allocatedBytes} the payload bytes held. A reader's
   * backlog in messages is {@code lastPosition.segment - confirmed.segment}.
   */
  @Override
  public QueueInfo info() {
    try {
      QueueInfo now = infoFromBrokers();
      lastInfo = now;
      return now;
    } catch (QueueException e) {
      // The cluster does not answer within INFO_TIMEOUT: the admin commands show the last figures
      // known, with the state and write wait as they are now, instead of waiting.
      QueueInfo last = lastInfo;
      LOG.debug("queue {}: info from the last known figures: {}", id, e.getMessage());
      if (last == null) {
        throw e; // only at open, where the cluster has just answered
      }
      return new QueueInfo(
          id,
          state,
          false,
          Duration.ZERO,
          last.firstSegment(),
          last.lastSegment(),
          last.segmentsActive(),
          last.allocatedBytes(),
          last.lastPosition(),
          last.backlogBytes(),
          last.readers(),
          writer.oldestWait());
    }
  }

  /** The bound on each broker call of {@link #info()}: admin commands must stay responsive. */
  static final Duration INFO_TIMEOUT = Duration.ofSeconds(2);

  private volatile QueueInfo lastInfo;

  private QueueInfo infoFromBrokers() {
    long start = Math.max(deletion.heldFrom(), readableStart());
    AcknowledgedWriter.End acknowledged = writer.end();
    long end = acknowledged.offset();
    long byteEnd = acknowledged.byteOffset();
    long held = Math.max(0, end - start);
    long allocated = held == 0 ? 0 : byteEnd - byteOffsetAt(start, byteEnd);
    Map<String, ReaderMark> marks;
    synchronized (readers) {
      marks = new TreeMap<>(readers);
    }
    List<ReaderInfo> infos = new ArrayList<>();
    long slowestBacklog = -1;
    for (Map.Entry<String, ReaderMark> e : marks.entrySet()) {
      long next = Math.max(e.getValue().nextOffset(), start);
      long backlog = next >= end ? 0 : byteEnd - byteOffsetAt(next, byteEnd);
      slowestBacklog = Math.max(slowestBacklog, backlog);
      infos.add(new ReaderInfo(e.getKey(), e.getValue().confirmedPosition(), backlog));
    }
    return new QueueInfo(
        id,
        state,
        false,
        Duration.ZERO,
        start,
        Math.max(0, end - 1),
        held,
        allocated,
        end > 0 ? Optional.of(KafkaPositions.of(end - 1)) : Optional.empty(),
        slowestBacklog < 0 ? allocated : slowestBacklog,
        infos,
        writer.oldestWait());
  }

  private long readableStart() {
    if (state != QueueState.RUNNING) {
      return deletion.heldFrom();
    }
    return deletion.raiseHeldFrom(topic.startOffset(INFO_TIMEOUT));
  }

  /** The byte offset of the record at {@code offset} ({@code fallback} if it cannot be read). */
  private long byteOffsetAt(long offset, long fallback) {
    if (state != QueueState.RUNNING) {
      return fallback;
    }
    List<ConsumerRecord<byte[], byte[]>> r = dumpFetcher.read(offset, offset + 1, INFO_TIMEOUT);
    return r.isEmpty() ? fallback : QueueRecordFormat.byteOffset(id, r.get(0));
  }

  /** Stops accepting writes, waits (within the timeout) for Kafka to acknowledge accepted ones. */
  @Override
  public void close() {
    synchronized (lifecycle) {
      if (state == QueueState.CLOSED || state == QueueState.CLOSING) {
        return;
      }
      if (state != QueueState.FAILED) {
        state = QueueState.CLOSING;
      }
    }
    try {
      writer.close(timeout);
    } catch (RuntimeException e) {
      LOG.warn("queue {}: closing the producer: {}", id, e.toString());
    }
    synchronized (lifecycle) {
      if (state != QueueState.FAILED) {
        state = QueueState.CLOSED;
      }
    }
    writer.wakeWaiters();
    writer.failPending();
    List<KafkaQueueReader> open;
    synchronized (readers) {
      open = List.copyOf(handles.values());
      handles.clear();
    }
    open.forEach(KafkaQueueReader::release);
    meters.removeAll();
    dumpFetcher.close();
    onClose.accept(this);
    LOG.info("queue {}: closed", id);
  }

  QueueException failure() {
    return failure;
  }
}
