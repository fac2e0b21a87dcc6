package io.openrs.queue;

import java.nio.file.Path;

/**
 * Damage found inside a queue where it cannot be a torn tail: a block that fails its checks in the
 * middle of the queue, an unsupported format version, a missing segment. The queue never skips such
 * a block; an administrator must decide (restore, purge, rebuild).
 */
public final class QueueCorruptedException extends QueueException {

  private final long segment;
  private final Path file;
  private final long fileOffset;
  private final String detail;

  public QueueCorruptedException(
      QueueId queue, long segment, Path file, long fileOffset, String detail) {
    super(
        queue,
        "corrupt data in segment "
            + segment
            + " ("
            + file
            + ") at offset "
            + fileOffset
            + ": "
            + detail,
        null);
    this.segment = segment;
    this.file = file;
    this.fileOffset = fileOffset;
    this.detail = detail;
  }

  /** Segment number. */
  public long segment() {
    return segment;
  }

  /** The segment file. */
  public Path file() {
    return file;
  }

  /** Byte offset in the file of the damaged block. */
  public long fileOffset() {
    return fileOffset;
  }

  /** What was wrong, with the numbers (e.g. "stored crc=..., computed crc=..."). */
  public String detail() {
    return detail;
  }
}
