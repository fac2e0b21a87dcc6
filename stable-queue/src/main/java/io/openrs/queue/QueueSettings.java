package io.openrs.queue;

import java.util.Objects;

/**
 * Settings of one stable queue, validated as a whole; each error names the Replication Server
 * parameter and its allowed range. Nothing is silently clamped.
 *
 * <p>{@code blockSizeBytes} and {@code segmentSizeBytes} are part of the on-disk layout: a queue
 * remembers them when created and refuses to open with different values (purge or recreate it to
 * change them, as Replication Server requires for {@code block_size}).
 *
 * @param blockSizeBytes {@code block_size}: 16, 32, 64, 128 or 256 KiB; default 128 KiB
 * @param pageSizeBlocks {@code sqm_page_size}: blocks written per write call, 1..64; default 4
 * @param writeFlush {@code sqm_write_flush}: on, off or dio; default on
 * @param cacheSizeBytes {@code sqm_cache_size}: bytes of recent blocks kept in memory for readers,
 *     0 (no cache) or at least one block, at most 4 GiB; default 8 MiB
 * @param writeRequestLimitBytes {@code exec_sqm_write_request_limit}: bytes of messages waiting for
 *     the writer before producers block, 16 KiB..2 GiB-1; default 1 MiB
 * @param segmentSizeBytes {@code sqm_segment_size}: size of a segment file, 1 MiB..1 GiB, a
 *     multiple of the block size; default 64 MiB
 * @param maxMessageBytes {@code sqm_max_message_size}: largest message accepted and the bound a
 *     reader trusts before allocating, 1 KiB..1 GiB; default 16 MiB
 */
public record QueueSettings(
    int blockSizeBytes,
    int pageSizeBlocks,
    WriteFlush writeFlush,
    long cacheSizeBytes,
    long writeRequestLimitBytes,
    long segmentSizeBytes,
    int maxMessageBytes) {

  public static final int KIB = 1024;
  public static final int MIB = 1024 * KIB;
  public static final long GIB = 1024L * MIB;

  public static final int DEFAULT_BLOCK_SIZE_BYTES = 128 * KIB;
  public static final int DEFAULT_PAGE_SIZE_BLOCKS = 4;
  public static final long DEFAULT_CACHE_SIZE_BYTES = 8 * MIB;
  public static final long DEFAULT_WRITE_REQUEST_LIMIT_BYTES = MIB;
  public static final long DEFAULT_SEGMENT_SIZE_BYTES = 64 * MIB;
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 16 * MIB;

  public QueueSettings {
    Objects.requireNonNull(writeFlush, "writeFlush");
    if (Integer.bitCount(blockSizeBytes) != 1
        || blockSizeBytes < 16 * KIB
        || blockSizeBytes > 256 * KIB) {
      throw new InvalidSettingException(
          "block_size", blockSizeBytes, "16384, 32768, 65536, 131072 or 262144 bytes", null);
    }
    if (pageSizeBlocks < 1 || pageSizeBlocks > 64) {
      throw new InvalidSettingException("sqm_page_size", pageSizeBlocks, "1..64 blocks", null);
    }
    if (cacheSizeBytes != 0 && (cacheSizeBytes < blockSizeBytes || cacheSizeBytes > 4 * GIB)) {
      throw new InvalidSettingException(
          "sqm_cache_size",
          cacheSizeBytes,
          "0 (no cache) or " + blockSizeBytes + ".." + 4 * GIB + " bytes",
          null);
    }
    if (writeRequestLimitBytes < 16 * KIB || writeRequestLimitBytes > Integer.MAX_VALUE) {
      throw new InvalidSettingException(
          "exec_sqm_write_request_limit",
          writeRequestLimitBytes,
          16 * KIB + ".." + Integer.MAX_VALUE + " bytes",
          null);
    }
    if (segmentSizeBytes < MIB
        || segmentSizeBytes > GIB
        || segmentSizeBytes % blockSizeBytes != 0) {
      throw new InvalidSettingException(
          "sqm_segment_size",
          segmentSizeBytes,
          MIB + ".." + GIB + " bytes and a multiple of block_size (" + blockSizeBytes + ")",
          null);
    }
    if (maxMessageBytes < KIB || maxMessageBytes > GIB) {
      throw new InvalidSettingException(
          "sqm_max_message_size", maxMessageBytes, KIB + ".." + GIB + " bytes", null);
    }
  }

  /** Every parameter at its default. */
  public static QueueSettings defaults() {
    return new QueueSettings(
        DEFAULT_BLOCK_SIZE_BYTES,
        DEFAULT_PAGE_SIZE_BLOCKS,
        WriteFlush.ON,
        DEFAULT_CACHE_SIZE_BYTES,
        DEFAULT_WRITE_REQUEST_LIMIT_BYTES,
        DEFAULT_SEGMENT_SIZE_BYTES,
        DEFAULT_MAX_MESSAGE_BYTES);
  }

  public QueueSettings withBlockSizeBytes(int v) {
    return new QueueSettings(
        v,
        pageSizeBlocks,
        writeFlush,
        cacheSizeBytes,
        writeRequestLimitBytes,
        segmentSizeBytes,
        maxMessageBytes);
  }

  public QueueSettings withPageSizeBlocks(int v) {
    return new QueueSettings(
        blockSizeBytes,
        v,
        writeFlush,
        cacheSizeBytes,
        writeRequestLimitBytes,
        segmentSizeBytes,
        maxMessageBytes);
  }

  public QueueSettings withWriteFlush(WriteFlush v) {
    return new QueueSettings(
        blockSizeBytes,
        pageSizeBlocks,
        v,
        cacheSizeBytes,
        writeRequestLimitBytes,
        segmentSizeBytes,
        maxMessageBytes);
  }

  public QueueSettings withCacheSizeBytes(long v) {
    return new QueueSettings(
        blockSizeBytes,
        pageSizeBlocks,
        writeFlush,
        v,
        writeRequestLimitBytes,
        segmentSizeBytes,
        maxMessageBytes);
  }

  public QueueSettings withWriteRequestLimitBytes(long v) {
    return new QueueSettings(
        blockSizeBytes,
        pageSizeBlocks,
        writeFlush,
        cacheSizeBytes,
        v,
        segmentSizeBytes,
        maxMessageBytes);
  }

  public QueueSettings withSegmentSizeBytes(long v) {
    return new QueueSettings(
        blockSizeBytes,
        pageSizeBlocks,
        writeFlush,
        cacheSizeBytes,
        writeRequestLimitBytes,
        v,
        maxMessageBytes);
  }

  public QueueSettings withMaxMessageBytes(int v) {
    return new QueueSettings(
        blockSizeBytes,
        pageSizeBlocks,
        writeFlush,
        cacheSizeBytes,
        writeRequestLimitBytes,
        segmentSizeBytes,
        v);
  }

  /** Blocks in one segment. */
  public int blocksPerSegment() {
    return Math.toIntExact(segmentSizeBytes / blockSizeBytes);
  }
}
