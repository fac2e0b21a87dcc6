package io.openrs.queue.file;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * Prints a segment file block by block: offset, header fields, CRC status and, for good blocks,
 * each message's position, offset and length, and where messages continue across blocks. Support
 * and tests use it.
 *
 * <pre>
 * java -cp openrs-stable-queue.jar io.openrs.queue.file.SegmentDump &lt;segment file&gt; [block size]
 * </pre>
 *
 * <p>The block size is read from the first block header when not given. The queue, segment number
 * and expected block sequences come from the file name.
 */
public final class SegmentDump {

  private SegmentDump() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1 || args.length > 2) {
      System.err.println("usage: SegmentDump <segment file> [block size bytes]");
      System.exit(2);
    }
    Optional<Integer> blockSize =
        args.length == 2 ? Optional.of(Integer.parseInt(args[1])) : Optional.empty();
    int bad = dump(Path.of(args[0]), blockSize, System.out);
    System.exit(bad == 0 ? 0 : 1);
  }

  /** Dumps {@code file} to {@code out}; returns the number of damaged blocks. */
  public static int dump(Path file, Optional<Integer> blockSizeGiven, PrintStream out)
      throws IOException {
    SegmentFiles.SegmentName name =
        SegmentFiles.parseSegment(file.getFileName().toString())
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "not a segment file name (<q_number>-<q_type>-<segment>.seg): " + file));
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      int blockSize = blockSizeGiven.orElseGet(() -> blockSizeFromHeader(ch));
      out.printf(
          "segment file %s: queue %s, segment %d, %d bytes, block_size %d%n",
          file, name.queue(), name.segment(), size, blockSize);
      ByteBuffer buf = ByteBuffer.allocate(blockSize);
      int slots = (int) ((size + blockSize - 1) / blockSize);
      long firstSequence = -1;
      int bad = 0;
      for (int i = 0; i < slots; i++) {
        long offset = (long) i * blockSize;
        int n = TailRecovery.readFully(ch, buf, offset);
        long expected =
            firstSequence >= 0 ? firstSequence + i : buf.getLong(BlockFormat.BLOCK_SEQUENCE_OFFSET);
        BlockFormat.Check check = BlockFormat.check(buf, 0, n, blockSize, name.queue(), expected);
        if (!check.ok()) {
          bad++;
          out.printf("block %d @%d: %s %s%n", i, offset, check.damage(), check.detail());
          continue;
        }
        BlockFormat.Header h = check.header().orElseThrow();
        if (firstSequence < 0) {
          firstSequence = h.blockSequence() - i;
        }
        out.printf(
            "block %d @%d: seq=%d version=%d flags=0x%04X crc=0x%08X ok payload=%d"
                + " continuation=%d messages=%d%n",
            i,
            offset,
            h.blockSequence(),
            h.version(),
            h.flags(),
            h.crc(),
            h.payloadLength(),
            h.continuationLength(),
            h.messageCount());
        if (h.continuationLength() > 0) {
          out.printf("  continuation: %d bytes of an earlier message%n", h.continuationLength());
        }
        int pos = h.continuationLength();
        for (int row = 0; row < h.messageCount(); row++) {
          if (h.payloadLength() - pos < BlockFormat.RECORD_LENGTH_SIZE) {
            out.printf("  row %d: missing (payload ends at %d)%n", row, pos);
            bad++;
            break;
          }
          int length = buf.getInt(BlockFormat.HEADER_SIZE + pos);
          int here = Math.min(length, h.payloadLength() - pos - BlockFormat.RECORD_LENGTH_SIZE);
          out.printf(
              "  %d.%d.%d @payload+%d length=%d%s%n",
              name.segment(),
              i,
              row,
              pos,
              length,
              here < length ? " (continues: " + here + " bytes here)" : "");
          pos += BlockFormat.RECORD_LENGTH_SIZE + Math.max(0, here);
        }
      }
      out.printf("%d block slots, %d damaged%n", slots, bad);
      return bad;
    }
  }

  private static int blockSizeFromHeader(FileChannel ch) {
    ByteBuffer h = ByteBuffer.allocate(BlockFormat.HEADER_SIZE);
    try {
      TailRecovery.readFully(ch, h, 0);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the first block header", e);
    }
    if (h.getInt(BlockFormat.MAGIC_OFFSET) != BlockFormat.MAGIC) {
      throw new IllegalStateException("first block has no valid magic; give the block size");
    }
    return 1 << h.get(BlockFormat.BLOCK_SIZE_LOG2_OFFSET);
  }
}
