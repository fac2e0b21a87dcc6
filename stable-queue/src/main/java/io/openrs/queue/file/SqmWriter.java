package io.openrs.queue.file;

import io.openrs.queue.QueueClosedException;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.WriteFlush;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SQM: the one thread that writes a queue's segment files. Producers hand it {@link WriteTask}s
 * through the queue's bounded buffer; each step packs what is waiting into up to {@code
 * sqm_page_size} blocks, writes them with one write call, forces them per {@code sqm_write_flush},
 * then publishes them to readers and completes the producers' futures (group commit).
 *
 * <p>Not thread-safe: every field here is owned by the writer thread (asserted at the entry points
 * with {@code -ea}). What others see goes through {@link FileStableQueue}'s volatile fields.
 */
final class SqmWriter extends ShutdownableThread {

  private static final Logger LOG = LoggerFactory.getLogger(SqmWriter.class);
  private static final byte[] ZEROS = new byte[256 * 1024];

  /** Why a write call ended where it did; each has a counter. */
  enum FlushReason {
    /** {@code sqm_page_size} blocks were filled; more may be waiting. */
    PAGE_FULL,
    /** Nothing more was waiting. */
    DRAINED,
    /** The segment ended before the page did. */
    SEGMENT_END
  }

  private record Completion(WriteTask.Append request, QueuePosition last) {}

  private final FileStableQueue queue;
  private final QueueSettings settings;
  private final int blockSize;
  private final int blocksPerSegment;
  private final int capacity;
  private final ByteBuffer page;
  private final SqmStats stats;

  private FileChannel channel;
  private long writeSegment;
  private int blockInSegment;

  private final ArrayDeque<WriteTask.Append> local = new ArrayDeque<>();
  private final List<Completion> completions = new ArrayList<>();
  private WriteTask.Append current;
  private int messageIndex;
  private boolean inMessage;
  private int messageOffset;
  // Position of the message being packed, kept as primitives: no allocation per message.
  private long messageSegment;
  private int messageBlock;
  private int messageRow;
  private boolean packedAny;
  private long lastSegment;
  private int lastBlock;
  private int lastRow;
  private QueuePosition lastWritten;
  private boolean firstBlockSinceOpen = true;

  SqmWriter(FileStableQueue queue, long writeSegment, int blockInSegment) {
    super("rs-sqm-writer-" + queue.id());
    this.queue = queue;
    this.settings = queue.settings();
    this.blockSize = settings.blockSizeBytes();
    this.blocksPerSegment = settings.blocksPerSegment();
    this.capacity = blockSize - BlockFormat.HEADER_SIZE;
    this.stats = queue.stats();
    this.writeSegment = writeSegment;
    this.blockInSegment = blockInSegment;
    int pageBytes = settings.pageSizeBlocks() * blockSize;
    // Aligned to the block size so that direct I/O (sqm_write_flush=dio) accepts it.
    this.page = ByteBuffer.allocateDirect(pageBytes + blockSize).alignedSlice(blockSize);
    this.page.limit(pageBytes);
  }

  private boolean onWriterThread() {
    return Thread.currentThread() == this;
  }

  /** The position of the last message this writer made durable, if any since open or purge. */
  Optional<QueuePosition> lastWritten() {
    return Optional.ofNullable(lastWritten);
  }

  @Override
  protected boolean doWork() throws Exception {
    assert onWriterThread() : "SqmWriter step on " + Thread.currentThread();
    if (!awaitWork()) {
      return false;
    }
    freeSegments();
    if (current == null && local.isEmpty()) {
      Optional<WriteTask.Purge> purge = queue.takePurgeAtHead();
      if (purge.isPresent()) {
        purge(purge.get());
        return true;
      }
    }
    if (!inMessage && !nextMessageReady(pageBudget(settings.pageSizeBlocks()))) {
      return true;
    }
    if (!ensureWritableSegment()) {
      return false;
    }
    int blocks = packPage();
    FlushReason reason = writePage(blocks);
    publish(blocks, reason);
    return true;
  }

