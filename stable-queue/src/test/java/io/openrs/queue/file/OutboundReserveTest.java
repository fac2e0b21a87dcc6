package io.openrs.queue.file;

import static io.openrs.queue.file.PartitionFullTest.awaitTrue;
import static io.openrs.queue.file.QueueFixture.SMALL;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.Clock;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.StableQueue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The deadlock shape a full partition used to have: the inbound queue's writer took every free
 * segment, so the distributor (which empties the inbound queue only by writing to an outbound
 * queue) waited for an outbound segment that nothing could free. Inbound writers now leave a
 * reserve for the outbound queues ({@link FileQueueManager#reserveSegments}).
 */
class OutboundReserveTest {

  static final QueueId IN = QueueId.inbound(101);
  static final QueueId OUT = QueueId.outbound(102);
  static final long MIB = 1024L * 1024;

  /** One full block per message, so the layout is exact: 64 messages per 1 MiB segment. */
  static final int SIZE =
      SMALL.blockSizeBytes() - BlockFormat.HEADER_SIZE - BlockFormat.RECORD_LENGTH_SIZE;

  @TempDir Path dir;
  ListAppender<ILoggingEvent> log = new ListAppender<>();
  Logger writerLog = (Logger) LoggerFactory.getLogger(SqmWriter.class);

  @AfterEach
  void detach() {
    writerLog.detachAppender(log);
  }

  @Test
  @Timeout(60)
  void theInboundWriterLeavesTheReserveSoDistributionDrainsAFullPartition() throws Exception {
    log.start();
    writerLog.addAppender(log);
    writerLog.setLevel(Level.INFO);
    try (QueueFixture fx = new QueueFixture(dir, 6 * MIB, Clock.SYSTEM)) {
      StableQueue out = fx.manager.createQueue(OUT, SMALL);
      StableQueue in = fx.manager.createQueue(IN, SMALL.withWriteRequestLimitBytes(64 * 1024));
      assertThat(fx.manager.reserveSegments()).as("an outbound queue no one reads").isZero();
      QueueReader dsi = out.openReader("DSI");
      QueueReader dist = in.openReader("DIST");
      assertThat(fx.manager.reserveSegments()).as("one outbound queue: 1 + 1").isEqualTo(2);

      // The agent's backlog: ten segments' worth into a partition of six.
      int count = 10 * 64;
      Producer agent = new Producer(in, count);
      agent.start();
      awaitTrue("the inbound writer to wait", () -> in.info().waitingForSegment());
      // Before: the inbound queue held all six segments, and the outbound queue could get none.
      assertThat(in.info().segmentsActive()).isEqualTo(4);
      assertThat(fx.manager.partitions().get(0).usedBytes()).isEqualTo(4 * MIB);
      awaitTrue("the warning", () -> !warnings().isEmpty());
      assertThat(warnings())
          .singleElement()
          .asString()
          .contains("queue 101:1")
          .contains("the 2 free segments are the reserve kept for the outbound queues");

      // DIST and the DSI run: everything reaches the replicate side, in order.
      Distributor d = new Distributor(dist, out, count);
      d.start();
      for (int i = 0; i < count; i++) {
        QueueMessage m = dsi.poll(Duration.ofSeconds(20)).orElseThrow(AssertionError::new);
        assertThat(Messages.verify(m.payload())).isEqualTo(i);
        dsi.confirm(m.position());
      }
      assertThat(agent.done.get(20, TimeUnit.SECONDS)).isNotNull();
      d.join();
      assertThat(d.failure.get()).isNull();
      assertThat(in.info().waitingForSegment()).isFalse();
      dsi.close();
      dist.close();
    }
  }

  /**
   * The consistency suite's scenario: the replicate's connection is suspended while the agent
   * writes, the outbound queue fills the partition, DIST and then the inbound writer wait; the DSI
   * resumes and everything drains, whatever order the writers wake up in.
   */
  @Test
  @Timeout(60)
  void aFullPartitionDrainsOnceTheSuspendedReplicateResumes() throws Exception {
    try (QueueFixture fx = new QueueFixture(dir, 6 * MIB, Clock.SYSTEM)) {
      StableQueue out = fx.manager.createQueue(OUT, SMALL.withWriteRequestLimitBytes(64 * 1024));
      StableQueue in = fx.manager.createQueue(IN, SMALL.withWriteRequestLimitBytes(64 * 1024));
      QueueReader dsi = out.openReader("DSI");
      QueueReader dist = in.openReader("DIST");
      int count = 12 * 64;
      Producer agent = new Producer(in, count);
      agent.start();
      Distributor d = new Distributor(dist, out, count);
      d.start();
      // The partition fills but for the reserve; the inbound writer waits, DIST has moved what
      // it could.
      awaitTrue(
          "the inbound writer to wait with the outbound queue holding a backlog",
          () -> in.info().waitingForSegment() && out.info().segmentsActive() >= 3);
      assertThat(fx.manager.partitions().get(0).usedBytes()).isGreaterThanOrEqualTo(4 * MIB);

      // resume connection
      for (int i = 0; i < count; i++) {
        QueueMessage m = dsi.poll(Duration.ofSeconds(20)).orElseThrow(AssertionError::new);
        assertThat(Messages.verify(m.payload())).isEqualTo(i);
        dsi.confirm(m.position());
      }
      assertThat(agent.done.get(20, TimeUnit.SECONDS)).isNotNull();
      d.join();
      assertThat(d.failure.get()).isNull();
      dsi.close();
      dist.close();
    }
  }

  @Test
  void withoutAnOutboundQueueAnInboundQueueMayFillThePartition() throws Exception {
    try (QueueFixture fx = new QueueFixture(dir, 3 * MIB, Clock.SYSTEM)) {
      StableQueue in = fx.manager.createQueue(IN, SMALL.withWriteRequestLimitBytes(64 * 1024));
      in.openReader("DIST").close();
      assertThat(fx.manager.reserveSegments()).isZero();
      Producer agent = new Producer(in, 4 * 64);
      agent.start();
      awaitTrue("the inbound writer to wait", () -> in.info().waitingForSegment());
      assertThat(in.info().segmentsActive()).isEqualTo(3);
      assertThat(fx.manager.partitions().get(0).usedBytes()).isEqualTo(3 * MIB);
    }
  }

  private List<String> warnings() {
    return log.list.stream()
        .filter(e -> e.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  /** The agent + NRM: appends {@code count} messages to the inbound queue. */
  static final class Producer extends Thread {
    final StableQueue queue;
    final int count;
    final CompletableFuture<QueuePosition> done = new CompletableFuture<>();

    Producer(StableQueue queue, int count) {
      super("producer");
      this.queue = queue;
      this.count = count;
      setDaemon(true);
    }

    @Override
    public void run() {
      try {
        CompletableFuture<QueuePosition> last = null;
        for (int i = 0; i < count; i++) {
          last = queue.append(Messages.make(i, SIZE));
        }
        done.complete(last.get());
      } catch (Throwable e) {
        done.completeExceptionally(e);
      }
    }
  }

  /**
   * DIST: reads the inbound queue, writes each message to the outbound queue and confirms it in the
   * inbound queue once it is durable there (invariant 5).
   */
  static final class Distributor extends Thread {
    final QueueReader in;
    final StableQueue out;
    final int count;
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final AtomicLong moved = new AtomicLong();
    final CountDownLatch started = new CountDownLatch(1);

    Distributor(QueueReader in, StableQueue out, int count) {
      super("dist");
      this.in = in;
      this.out = out;
      this.count = count;
      setDaemon(true);
    }

    @Override
    public void run() {
      started.countDown();
      try {
        for (int i = 0; i < count; i++) {
          Optional<QueueMessage> m = in.poll(Duration.ofSeconds(30));
          if (m.isEmpty()) {
            throw new AssertionError("DIST got nothing after " + i + " messages");
          }
          out.append(m.get().payload()).get(30, TimeUnit.SECONDS);
          in.confirm(m.get().position());
          moved.incrementAndGet();
        }
      } catch (Throwable e) {
        failure.set(e);
      }
    }
  }
}
