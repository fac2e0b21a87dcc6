package io.openrs.repserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.queue.QueueClosedException;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueReader;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.StableQueue;
import io.openrs.queue.WriteFlush;
import io.openrs.queue.file.FileQueueManager;
import io.openrs.queue.file.PartitionSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server that no longer holds its lease writes nothing to its queues; it still reads them. */
class LeaseGuardedQueuesTest {

  @TempDir Path dir;

  @Test
  void writesNeedTheLeaseReadsDoNot() throws Exception {
    AtomicBoolean held = new AtomicBoolean(true);
    try (FileQueueManager files =
            FileQueueManager.open(
                dir.resolve("state"),
                List.of(new PartitionSpec("p1", dir.resolve("p1"), 64L * 1024 * 1024)),
                new SimpleMeterRegistry(),
                Clock.SYSTEM);
        LeaseGuardedQueues queues = new LeaseGuardedQueues(files, held::get)) {
      StableQueue q =
          queues.openOrCreateQueue(
              QueueId.inbound(101),
              QueueSettings.defaults()
                  .withSegmentSizeBytes(QueueSettings.MIB)
                  .withWriteFlush(WriteFlush.OFF));
      q.append(bytes("while held")).get(10, TimeUnit.SECONDS);

      held.set(false);
      assertThatThrownBy(() -> q.append(bytes("after the lease moved")))
          .isInstanceOf(QueueClosedException.class)
          .hasRootCauseMessage("this server no longer holds the server lease");
      assertThatThrownBy(() -> q.appendAll(List.of(bytes("a"), bytes("b"))))
          .isInstanceOf(QueueClosedException.class);
      assertThatThrownBy(
              () -> queues.queue(QueueId.inbound(101)).orElseThrow().append(bytes("again")))
          .isInstanceOf(QueueClosedException.class);

      // Nothing reached the queue after the lease moved; reading still works.
      try (QueueReader r = q.openReader("SQT")) {
        assertThat(r.poll(Duration.ofSeconds(10)).orElseThrow().payload())
            .isEqualTo(bytes("while held"));
        assertThat(r.poll(Duration.ofMillis(200))).isEmpty();
      }
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
