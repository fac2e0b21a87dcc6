package io.openrs.queue.file;

import io.openrs.queue.QueueClosedException;
import io.openrs.queue.QueueCorruptedException;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.QueueState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An SQMR: reads one queue's messages in order, block by block, from the queue's {@link BlockCache}
 * or from the segment files, reassembling messages that span blocks. Every block read from disk is
 * checked (magic, version, lengths, CRC32C, queue and sequence); a damaged block is reported as
 * {@link QueueCorruptedException} every time it is reached, never skipped.
 *
 * <p>Not thread-safe: owned by the first thread that reads or confirms (asserted with {@code -ea}).
 * Also used, without a name, by {@code dump}.
 */
final class FileQueueReader implements QueueReader {

  private static final Logger LOG = LoggerFactory.getLogger(FileQueueReader.class);

  private final FileStableQueue queue;
  private final Optional<ReaderEntry> entry;
  private final ReaderEntry stats;
  private final int blockSize;
  private final int blocksPerSegment;
  private final int capacity;
  private final int maxMessageBytes;

  /**
   * One block, allocated at the first read from disk: readers served by the cache never need it.
   */
  private ByteBuffer diskBuffer;

  private Thread owner;
  private volatile boolean released;

  // position
  private long nextSequence;

  /** Blocks at or after this sequence are not read even when durable ({@link #lastBefore}). */
  private long limitSequence = Long.MAX_VALUE;

  private boolean skipLeading;
  private QueuePosition deliverFrom;

  // the current block
  private boolean haveBlock;
  private long blockSequence;
  private byte[] data;
  private int payloadLength;
  private int continuationLength;
  private int messageCount;
  private boolean discardPartial;
  private int offset;
  private int row;

  // a message spanning blocks
  private byte[] assembling;
  private int assembled;
  private QueuePosition assemblingPosition;

  // disk
  private FileChannel channel;
  private long channelSegment = -1;
  private Path channelFile;

  FileQueueReader(FileStableQueue queue, Optional<ReaderEntry> entry) {
    this.queue = queue;
    this.entry = entry;
    this.stats = entry.orElseGet(() -> new ReaderEntry("dump", Optional.empty()));
    this.blockSize = queue.settings().blockSizeBytes();
    this.blocksPerSegment = queue.blocksPerSegment();
    this.capacity = blockSize - BlockFormat.HEADER_SIZE;
    this.maxMessageBytes = queue.settings().maxMessageBytes();
  }

  @Override
  public String name() {
    return stats.name;
  }

  private boolean ownedByCaller() {
    Thread t = Thread.currentThread();
    if (owner == null) {
      owner = t;
    }
    return owner == t;
  }

  /** Positions after {@code confirmed}, or at the oldest message held. */
  void seekAfter(Optional<QueuePosition> confirmed) {
    long first = queue.firstSegment;
    if (confirmed.isEmpty() || confirmed.get().segment() < first) {
      positionAtBlock(first * blocksPerSegment, null);
    } else {
      QueuePosition p = confirmed.get();
      positionAtBlock(sequenceOf(p), new QueuePosition(p.segment(), p.block(), p.row() + 1));
    }
  }

  /** Positions at {@code from} (inclusive), or at the oldest message held if it is older. */
  void seekTo(QueuePosition from) {
    long first = queue.firstSegment;
    if (from.segment() < first) {
      positionAtBlock(first * blocksPerSegment, null);
    } else {
      positionAtBlock(sequenceOf(from), from);
    }
  }

