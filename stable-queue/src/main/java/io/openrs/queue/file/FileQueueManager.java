package io.openrs.queue.file;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.openrs.queue.QueueException;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueInfo;
import io.openrs.queue.QueueManager;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.QueueType;
import io.openrs.queue.StableQueue;
import io.openrs.queue.WriteFlush;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stable device manager of the file engine: the partitions (directories with a space limit,
 * holding segment files of many queues), the queues' metadata in a state directory, and the open
 * queues. The server creates one at start with the partitions recorded in its RSSD, then opens its
 * queues.
 *
 * <p>Thread-safe. Space accounting is guarded by one lock; a writer that finds every partition full
 * waits on its condition, which is signalled whenever space may have appeared (a segment freed, a
 * partition added, a reader confirmation, a shutdown).
 */
public final class FileQueueManager implements QueueManager {

  private static final Logger LOG = LoggerFactory.getLogger(FileQueueManager.class);

  private final Path stateDirectory;
  private final MeterRegistry registry;
  private final Clock clock;
  private final SegmentChannels segmentChannels;
  private final Map<QueueId, FileStableQueue> open = new ConcurrentHashMap<>();

  private final ReentrantLock spaceLock = new ReentrantLock();
  private final Condition spaceChanged = spaceLock.newCondition();
  private final Map<String, Partition> partitions = new LinkedHashMap<>();
  private long spaceEpoch;
  private final SpaceWarnings warnings = new SpaceWarnings();

  /** The largest segment size of the queues known (created, opened or found at open); guarded. */
  private long largestSegmentBytes;

  /**
   * How writers open segment files: {@link FileChannel#open} in production; tests pass channels
   * that fail the n-th write or force.
   */
  @FunctionalInterface
  interface SegmentChannels {
    SegmentChannels DEFAULT = (file, options) -> FileChannel.open(file, options);

    FileChannel open(Path file, Set<? extends OpenOption> options) throws IOException;
  }

  private FileQueueManager(
      Path stateDirectory, MeterRegistry registry, Clock clock, SegmentChannels segmentChannels) {
    this.stateDirectory = stateDirectory;
    this.registry = registry;
    this.clock = clock;
    this.segmentChannels = segmentChannels;
  }

  /**
   * Opens the manager: creates missing directories, resolves what a crash left behind ({@code
   * .tmp}, half-dropped queues), and counts the space existing segments hold.
   *
   * @param stateDirectory where queue metadata lives
   * @param partitions the partitions, in allocation order
   * @param registry where queues register their counters
   * @param clock time source for counted durations ({@code Clock.SYSTEM} in production)
   */
  public static FileQueueManager open(
      Path stateDirectory, List<PartitionSpec> partitions, MeterRegistry registry, Clock clock)
      throws IOException {
    return open(stateDirectory, partitions, registry, clock, SegmentChannels.DEFAULT);
  }

  /**
   * {@link #open(Path, List, MeterRegistry, Clock)} with the segment files opened by {@code io}.
   */
  static FileQueueManager open(
      Path stateDirectory,
      List<PartitionSpec> partitions,
      MeterRegistry registry,
      Clock clock,
      SegmentChannels io)
      throws IOException {
    PrivateModes.createDirectories(stateDirectory);
    FileQueueManager m = new FileQueueManager(stateDirectory, registry, clock, io);
    for (PartitionSpec spec : partitions) {
      PrivateModes.createDirectories(spec.directory());
      if (m.partitions.putIfAbsent(spec.name(), new Partition(spec)) != null) {
        throw new IllegalArgumentException("partition " + spec.name() + " listed twice");
      }
    }
    SegmentFiles.resolveLeftovers(
        stateDirectory, partitions.stream().map(PartitionSpec::directory).toList());
    for (QueueId q : m.queueIds()) {
      Optional<QueueMetadata> meta = new MetadataStore(stateDirectory, q).load();
      if (meta.isPresent()) {
        m.recount(q, m.locateSegments(q).values(), meta.get().segmentSizeBytes());
      }
    }
    return m;
  }

  // ---- partitions --------------------------------------------------------------------------

  /**
   * {@code create partition}: adds a partition; writers waiting for space resume.
   *
   * @throws io.openrs.queue.InvalidSettingException if the partition cannot hold one segment of the
   *     largest segment size of the queues known
   */
  public void addPartition(PartitionSpec spec) throws IOException {
    spaceLock.lock();
    try {
      spec.requireRoomForSegment(largestSegmentBytes);
    } finally {
      spaceLock.unlock();
    }
    PrivateModes.createDirectories(spec.directory());
    spaceLock.lock();
    try {
      if (partitions.containsKey(spec.name())) {
        throw new IllegalArgumentException("partition " + spec.name() + " already exists");
      }
      partitions.put(spec.name(), new Partition(spec));
      spaceEpoch++;
      spaceChanged.signalAll();
    } finally {
      spaceLock.unlock();
    }
    LOG.info("added partition {} ({}, {} bytes)", spec.name(), spec.directory(), spec.limitBytes());
  }

