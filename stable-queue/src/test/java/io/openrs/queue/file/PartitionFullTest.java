package io.openrs.queue.file;

import static io.openrs.queue.file.QueueFixture.Q;
import static io.openrs.queue.file.QueueFixture.SMALL;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MockClock;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.StableQueue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class PartitionFullTest {

  @TempDir Path dir;
  ListAppender<ILoggingEvent> log = new ListAppender<>();
  Logger writerLog = (Logger) LoggerFactory.getLogger(SqmWriter.class);

  @AfterEach
  void detach() {
    writerLog.detachAppender(log);
  }

  /** Spins (no sleep) until {@code condition} holds; fails after 20 s. */
  static void awaitTrue(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.onSpinWait();
      Thread.yield();
    }
  }

  @Test
  void aProducerWaitsOnAFullPartitionUntilAReaderFreesASegment() throws Exception {
    log.start();
    writerLog.addAppender(log);
    writerLog.setLevel(Level.INFO);
    MockClock clock = new MockClock();
    try (QueueFixture fx = new QueueFixture(dir, 2L * 1024 * 1024, clock)) {
      StableQueue q = fx.manager.createQueue(Q, SMALL.withWriteRequestLimitBytes(64 * 1024));
      QueueReader reader = q.openReader("DSI");
      // One full 16 KiB block per message, so the layout does not depend on how the writes were
      // grouped (a partly filled page would add padding): 64 + 64 + 40 blocks need three 1 MiB
      // segments, the partition holds two.
      int count = 168;
      int size = SMALL.blockSizeBytes() - BlockFormat.HEADER_SIZE - BlockFormat.RECORD_LENGTH_SIZE;
      CompletableFuture<QueuePosition> lastAck = new CompletableFuture<>();
      Thread producer =
          new Thread(
              () -> {
                try {
                  CompletableFuture<QueuePosition> last = null;
                  for (int i = 0; i < count; i++) {
                    last = q.append(Messages.make(i, size));
                  }
                  last.whenComplete(
                      (p, e) -> {
                        if (e != null) {
                          lastAck.completeExceptionally(e);
                        } else {
                          lastAck.complete(p);
                        }
                      });
                } catch (Throwable e) {
                  lastAck.completeExceptionally(e);
                }
              },
              "producer");
      producer.start();

      awaitTrue("the writer to wait for a segment", () -> q.info().waitingForSegment());
      assertThat(lastAck).isNotDone();
      assertThat(q.info().segmentsActive()).isEqualTo(2);
      clock.add(Duration.ofSeconds(5));
      // The ongoing wait is visible before it ends.
      FunctionTimer ongoing =
          fx.registry.get("SQMWaitSegTime").tag("instance", Q.toString()).functionTimer();
      assertThat(ongoing.count()).isEqualTo(1);
      assertThat(ongoing.totalTime(TimeUnit.SECONDS)).isEqualTo(5.0);
      assertThat(q.info().segmentWait()).isEqualTo(Duration.ofSeconds(5));

      // The reader catches up and confirms; the writer frees segment 0 and resumes by itself.
      int read = 0;
      while (read < count) {
        List<QueueMessage> got = Messages.read(reader, 1);
        reader.confirm(got.get(0).position());
        assertThat(Messages.verify(got.get(0).payload())).isEqualTo(read);
        read++;
      }
      assertThat(lastAck.get(20, TimeUnit.SECONDS)).isNotNull();
      producer.join();

      FunctionTimer wait =
          fx.registry.get("SQMWaitSegTime").tag("instance", Q.toString()).functionTimer();
      assertThat(wait.count()).isEqualTo(1);
      assertThat(wait.totalTime(TimeUnit.SECONDS)).isEqualTo(5.0);
      assertThat(q.info().waitingForSegment()).isFalse();
      List<ILoggingEvent> warnings =
          log.list.stream().filter(e -> e.getLevel() == Level.WARN).toList();
      assertThat(warnings).hasSize(1);
      assertThat(warnings.get(0).getFormattedMessage())
          .contains("queue 101:1")
          .contains("p1 (")
          .contains("Administrative action is needed");
      reader.close();
    }
  }

  @Test
  void addingAPartitionReleasesAWaitingWriter() throws Exception {
    try (QueueFixture fx =
        new QueueFixture(dir, 1024L * 1024, io.micrometer.core.instrument.Clock.SYSTEM)) {
      // The whole batch fits the write buffer, so this thread never blocks in append.
      StableQueue q = fx.manager.createQueue(Q, SMALL.withWriteRequestLimitBytes(4L * 1024 * 1024));
      q.openReader("DSI").close();
      CompletableFuture<QueuePosition> f = null;
      for (int i = 0; i < 150; i++) { // 1.5 MB into a 1 MiB partition
        f = q.append(Messages.make(i, 10_000));
      }
      awaitTrue("the writer to wait for a segment", () -> q.info().waitingForSegment());
      fx.manager.addPartition(new PartitionSpec("p2", dir.resolve("p2"), 8L * 1024 * 1024));
      assertThat(f.get(20, TimeUnit.SECONDS)).isNotNull();
      assertThat(fx.manager.partitions())
          .extracting(PartitionInfo::usedBytes)
          .containsExactly(1024L * 1024, 1024L * 1024);
    }
  }

  @Test
  void theWarningIsLoggedOncePerEpisodeOfWaits() throws Exception {
    log.start();
    writerLog.addAppender(log);
    writerLog.setLevel(Level.INFO);
    try (QueueFixture fx =
        new QueueFixture(dir, 2L * 1024 * 1024, io.micrometer.core.instrument.Clock.SYSTEM)) {
      StableQueue q = fx.manager.createQueue(Q, SMALL.withWriteRequestLimitBytes(4L * 1024 * 1024));
      QueueReader reader = q.openReader("DSI");
      int size = SMALL.blockSizeBytes() - BlockFormat.HEADER_SIZE - BlockFormat.RECORD_LENGTH_SIZE;
      // Five segments' worth into a partition of two: the writer waits three times, the reader
      // freeing one segment each time.
      CompletableFuture<QueuePosition> last = null;
      for (int i = 0; i < 5 * 64; i++) {
        last = q.append(Messages.make(i, size));
      }
      // The reader moves one segment on each time the writer waits (its confirmation must reach
      // the next segment for the previous one to be freed).
      FunctionTimer wait =
          fx.registry.get("SQMWaitSegTime").tag("instance", Q.toString()).functionTimer();
      int read = 0;
      for (int w = 1; w <= 3; w++) {
        int nth = w;
        awaitTrue("wait " + w, () -> wait.count() == nth && q.info().waitingForSegment());
        int n = w == 1 ? 65 : 64;
        for (int i = 0; i < n; i++) {
          reader.confirm(Messages.read(reader, 1).get(0).position());
          read++;
        }
      }
      while (read < 5 * 64) {
        reader.confirm(Messages.read(reader, 1).get(0).position());
        read++;
      }
      last.get(20, TimeUnit.SECONDS);
      assertThat(wait.count()).isEqualTo(3);
      assertThat(warnings()).hasSize(1);

      // The reader caught up: the next segment comes without a wait, which ends the episode.
      for (int i = 0; i < 64; i++) {
        last = q.append(Messages.make(1000 + i, size));
      }
      last.get(20, TimeUnit.SECONDS);
      assertThat(log.list)
          .map(ILoggingEvent::getFormattedMessage)
          .anyMatch(m -> m.contains("the space shortage is over after 3 waits"));

      // A new shortage warns again.
      for (int i = 0; i < 2 * 64; i++) {
        last = q.append(Messages.make(2000 + i, size));
      }
      awaitTrue("the writer to wait again", () -> q.info().waitingForSegment());
      awaitTrue("the second warning", () -> warnings().size() == 2);
      // The reader reads and confirms whatever the writer has written until the writer has
      // written everything (freed segments let it write more, which may fill the partition again).
      CompletableFuture<QueuePosition> lastOfShortage = last;
      awaitTrue(
          "the writer to write everything and stop waiting",
          () -> {
            Messages.drain(reader).forEach(m -> reader.confirm(m.position()));
            return lastOfShortage.isDone() && !q.info().waitingForSegment();
          });
      reader.close();
    }
  }

  private List<ILoggingEvent> warnings() {
    return log.list.stream().filter(e -> e.getLevel() == Level.WARN).toList();
  }
}
