package io.openrs.queue.file;

import io.openrs.queue.QueueCorruptedException;
import io.openrs.queue.QueueId;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovery of a queue's last segment (Kafka {@code LogSegment.recover}): scans its block slots
 * forward and cuts the file at the first block that fails its checks, logging file, offset and
 * bytes dropped.
 *
 * <p>A torn tail can only be the last write call, at most {@code sqm_page_size} blocks. So a valid
 * block found {@code sqm_page_size} or more slots after the first bad one means the bad block is
 * not a torn write but damage inside acknowledged data: that is reported as {@link
 * QueueCorruptedException}, never cut. A block of an unsupported format version is reported too.
 */
final class TailRecovery {

  private static final Logger LOG = LoggerFactory.getLogger(TailRecovery.class);

  private TailRecovery() {}

  /**
   * Recovers {@code file}, segment {@code segment} of {@code queue}.
   *
   * @return the number of whole blocks kept (the writer continues at that block)
   */
  static int recover(
      QueueId queue,
      long segment,
      Path file,
      int blockSize,
      int blocksPerSegment,
      int pageSizeBlocks)
      throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long size = ch.size();
      int slots = (int) Math.min(blocksPerSegment, (size + blockSize - 1) / blockSize);
      ByteBuffer buf = ByteBuffer.allocate(blockSize);
      int firstBad = -1;
      BlockFormat.Check firstBadCheck = null;
      for (int i = 0; i < slots; i++) {
        long offset = (long) i * blockSize;
        int n = readFully(ch, buf, offset);
        BlockFormat.Check check =
            BlockFormat.check(buf, 0, n, blockSize, queue, segment * blocksPerSegment + i);
        if (check.damage() == BlockFormat.Damage.UNSUPPORTED_VERSION) {
          throw new QueueCorruptedException(queue, segment, file, offset, check.detail());
        }
        if (firstBad < 0) {
          if (!check.ok()) {
            firstBad = i;
            firstBadCheck = check;
          }
        } else if (check.ok() && i >= firstBad + pageSizeBlocks) {
          throw new QueueCorruptedException(
              queue,
              segment,
              file,
              (long) firstBad * blockSize,
              firstBadCheck.damage()
                  + " ("
                  + firstBadCheck.detail()
                  + ") followed by the valid block "
                  + i
                  + ", more than sqm_page_size="
                  + pageSizeBlocks
                  + " blocks later: not a torn write");
        }
      }
      int kept = firstBad < 0 ? slots : firstBad;
      long cut = (long) kept * blockSize;
      if (size > cut) {
        String reason =
            firstBad < 0
                ? "partial block slot"
                : firstBadCheck.damage() + " (" + firstBadCheck.detail() + ")";
        LOG.warn(
            "queue {}: dropping torn tail of {} at offset {}: {} bytes, first bad block {}: {}",
            queue,
            file,
            cut,
            size - cut,
            kept,
            reason);
        ch.truncate(cut);
        ch.force(true);
      }
      return kept;
    }
  }

  /** Reads up to {@code buf.capacity()} bytes at {@code offset}; returns how many were read. */
  static int readFully(FileChannel ch, ByteBuffer buf, long offset) throws IOException {
    buf.clear();
    while (buf.hasRemaining()) {
      int n = ch.read(buf, offset + buf.position());
      if (n < 0) {
        break;
      }
    }
    int read = buf.position();
    buf.clear();
    return read;
  }
}
