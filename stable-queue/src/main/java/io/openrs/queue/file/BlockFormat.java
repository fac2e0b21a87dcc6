package io.openrs.queue.file;

import io.openrs.queue.QueueId;
import io.openrs.queue.QueueType;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The block: unit of stable queue I/O. A segment file is a sequence of fixed-size block slots of
 * {@code block_size} bytes; block {@code b} of a segment starts at file offset {@code b *
 * block_size}. Each slot is written once; the last block of a write only up to its payload rounded
 * up to 4 KiB, so the rest of that slot is a hole reading as zeros and a file may end inside a slot
 * (docs/formats/stable-queue-block.md). Every block starts with this header; all integers are
 * big-endian.
 *
 * <pre>
 * offset size field
 *  0     4    magic                 0x4F525351 ("ORSQ")
 *  4     2    version               format version, see VERSION_* (readers accept MIN..MAX)
 *  6     2    flags                 bit 0 DISCARD_PARTIAL: a message left unfinished by a crash
 *                                   before this block is abandoned; other bits 0
 *  8     4    crc                   CRC32C (Castagnoli, poly 0x1EDC6F41, java.util.zip.CRC32C) of
 *                                   header bytes [0, 8) and [12, 40) followed by the payload
 *                                   bytes [40, 40 + payloadLength); the padding is not covered
 * 12     4    queueNumber           q_number of the owning queue
 * 16     1    queueType             q_type: 0 outbound, 1 inbound
 * 17     1    blockSizeLog2         block_size = 1 << blockSizeLog2 (14..18)
 * 18     2    reserved              0
 * 20     8    blockSequence         segment * blocksPerSegment + block index in the segment
 * 28     4    payloadLength         bytes of payload, 0..block_size - 40
 * 32     4    continuationLength    payload bytes at the start that continue a message begun in
 *                                   an earlier block; = offset of the first message starting
 *                                   here (= payloadLength when none starts here)
 * 36     4    messageCount          messages (records) that start in this block
 * 40          HEADER_SIZE
 * 40     payloadLength              payload: continuation bytes, then records
 *        block_size - 40 - payloadLength  padding, zero (written up to the next 4 KiB
 *                                   boundary when the block ends a write; a hole after it)
 * </pre>
 *
 * <p>A record is a 4-byte big-endian message length followed by the message bytes. A record's
 * length field never straddles blocks: when fewer than 4 payload bytes remain, the block ends. A
 * message longer than the room left continues in the next blocks (their continuationLength), so a
 * block whose last record spans is always full ({@code payloadLength = block_size - 40}). A
 * message's position ({@code seg.blk.row}) is the block where its record starts and its ordinal
 * among the records starting there.
 *
 * <p>Not thread-safe state: none; all methods are static.
 */
final class BlockFormat {

  /** "ORSQ". */
  static final int MAGIC = 0x4F525351;

  /** 1: first format (this layout). */
  static final short VERSION_1 = 1;

  static final short CURRENT_VERSION = VERSION_1;
  static final short MIN_SUPPORTED_VERSION = VERSION_1;
  static final short MAX_SUPPORTED_VERSION = VERSION_1;

  static final short FLAG_DISCARD_PARTIAL = 0x0001;

  static final int MAGIC_OFFSET = 0;
  static final int MAGIC_LENGTH = 4;
  static final int VERSION_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH;
  static final int VERSION_LENGTH = 2;
  static final int FLAGS_OFFSET = VERSION_OFFSET + VERSION_LENGTH;
  static final int FLAGS_LENGTH = 2;
  static final int CRC_OFFSET = FLAGS_OFFSET + FLAGS_LENGTH;
  static final int CRC_LENGTH = 4;
  static final int QUEUE_NUMBER_OFFSET = CRC_OFFSET + CRC_LENGTH;
  static final int QUEUE_NUMBER_LENGTH = 4;
  static final int QUEUE_TYPE_OFFSET = QUEUE_NUMBER_OFFSET + QUEUE_NUMBER_LENGTH;
  static final int QUEUE_TYPE_LENGTH = 1;
  static final int BLOCK_SIZE_LOG2_OFFSET = QUEUE_TYPE_OFFSET + QUEUE_TYPE_LENGTH;
  static final int BLOCK_SIZE_LOG2_LENGTH = 1;
  static final int RESERVED_OFFSET = BLOCK_SIZE_LOG2_OFFSET + BLOCK_SIZE_LOG2_LENGTH;
  static final int RESERVED_LENGTH = 2;
  static final int BLOCK_SEQUENCE_OFFSET = RESERVED_OFFSET + RESERVED_LENGTH;
  static final int BLOCK_SEQUENCE_LENGTH = 8;
  static final int PAYLOAD_LENGTH_OFFSET = BLOCK_SEQUENCE_OFFSET + BLOCK_SEQUENCE_LENGTH;
  static final int PAYLOAD_LENGTH_LENGTH = 4;
  static final int CONTINUATION_LENGTH_OFFSET = PAYLOAD_LENGTH_OFFSET + PAYLOAD_LENGTH_LENGTH;
  static final int CONTINUATION_LENGTH_LENGTH = 4;
  static final int MESSAGE_COUNT_OFFSET = CONTINUATION_LENGTH_OFFSET + CONTINUATION_LENGTH_LENGTH;
  static final int MESSAGE_COUNT_LENGTH = 4;
  static final int HEADER_SIZE = MESSAGE_COUNT_OFFSET + MESSAGE_COUNT_LENGTH;