  /** Waits until there is something to do; false when shut down with nothing left to write. */
  private boolean awaitWork() throws InterruptedException {
    queue.handoffLock.lock();
    try {
      while (queue.pending.isEmpty()
          && current == null
          && local.isEmpty()
          && !queue.truncationMoved) {
        if (shutdownRequested()) {
          return false;
        }
        queue.workAvailable.await();
      }
      queue.truncationMoved = false;
      return true;
    } finally {
      queue.handoffLock.unlock();
    }
  }

  private long pageBudget(int blocks) {
    return (long) blocks * capacity;
  }

  /** True if a message not yet started is available in {@link #current}. */
  private boolean nextMessageReady(long budgetBytes) {
    while (true) {
      if (current != null && messageIndex < current.messages().size()) {
        return true;
      }
      current = local.pollFirst();
      messageIndex = 0;
      if (current == null) {
        queue.takeAppends(local, budgetBytes);
        current = local.pollFirst();
        if (current == null) {
          return false;
        }
      }
    }
  }

  private byte[] currentMessage() {
    return current.messages().get(messageIndex);
  }

  private void finishMessage() {
    messageIndex++;
    inMessage = false;
    messageOffset = 0;
    packedAny = true;
    lastSegment = messageSegment;
    lastBlock = messageBlock;
    lastRow = messageRow;
    if (messageIndex == current.messages().size()) {
      completions.add(
          new Completion(current, new QueuePosition(messageSegment, messageBlock, messageRow)));
      current = null;
    }
  }

  /** Packs waiting messages into the page buffer; returns the number of blocks filled. */
  private int packPage() {
    int maxBlocks = Math.min(settings.pageSizeBlocks(), blocksPerSegment - blockInSegment);
    int blocks = 0;
    long messages = 0;
    for (int b = 0; b < maxBlocks; b++) {
      if (!inMessage && !nextMessageReady(pageBudget(maxBlocks - b))) {
        break;
      }
      int base = b * blockSize;
      int pos = base + BlockFormat.HEADER_SIZE;
      int end = base + blockSize;
      short flags = 0;
      if (firstBlockSinceOpen) {
        // A message left unfinished by a crash before this open is abandoned.
        flags = BlockFormat.FLAG_DISCARD_PARTIAL;
        firstBlockSinceOpen = false;
      }
      int continuation = 0;
      if (inMessage) {
        byte[] m = currentMessage();
        int n = Math.min(m.length - messageOffset, end - pos);
        page.put(pos, m, messageOffset, n);
        pos += n;
        messageOffset += n;
        continuation = n;
        if (messageOffset == m.length) {
          finishMessage();
          messages++;
        }
      }
      int count = 0;
      while (!inMessage
          && end - pos >= BlockFormat.RECORD_LENGTH_SIZE
          && nextMessageReady(pageBudget(maxBlocks - b))) {
        byte[] m = currentMessage();
        messageSegment = writeSegment;
        messageBlock = blockInSegment + b;
        messageRow = count++;
        page.putInt(pos, m.length);
        pos += BlockFormat.RECORD_LENGTH_SIZE;
        int n = Math.min(m.length, end - pos);
        page.put(pos, m, 0, n);
        pos += n;
        if (n < m.length) {
          inMessage = true;
          messageOffset = n;
        } else {
          finishMessage();
          messages++;
        }
      }
      if (pos == end) {
        stats.blocksFullWrite++;
      } else {
        page.put(pos, ZEROS, 0, end - pos);
      }
      BlockFormat.writeHeader(
          page,
          base,
          blockSize,
          flags,
          queue.id(),
          sequence(blockInSegment + b),
          pos - base - BlockFormat.HEADER_SIZE,
          continuation,
          count);
      blocks++;
    }
    stats.cmdsWritten += messages;
    if (packedAny) {
      lastWritten = new QueuePosition(lastSegment, lastBlock, lastRow);
      packedAny = false;
    }
    return blocks;
  }

  private long sequence(int block) {
    return writeSegment * blocksPerSegment + block;
  }