  /**
   * The last complete message in the durable blocks before {@code end}, scanning back from block
   * {@code end - 1}: finds the last block where a message starts, then reads forward from it, so a
   * message spanning blocks is returned whole and one left unfinished by a crash (or still being
   * written) is passed over for the one before it. Empty if no complete message is held (or the
   * blocks were purged meanwhile). Reads at most the blocks of the last message or two.
   *
   * <p>Used on a reader of its own, not yet read from ({@code dump} kind).
   */
  Optional<QueueMessage> lastBefore(long end) {
    limitSequence = end;
    for (long start = end - 1; start >= queue.firstSegment * blocksPerSegment; start--) {
      positionAtBlock(start, null);
      if (!loadBlock() || blockSequence != start) {
        return Optional.empty(); // purged under us
      }
      if (messageCount == 0) {
        continue; // only the continuation of an earlier message
      }
      positionAtBlock(start, null);
      QueueMessage last = null;
      for (QueueMessage m = readNext(); m != null; m = readNext()) {
        last = m;
      }
      if (last != null) {
        return Optional.of(last);
      }
    }
    return Optional.empty();
  }

  private long sequenceOf(QueuePosition p) {
    return p.segment() * blocksPerSegment + p.block();
  }

  private void positionAtBlock(long sequence, QueuePosition from) {
    nextSequence = sequence;
    haveBlock = false;
    skipLeading = true;
    assembling = null;
    deliverFrom = from;
  }

  @Override
  public Optional<QueueMessage> poll() {
    assert ownedByCaller() : "reader " + name() + " used by a second thread";
    checkOpen();
    return Optional.ofNullable(readNext());
  }

  @Override
  public Optional<QueueMessage> poll(Duration timeout) throws InterruptedException {
    long nanos = timeout.toNanos();
    while (true) {
      Optional<QueueMessage> m = poll();
      if (m.isPresent() || nanos <= 0) {
        return m;
      }
      stats.sleepsWriteQ++;
      nanos = queue.awaitDurable(nextSequence, nanos);
    }
  }

  private void checkOpen() {
    if (released) {
      throw new QueueClosedException(queue.id(), queue.state(), queue.failure().orElse(null));
    }
    queue.checkReadable();
  }

  private QueueMessage readNext() {
    while (true) {
      if (haveBlock && segmentOf(blockSequence) < queue.firstSegment) {
        // Purged under this reader: what is left of the block was deleted too.
        haveBlock = false;
        nextSequence = blockSequence;
      }
      if (!haveBlock) {
        if (!loadBlock()) {
          return null;
        }
        if (assembling != null) {
          if (discardPartial && continuationLength == 0) {
            LOG.info(
                "queue {}: reader {} skips the message at {} left unfinished by a crash (never"
                    + " acknowledged)",
                queue.id(),
                name(),
                assemblingPosition);
            assembling = null;
          } else {
            QueueMessage m = continueMessage();
            if (m != null) {
              return m;
            }
            continue;
          }
        } else if (skipLeading) {
          offset = continuationLength;
          skipLeading =
              messageCount == 0 && continuationLength == payloadLength && payloadLength == capacity;
        } else if (continuationLength != 0) {
          throw corrupt(
              "continuationLength=" + continuationLength + " but no message continues here");
        }
      }
      if (offset == payloadLength) {
        if (row != messageCount) {
          throw corrupt("holds " + row + " messages, header says messageCount=" + messageCount);
        }
        nextBlock();
        continue;
      }
      if (payloadLength - offset < BlockFormat.RECORD_LENGTH_SIZE || row >= messageCount) {
        throw corrupt(
            "stray bytes at payload offset "
                + offset
                + " of "
                + payloadLength
                + " after "
                + row
                + " of "
                + messageCount
                + " messages");
      }
      int base = BlockFormat.HEADER_SIZE + offset;
      int length =
          ((data[base] & 0xFF) << 24)
              | ((data[base + 1] & 0xFF) << 16)
              | ((data[base + 2] & 0xFF) << 8)
              | (data[base + 3] & 0xFF);
      if (length < 0 || length > maxMessageBytes) {
        throw corrupt(
            "message length "
                + length
                + " at payload offset "
                + offset
                + " exceeds sqm_max_message_size="
                + maxMessageBytes);
      }
      QueuePosition position = new QueuePosition(segmentOf(blockSequence), blockIndex(), row++);
      int available = payloadLength - offset - BlockFormat.RECORD_LENGTH_SIZE;
      int start = base + BlockFormat.RECORD_LENGTH_SIZE;
      if (length <= available) {
        offset += BlockFormat.RECORD_LENGTH_SIZE + length;
        QueueMessage m = deliver(position, Arrays.copyOfRange(data, start, start + length));
        if (m != null) {
          return m;
        }
        continue;
      }
      if (payloadLength != capacity || row != messageCount) {
        throw corrupt(
            "message "
                + position
                + " of "
                + length
                + " bytes overruns a block that is not full or not its last message");
      }
      assembling = new byte[length];
      System.arraycopy(data, start, assembling, 0, available);
      assembled = available;
      assemblingPosition = position;
      offset = payloadLength;
      nextBlock();
    }
  }