  /** Bytes of a record's length field. */
  static final int RECORD_LENGTH_SIZE = 4;

  /**
   * A block that ends a write call reaches the file only up to its header and payload rounded up to
   * this (the file system's page size); the rest of its slot stays a hole.
   */
  static final int TAIL_ALIGNMENT = 4096;

  /** Header plus payload of the block at {@code base} in {@code buf}. */
  static int usedLength(ByteBuffer buf, int base) {
    return HEADER_SIZE + buf.getInt(base + PAYLOAD_LENGTH_OFFSET);
  }

  /**
   * Bytes written of a block whose header and payload take {@code usedLength} bytes when it ends a
   * write call: up to the next {@link #TAIL_ALIGNMENT} boundary, or the whole block with {@code
   * wholeBlocks} (direct I/O). A block that does not end a write is full, and this is the whole
   * block too (less than a record length field of padding is left in a full block).
   */
  static int writtenLength(int usedLength, int blockSize, boolean wholeBlocks) {
    if (wholeBlocks) {
      return blockSize;
    }
    return Math.min(blockSize, (usedLength + TAIL_ALIGNMENT - 1) / TAIL_ALIGNMENT * TAIL_ALIGNMENT);
  }

  private BlockFormat() {}

  /** A decoded, checked header. */
  record Header(
      short version,
      short flags,
      int crc,
      QueueId queue,
      long blockSequence,
      int payloadLength,
      int continuationLength,
      int messageCount) {

    boolean discardPartial() {
      return (flags & FLAG_DISCARD_PARTIAL) != 0;
    }
  }

  /** What a check found wrong; {@code NONE} for a good block. */
  enum Damage {
    NONE,
    /** The slot is past the end of the file or starts with zeros: no block was ever written. */
    NO_BLOCK,
    /** Fewer bytes than the header or than header + payloadLength. */
    SHORT,
    BAD_MAGIC,
    UNSUPPORTED_VERSION,
    /** A length field out of range. */
    BAD_LENGTH,
    CRC_MISMATCH,
    /** Block of another queue, or with an unexpected sequence number. */
    WRONG_IDENTITY
  }

  /** Result of {@link #check}: the header when {@code damage == NONE}, else the numbers. */
  record Check(Damage damage, Optional<Header> header, String detail) {
    boolean ok() {
      return damage == Damage.NONE;
    }

    static Check bad(Damage damage, String detail) {
      return new Check(damage, Optional.empty(), detail);
    }
  }

  /**
   * Writes the header of a block whose payload is already in place at {@code base + HEADER_SIZE},
   * computing the CRC.
   */
  static void writeHeader(
      ByteBuffer buf,
      int base,
      int blockSize,
      short flags,
      QueueId queue,
      long blockSequence,
      int payloadLength,
      int continuationLength,
      int messageCount) {
    buf.putInt(base + MAGIC_OFFSET, MAGIC);
    buf.putShort(base + VERSION_OFFSET, CURRENT_VERSION);
    buf.putShort(base + FLAGS_OFFSET, flags);
    buf.putInt(base + CRC_OFFSET, 0);
    buf.putInt(base + QUEUE_NUMBER_OFFSET, queue.number());
    buf.put(base + QUEUE_TYPE_OFFSET, (byte) queue.type().code());
    buf.put(base + BLOCK_SIZE_LOG2_OFFSET, (byte) Integer.numberOfTrailingZeros(blockSize));
    for (int i = 0; i < RESERVED_LENGTH; i++) {
      buf.put(base + RESERVED_OFFSET + i, (byte) 0);
    }
    buf.putLong(base + BLOCK_SEQUENCE_OFFSET, blockSequence);
    buf.putInt(base + PAYLOAD_LENGTH_OFFSET, payloadLength);
    buf.putInt(base + CONTINUATION_LENGTH_OFFSET, continuationLength);
    buf.putInt(base + MESSAGE_COUNT_OFFSET, messageCount);
    buf.putInt(base + CRC_OFFSET, crc(buf, base, payloadLength));
  }

  /** CRC32C over the header minus its CRC field, then the payload. */
  static int crc(ByteBuffer buf, int base, int payloadLength) {
    CRC32C crc = new CRC32C();
    ByteBuffer view = buf.duplicate();
    view.limit(base + CRC_OFFSET).position(base);
    crc.update(view);
    view.limit(base + HEADER_SIZE + payloadLength).position(base + CRC_OFFSET + CRC_LENGTH);
    crc.update(view);
    return (int) crc.getValue();
  }