  /** One write call of {@code blocks} blocks, then the force the flush policy asks for. */
  private FlushReason writePage(int blocks) throws IOException {
    long start = queue.clock().monotonicTime();
    ByteBuffer src = page.duplicate();
    src.position(0).limit(blocks * blockSize);
    long offset = (long) blockInSegment * blockSize;
    while (src.hasRemaining()) {
      offset += channel.write(src, offset);
    }
    if (settings.writeFlush() != WriteFlush.OFF) {
      channel.force(false);
    }
    long elapsed = queue.clock().monotonicTime() - start;
    stats.writes++;
    stats.writeNanos += elapsed;
    stats.blocksWritten += blocks;
    stats.bytesWritten += (long) blocks * blockSize;
    FlushReason reason;
    if (blockInSegment + blocks == blocksPerSegment) {
      reason = FlushReason.SEGMENT_END;
      stats.flushesSegmentEnd++;
    } else if (blocks == settings.pageSizeBlocks()) {
      reason = FlushReason.PAGE_FULL;
      stats.flushesPageFull++;
    } else {
      reason = FlushReason.DRAINED;
      stats.flushesDrained++;
    }
    return reason;
  }

  /** Makes the written blocks visible to readers and completes the producers' futures. */
  private void publish(int blocks, FlushReason reason) {
    for (int b = 0; b < blocks; b++) {
      int base = b * blockSize;
      int length = BlockFormat.HEADER_SIZE + page.getInt(base + BlockFormat.PAYLOAD_LENGTH_OFFSET);
      queue.cache().put(sequence(blockInSegment + b), page, base, length);
    }
    blockInSegment += blocks;
    queue.publish(writeSegment * blocksPerSegment + blockInSegment, lastWritten);
    for (Completion c : completions) {
      c.request().future().complete(c.last());
    }
    completions.clear();
    if (LOG.isTraceEnabled()) {
      LOG.trace("queue {}: wrote {} blocks ({})", queue.id(), blocks, reason);
    }
  }

  /** Makes sure {@link #channel} is open on a segment with room; false if shut down meanwhile. */
  private boolean ensureWritableSegment() throws IOException, InterruptedException {
    if (blockInSegment == blocksPerSegment) {
      closeChannel();
      writeSegment++;
      blockInSegment = 0;
      queue.writeSegment = writeSegment;
    }
    if (channel != null) {
      return true;
    }
    SegmentSlot slot = queue.segments.get(writeSegment);
    if (slot == null) {
      Optional<SegmentSlot> allocated = allocateSegment(writeSegment);
      if (allocated.isEmpty()) {
        return false;
      }
      slot = allocated.get();
    }
    List<OpenOption> options = new ArrayList<>(List.of(StandardOpenOption.WRITE));
    if (settings.writeFlush() == WriteFlush.DIO) {
      options.add(DirectIo.directOption());
    }
    channel = FileChannel.open(slot.file(), options.toArray(new OpenOption[0]));
    return true;
  }

  private Optional<SegmentSlot> allocateSegment(long segment)
      throws IOException, InterruptedException {
    Optional<Partition> partition = reserveSpace();
    if (partition.isEmpty()) {
      return Optional.empty();
    }
    Partition p = partition.get();
    SegmentSlot slot =
        new SegmentSlot(
            segment, p, p.directory().resolve(SegmentFiles.segmentFileName(queue.id(), segment)));
    try {
      Files.createFile(slot.file());
      if (settings.writeFlush() != WriteFlush.OFF) {
        SegmentFiles.forceDirectory(p.directory());
      }
    } catch (IOException e) {
      queue.manager().release(p, queue.id(), settings.segmentSizeBytes());
      throw e;
    }
    queue.segments.put(segment, slot);
    stats.segsAllocated++;
    return Optional.of(slot);
  }

