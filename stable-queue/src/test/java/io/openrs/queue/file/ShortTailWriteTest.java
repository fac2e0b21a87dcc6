package io.openrs.queue.file;

import static io.openrs.queue.file.QueueFixture.Q;
import static io.openrs.queue.file.QueueFixture.SMALL;
import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueueReader;
import io.openrs.queue.StableQueue;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write whose last block is partly filled ends at that block's payload, rounded up to {@link
 * BlockFormat#TAIL_ALIGNMENT}: the rest of the slot is a hole that reads as zeros, recovery keeps
 * such a block, and the next write starts at the next slot.
 */
class ShortTailWriteTest {

  static final int BLOCK = 16 * 1024;

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

  private double bytesWritten() {
    return fx.registry.find("BytesWritten").tag("instance", Q.toString()).functionCounter().count();
  }

  private static List<Long> ids(List<QueueMessage> messages) {
    return messages.stream().map(m -> Messages.verify(m.payload())).toList();
  }

  @Test
  void aLoneMessageIsWrittenAsOnePageOfItsBlock() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    q.append(Messages.make(1, 100)).get(10, TimeUnit.SECONDS);

    assertThat(Files.size(segment0)).isEqualTo(BlockFormat.TAIL_ALIGNMENT);
    assertThat(bytesWritten()).isEqualTo(BlockFormat.TAIL_ALIGNMENT);

    // The next write is the next block slot. The first block's padding, written up to the 4 KiB
    // boundary and a hole after it, reads as zeros.
    q.append(Messages.make(2, 100)).get(10, TimeUnit.SECONDS);
    assertThat(Files.size(segment0)).isEqualTo(BLOCK + BlockFormat.TAIL_ALIGNMENT);
    int used = BlockFormat.HEADER_SIZE + BlockFormat.RECORD_LENGTH_SIZE + 100;
    byte[] padding = new byte[BLOCK - used];
    try (FileChannel ch = FileChannel.open(segment0, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.wrap(padding);
      while (b.hasRemaining() && ch.read(b, used + b.position()) >= 0) {}
      assertThat(b.hasRemaining()).isFalse();
    }
    assertThat(padding).containsOnly(0);

    // Recovery keeps the short last block (nothing cut) and the reader gets both messages, from
    // disk: the reopened queue has an empty cache.
    fx.restart();
    q = fx.manager.openQueue(Q, SMALL);
    assertThat(Files.size(segment0)).isEqualTo(BLOCK + BlockFormat.TAIL_ALIGNMENT);
    try (QueueReader r = q.openReader("SQT")) {
      assertThat(ids(Messages.drain(r))).containsExactly(1L, 2L);
      q.append(Messages.make(3, 100)).get(10, TimeUnit.SECONDS);
      assertThat(ids(Messages.drain(r))).containsExactly(3L);
    }
    assertThat(Files.size(segment0)).isEqualTo(2L * BLOCK + BlockFormat.TAIL_ALIGNMENT);
  }

  @Test
  void aMessageSpanningBlocksWritesTheFullOnesWhole() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    // 2.5 blocks of payload in one message: two full blocks and a short third.
    q.append(Messages.make(7, BLOCK * 5 / 2)).get(10, TimeUnit.SECONDS);

    long tail = Files.size(segment0) - 2L * BLOCK;
    assertThat(tail).isPositive().isLessThan(BLOCK);
    assertThat(tail % BlockFormat.TAIL_ALIGNMENT).isZero();
    assertThat(bytesWritten()).isEqualTo(Files.size(segment0));

    fx.restart();
    q = fx.manager.openQueue(Q, SMALL);
    try (QueueReader r = q.openReader("SQT")) {
      assertThat(ids(Messages.drain(r))).containsExactly(7L);
    }
  }

  @Test
  void aReusedPageBufferLeavesNoStaleBytesInTheWrittenPadding() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    // Fills the page buffers' first blocks with message bytes; then small writes reuse them.
    q.append(Messages.make(1, BLOCK * 5 / 2)).get(10, TimeUnit.SECONDS);
    int used = BlockFormat.HEADER_SIZE + BlockFormat.RECORD_LENGTH_SIZE + 100;
    for (int i = 0; i < 4; i++) {
      q.append(Messages.make(10 + i, 100)).get(10, TimeUnit.SECONDS);
    }
    try (FileChannel ch = FileChannel.open(segment0, StandardOpenOption.READ)) {
      for (int slot = 3; slot < 7; slot++) {
        byte[] padding = new byte[BlockFormat.TAIL_ALIGNMENT - used];
        ByteBuffer b = ByteBuffer.wrap(padding);
        while (b.hasRemaining() && ch.read(b, (long) slot * BLOCK + used + b.position()) >= 0) {}
        assertThat(b.hasRemaining()).isFalse();
        assertThat(padding).as("padding of slot %d", slot).containsOnly(0);
      }
    }
    assertThat(Files.size(segment0)).isEqualTo(6L * BLOCK + BlockFormat.TAIL_ALIGNMENT);
  }

  @Test
  void aShortTailTornInsideItsPayloadIsCut() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    q.append(Messages.make(1, 100)).get(10, TimeUnit.SECONDS);
    q.append(Messages.make(2, 3000)).get(10, TimeUnit.SECONDS);
    fx.restart();
    // The second write torn: its block slot holds the header and part of the message.
    try (FileChannel ch = FileChannel.open(segment0, StandardOpenOption.WRITE)) {
      ch.truncate(BLOCK + BlockFormat.HEADER_SIZE + 1000);
    }

    q = fx.manager.openQueue(Q, SMALL);
    assertThat(Files.size(segment0)).isEqualTo(BLOCK);
    try (QueueReader r = q.openReader("SQT")) {
      assertThat(ids(Messages.drain(r))).containsExactly(1L);
    }
  }
}
