package io.openrs.queue.file;

import static io.openrs.queue.file.QueueFixture.Q;
import static io.openrs.queue.file.QueueFixture.SMALL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.queue.QueueCorruptedException;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueueReader;
import io.openrs.queue.StableQueue;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged inputs, one test per shape. The queue is written with messages sized so that exactly
 * {@value #PER_BLOCK} fill a block (no message spans), then the last segment is damaged on disk and
 * the queue reopened.
 */
class DamagedSegmentTest {

  static final int BLOCK = 16 * 1024;
  static final int PER_BLOCK = 8;
  static final int MESSAGE = (BLOCK - BlockFormat.HEADER_SIZE) / PER_BLOCK - 4;
  static final int BLOCKS = 10;

  @TempDir Path dir;
  QueueFixture fx;
  Path segment0;

  @BeforeEach
  void setUp() throws Exception {
    fx = new QueueFixture(dir);
    segment0 = fx.segmentFile(Q, 0);
  }

  @AfterEach
  void tearDown() {
    fx.close();
  }

  /** Writes {@code blocks} full blocks into segment 0 and closes the queue. */
  private void writeBlocks(int blocks) throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    List<byte[]> batch = new ArrayList<>();
    for (int i = 0; i < blocks * PER_BLOCK; i++) {
      batch.add(Messages.make(i, MESSAGE));
    }
    q.appendAll(batch).get(30, TimeUnit.SECONDS);
    fx.restart();
  }

  /** Reopens and returns the ids of every message a reader gets. */
  private List<Long> reopenAndReadAll() throws Exception {
    StableQueue q = fx.manager.openQueue(Q, SMALL);
    try (QueueReader r = q.openReader("SQT")) {
      List<Long> ids = new ArrayList<>();
      for (QueueMessage m : Messages.drain(r)) {
        ids.add(Messages.verify(m.payload()));
      }
      // The queue stays writable after recovery and the next message follows directly.
      q.append(Messages.make(9999, 100)).get(10, TimeUnit.SECONDS);
      assertThat(Messages.drain(r))
          .extracting(m -> Messages.verify(m.payload()))
          .containsExactly(9999L);
      return ids;
    }
  }

  private static List<Long> ids(int count) {
    List<Long> out = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      out.add(i);
    }
    return out;
  }

  private static void truncate(Path file, long size) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(size);
    }
  }

  private static void xorByte(Path file, long offset, int mask) throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, offset);
      b.put(0, (byte) (b.get(0) ^ mask));
      b.rewind();
      ch.write(b, offset);
    }
  }

  private static long blockOffset(int block) {
    return (long) block * BLOCK;
  }

  @Test
  void emptySegmentFile() throws Exception {
    writeBlocks(BLOCKS);
    truncate(segment0, 0);
    assertThat(reopenAndReadAll()).isEmpty();
  }

  @Test
  void emptyNextSegmentAfterAFullOne() throws Exception {
    writeBlocks(64); // exactly one full segment
    Files.createFile(fx.segmentFile(Q, 1));
    assertThat(reopenAndReadAll()).isEqualTo(ids(64 * PER_BLOCK));
  }

  @Test
  void headerOnly() throws Exception {
    writeBlocks(BLOCKS);
    truncate(segment0, blockOffset(BLOCKS - 1) + BlockFormat.HEADER_SIZE);
    assertThat(reopenAndReadAll()).isEqualTo(ids((BLOCKS - 1) * PER_BLOCK));
    // Cut, then one new block, written up to its payload (one page of BlockFormat.TAIL_ALIGNMENT).
    assertThat(Files.size(segment0))
        .isEqualTo(blockOffset(BLOCKS - 1) + BlockFormat.TAIL_ALIGNMENT);
  }

  @Test
  void junkTail() throws Exception {
    writeBlocks(BLOCKS);
    byte[] junk = new byte[5000];
    new Random(12).nextBytes(junk);
    Files.write(segment0, junk, StandardOpenOption.APPEND);
    assertThat(reopenAndReadAll()).isEqualTo(ids(BLOCKS * PER_BLOCK));
  }

  @Test
  void cutInsideALength() throws Exception {
    writeBlocks(BLOCKS);
    // The last block's third record starts at payload offset 2 * (4 + MESSAGE).
    truncate(segment0, blockOffset(BLOCKS - 1) + BlockFormat.HEADER_SIZE + 2L * (4 + MESSAGE) + 2);
    assertThat(reopenAndReadAll()).isEqualTo(ids((BLOCKS - 1) * PER_BLOCK));
  }

  @Test
  void cutInsideAPayload() throws Exception {
    writeBlocks(BLOCKS);
    truncate(segment0, blockOffset(BLOCKS - 1) + BlockFormat.HEADER_SIZE + 4 + MESSAGE / 2);
    assertThat(reopenAndReadAll()).isEqualTo(ids((BLOCKS - 1) * PER_BLOCK));
  }

  @Test
  void crcMismatchInTheLastBlockIsATornTail() throws Exception {
    writeBlocks(BLOCKS);
    xorByte(segment0, blockOffset(BLOCKS - 1) + BlockFormat.HEADER_SIZE + 100, 0x10);
    assertThat(reopenAndReadAll()).isEqualTo(ids((BLOCKS - 1) * PER_BLOCK));
  }

  @Test
  void crcMismatchInsideTheLastSegmentIsReportedNotCut() throws Exception {
    writeBlocks(BLOCKS);
    xorByte(segment0, blockOffset(2) + BlockFormat.HEADER_SIZE + 100, 0x01);
    assertThatThrownBy(() -> fx.manager.openQueue(Q, SMALL))
        .isInstanceOf(QueueCorruptedException.class)
        .hasMessageContaining("queue 101:1")
        .hasMessageContaining("segment 0")
        .hasMessageContaining("offset " + blockOffset(2))
        .hasMessageContaining("CRC_MISMATCH")
        .hasMessageContaining("not a torn write");
    assertThat(Files.size(segment0)).isEqualTo(blockOffset(BLOCKS)); // nothing was cut
  }

  @Test
  void crcMismatchInAnEarlierSegmentStopsTheReaderThere() throws Exception {
    writeBlocks(64 + BLOCKS); // segment 0 full, segment 1 partly
    xorByte(segment0, blockOffset(5) + BlockFormat.HEADER_SIZE + 7, 0x80);
    StableQueue q = fx.manager.openQueue(Q, SMALL);
    try (QueueReader r = q.openReader("SQT")) {
      List<QueueMessage> before = Messages.drain(new StopAtError(r));
      assertThat(before).hasSize(5 * PER_BLOCK);
      for (int attempt = 0; attempt < 2; attempt++) {
        assertThatThrownBy(r::poll)
            .isInstanceOf(QueueCorruptedException.class)
            .hasMessageContaining("segment 0")
            .hasMessageContaining("offset " + blockOffset(5))
            .hasMessageContaining("stored crc=");
      }
    }
  }

  @Test
  void unsupportedVersionIsReported() throws Exception {
    writeBlocks(BLOCKS);
    xorByte(segment0, blockOffset(BLOCKS - 1) + BlockFormat.VERSION_OFFSET + 1, 0x08); // 1 -> 9
    assertThatThrownBy(() -> fx.manager.openQueue(Q, SMALL))
        .isInstanceOf(QueueCorruptedException.class)
        .hasMessageContaining("format version 9, this build reads 1..1")
        .hasMessageContaining("offset " + blockOffset(BLOCKS - 1));
  }

  @Test
  void aMessageLeftUnfinishedByACrashIsNeverReturned() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    q.append(Messages.make(0, 100)).get(10, TimeUnit.SECONDS);
    q.append(Messages.make(1, 3 * BLOCK)).get(10, TimeUnit.SECONDS); // blocks 1..4
    fx.restart();
    // Tear the last block of the spanning message: its start survives, its end does not.
    truncate(segment0, blockOffset(3) + 100);
    q = fx.manager.openQueue(Q, SMALL);
    try (QueueReader r = q.openReader("SQT")) {
      assertThat(Messages.drain(r))
          .extracting(m -> Messages.verify(m.payload()))
          .containsExactly(0L);
      q.append(Messages.make(2, 100)).get(10, TimeUnit.SECONDS);
      assertThat(Messages.drain(r))
          .extracting(m -> Messages.verify(m.payload()))
          .containsExactly(2L);
    }
  }

  /** A reader view that ends at the first error instead of throwing (to count what came before). */
  private static final class StopAtError implements QueueReader {
    private final QueueReader r;

    StopAtError(QueueReader r) {
      this.r = r;
    }

    @Override
    public String name() {
      return r.name();
    }

    @Override
    public java.util.Optional<QueueMessage> poll() {
      try {
        return r.poll();
      } catch (QueueCorruptedException e) {
        return java.util.Optional.empty();
      }
    }

    @Override
    public java.util.Optional<QueueMessage> poll(java.time.Duration timeout) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void confirm(io.openrs.queue.QueuePosition position) {
      r.confirm(position);
    }

    @Override
    public java.util.Optional<io.openrs.queue.QueuePosition> confirmed() {
      return r.confirmed();
    }

    @Override
    public void close() {}
  }
}