  /**
   * {@code drop partition}: no new segments go there; it is removed now if empty, else when its
   * last segment is freed. Returns true if it was removed now.
   */
  public boolean dropPartition(String name) {
    spaceLock.lock();
    try {
      Partition p = partitions.get(name);
      if (p == null) {
        throw new IllegalArgumentException("no partition " + name);
      }
      p.markDropPending();
      if (p.usedBytes() == 0) {
        partitions.remove(name);
        LOG.info("dropped partition {}", name);
        return true;
      }
      LOG.info("partition {} will be dropped when its segments are freed ({})", name, p);
      return false;
    } finally {
      spaceLock.unlock();
    }
  }

  /** The partitions and what they hold ({@code admin disk_space}). */
  public List<PartitionInfo> partitions() {
    spaceLock.lock();
    try {
      return partitions.values().stream().map(Partition::info).toList();
    } finally {
      spaceLock.unlock();
    }
  }

  String describePartitions() {
    spaceLock.lock();
    try {
      return partitions.values().stream()
          .map(Partition::toString)
          .collect(Collectors.joining(", ", "partitions: ", ""));
    } finally {
      spaceLock.unlock();
    }
  }

  /**
   * Reserves one segment of {@code bytes} for {@code queue} in the first partition where it fits,
   * keeping the outbound reserve ({@link #reserveSegments}) from inbound queues. Empty if the
   * segment cannot be had now.
   */
  Optional<Partition> tryReserve(QueueId queue, long bytes) {
    List<SpaceWarnings.Message> messages;
    Optional<Partition> got = Optional.empty();
    spaceLock.lock();
    try {
      if (queue.type() == QueueType.INBOUND && freeSegments(bytes) - 1 < reserveSegments()) {
        return Optional.empty();
      }
      for (Partition p : partitions.values()) {
        if (p.fits(bytes)) {
          p.add(queue, bytes);
          got = Optional.of(p);
          break;
        }
      }
      messages =
          got.isPresent() ? warnings.evaluate(partitions.values(), largestSegmentBytes) : List.of();
    } finally {
      spaceLock.unlock();
    }
    log(messages);
    return got;
  }

  /**
   * Segments an inbound queue may not take: none while no outbound queue is open, else one per open
   * outbound queue plus one. Why this is enough: an inbound queue is emptied only by its
   * distributor (DIST), which needs outbound space; an outbound queue only by its DSI. Suppose
   * every writer waits. An outbound queue whose DSI runs holds then only its write segment (the DSI
   * confirmed everything before it, and its writer freed that), so the k outbound queues hold at
   * most k segments. Inbound queues never take a segment that would leave fewer than k + 1 free,
   * and only inbound allocations can leave them fewer, so at least k + 1 - k = 1 segment is free:
   * an outbound writer can take it, which contradicts "every writer waits". What remains is an
   * outbound queue whose DSI does not run (suspended, or stopped by an error): that waits for the
   * DBA, as in Replication Server. Assumes one segment size for every queue (the server's {@code
   * sqm_segment_size}).
   */
  int reserveSegments() {
    int k = 0;
    for (FileStableQueue q : open.values()) {
      if (q.id().type() == QueueType.OUTBOUND && q.hasReaders()) {
        k++;
      }
    }
    return k == 0 ? 0 : k + 1;
  }

  /** Whole free segments of {@code bytes} in every partition that takes new segments. */
  private long freeSegments(long bytes) {
    long free = 0;
    for (Partition p : partitions.values()) {
      free += p.freeSegments(bytes);
    }
    return free;
  }

  /**
   * Why {@code queue} cannot have a segment of {@code bytes} now: every partition is full, or the
   * free segments left are the outbound reserve.
   */
  String whyNoSegment(QueueId queue, long bytes) {
    spaceLock.lock();
    try {
      long free = freeSegments(bytes);
      String parts =
          partitions.values().stream()
              .map(Partition::toString)
              .collect(Collectors.joining(", ", "partitions: ", ""));
      if (free > 0 && queue.type() == QueueType.INBOUND) {
        return "the "
            + free
            + " free segments are the reserve kept for the outbound queues ("
            + reserveSegments()
            + " segments; "
            + parts
            + ")";
      }
      return "no partition has " + bytes + " bytes left (" + parts + ")";
    } finally {
      spaceLock.unlock();
    }
  }

