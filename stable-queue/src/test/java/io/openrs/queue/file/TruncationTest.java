package io.openrs.queue.file;

import static io.openrs.queue.file.PartitionFullTest.awaitTrue;
import static io.openrs.queue.file.QueueFixture.Q;
import static io.openrs.queue.file.QueueFixture.SMALL;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Clock;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.StableQueue;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which segments truncation may free while messages are still being written. */
class TruncationTest {

  static final int BLOCK = SMALL.blockSizeBytes();
  static final int FULL_BLOCK_MESSAGE =
      BLOCK - BlockFormat.HEADER_SIZE - BlockFormat.RECORD_LENGTH_SIZE;

  @TempDir Path dir;

  /**
   * A message that starts in segment 1 and continues in segment 2 is written in several steps; a
   * reader that confirmed the message before it must not free segment 1, which holds its start. The
   * writer is held between the steps by a full partition (two segments), so the order is
   * deterministic.
   */
  @Test
  void theStartOfAMessageStillBeingWrittenIsNeverFreed() throws Exception {
    try (QueueFixture fx = new QueueFixture(dir, 2L * 1024 * 1024, Clock.SYSTEM)) {
      StableQueue q = fx.manager.createQueue(Q, SMALL.withWriteRequestLimitBytes(1024 * 1024));
      QueueReader r = q.openReader("DSI");
      for (int i = 0; i < 64 + 62; i++) { // segment 0, and segment 1 but its last 2 blocks
        q.append(Messages.make(i, FULL_BLOCK_MESSAGE)).get(10, TimeUnit.SECONDS);
      }
      CompletableFuture<QueuePosition> big = q.append(Messages.make(1000, 4 * BLOCK));
      awaitTrue("the writer to wait for segment 2", () -> q.info().waitingForSegment());
      assertThat(big).isNotDone();

      List<QueueMessage> got = Messages.drain(r);
      assertThat(got).hasSize(126);
      r.confirm(got.get(125).position()); // the last complete message, in segment 1
      r.close();
      assertThat(big.get(10, TimeUnit.SECONDS)).isEqualTo(new QueuePosition(1, 62, 0));
      assertThat(q.info().firstSegment()).isEqualTo(1);

      try (QueueReader again = q.openReader("DSI")) {
        List<QueueMessage> rest = Messages.drain(again);
        assertThat(rest).extracting(QueueMessage::position).containsExactly(big.get());
        assertThat(Messages.verify(rest.get(0).payload())).isEqualTo(1000);
      }
    }
  }
}