  /** The current block continues {@link #assembling}; returns the message when complete. */
  private QueueMessage continueMessage() {
    int expected = Math.min(assembling.length - assembled, capacity);
    if (continuationLength != expected) {
      throw corrupt(
          "continuationLength="
              + continuationLength
              + ", expected "
              + expected
              + " to continue message "
              + assemblingPosition);
    }
    System.arraycopy(data, BlockFormat.HEADER_SIZE, assembling, assembled, expected);
    assembled += expected;
    offset = expected;
    if (assembled < assembling.length) {
      if (messageCount != 0 || payloadLength != capacity) {
        throw corrupt("a block continuing message " + assemblingPosition + " must be full");
      }
      nextBlock();
      return null;
    }
    byte[] message = assembling;
    assembling = null;
    return deliver(assemblingPosition, message);
  }

  private QueueMessage deliver(QueuePosition position, byte[] payload) {
    if (deliverFrom != null) {
      if (position.compareTo(deliverFrom) < 0) {
        return null;
      }
      deliverFrom = null;
    }
    stats.cmdsRead++;
    return new QueueMessage(position, payload);
  }

  private void nextBlock() {
    haveBlock = false;
    nextSequence = blockSequence + 1;
  }

  private long segmentOf(long sequence) {
    return sequence / blocksPerSegment;
  }

  private int blockIndex() {
    return (int) (blockSequence % blocksPerSegment);
  }

  /** Loads block {@link #nextSequence}; false if it is not durable yet. */
  private boolean loadBlock() {
    while (true) {
      long sequence = nextSequence;
      long first = queue.firstSegment;
      if (segmentOf(sequence) < first) {
        // Purged (or freed under a dump reader): continue with the oldest message held.
        LOG.info(
            "queue {}: reader {} was at block {}, first segment is now {}; repositioning",
            queue.id(),
            name(),
            sequence,
            first);
        positionAtBlock(first * blocksPerSegment, null);
        continue;
      }
      if (sequence >= queue.durableEnd() || sequence >= limitSequence) {
        return false;
      }
      Optional<BlockCache.CachedBlock> cached = queue.cache().get(sequence);
      if (cached.isPresent()) {
        data = cached.get().bytes();
        stats.blocksReadCached++;
      } else if (!readFromDisk(sequence)) {
        continue;
      }
      stats.blocksRead++;
      ByteBuffer header = ByteBuffer.wrap(data);
      payloadLength = header.getInt(BlockFormat.PAYLOAD_LENGTH_OFFSET);
      continuationLength = header.getInt(BlockFormat.CONTINUATION_LENGTH_OFFSET);
      messageCount = header.getInt(BlockFormat.MESSAGE_COUNT_OFFSET);
      discardPartial =
          (header.getShort(BlockFormat.FLAGS_OFFSET) & BlockFormat.FLAG_DISCARD_PARTIAL) != 0;
      blockSequence = sequence;
      haveBlock = true;
      offset = 0;
      row = 0;
      return true;
    }
  }