  void release(Partition p, QueueId queue, long bytes) {
    List<SpaceWarnings.Message> messages;
    spaceLock.lock();
    try {
      p.add(queue, -bytes);
      if (p.dropPending() && p.usedBytes() == 0 && partitions.remove(p.name()) != null) {
        LOG.info("dropped partition {}", p.name());
      }
      spaceEpoch++;
      spaceChanged.signalAll();
      messages = warnings.evaluate(partitions.values(), largestSegmentBytes);
    } finally {
      spaceLock.unlock();
    }
    log(messages);
  }

  private static void log(List<SpaceWarnings.Message> messages) {
    for (SpaceWarnings.Message m : messages) {
      if (m.warning()) {
        LOG.warn(m.text());
      } else {
        LOG.info(m.text());
      }
    }
  }

  /**
   * Sets the stable storage warning thresholds ({@code sqm_warning_thr1}, {@code sqm_warning_thr2},
   * {@code sqm_warning_thr_ind}, percent 1..100; 75, 90 and 70 until set) and checks the partitions
   * against them at once.
   */
  public void setSpaceWarnings(int thr1, int thr2, int thrInd) {
    List<SpaceWarnings.Message> messages;
    spaceLock.lock();
    try {
      int[] now = warnings.thresholds();
      if (now[0] == thr1 && now[1] == thr2 && now[2] == thrInd) {
        return;
      }
      warnings.set(thr1, thr2, thrInd);
      messages = warnings.evaluate(partitions.values(), largestSegmentBytes);
    } finally {
      spaceLock.unlock();
    }
    log(messages);
  }

  /** Stable storage warnings logged so far (each upward crossing of a threshold counts one). */
  public long spaceWarnings() {
    spaceLock.lock();
    try {
      return warnings.warnings();
    } finally {
      spaceLock.unlock();
    }
  }

  /** Sets what {@code queue} holds in each partition from its segment files. */
  void recount(QueueId queue, Collection<SegmentSlot> slots, long segmentSizeBytes) {
    List<SpaceWarnings.Message> messages;
    spaceLock.lock();
    try {
      largestSegmentBytes = Math.max(largestSegmentBytes, segmentSizeBytes);
      Map<Partition, Long> bytes = new LinkedHashMap<>();
      for (SegmentSlot s : slots) {
        bytes.merge(s.partition(), segmentSizeBytes, Long::sum);
      }
      for (Partition p : partitions.values()) {
        p.set(queue, bytes.getOrDefault(p, 0L));
      }
      messages = warnings.evaluate(partitions.values(), largestSegmentBytes);
    } finally {
      spaceLock.unlock();
    }
    log(messages);
  }

  long spaceEpoch() {
    spaceLock.lock();
    try {
      return spaceEpoch;
    } finally {
      spaceLock.unlock();
    }
  }

  /** Waits until the space epoch moves past {@code epoch} or {@code stop} holds. */
  void awaitSpaceChange(long epoch, BooleanSupplier stop) throws InterruptedException {
    spaceLock.lockInterruptibly();
    try {
      while (spaceEpoch == epoch && !stop.getAsBoolean()) {
        spaceChanged.await();
      }
    } finally {
      spaceLock.unlock();
    }
  }

  void signalSpaceWaiters() {
    spaceLock.lock();
    try {
      spaceEpoch++;
      spaceChanged.signalAll();
    } finally {
      spaceLock.unlock();
    }
  }