  /**
   * Reserves one segment of space, waiting while every partition is full: logs one warning per
   * wait, counts the wait in SQMWaitSegTime, frees this queue's own segments as its readers move,
   * and resumes by itself when space appears. Empty if shut down while waiting.
   */
  private Optional<Partition> reserveSpace() throws IOException, InterruptedException {
    FileQueueManager manager = queue.manager();
    long waitStart = 0;
    boolean waited = false;
    try {
      while (true) {
        long epoch = manager.spaceEpoch();
        Optional<Partition> p = manager.tryReserve(queue.id(), settings.segmentSizeBytes());
        if (p.isPresent()) {
          return p;
        }
        if (!waited) {
          waited = true;
          waitStart = queue.clock().monotonicTime();
          queue.waitingForSegment = true;
          LOG.warn(
              "queue {}: going to wait for a segment to be freed: no partition has {} bytes left"
                  + " ({}). Administrative action is needed: add a partition or let the queue's"
                  + " readers ({}) move on.",
              queue.id(),
              settings.segmentSizeBytes(),
              manager.describePartitions(),
              queue.readerNames());
        }
        if (freeSegments()) {
          continue;
        }
        if (shutdownRequested()) {
          return Optional.empty();
        }
        manager.awaitSpaceChange(epoch, this::shutdownRequested);
      }
    } finally {
      if (waited) {
        long waitedNanos = queue.clock().monotonicTime() - waitStart;
        stats.segWaits++;
        stats.segWaitNanos += waitedNanos;
        queue.waitingForSegment = false;
        LOG.info("queue {}: segment wait over after {} ms", queue.id(), waitedNanos / 1_000_000);
      }
    }
  }

  /**
   * Frees the segments every reader has confirmed past (never the one being written). The new first
   * segment is persisted before any file is deleted. Returns true if any was freed.
   */
  private boolean freeSegments() throws IOException {
    long pin = queue.truncationSegment(writeSegment, lastWritten);
    long freeBelow = Math.min(pin, writeSegment);
    long first = queue.firstSegment;
    if (freeBelow <= first) {
      return false;
    }
    queue.firstSegment = freeBelow;
    queue.saveMetadata();
    for (long s = first; s < freeBelow; s++) {
      deleteSegment(s);
    }
    return true;
  }

  private void deleteSegment(long segment) throws IOException {
    SegmentSlot slot = queue.segments.remove(segment);
    if (slot != null) {
      Files.deleteIfExists(slot.file());
      queue.manager().release(slot.partition(), queue.id(), settings.segmentSizeBytes());
      stats.segsDeallocated++;
    }
  }

  /** {@code sysadmin sqm_purge_queue}: drops every segment; writing resumes in a new one. */
  private void purge(WriteTask.Purge task) throws IOException {
    closeChannel();
    long oldFirst = queue.firstSegment;
    long newFirst = writeSegment + 1;
    writeSegment = newFirst;
    blockInSegment = 0;
    lastWritten = null;
    queue.writeSegment = newFirst;
    queue.firstSegment = newFirst;
    queue.resetReaders();
    queue.saveMetadata();
    for (long s = oldFirst; s < newFirst; s++) {
      deleteSegment(s);
    }
    queue.publish(newFirst * blocksPerSegment, null);
    LOG.warn("queue {}: purged segments {}..{}", queue.id(), oldFirst, newFirst - 1);
    task.future().complete(null);
  }

  private void closeChannel() throws IOException {
    if (channel != null) {
      channel.close();
      channel = null;
    }
  }

  @Override
  protected void wakeUp() {
    queue.handoffLock.lock();
    try {
      queue.workAvailable.signalAll();
    } finally {
      queue.handoffLock.unlock();
    }
    queue.manager().signalSpaceWaiters();
  }

  @Override
  protected void onFatal(Throwable error) {
    LOG.error("queue {}: writer stopped by a fatal error", queue.id(), error);
    queue.fail(error);
  }

  @Override
  protected void onExit() {
    QueueClosedException closed =
        new QueueClosedException(queue.id(), queue.state(), queue.failure().orElse(null));
    for (Completion c : completions) {
      c.request().future().completeExceptionally(closed);
    }
    completions.clear();
    if (current != null) {
      current.future().completeExceptionally(closed);
      current = null;
    }
    for (WriteTask.Append a : local) {
      a.future().completeExceptionally(closed);
    }
    local.clear();
    queue.abandonPending(closed);
    try {
      closeChannel();
    } catch (IOException e) {
      LOG.warn("queue {}: closing segment file failed", queue.id(), e);
    }
  }
}