  /** Reads and checks a block from its segment file; false if the segment was freed meanwhile. */
  private boolean readFromDisk(long sequence) {
    long segment = segmentOf(sequence);
    long fileOffset = (sequence % blocksPerSegment) * (long) blockSize;
    SegmentSlot slot = queue.segments.get(segment);
    try {
      if (slot == null) {
        if (segment < queue.firstSegment) {
          return false;
        }
        throw new QueueCorruptedException(
            queue.id(),
            segment,
            Path.of(SegmentFiles.segmentFileName(queue.id(), segment)),
            0,
            "segment file missing");
      }
      if (diskBuffer == null) {
        diskBuffer = ByteBuffer.allocate(blockSize);
      }
      if (channelSegment != segment) {
        closeChannel();
        channel = FileChannel.open(slot.file(), StandardOpenOption.READ);
        channelSegment = segment;
        channelFile = slot.file();
      }
      long start = queue.clock().monotonicTime();
      int n = TailRecovery.readFully(channel, diskBuffer, fileOffset);
      stats.diskReadNanos += queue.clock().monotonicTime() - start;
      stats.diskReads++;
      BlockFormat.Check check =
          BlockFormat.check(diskBuffer, 0, n, blockSize, queue.id(), sequence);
      if (!check.ok()) {
        throw new QueueCorruptedException(
            queue.id(), segment, channelFile, fileOffset, check.damage() + ": " + check.detail());
      }
      data = diskBuffer.array();
      return true;
    } catch (NoSuchFileException e) {
      if (segment < queue.firstSegment) {
        return false;
      }
      throw new QueueCorruptedException(
          queue.id(), segment, slot.file(), 0, "segment file missing");
    } catch (IOException e) {
      if (queue.state() == QueueState.FAILED || released) {
        throw new QueueClosedException(queue.id(), queue.state(), e);
      }
      throw new UncheckedIOException("queue " + queue.id() + ": cannot read segment " + segment, e);
    }
  }

  private QueueCorruptedException corrupt(String detail) {
    long segment = segmentOf(blockSequence);
    SegmentSlot slot = queue.segments.get(segment);
    Path file =
        slot != null ? slot.file() : Path.of(SegmentFiles.segmentFileName(queue.id(), segment));
    return new QueueCorruptedException(
        queue.id(),
        segment,
        file,
        (blockSequence % blocksPerSegment) * (long) blockSize,
        "block " + blockSequence + ": " + detail);
  }

  @Override
  public void confirm(QueuePosition position) {
    assert ownedByCaller() : "reader " + name() + " used by a second thread";
    checkOpen();
    ReaderEntry e =
        entry.orElseThrow(() -> new IllegalStateException("a dump reader cannot confirm"));
    Optional<QueuePosition> current = e.confirmed();
    if (current.isPresent() && !position.isAfter(current.get())) {
      return;
    }
    if (sequenceOf(position) >= queue.durableEnd()) {
      throw new IllegalArgumentException(
          "queue " + queue.id() + ": cannot confirm " + position + ", it is not durable yet");
    }
    Optional<QueuePosition> previous = e.advance(position);
    queue.confirmed(previous, position);
  }

  @Override
  public Optional<QueuePosition> confirmed() {
    return entry.flatMap(ReaderEntry::confirmed);
  }

  /** Closes the files; further calls fail. Called by the queue on close or drop. */
  void release() {
    released = true;
    try {
      closeChannel();
    } catch (IOException e) {
      LOG.debug("queue {}: closing reader file failed", queue.id(), e);
    }
  }

  private void closeChannel() throws IOException {
    if (channel != null) {
      channel.close();
      channel = null;
      channelSegment = -1;
    }
  }

  @Override
  public void close() {
    if (released) {
      return;
    }
    release();
    entry.ifPresent(e -> queue.readerClosed(e, this));
  }
}