  /** Every segment file of {@code queue} in every partition, by segment number. */
  TreeMap<Long, SegmentSlot> locateSegments(QueueId queue) {
    List<Partition> ps;
    spaceLock.lock();
    try {
      ps = new ArrayList<>(partitions.values());
    } finally {
      spaceLock.unlock();
    }
    TreeMap<Long, SegmentSlot> found = new TreeMap<>();
    for (Partition p : ps) {
      try (DirectoryStream<Path> files =
          Files.newDirectoryStream(
              p.directory(),
              SegmentFiles.queuePrefix(queue) + "-*" + SegmentFiles.SEGMENT_SUFFIX)) {
        for (Path f : files) {
          Optional<SegmentFiles.SegmentName> n =
              SegmentFiles.parseSegment(f.getFileName().toString());
          if (n.isPresent() && n.get().queue().equals(queue)) {
            SegmentSlot previous =
                found.put(n.get().segment(), new SegmentSlot(n.get().segment(), p, f));
            if (previous != null) {
              throw new QueueException(
                  queue,
                  "segment " + n.get().segment() + " exists twice: " + previous.file() + ", " + f,
                  null);
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list partition " + p, e);
      }
    }
    return found;
  }

  // ---- queues ------------------------------------------------------------------------------

  /**
   * Creates a queue; fails if it exists, or if a partition cannot hold one of its segments ({@link
   * PartitionSpec#requireRoomForSegment}).
   */
  public StableQueue createQueue(QueueId id, QueueSettings settings) {
    checkSettings(settings);
    requireRoomForSegments(settings.segmentSizeBytes());
    return register(FileStableQueue.create(this, id, settings, clock));
  }

  /**
   * Opens an existing queue, recovering it; fails if a partition cannot hold a segment of the
   * queues found.
   */
  public StableQueue openQueue(QueueId id, QueueSettings settings) {
    checkSettings(settings);
    requireRoomForSegments(0);
    return register(FileStableQueue.open(this, id, settings, clock));
  }

  /**
   * Refuses a partition that takes new segments but cannot hold one of {@code segmentBytes} or of
   * the largest segment size known, and remembers the size.
   */
  private void requireRoomForSegments(long segmentBytes) {
    spaceLock.lock();
    try {
      long needed = Math.max(segmentBytes, largestSegmentBytes);
      for (Partition p : partitions.values()) {
        if (!p.dropPending()) {
          p.spec().requireRoomForSegment(needed);
        }
      }
      largestSegmentBytes = needed;
    } finally {
      spaceLock.unlock();
    }
  }

  /** Opens the queue if it exists, else creates it. */
  @Override
  public StableQueue openOrCreateQueue(QueueId id, QueueSettings settings) {
    return queueIds().contains(id) ? openQueue(id, settings) : createQueue(id, settings);
  }

  private StableQueue register(FileStableQueue q) {
    if (open.putIfAbsent(q.id(), q) != null) {
      q.close();
      throw new IllegalStateException("queue " + q.id() + " is already open");
    }
    return q;
  }

  private void checkSettings(QueueSettings settings) {
    if (settings.writeFlush() == WriteFlush.DIO) {
      List<PartitionInfo> ps = partitions();
      for (PartitionInfo p : ps) {
        DirectIo.check(p.directory(), settings.blockSizeBytes());
      }
    }
  }

  void forget(FileStableQueue q) {
    if (open.remove(q.id(), q) && q.id().type() == QueueType.OUTBOUND) {
      signalSpaceWaiters(); // the outbound reserve shrank
    }
  }

  /** The open queue, if any. */
  @Override
  public Optional<StableQueue> queue(QueueId id) {
    return Optional.ofNullable(open.get(id));
  }

  /** Every queue that exists (has metadata), open or not. */
  @Override
  public Set<QueueId> queueIds() {
    Set<QueueId> ids = new TreeSet<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(stateDirectory)) {
      for (Path f : files) {
        SegmentFiles.parseMetadata(f.getFileName().toString()).ifPresent(ids::add);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + stateDirectory, e);
    }
    return ids;
  }

  /** {@code admin who, sqm} for every open queue. */
  @Override
  public List<QueueInfo> queueInfos() {
    return open.values().stream()
        .map(FileStableQueue::info)
        .sorted((a, b) -> a.queue().compareTo(b.queue()))
        .toList();
  }

  /**
   * Drops a queue and all its data: closes it if open, renames its metadata {@code .deleted},
   * deletes its segments, then the metadata (a crash in between is finished at the next start).
   */
  @Override
  public void dropQueue(QueueId id) throws IOException {
    FileStableQueue q = open.get(id);
    if (q != null) {
      q.close();
    }
    MetadataStore store = new MetadataStore(stateDirectory, id);
    if (!store.exists()) {
      throw new IllegalArgumentException("queue " + id + " does not exist");
    }
    store.markDeleted();
    for (SegmentSlot s : locateSegments(id).values()) {
      Files.deleteIfExists(s.file());
    }
    recount(id, List.of(), 0);
    store.deleteMarked();
    signalSpaceWaiters();
    LOG.info("dropped queue {}", id);
  }

  Path stateDirectory() {
    return stateDirectory;
  }

  MeterRegistry registry() {
    return registry;
  }

  SegmentChannels segmentChannels() {
    return segmentChannels;
  }

  /** Closes every open queue. */
  @Override
  public void close() {
    for (FileStableQueue q : new ArrayList<>(open.values())) {
      q.close();
    }
  }
}
