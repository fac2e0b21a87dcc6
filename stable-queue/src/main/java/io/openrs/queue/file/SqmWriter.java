package io.openrs.queue.file;

import io.openrs.queue.QueueException;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.WriteFlush;
import io.openrs.runtime.ThreadNames;
import io.openrs.runtime.WorkerThread;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SQM writer (thread {@code rs-sqm-writer-<queue>}): the one thread that writes, forces,
 * allocates, frees and purges a queue's segment files. It takes the pages the {@link SqmPacker}
 * hands over, in order, and for each: makes sure its segment is open (allocating it, waiting while
 * every partition is full), writes it with one positional write call, forces it per {@code
 * sqm_write_flush}, publishes the new end of durable data to readers and marks the page durable
 * (the packer then completes the producers' futures).
 *
 * <p>Each page is forced before the next one is written, so after a crash at most the last page can
 * be torn ({@link TailRecovery} relies on it) and a torn page is always in the last segment. The
 * last block of a page is written only up to its payload (see {@link #writeLength}), so a segment
 * file may end inside a block slot and has holes where partly filled blocks end.
 *
 * <p>Not thread-safe: every field is owned by this thread (asserted at the entry points with {@code
 * -ea}). An I/O error stops the queue ({@code FAILED}) with an exception naming the queue, the
 * segment file and the offset.
 */
final class SqmWriter extends WorkerThread {

  private static final Logger LOG = LoggerFactory.getLogger(SqmWriter.class);

  private final FileStableQueue queue;
  private final SqmHandoff handoff;
  private final QueueSettings settings;
  private final int blockSize;
  private final int blocksPerSegment;
  private final SqmStats stats;

  private FileChannel channel;
  private Path channelFile;
  private long channelSegment = -1;

  /** Waits for a segment in the current episode of shortage, and their time (see reserveSpace). */
  private long episodeWaits;

  private long episodeNanos;

  /** The segment being written (or about to be): never freed. */
  private long writeSegment;

  SqmWriter(FileStableQueue queue, long writeSegment) {
    super(ThreadNames.of("sqm", "writer", queue.id()), StopPolicy.WHEN_DRAINED);
    this.queue = queue;
    this.handoff = queue.handoff();
    this.settings = queue.settings();
    this.blockSize = settings.blockSizeBytes();
    this.blocksPerSegment = settings.blocksPerSegment();
    this.stats = queue.stats();
    this.writeSegment = writeSegment;
  }

  @Override
  protected boolean doWork() throws Exception {
    assert isCurrent() : "SqmWriter step on " + Thread.currentThread();
    SqmHandoff.WriterTask task = handoff.awaitWriterWork(this::shutdownRequested);
    if (task == null && handoff.writerShouldEnd(shutdownRequested())) {
      return false;
    }
    freeSegments();
    if (task instanceof PageBuffer page) {
      if (!write(page)) {
        return false; // shut down while waiting for a free segment
      }
      handoff.markDurable(page);
    } else if (task instanceof SqmHandoff.WriterTask.Purge purge) {
      purge(purge);
      handoff.writerIdleAgain();
    }
    return true;
  }

  /**
   * Writes {@code page} with one write call, forces it per {@code sqm_write_flush} and publishes
   * it; false if shut down while waiting for its segment.
   */
  private boolean write(PageBuffer page) throws IOException, InterruptedException {
    long segment = page.firstSequence / blocksPerSegment;
    if (!openSegment(segment)) {
      return false;
    }
    long start = queue.clock().monotonicTime();
    ByteBuffer src = page.buffer.duplicate();
    src.position(0).limit(writeLength(page));
    int length = src.limit();
    long offset = (page.firstSequence % blocksPerSegment) * blockSize;
    long writeOffset = offset;
    try {
      while (src.hasRemaining()) {
        writeOffset += channel.write(src, writeOffset);
      }
    } catch (IOException e) {
      throw failed("cannot write " + page.blocks + " blocks", writeOffset, e);
    }
    if (settings.writeFlush() != WriteFlush.OFF) {
      try {
        channel.force(false);
      } catch (IOException e) {
        throw failed("cannot force the blocks written", offset, e);
      }
    }
    stats.writes++;
    stats.writeNanos += queue.clock().monotonicTime() - start;
    stats.blocksWritten += page.blocks;
    stats.bytesWritten += length;
    queue.publish(page.endSequence(), page.lastPosition);
    if (LOG.isTraceEnabled()) {
      LOG.trace("queue {}: wrote {} blocks ({})", queue.id(), page.blocks, page.reason);
    }
    return true;
  }

  /**
   * Bytes of {@code page} to write: its blocks, the last one only up to {@link
   * BlockFormat#writtenLength} (whole with direct I/O). The rest of that block's slot is never
   * written: segment files are created empty and a slot is written once, so it stays a hole that
   * reads as zeros, which is the padding the format expects (not covered by the CRC either way). A
   * lightly loaded queue, whose writes end in a partly filled block, so writes and stores about its
   * messages instead of a whole block per write.
   */
  private int writeLength(PageBuffer page) {
    int lastBlock = (page.blocks - 1) * blockSize;
    return lastBlock
        + BlockFormat.writtenLength(
            BlockFormat.usedLength(page.buffer, lastBlock),
            blockSize,
            settings.writeFlush() == WriteFlush.DIO);
  }

  private QueueException failed(String what, long offset, IOException e) {
    return new QueueException(
        queue.id(),
        what
            + " to segment "
            + channelSegment
            + " ("
            + channelFile
            + ") at offset "
            + offset
            + ": "
            + e,
        e);
  }

  /** Makes {@link #channel} the open file of {@code segment}; false if shut down meanwhile. */
  private boolean openSegment(long segment) throws IOException, InterruptedException {
    if (channel != null && channelSegment == segment) {
      return true;
    }
    closeChannel();
    writeSegment = segment;
    queue.writeSegment = segment;
    SegmentSlot slot = queue.segments.get(segment);
    if (slot == null) {
      Optional<SegmentSlot> allocated = allocateSegment(segment);
      if (allocated.isEmpty()) {
        return false;
      }
      slot = allocated.get();
    }
    Set<OpenOption> options = new HashSet<>(Set.of(StandardOpenOption.WRITE));
    if (settings.writeFlush() == WriteFlush.DIO) {
      options.add(DirectIo.directOption());
    }
    channel = queue.manager().segmentChannels().open(slot.file(), options);
    channelSegment = segment;
    channelFile = slot.file();
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
      Files.createFile(slot.file(), PrivateModes.file(slot.file()));
      if (settings.writeFlush() != WriteFlush.OFF) {
        SegmentFiles.forceDirectory(p.directory());
      }
    } catch (IOException e) {
      queue.manager().release(p, queue.id(), settings.segmentSizeBytes());
      throw new QueueException(queue.id(), "cannot create segment file " + slot.file(), e);
    }
    queue.segments.put(segment, slot);
    stats.segsAllocated++;
    return Optional.of(slot);
  }

  /**
   * Reserves one segment of space, waiting while no partition can give one (full, or what is left
   * is the outbound reserve, see {@link FileQueueManager#reserveSegments}): frees this queue's own
   * segments as its readers move, and resumes by itself when space appears. Each wait is counted in
   * SQMWaitSegTime (an ongoing wait shows there too, see {@link SqmStats#segWaitStart}). The
   * administrator warning is logged once per episode: from the first wait until the queue gets a
   * segment again without waiting. Empty if shut down or stopped while waiting.
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
          if (!waited && episodeWaits > 0) {
            LOG.info(
                "queue {}: got a segment without waiting: the space shortage is over after {}"
                    + " waits for a segment ({} ms in all)",
                queue.id(),
                episodeWaits,
                episodeNanos / 1_000_000);
            episodeWaits = 0;
            episodeNanos = 0;
          }
          return p;
        }
        if (!waited) {
          waited = true;
          waitStart = queue.clock().monotonicTime();
          stats.segWaitStarted(waitStart);
          queue.waitingForSegment = true;
          if (episodeWaits == 0) {
            LOG.warn(
                "queue {}: going to wait for a segment to be freed: {}. Administrative action is"
                    + " needed: add a partition or let the queue's readers ({}) move on.",
                queue.id(),
                manager.whyNoSegment(queue.id(), settings.segmentSizeBytes()),
                queue.readerNames());
          }
        }
        if (freeSegments()) {
          continue;
        }
        if (shutdownRequested() || handoff.stopped()) {
          return Optional.empty();
        }
        manager.awaitSpaceChange(epoch, () -> shutdownRequested() || handoff.stopped());
      }
    } finally {
      if (waited) {
        long waitedNanos = queue.clock().monotonicTime() - waitStart;
        stats.segWaitEnded(waitedNanos);
        queue.waitingForSegment = false;
        episodeWaits++;
        episodeNanos += waitedNanos;
        LOG.debug("queue {}: segment wait over after {} ms", queue.id(), waitedNanos / 1_000_000);
      }
    }
  }

  /**
   * Frees the segments every reader has confirmed past (never the one being written). The new first
   * segment is persisted before any file is deleted. Returns true if any was freed.
   */
  private boolean freeSegments() throws IOException {
    long pin = queue.truncationSegment();
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

  /**
   * {@code sysadmin sqm_purge_queue}: drops every segment before {@code newFirst} (everything
   * written before the purge); writing continues in {@code newFirst}.
   */
  private void purge(SqmHandoff.WriterTask.Purge order) throws IOException {
    closeChannel();
    long oldFirst = queue.firstSegment;
    long newFirst = order.newFirst();
    writeSegment = newFirst;
    queue.writeSegment = newFirst;
    queue.firstSegment = newFirst;
    queue.resetReaders();
    queue.saveMetadata();
    for (long s = oldFirst; s < newFirst; s++) {
      deleteSegment(s);
    }
    queue.publish(newFirst * blocksPerSegment, null);
    LOG.warn("queue {}: purged segments {}..{}", queue.id(), oldFirst, newFirst - 1);
    order.future().complete(null);
  }

  private void closeChannel() throws IOException {
    if (channel != null) {
      FileChannel c = channel;
      channel = null;
      channelSegment = -1;
      c.close();
    }
  }

  @Override
  protected void wakeUp() {
    handoff.wakeWriter();
    queue.manager().signalSpaceWaiters();
  }

  @Override
  protected void onFatal(Throwable error) {
    queue.fail(error);
  }

  @Override
  protected void onExit() {
    try {
      closeChannel();
    } catch (IOException e) {
      LOG.warn("queue {}: closing segment file failed", queue.id(), e);
    } finally {
      handoff.writerDone();
    }
  }
}
