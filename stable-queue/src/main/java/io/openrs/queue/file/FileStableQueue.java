package io.openrs.queue.file;

import io.micrometer.core.instrument.Clock;
import io.openrs.queue.InvalidSettingException;
import io.openrs.queue.QueueClosedException;
import io.openrs.queue.QueueCorruptedException;
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
import io.openrs.runtime.WorkerThread;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stable queue kept in segment files (see {@link BlockFormat} for the bytes). Holds what the
 * writer thread ({@link SqmWriter}), producers, readers ({@link FileQueueReader}) and admin calls
 * share: the bounded hand-off, the published end of durable data, the segment table, the readers'
 * truncation points, the block cache and the lifecycle.
 *
 * <p>Thread-safe. Producers block in {@link #append} while {@code exec_sqm_write_request_limit}
 * bytes wait for the writer. The first fatal error stops the queue and wakes every waiter; later
 * calls fail with {@link QueueClosedException} caused by it.
 */
final class FileStableQueue implements StableQueue {

  private static final Logger LOG = LoggerFactory.getLogger(FileStableQueue.class);
  private static final int MAX_READER_NAME_BYTES = 200;
  private static final Duration WRITER_STOP_TIMEOUT = Duration.ofSeconds(60);

  private final QueueId id;
  private final QueueSettings settings;
  private final FileQueueManager manager;
  private final Clock clock;
  private final MetadataStore metadata;
  private final BlockCache cache;
  private final SqmStats stats = new SqmStats();
  private final int blocksPerSegment;
  private final AtomicReference<QueueState> state = new AtomicReference<>(QueueState.NEW);
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final Map<String, ReaderEntry> readers = new TreeMap<>();
  private QueueMeters meters;
  private SqmPacker packer;
  private SqmWriter writer;

  /** Segments held, by number. Changed only by the writer thread (and recovery before it). */
  final ConcurrentSkipListMap<Long, SegmentSlot> segments = new ConcurrentSkipListMap<>();

  /** Producers -> packer -> writer. */
  private final SqmHandoff handoff;

  // Published by the writer thread.
  private final ReentrantLock dataLock = new ReentrantLock();
  private final Condition dataArrived = dataLock.newCondition();
  private volatile long durableEnd;
  private volatile QueuePosition lastPosition;
  volatile long firstSegment;
  volatile long writeSegment;
  volatile boolean waitingForSegment;

  private FileStableQueue(
      FileQueueManager manager, QueueId id, QueueSettings settings, Clock clock) {
    this.manager = manager;
    this.id = id;
    this.settings = settings;
    this.clock = clock;
    this.metadata = new MetadataStore(manager.stateDirectory(), id);
    this.cache = new BlockCache(settings.cacheSizeBytes(), settings.blockSizeBytes());
    this.blocksPerSegment = settings.blocksPerSegment();
    this.handoff = new SqmHandoff(settings.writeRequestLimitBytes());
  }

  /** Creates a new, empty queue. */
  static FileStableQueue create(
      FileQueueManager manager, QueueId id, QueueSettings settings, Clock clock) {
    FileStableQueue q = new FileStableQueue(manager, id, settings, clock);
    if (q.metadata.exists()) {
      throw new QueueException(id, "queue already exists", null);
    }
    q.transition(QueueState.NEW, QueueState.RECOVERING);
    q.firstSegment = 0;
    q.writeSegment = 0;
    q.saveMetadata();
    q.start(0, 0);
    return q;
  }

  /** Opens an existing queue: reads its metadata, finds its segments, recovers the last one. */
  static FileStableQueue open(
      FileQueueManager manager, QueueId id, QueueSettings settings, Clock clock) {
    FileStableQueue q = new FileStableQueue(manager, id, settings, clock);
    q.transition(QueueState.NEW, QueueState.RECOVERING);
    try {
      q.recover();
    } catch (IOException e) {
      throw new QueueException(id, "recovery failed", e);
    }
    return q;
  }

  private void recover() throws IOException {
    QueueMetadata m =
        metadata.load().orElseThrow(() -> new QueueException(id, "queue does not exist", null));
    if (m.blockSizeBytes() != settings.blockSizeBytes()) {
      throw new InvalidSettingException(
          "block_size",
          settings.blockSizeBytes(),
          m.blockSizeBytes()
              + " for queue "
              + id
              + ", the size its blocks were written with"
              + " (purge or recreate the queue to change it)",
          null);
    }
    if (m.segmentSizeBytes() != settings.segmentSizeBytes()) {
      throw new InvalidSettingException(
          "sqm_segment_size",
          settings.segmentSizeBytes(),
          m.segmentSizeBytes() + " for queue " + id + ", the size its segments were written with",
          null);
    }
    TreeMap<Long, SegmentSlot> found = manager.locateSegments(id);
    long first = m.firstSegment();
    while (!found.isEmpty() && found.firstKey() < first) {
      SegmentSlot stale = found.pollFirstEntry().getValue();
      LOG.info(
          "queue {}: deleting segment {} freed before a crash: {}",
          id,
          stale.segment(),
          stale.file());
      Files.deleteIfExists(stale.file());
    }
    if (!found.isEmpty() && found.firstKey() > first) {
      LOG.warn(
          "queue {}: metadata says first segment {}, oldest file is segment {}; starting there",
          id,
          first,
          found.firstKey());
      first = found.firstKey();
    }
    long expected = first;
    for (SegmentSlot slot : found.values()) {
      if (slot.segment() != expected) {
        throw new QueueCorruptedException(
            id,
            expected,
            slot.partition().directory().resolve(SegmentFiles.segmentFileName(id, expected)),
            0,
            "segment file missing (segments " + first + ".." + found.lastKey() + " expected)");
      }
      expected++;
    }
    manager.recount(id, found.values(), settings.segmentSizeBytes());
    segments.putAll(found);
    long write = first;
    int block = 0;
    if (!found.isEmpty()) {
      SegmentSlot last = found.lastEntry().getValue();
      write = last.segment();
      block =
          TailRecovery.recover(
              id,
              write,
              last.file(),
              settings.blockSizeBytes(),
              blocksPerSegment,
              settings.pageSizeBlocks());
    }
    for (QueueMetadata.ReaderMark r : m.readers()) {
      readers.put(r.name(), new ReaderEntry(r.name(), r.confirmed()));
    }
    firstSegment = first;
    writeSegment = write;
    saveMetadata();
    LOG.info(
        "queue {}: recovered segments {}..{}, writing continues at block {}.{}",
        id,
        first,
        write,
        write,
        block);
    start(write, block);
  }

  private void start(long segment, int block) {
    durableEnd = segment * blocksPerSegment + block;
    try (FileQueueReader r = new FileQueueReader(this, Optional.empty())) {
      lastPosition = r.lastBefore(durableEnd).map(QueueMessage::position).orElse(null);
    }
    meters = new QueueMeters(manager.registry(), this);
    synchronized (readers) {
      readers.values().forEach(meters::registerReader);
    }
    packer = new SqmPacker(this, durableEnd, Optional.ofNullable(lastPosition));
    writer = new SqmWriter(this, segment);
    transition(QueueState.RECOVERING, QueueState.RUNNING);
    writer.start();
    packer.start();
  }

  // ---- lifecycle -------------------------------------------------------------------------

  /** The one place the state changes (except {@link #fail}); logs each transition. */
  private void transition(QueueState expected, QueueState next) {
    if (!state.compareAndSet(expected, next)) {
      throw new IllegalStateException(
          "queue "
              + id
              + ": expected state "
              + expected
              + " to move to "
              + next
              + ", but is "
              + state.get());
    }
    LOG.info("queue {}: {} -> {}", id, expected, next);
  }

  @Override
  public QueueState state() {
    return state.get();
  }

  Optional<Throwable> failure() {
    return Optional.ofNullable(failure.get());
  }

  private QueueClosedException closedException() {
    return new QueueClosedException(id, state.get(), failure.get());
  }

  /** Throws unless the queue can serve reads (running or closing). */
  void checkReadable() {
    QueueState s = state.get();
    if (s != QueueState.RUNNING && s != QueueState.CLOSING) {
      throw closedException();
    }
  }

  /** Stops the queue after a fatal error and wakes every producer, reader and space waiter. */
  void fail(Throwable error) {
    failure.compareAndSet(null, error);
    QueueState s;
    do {
      s = state.get();
      if (s == QueueState.CLOSED || s == QueueState.FAILED) {
        break;
      }
    } while (!state.compareAndSet(s, QueueState.FAILED));
    LOG.error("queue {}: {} -> FAILED", id, s, error);
    handoff.stop(closedException());
    signalReaders();
    manager.signalSpaceWaiters();
  }

  @Override
  public void close() {
    if (!state.compareAndSet(QueueState.RUNNING, QueueState.CLOSING)) {
      QueueState s = state.get();
      if (s == QueueState.FAILED) {
        stopWriterAndRelease();
        return;
      }
      if (s == QueueState.CLOSED || s == QueueState.CLOSING) {
        return;
      }
      throw new IllegalStateException("queue " + id + ": cannot close in state " + s);
    }
    LOG.info("queue {}: RUNNING -> CLOSING", id);
    handoff.stopAccepting();
    stopWriterAndRelease();
    if (state.compareAndSet(QueueState.CLOSING, QueueState.CLOSED)) {
      LOG.info("queue {}: CLOSING -> CLOSED", id);
    }
    signalReaders();
  }

  /**
   * Stops the write path in order: the packer finishes what producers handed over and the writer
   * writes it; each gets a bounded wait.
   */
  private void stopWriterAndRelease() {
    packer.initiateShutdown();
    writer.initiateShutdown();
    try {
      for (WorkerThread t : List.of(packer, writer)) {
        if (!t.awaitShutdown(WRITER_STOP_TIMEOUT)) {
          LOG.error("queue {}: {} did not stop within {}", id, t.getName(), WRITER_STOP_TIMEOUT);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (readers) {
      for (ReaderEntry e : readers.values()) {
        if (e.handle != null) {
          e.handle.release();
          e.handle = null;
        }
      }
    }
    if (state.get() != QueueState.FAILED) {
      saveMetadata();
    }
    meters.removeAll();
    manager.forget(this);
  }

  // ---- producers -------------------------------------------------------------------------

  @Override
  public CompletableFuture<QueuePosition> append(byte[] message) throws InterruptedException {
    return appendAll(List.of(message));
  }

  @Override
  public CompletableFuture<QueuePosition> appendAll(List<byte[]> messages)
      throws InterruptedException {
    if (messages.isEmpty()) {
      throw new IllegalArgumentException("appendAll needs at least one message");
    }
    long bytes = 0;
    for (byte[] m : messages) {
      if (m.length > settings.maxMessageBytes()) {
        throw new IllegalArgumentException(
            "message of "
                + m.length
                + " bytes exceeds sqm_max_message_size="
                + settings.maxMessageBytes()
                + " (queue "
                + id
                + ")");
      }
      bytes += m.length + BlockFormat.RECORD_LENGTH_SIZE;
    }
    CompletableFuture<QueuePosition> future = new CompletableFuture<>();
    WriteTask.Append task = new WriteTask.Append(List.copyOf(messages), bytes, future);
    if (state.get() != QueueState.RUNNING) {
      throw closedException();
    }
    handoff.put(task, bytes, this::closedException);
    return future;
  }

  @Override
  public CompletableFuture<Void> purge() {
    CompletableFuture<Void> future = new CompletableFuture<>();
    if (state.get() != QueueState.RUNNING) {
      throw closedException();
    }
    handoff.putPurge(new WriteTask.Purge(future), this::closedException);
    return future;
  }

  // ---- publication to readers ------------------------------------------------------------

  /**
   * Writer side: blocks before {@code end} are durable and {@code last} (null after a purge) is the
   * last complete message in them; wakes waiting readers. {@code durableEnd} moves first so that
   * whoever sees the new last position can read it.
   */
  void publish(long end, QueuePosition last) {
    durableEnd = end;
    lastPosition = last;
    signalReaders();
  }

  void signalReaders() {
    dataLock.lock();
    try {
      dataArrived.signalAll();
    } finally {
      dataLock.unlock();
    }
  }

  /** Sequence of the first block not yet durable. */
  long durableEnd() {
    return durableEnd;
  }

  /**
   * Waits until blocks at or after {@code sequence} are durable, the queue stops, or the time is
   * up. Returns the nanoseconds left.
   */
  long awaitDurable(long sequence, long nanos) throws InterruptedException {
    dataLock.lockInterruptibly();
    try {
      while (durableEnd <= sequence && nanos > 0) {
        QueueState s = state.get();
        if (s != QueueState.RUNNING && s != QueueState.CLOSING) {
          break;
        }
        nanos = dataArrived.awaitNanos(nanos);
      }
      return nanos;
    } finally {
      dataLock.unlock();
    }
  }

  // ---- readers -----------------------------------------------------------------------------

  @Override
  public QueueReader openReader(String name) {
    checkReadable();
    int nameBytes = name.getBytes(StandardCharsets.UTF_8).length;
    if (name.isBlank() || nameBytes > MAX_READER_NAME_BYTES) {
      throw new IllegalArgumentException(
          "reader name must be 1.." + MAX_READER_NAME_BYTES + " UTF-8 bytes, got '" + name + "'");
    }
    synchronized (readers) {
      ReaderEntry entry = readers.get(name);
      if (entry == null) {
        entry = new ReaderEntry(name, Optional.empty());
        readers.put(name, entry);
        saveMetadata();
        meters.registerReader(entry);
        LOG.info("queue {}: created reader {}", id, name);
      }
      if (entry.handle != null) {
        throw new IllegalStateException("reader " + name + " of queue " + id + " is already open");
      }
      FileQueueReader reader = new FileQueueReader(this, Optional.of(entry));
      reader.seekAfter(entry.confirmed());
      entry.handle = reader;
      return reader;
    }
  }

  /** Called by a reader handle when it closes. */
  void readerClosed(ReaderEntry entry, FileQueueReader handle) {
    synchronized (readers) {
      if (entry.handle == handle) {
        entry.handle = null;
      }
    }
    saveMetadata();
  }

  @Override
  public void dropReader(String name) {
    ReaderEntry entry;
    synchronized (readers) {
      entry = readers.remove(name);
      if (entry == null) {
        throw new IllegalArgumentException("queue " + id + " has no reader " + name);
      }
      if (entry.handle != null) {
        entry.handle.release();
        entry.handle = null;
      }
    }
    meters.removeReader(entry);
    saveMetadata();
    truncationMoved();
    LOG.info("queue {}: dropped reader {}", id, name);
  }

  /** Reader side: a confirmation moved; persists it if it changed segment, wakes the writer. */
  void confirmed(Optional<QueuePosition> previous, QueuePosition now) {
    if (previous.isEmpty() || previous.get().segment() != now.segment()) {
      saveMetadata();
      truncationMoved();
    }
  }

  private void truncationMoved() {
    handoff.truncationMoved();
    manager.signalSpaceWaiters();
  }

  /**
   * Writer side: the lowest segment some reader still needs: the segment of its confirmation (the
   * next message starts there or later), or the first segment if it confirmed nothing. With no
   * reader, everything is kept.
   *
   * <p>A confirmation is never past the last complete message, so the segment where that message
   * starts (which {@link #lastMessage} reads) and the start of a message still being written are
   * never freed.
   */
  long truncationSegment() {
    long first = firstSegment;
    synchronized (readers) {
      if (readers.isEmpty()) {
        return first;
      }
      long pin = Long.MAX_VALUE;
      for (ReaderEntry e : readers.values()) {
        pin = Math.min(pin, e.confirmed().map(QueuePosition::segment).orElse(first));
      }
      return Math.max(pin, first);
    }
  }

  /** Writer side (purge): forgets every reader's confirmation. */
  void resetReaders() {
    synchronized (readers) {
      readers.values().forEach(ReaderEntry::reset);
    }
  }

  boolean hasReaders() {
    synchronized (readers) {
      return !readers.isEmpty();
    }
  }

  List<String> readerNames() {
    synchronized (readers) {
      return List.copyOf(readers.keySet());
    }
  }

  /** Persists the metadata; the snapshot is taken under the store's lock so saves stay ordered. */
  void saveMetadata() {
    synchronized (metadata) {
      List<QueueMetadata.ReaderMark> marks = new ArrayList<>();
      synchronized (readers) {
        for (ReaderEntry e : readers.values()) {
          Optional<QueuePosition> c = e.confirmed();
          marks.add(
              new QueueMetadata.ReaderMark(e.name, c.filter(p -> p.segment() >= firstSegment)));
        }
      }
      metadata.save(
          new QueueMetadata(
              0, id, settings.blockSizeBytes(), settings.segmentSizeBytes(), firstSegment, marks));
    }
  }

  // ---- admin -------------------------------------------------------------------------------

  @Override
  public List<QueueMessage> dump(QueuePosition from, int maxMessages) {
    checkReadable();
    try (FileQueueReader r = new FileQueueReader(this, Optional.empty())) {
      r.seekTo(from);
      List<QueueMessage> out = new ArrayList<>();
      while (out.size() < maxMessages) {
        Optional<QueueMessage> m = r.poll();
        if (m.isEmpty()) {
          break;
        }
        out.add(m.get());
      }
      return out;
    }
  }

  @Override
  public Optional<QueueMessage> lastMessage() {
    checkReadable();
    while (true) {
      QueuePosition last = lastPosition;
      if (last == null) {
        return Optional.empty();
      }
      List<QueueMessage> got = dump(last, 1);
      if (!got.isEmpty() && got.get(0).position().equals(last)) {
        return Optional.of(got.get(0));
      }
      if (lastPosition == last && last.segment() >= firstSegment) {
        throw new QueueException(
            id, "the last message " + last + " cannot be read back: " + got, null);
      }
      // Purged (or a newer message published) meanwhile: look again.
      Thread.onSpinWait();
    }
  }

  @Override
  public List<QueueMessage> dumpFromStart(int maxMessages) {
    return dump(new QueuePosition(firstSegment, 0, 0), maxMessages);
  }

  @Override
  public QueueInfo info() {
    long end = durableEnd;
    long first = firstSegment;
    List<ReaderInfo> infos = new ArrayList<>();
    long backlog = 0;
    synchronized (readers) {
      for (ReaderEntry e : readers.values()) {
        long b = readerBacklogBlocks(e, end) * settings.blockSizeBytes();
        infos.add(new ReaderInfo(e.name, e.confirmed(), b));
        backlog = Math.max(backlog, b);
      }
    }
    if (infos.isEmpty()) {
      backlog = (end - first * blocksPerSegment) * settings.blockSizeBytes();
    }
    long held = segments.size();
    return new QueueInfo(
        id,
        state.get(),
        waitingForSegment,
        Duration.ofNanos(stats.segWaitSoFar(clock.monotonicTime())),
        first,
        writeSegment,
        held,
        held * settings.segmentSizeBytes(),
        Optional.ofNullable(lastPosition),
        backlog,
        infos,
        Duration.ZERO);
  }

  /** Blocks durable after the block of the reader's confirmation (or after the first segment). */
  long readerBacklogBlocks(ReaderEntry e, long end) {
    long from =
        e.confirmed()
            .map(p -> p.segment() * blocksPerSegment + p.block() + 1)
            .orElse(firstSegment * blocksPerSegment);
    return Math.max(0, end - from);
  }

  long backlogBytes() {
    return info().backlogBytes();
  }

  // ---- accessors for the engine ------------------------------------------------------------

  @Override
  public QueueId id() {
    return id;
  }

  QueueSettings settings() {
    return settings;
  }

  SqmStats stats() {
    return stats;
  }

  Clock clock() {
    return clock;
  }

  FileQueueManager manager() {
    return manager;
  }

  BlockCache cache() {
    return cache;
  }

  SqmHandoff handoff() {
    return handoff;
  }

  MetadataStore metadataStore() {
    return metadata;
  }

  int blocksPerSegment() {
    return blocksPerSegment;
  }

  long segmentOf(long sequence) {
    return sequence / blocksPerSegment;
  }

  static long nanos(Duration d) {
    return TimeUnit.NANOSECONDS.convert(d);
  }

  @Override
  public String toString() {
    return "queue " + id + " (" + state.get() + ")";
  }
}
