package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.ltl.Oqid;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** When the sender's queue wakes it, and how it cuts batches. */
class ChunkQueueTest {

  private static LtlChunk chunk(int bytes, long oqid) {
    return new LtlChunk(new byte[bytes], 1, Oqid.of(new byte[] {(byte) oqid}), Optional.empty());
  }

  private static List<Integer> take(ChunkQueue q) throws InterruptedException {
    List<LtlChunk> out = new ArrayList<>();
    q.takeBatch(Duration.ZERO, out);
    return out.stream().map(c -> c.text().length).toList();
  }

  @Test
  void aBatchIsReadyWhenTheBytesFillItOrTheReaderFlushes() throws Exception {
    ChunkQueue q = new ChunkQueue(64, 100);
    assertThat(q.isReady()).isFalse();
    q.offer(chunk(40, 1), Duration.ZERO);
    q.offer(chunk(40, 2), Duration.ZERO);
    assertThat(q.isReady()).as("80 of 100 bytes, no flush").isFalse();
    q.offer(chunk(40, 3), Duration.ZERO);
    assertThat(q.isReady()).as("120 bytes fill a batch").isTrue();

    assertThat(take(q)).containsExactly(40, 40); // a third would pass 100 bytes
    assertThat(q.isReady()).as("40 bytes left, no flush").isFalse();
    q.flush();
    assertThat(q.isReady()).isTrue();
    assertThat(take(q)).containsExactly(40);

    // The flush covered what was queued; a later chunk waits for the next one.
    q.offer(chunk(10, 4), Duration.ZERO);
    assertThat(q.isReady()).isFalse();
  }

  @Test
  void aFlushOfAnEmptyQueueDoesNotCarryOverToLaterChunks() throws Exception {
    ChunkQueue q = new ChunkQueue(64, 100);
    q.flush();
    q.offer(chunk(10, 1), Duration.ZERO);
    assertThat(q.isReady()).isFalse();
  }

  @Test
  void aChunkLargerThanABatchGoesAlone() throws Exception {
    ChunkQueue q = new ChunkQueue(64, 100);
    q.offer(chunk(150, 1), Duration.ZERO);
    q.offer(chunk(10, 2), Duration.ZERO);
    assertThat(take(q)).containsExactly(150);
    q.flush();
    assertThat(take(q)).containsExactly(10);
  }

  @Test
  void aFullQueueIsReadyAndRefusesMoreUntilTaken() throws Exception {
    ChunkQueue q = new ChunkQueue(2, 1000);
    assertThat(q.offer(chunk(10, 1), Duration.ZERO)).isTrue();
    assertThat(q.offer(chunk(10, 2), Duration.ZERO)).isTrue();
    assertThat(q.isReady()).as("full by count").isTrue();
    assertThat(q.offer(chunk(10, 3), Duration.ZERO)).isFalse();
    assertThat(take(q)).containsExactly(10, 10);
    assertThat(q.offer(chunk(10, 3), Duration.ZERO)).isTrue();
  }

  @Test
  void aWaitThatTimesOutTakesWhatIsQueued() throws Exception {
    ChunkQueue q = new ChunkQueue(64, 100);
    assertThat(take(q)).isEmpty();
    q.offer(chunk(10, 1), Duration.ZERO);
    assertThat(q.isReady()).isFalse();
    assertThat(take(q))
        .as("the sender's poll timed out: nothing is left behind")
        .containsExactly(10);
  }
}
