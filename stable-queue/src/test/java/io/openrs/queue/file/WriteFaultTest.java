package io.openrs.queue.file;

import static io.openrs.queue.file.QueueFixture.Q;
import static io.openrs.queue.file.QueueFixture.SMALL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.queue.QueueClosedException;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.QueueState;
import io.openrs.queue.StableQueue;
import io.openrs.queue.WriteFlush;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Crash points enumerated through a fault-injecting channel (H2 {@code FilePathUnstable}): the n-th
 * write (torn: half of it reaches the file) or the n-th force of the segment files fails. The queue
 * must fail every pending future (never acknowledge it), name the queue and the file, never hand a
 * reader a message that was not durable, and after reopening hold every acknowledged message
 * exactly once and in order.
 */
class WriteFaultTest {

  static final QueueSettings ON =
      SMALL.withWriteFlush(WriteFlush.ON).withWriteRequestLimitBytes(16 * 1024);
  static final int MESSAGES = 300;

  @TempDir Path dir;

  static Stream<Arguments> faults() {
    List<Arguments> out = new ArrayList<>();
    for (FaultyChannels.Op op : FaultyChannels.Op.values()) {
      for (int n = 1; n <= 6; n++) {
        out.add(Arguments.of(op, n));
      }
    }
    return out.stream();
  }

  private static int size(Random random, int i) {
    return i % 50 == 7 ? 40_000 : 12 + random.nextInt(3000); // some span 3 blocks
  }

  @ParameterizedTest(name = "{0} #{1} fails")
  @MethodSource("faults")
  void aFailedWriteOrForceIsNeverAcknowledgedAndAcknowledgedDataSurvives(
      FaultyChannels.Op op, int n) throws Exception {
    Path root = dir.resolve(op + "-" + n);
    QueueFixture fx = new QueueFixture(root);
    fx.manager.close();
    FaultyChannels faults = new FaultyChannels(op, n);
    fx.manager =
        FileQueueManager.open(
            fx.stateDir(),
            List.of(new PartitionSpec("p1", fx.partitionDir(), fx.partitionLimitBytes)),
            new SimpleMeterRegistry(),
            Clock.SYSTEM,
            faults);
    StableQueue q = fx.manager.createQueue(Q, ON);

    // A reader follows the writer while it writes.
    QueueReader reader = q.openReader("SQT");
    List<QueueMessage> seen = new ArrayList<>();
    CompletableFuture<Throwable> readerEnd = new CompletableFuture<>();
    Thread readerThread =
        new Thread(
            () -> {
              try {
                while (true) {
                  reader.poll(Duration.ofSeconds(30)).ifPresent(seen::add);
                }
              } catch (Throwable e) {
                readerEnd.complete(e);
              }
            },
            "reader");
    readerThread.start();

    Random random = new Random(n);
    List<CompletableFuture<QueuePosition>> futures = new ArrayList<>();
    for (int i = 0; i < MESSAGES; i++) {
      try {
        futures.add(q.append(Messages.make(i, size(random, i))));
      } catch (QueueClosedException e) {
        break; // the failure came first
      }
    }
    int acked = 0;
    boolean failedSeen = false;
    for (CompletableFuture<QueuePosition> f : futures) {
      try {
        f.get(30, TimeUnit.SECONDS);
        assertThat(failedSeen).as("a future completed after an earlier one failed").isFalse();
        acked++;
      } catch (ExecutionException e) {
        failedSeen = true;
        assertClearError(e.getCause());
      }
    }
    assertThat(faults.injected()).as("fault injected").isTrue();
    assertThat(q.state()).isEqualTo(QueueState.FAILED);
    assertThat(acked).as("acknowledged").isLessThan(MESSAGES);
    assertThatThrownBy(() -> q.append(new byte[10])).isInstanceOf(QueueClosedException.class);

    assertThat(readerEnd.get(30, TimeUnit.SECONDS)).isInstanceOf(QueueClosedException.class);
    readerThread.join();
    for (int i = 0; i < seen.size(); i++) {
      long id = Messages.verify(seen.get(i).payload());
      assertThat(id).as("message %d read", i).isEqualTo(i);
      assertThat(id).as("read but never acknowledged").isLessThan(acked);
    }

    fx.restart();
    StableQueue reopened = fx.manager.openQueue(Q, ON);
    List<QueueMessage> all;
    try (QueueReader r = reopened.openReader("CHECK")) {
      all = Messages.drain(r);
    }
    for (int i = 0; i < all.size(); i++) {
      assertThat(Messages.verify(all.get(i).payload()))
          .as("message %d after reopen", i)
          .isEqualTo(i);
    }
    assertThat(all.size()).as("messages after reopen").isGreaterThanOrEqualTo(acked);
    // The queue works again.
    QueuePosition p = reopened.append(Messages.make(all.size(), 100)).get(10, TimeUnit.SECONDS);
    assertThat(reopened.lastMessage()).map(QueueMessage::position).contains(p);
    fx.close();
  }

  /** The error names the queue and the segment file, and carries the I/O error. */
  private static void assertClearError(Throwable e) {
    assertThat(e).isInstanceOf(QueueClosedException.class).hasMessageContaining("queue 101:1");
    Optional<Throwable> io = causes(e).filter(c -> c instanceof IOException).findFirst();
    assertThat(io).isPresent();
    assertThat(io.get()).hasMessageContaining(FaultyChannels.MESSAGE);
    assertThat(e.getCause())
        .hasMessageContaining("queue 101:1")
        .hasMessageContaining(SegmentFiles.segmentFileName(Q, 0).substring(0, 13))
        .hasMessageContaining(".seg")
        .hasMessageContaining("at offset");
  }

  private static Stream<Throwable> causes(Throwable e) {
    List<Throwable> out = new ArrayList<>();
    for (Throwable c = e; c != null && !out.contains(c); c = c.getCause()) {
      out.add(c);
    }
    return out.stream();
  }
}
