package io.openrs.queue.file;

import static io.openrs.queue.file.QueueFixture.Q;
import static io.openrs.queue.file.QueueFixture.SMALL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.queue.QueueClosedException;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.QueueState;
import io.openrs.queue.StableQueue;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileStableQueueTest {

  @TempDir Path dir;
  QueueFixture fx;

  @BeforeEach
  void setUp() throws Exception {
    fx = new QueueFixture(dir);
  }

  @AfterEach
  void tearDown() {
    fx.close();
  }

  private static List<QueuePosition> appendAll(StableQueue q, List<byte[]> messages)
      throws Exception {
    List<CompletableFuture<QueuePosition>> fs = new ArrayList<>();
    for (byte[] m : messages) {
      fs.add(q.append(m));
    }
    List<QueuePosition> out = new ArrayList<>();
    for (CompletableFuture<QueuePosition> f : fs) {
      out.add(f.get(30, TimeUnit.SECONDS));
    }
    return out;
  }

  private static List<byte[]> messages(long firstId, int count, Random random, int maxSize) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(Messages.make(firstId + i, 12 + random.nextInt(maxSize)));
    }
    return out;
  }

  private double counter(String name) {
    return fx.registry.get(name).tag("instance", Q.toString()).functionCounter().count();
  }

  @Test
  void messagesComeBackInOrderWithIncreasingPositions() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    List<byte[]> sent = messages(0, 2000, new Random(1), 600);
    List<QueuePosition> positions = appendAll(q, sent);
    for (int i = 1; i < positions.size(); i++) {
      assertThat(positions.get(i)).isGreaterThan(positions.get(i - 1));
    }
    try (QueueReader r = q.openReader("SQT")) {
      List<QueueMessage> got = Messages.drain(r);
      assertThat(got).hasSize(sent.size());
      for (int i = 0; i < got.size(); i++) {
        assertThat(Messages.verify(got.get(i).payload())).isEqualTo(i);
        assertThat(got.get(i).position()).isEqualTo(positions.get(i));
      }
    }
    assertThat(counter("CmdsWritten")).isEqualTo(2000);
    assertThat(counter("BlocksWritten")).isPositive();
    assertThat(
            fx.registry
                .get("BlocksRead")
                .tags("instance", Q.toString(), "reader", "SQT")
                .functionCounter()
                .count())
        .isPositive();
  }

  @Test
  void messagesSpanningBlocksAndSegmentsSurviveRestart() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    int[] sizes = {16 * 1024 - 40 - 4, 16 * 1024, 40_000, 12, 1_500_000, 100_000, 16 * 1024 - 44};
    List<byte[]> sent = new ArrayList<>();
    for (int i = 0; i < sizes.length; i++) {
      sent.add(Messages.make(i, sizes[i]));
    }
    appendAll(q, sent);
    try (QueueReader r = q.openReader("SQT")) {
      List<QueueMessage> got = Messages.drain(r);
      assertThat(got)
          .extracting(m -> Messages.verify(m.payload()))
          .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L);
    }
    fx.restart();
    q = fx.manager.openQueue(Q, SMALL);
    try (QueueReader r = q.openReader("SQT")) {
      assertThat(Messages.drain(r)).hasSize(sizes.length);
    }
  }

  @Test
  void readersTruncateIndependentlyAndSegmentsAreFreedBehindTheSlowest() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    QueueReader a = q.openReader("A");
    QueueReader b = q.openReader("B");
    appendAll(q, messages(0, 300, new Random(2), 10_000)); // ~1.5 MB: 2+ segments
    appendAll(q, messages(300, 300, new Random(3), 10_000));
    List<QueueMessage> fromA = Messages.drain(a);
    assertThat(fromA).hasSize(600);
    a.confirm(fromA.get(599).position());
    long held = q.info().segmentsActive();
    assertThat(held).isGreaterThanOrEqualTo(3);
    // B has confirmed nothing: nothing may be freed.
    appendAll(q, messages(600, 1, new Random(4), 10)); // a write step lets the writer look
    assertThat(q.info().firstSegment()).isZero();
    assertThat(Files.exists(fx.segmentFile(Q, 0))).isTrue();

    List<QueueMessage> fromB = Messages.drain(b);
    assertThat(fromB).hasSize(601);
    b.confirm(fromB.get(300).position());
    long bSegment = fromB.get(300).position().segment();
    appendAll(q, messages(601, 1, new Random(5), 10));
    assertThat(q.info().firstSegment()).isEqualTo(bSegment);
    for (long s = 0; s < bSegment; s++) {
      assertThat(Files.exists(fx.segmentFile(Q, s))).as("segment %d", s).isFalse();
    }
    assertThat(counter("SegsDeallocated")).isEqualTo(bSegment);
    assertThat(q.info().readers()).extracting(ri -> ri.name()).containsExactly("A", "B");
    a.close();
    b.close();
  }

  @Test
  void segmentsWrapFreeAndAreReplacedWithinAPartitionLimit() throws Exception {
    fx.close();
    fx =
        new QueueFixture(
            dir.resolve("small"), 3L * 1024 * 1024, io.micrometer.core.instrument.Clock.SYSTEM);
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    Random random = new Random(6);
    long next = 0;
    try (QueueReader r = q.openReader("DSI")) {
      for (int round = 0; round < 40; round++) {
        appendAll(q, messages(next, 50, random, 10_000));
        List<QueueMessage> got = Messages.read(r, 50);
        for (QueueMessage m : got) {
          assertThat(Messages.verify(m.payload())).isEqualTo(next++);
        }
        r.confirm(got.get(got.size() - 1).position());
      }
    }
    assertThat(counter("SegsAllocated")).isGreaterThan(10);
    assertThat(counter("SegsDeallocated")).isGreaterThan(7);
    try (Stream<Path> files = Files.list(fx.partitionDir())) {
      assertThat(files.count()).isLessThanOrEqualTo(3);
    }
    assertThat(fx.manager.partitions().get(0).usedBytes()).isLessThanOrEqualTo(3L * 1024 * 1024);
  }

  @Test
  void restartKeepsReadersTruncationPointsAndPositionsKeepIncreasing() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    List<QueuePosition> first = appendAll(q, messages(0, 500, new Random(7), 5000));
    try (QueueReader r = q.openReader("SQT")) {
      List<QueueMessage> got = Messages.read(r, 200);
      r.confirm(got.get(199).position());
    }
    fx.restart();
    q = fx.manager.openQueue(Q, SMALL);
    List<QueuePosition> second = appendAll(q, messages(500, 100, new Random(8), 5000));
    assertThat(second.get(0)).isGreaterThan(first.get(first.size() - 1));
    try (QueueReader r = q.openReader("SQT")) {
      assertThat(r.confirmed()).contains(first.get(199));
      List<QueueMessage> rest = Messages.drain(r);
      assertThat(rest).hasSize(400);
      assertThat(Messages.verify(rest.get(0).payload())).isEqualTo(200);
      assertThat(Messages.verify(rest.get(399).payload())).isEqualTo(599);
    }
  }

  @Test
  void purgeDropsEverythingWrittenBeforeIt() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    QueueReader r = q.openReader("SQT");
    appendAll(q, messages(0, 400, new Random(9), 8000));
    assertThat(Messages.read(r, 10)).hasSize(10);
    q.purge().get(10, TimeUnit.SECONDS);
    assertThat(q.info().segmentsActive()).isZero();
    List<QueuePosition> after = appendAll(q, messages(1000, 5, new Random(10), 100));
    List<QueueMessage> got = Messages.drain(r);
    assertThat(got)
        .extracting(m -> Messages.verify(m.payload()))
        .containsExactly(1000L, 1001L, 1002L, 1003L, 1004L);
    assertThat(got.get(0).position()).isEqualTo(after.get(0));
    assertThat(counter("SegsDeallocated")).isGreaterThanOrEqualTo(2);
    r.close();
  }

  @Test
  void dumpReadsARangeWithoutMovingReadersAndTheToolPrintsBlocks() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    List<QueuePosition> positions = appendAll(q, messages(0, 100, new Random(11), 3000));
    List<QueueMessage> dumped = q.dump(positions.get(40), 5);
    assertThat(dumped)
        .extracting(QueueMessage::position)
        .containsExactlyElementsOf(positions.subList(40, 45));
    assertThat(q.dumpFromStart(3))
        .extracting(m -> Messages.verify(m.payload()))
        .containsExactly(0L, 1L, 2L);
    q.close();

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int bad =
        SegmentDump.dump(
            fx.segmentFile(Q, 0),
            Optional.empty(),
            new PrintStream(out, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(bad).isZero();
    assertThat(text)
        .contains("queue 101:1, segment 0")
        .contains("block 0 @0: seq=0")
        .contains(" ok ")
        .contains(positions.get(0).toString() + " @payload+0")
        .contains("0 damaged");
  }

  @Test
  void dumpIsTheRandomAccessReadAndIsServedFromTheCache() throws Exception {
    // A cache of 64 blocks holds all 30 messages even when group commit gives each its own block
    // (SMALL's 16 blocks did not: then message 7's block was overwritten, and read from the file).
    StableQueue cached = fx.manager.createQueue(Q, SMALL.withCacheSizeBytes(64L * 16 * 1024));
    StableQueue uncached =
        fx.manager.createQueue(QueueId.outbound(102), SMALL.withCacheSizeBytes(0));
    for (StableQueue q : List.of(cached, uncached)) {
      List<QueuePosition> positions = appendAll(q, messages(0, 30, new Random(12), 300));
      // Spoil, on disk behind the queue's back, the block that holds message 7 (group commit
      // decides which block that is): only a read from the file can see it.
      QueuePosition seventh = positions.get(7);
      try (java.nio.channels.FileChannel ch =
          java.nio.channels.FileChannel.open(
              fx.segmentFile(q.id(), seventh.segment()), java.nio.file.StandardOpenOption.WRITE)) {
        ch.write(
            java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3}),
            (long) seventh.block() * SMALL.blockSizeBytes() + BlockFormat.HEADER_SIZE + 10);
      }
      if (q == cached) {
        assertThat(q.dump(positions.get(7), 3))
            .extracting(m -> Messages.verify(m.payload()))
            .containsExactly(7L, 8L, 9L);
      } else {
        assertThatThrownBy(() -> q.dump(positions.get(7), 3))
            .isInstanceOf(io.openrs.queue.QueueCorruptedException.class)
            .hasMessageContaining("CRC_MISMATCH");
      }
    }
  }

  @Test
  void aWaitingReaderIsWokenByTheWriter() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    QueueReader r = q.openReader("SQT");
    CompletableFuture<Optional<QueueMessage>> got = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                got.complete(r.poll(Duration.ofSeconds(30)));
              } catch (Throwable e) {
                got.completeExceptionally(e);
              }
            });
    t.start();
    q.append(Messages.make(42, 100)).get(10, TimeUnit.SECONDS);
    assertThat(got.get(30, TimeUnit.SECONDS)).isPresent();
    assertThat(Messages.verify(got.get().get().payload())).isEqualTo(42);
    t.join();
  }

  @Test
  void closedQueueRefusesWritesAndReads() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    QueueReader r = q.openReader("SQT");
    CompletableFuture<QueuePosition> last = q.append(Messages.make(1, 100));
    q.close();
    assertThat(last).isCompleted();
    assertThat(q.state()).isEqualTo(QueueState.CLOSED);
    assertThatThrownBy(() -> q.append(Messages.make(2, 100)))
        .isInstanceOf(QueueClosedException.class)
        .hasMessageContaining("101:1");
    assertThatThrownBy(r::poll).isInstanceOf(QueueClosedException.class);
  }

  @Test
  void tooLargeMessageIsRefusedWithTheLimit() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL.withMaxMessageBytes(4096));
    assertThatThrownBy(() -> q.append(new byte[5000]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sqm_max_message_size=4096");
  }

  @Test
  void layoutParametersMustMatchTheQueueOnDisk() throws Exception {
    fx.manager.createQueue(Q, SMALL);
    fx.restart();
    assertThatThrownBy(() -> fx.manager.openQueue(Q, SMALL.withBlockSizeBytes(32 * 1024)))
        .hasMessageContaining("block_size")
        .hasMessageContaining("16384");
  }

  @Test
  void manyProducersKeepEachProducersOrder() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL.withWriteRequestLimitBytes(32 * 1024));
    int producers = 4;
    int perProducer = 2000;
    List<Thread> threads = new ArrayList<>();
    List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int p = 0; p < producers; p++) {
      int id = p;
      Thread t =
          new Thread(
              () -> {
                try {
                  CompletableFuture<QueuePosition> last = null;
                  for (int i = 0; i < perProducer; i++) {
                    last = q.append(Messages.make(id * 1_000_000L + i, 50 + i % 300));
                  }
                  last.get(30, TimeUnit.SECONDS);
                } catch (Throwable e) {
                  errors.add(e);
                }
              });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertThat(errors).isEmpty();
    long[] next = new long[producers];
    try (QueueReader r = q.openReader("SQT")) {
      List<QueueMessage> got = Messages.drain(r);
      assertThat(got).hasSize(producers * perProducer);
      for (QueueMessage m : got) {
        long id = Messages.verify(m.payload());
        int p = (int) (id / 1_000_000L);
        assertThat(id % 1_000_000L).isEqualTo(next[p]++);
      }
    }
  }

  @Test
  void directIoWritesAreReadBackOrRefusedAtConfigurationTime() throws Exception {
    io.openrs.queue.QueueSettings dio = SMALL.withWriteFlush(io.openrs.queue.WriteFlush.DIO);
    StableQueue q;
    try {
      q = fx.manager.createQueue(Q, dio);
    } catch (io.openrs.queue.InvalidSettingException e) {
      assertThat(e.parameter()).isEqualTo("sqm_write_flush");
      org.junit.jupiter.api.Assumptions.abort("direct I/O not available here: " + e.getMessage());
      return;
    }
    List<byte[]> sent = messages(0, 300, new Random(13), 3000);
    appendAll(q, sent);
    fx.restart();
    q = fx.manager.openQueue(Q, dio);
    try (QueueReader r = q.openReader("SQT")) {
      assertThat(Messages.drain(r)).extracting(m -> Messages.verify(m.payload())).hasSize(300);
    }
  }
}
