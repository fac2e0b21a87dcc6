package io.openrs.queue.file;

import static io.openrs.queue.file.PartitionFullTest.awaitTrue;
import static io.openrs.queue.file.QueueFixture.Q;
import static io.openrs.queue.file.QueueFixture.SMALL;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.Clock;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.StableQueue;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** {@code sqm_warning_thr1}, {@code sqm_warning_thr2}, {@code sqm_warning_thr_ind}. */
class SpaceWarningsTest {

  static final long MIB = 1024L * 1024;

  @TempDir Path dir;
  ListAppender<ILoggingEvent> log = new ListAppender<>();
  Logger managerLog = (Logger) LoggerFactory.getLogger(FileQueueManager.class);

  @AfterEach
  void detach() {
    managerLog.detachAppender(log);
  }

  @Test
  void eachThresholdWarnsOncePerCrossingAndCancelsWhenUseFalls() throws Exception {
    log.start();
    managerLog.addAppender(log);
    managerLog.setLevel(Level.INFO);
    try (QueueFixture fx = new QueueFixture(dir, 10 * MIB, Clock.SYSTEM)) {
      fx.manager.setSpaceWarnings(30, 50, 40);
      StableQueue q = fx.manager.createQueue(Q, SMALL.withWriteRequestLimitBytes(4 * MIB));
      QueueReader r = q.openReader("DIST");

      fill(q, 0, 6); // 6 of 10 segments
      assertThat(messages())
          .containsExactly(
              "WARNING: Stable Storage Use is Above 30 percent (4194304 of 10485760 bytes in 1"
                  + " partitions)",
              "WARNING: Stable Storage Use by queue 101:1 is Above 40 percent (5242880 of"
                  + " 10485760 bytes)",
              "WARNING: Stable Storage Use is Above 50 percent (6291456 of 10485760 bytes in 1"
                  + " partitions)");
      assertThat(fx.manager.spaceWarnings()).isEqualTo(3);
      log.list.clear();

      // The reader catches up: the writer frees all but the segment it writes.
      List<QueueMessage> all = Messages.drain(r);
      r.confirm(all.get(all.size() - 1).position());
      fill(q, 6 * 64, 1);
      awaitTrue("use to fall", () -> messages().size() == 3);
      assertThat(fx.manager.partitions().get(0).usedBytes()).isEqualTo(2 * MIB);
      assertThat(messages())
          .allMatch(m -> m.startsWith("CANCEL WARNING: Stable Storage Use"))
          .hasSize(3);
      log.list.clear();

      // Rising again warns again.
      fill(q, 7 * 64, 4);
      assertThat(messages()).filteredOn(m -> m.contains("Above 30 percent")).hasSize(1);
      assertThat(fx.manager.spaceWarnings()).isGreaterThanOrEqualTo(4);
      r.close();
    }
  }

  @Test
  void loweringAThresholdBelowTheCurrentUseWarnsAtOnce() throws Exception {
    log.start();
    managerLog.addAppender(log);
    try (QueueFixture fx = new QueueFixture(dir, 10 * MIB, Clock.SYSTEM)) {
      StableQueue q = fx.manager.createQueue(Q, SMALL.withWriteRequestLimitBytes(4 * MIB));
      q.openReader("DIST").close();
      fill(q, 0, 2);
      assertThat(messages()).isEmpty(); // 20 % is below 75, 90 and 70
      fx.manager.setSpaceWarnings(10, 90, 70);
      assertThat(messages())
          .singleElement()
          .asString()
          .startsWith("WARNING: Stable Storage Use is Above 10 percent");
    }
  }

  @Test
  void useSwingingAroundAThresholdWarnsOnceAndCancelsOnlyWhenClearlyBelow() {
    // Checked directly, no clock and no writer: a partition of 100 segments of 1 MiB whose use a
    // writer and a reader move up and down by one segment around 90 % (thr2), 30 times.
    Partition p = new Partition(new PartitionSpec("p1", dir.resolve("p1"), 100 * MIB));
    SpaceWarnings w = new SpaceWarnings();
    List<String> logged = new java.util.ArrayList<>();
    p.add(Q, 89 * MIB);
    assertThat(w.evaluate(List.of(p), MIB)).hasSize(2); // above 75 % and above 70 % for 101:1
    for (int i = 0; i < 30; i++) {
      p.add(Q, 2 * MIB); // 91 %
      w.evaluate(List.of(p), MIB).forEach(m -> logged.add(m.text()));
      p.add(Q, -2 * MIB); // 89 %
      w.evaluate(List.of(p), MIB).forEach(m -> logged.add(m.text()));
    }
    assertThat(logged)
        .containsExactly(
            "WARNING: Stable Storage Use is Above 90 percent (95420416 of 104857600 bytes in 1"
                + " partitions)");

    logged.clear();
    p.add(Q, -3 * MIB); // 86 %: below 90, not clearly
    w.evaluate(List.of(p), MIB).forEach(m -> logged.add(m.text()));
    assertThat(logged).isEmpty();
    p.add(Q, -1 * MIB); // 85 %: five points below
    w.evaluate(List.of(p), MIB).forEach(m -> logged.add(m.text()));
    assertThat(logged)
        .containsExactly(
            "CANCEL WARNING: Stable Storage Use is Below 90 percent (89128960 of 104857600 bytes"
                + " in 1 partitions)");
    logged.clear();
    p.add(Q, 6 * MIB); // 91 % again: a new crossing warns again
    w.evaluate(List.of(p), MIB).forEach(m -> logged.add(m.text()));
    assertThat(logged)
        .singleElement()
        .asString()
        .startsWith("WARNING: Stable Storage Use is Above 90");
  }

  @Test
  void withLargeSegmentsTheCancelWaitsForUseToFallByAWholeSegment() {
    // 8 segments of 64 MiB: one segment is 12.5 % of the space, more than the 5 points.
    long seg = 64 * MIB;
    Partition p = new Partition(new PartitionSpec("p1", dir.resolve("p1"), 8 * seg));
    SpaceWarnings w = new SpaceWarnings();
    w.set(75, 100, 100);
    p.add(Q, 7 * seg); // 87.5 % > 75
    assertThat(w.evaluate(List.of(p), seg)).hasSize(1);
    for (int i = 0; i < 30; i++) {
      p.add(Q, -seg); // 75 %: at the threshold, where the old check cancelled
      assertThat(w.evaluate(List.of(p), seg)).isEmpty();
      p.add(Q, seg);
      assertThat(w.evaluate(List.of(p), seg)).isEmpty();
    }
    p.add(Q, -2 * seg); // 62.5 %: a whole segment below 75 %
    assertThat(w.evaluate(List.of(p), seg))
        .singleElement()
        .extracting(SpaceWarnings.Message::text)
        .asString()
        .startsWith("CANCEL WARNING: Stable Storage Use is Below 75 percent");
  }

  /** Appends {@code segments} segments' worth of one-block messages and waits until durable. */
  static void fill(StableQueue q, long firstId, int segments) throws Exception {
    int size = SMALL.blockSizeBytes() - BlockFormat.HEADER_SIZE - BlockFormat.RECORD_LENGTH_SIZE;
    CompletableFuture<QueuePosition> last = null;
    for (int i = 0; i < segments * 64; i++) {
      last = q.append(Messages.make(firstId + i, size));
    }
    last.get(20, TimeUnit.SECONDS);
  }

  private List<String> messages() {
    return log.list.stream()
        .map(ILoggingEvent::getFormattedMessage)
        .filter(m -> m.contains("Stable Storage Use"))
        .toList();
  }
}