  /**
   * Checks the block at {@code base} of which {@code available} bytes were read. Checks, in order:
   * presence, magic, version, lengths, CRC, then identity against {@code expectedQueue} and {@code
   * expectedSequence}.
   */
  static Check check(
      ByteBuffer buf,
      int base,
      int available,
      int blockSize,
      QueueId expectedQueue,
      long expectedSequence) {
    if (available <= 0) {
      return Check.bad(Damage.NO_BLOCK, "end of file");
    }
    if (available < HEADER_SIZE) {
      if (allZero(buf, base, available)) {
        return Check.bad(Damage.NO_BLOCK, "zeros");
      }
      return Check.bad(Damage.SHORT, "only " + available + " bytes, header needs " + HEADER_SIZE);
    }
    int magic = buf.getInt(base + MAGIC_OFFSET);
    if (magic != MAGIC) {
      if (magic == 0 && allZero(buf, base, Math.min(available, HEADER_SIZE))) {
        return Check.bad(Damage.NO_BLOCK, "zeros");
      }
      return Check.bad(
          Damage.BAD_MAGIC, String.format("magic=0x%08X, expected 0x%08X", magic, MAGIC));
    }
    short version = buf.getShort(base + VERSION_OFFSET);
    if (version < MIN_SUPPORTED_VERSION || version > MAX_SUPPORTED_VERSION) {
      return Check.bad(
          Damage.UNSUPPORTED_VERSION,
          "format version "
              + version
              + ", this build reads "
              + MIN_SUPPORTED_VERSION
              + ".."
              + MAX_SUPPORTED_VERSION);
    }
    int blockSizeLog2 = buf.get(base + BLOCK_SIZE_LOG2_OFFSET);
    if (blockSizeLog2 != Integer.numberOfTrailingZeros(blockSize)) {
      return Check.bad(
          Damage.BAD_LENGTH,
          "block size 2^" + blockSizeLog2 + ", expected " + blockSize + " bytes");
    }
    int payloadLength = buf.getInt(base + PAYLOAD_LENGTH_OFFSET);
    int continuationLength = buf.getInt(base + CONTINUATION_LENGTH_OFFSET);
    int messageCount = buf.getInt(base + MESSAGE_COUNT_OFFSET);
    if (payloadLength < 0 || payloadLength > blockSize - HEADER_SIZE) {
      return Check.bad(
          Damage.BAD_LENGTH,
          "payloadLength=" + payloadLength + ", allowed 0.." + (blockSize - HEADER_SIZE));
    }
    if (available < HEADER_SIZE + payloadLength) {
      return Check.bad(
          Damage.SHORT,
          "only " + available + " bytes, block needs " + (HEADER_SIZE + payloadLength));
    }
    int storedCrc = buf.getInt(base + CRC_OFFSET);
    int computedCrc = crc(buf, base, payloadLength);
    if (storedCrc != computedCrc) {
      return Check.bad(
          Damage.CRC_MISMATCH,
          String.format("stored crc=0x%08X, computed crc=0x%08X", storedCrc, computedCrc));
    }
    if (continuationLength < 0
        || continuationLength > payloadLength
        || messageCount < 0
        || messageCount > payloadLength / RECORD_LENGTH_SIZE) {
      return Check.bad(
          Damage.BAD_LENGTH,
          "continuationLength="
              + continuationLength
              + ", messageCount="
              + messageCount
              + " for payloadLength="
              + payloadLength);
    }
    int queueNumber = buf.getInt(base + QUEUE_NUMBER_OFFSET);
    int queueType = buf.get(base + QUEUE_TYPE_OFFSET);
    long sequence = buf.getLong(base + BLOCK_SEQUENCE_OFFSET);
    if (queueNumber != expectedQueue.number()
        || queueType != expectedQueue.type().code()
        || sequence != expectedSequence) {
      return Check.bad(
          Damage.WRONG_IDENTITY,
          "block of queue "
              + queueNumber
              + ":"
              + queueType
              + " sequence "
              + sequence
              + ", expected queue "
              + expectedQueue
              + " sequence "
              + expectedSequence);
    }
    Header header =
        new Header(
            version,
            buf.getShort(base + FLAGS_OFFSET),
            storedCrc,
            new QueueId(queueNumber, QueueType.ofCode(queueType)),
            sequence,
            payloadLength,
            continuationLength,
            messageCount);
    return new Check(Damage.NONE, Optional.of(header), "ok");
  }

  private static boolean allZero(ByteBuffer buf, int base, int length) {
    for (int i = 0; i < length; i++) {
      if (buf.get(base + i) != 0) {
        return false;
      }
    }
    return true;
  }
}
