package io.openrs.queue.file;

import static io.openrs.queue.file.QueueFixture.Q;
import static io.openrs.queue.file.QueueFixture.SMALL;
import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.StableQueue;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link StableQueue#lastMessage()}: the last durable message, read from the tail block(s). */
class LastMessageTest {

  static final int BLOCK = SMALL.blockSizeBytes();

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

  private static long idOf(Optional<QueueMessage> m) {
    return Messages.verify(m.orElseThrow().payload());
  }

  private static QueuePosition append(StableQueue q, long id, int size) throws Exception {
    return q.append(Messages.make(id, size)).get(10, TimeUnit.SECONDS);
  }

  @Test
  void emptyQueueHasNoLastMessageAlsoAfterReopen() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    assertThat(q.lastMessage()).isEmpty();
    fx.restart();
    q = fx.manager.openQueue(Q, SMALL);
    assertThat(q.lastMessage()).isEmpty();
    assertThat(q.info().lastPosition()).isEmpty();
  }

  @Test
  void singleMessage() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    QueuePosition p = append(q, 7, 100);
    Optional<QueueMessage> last = q.lastMessage();
    assertThat(last).map(QueueMessage::position).contains(p);
    assertThat(idOf(last)).isEqualTo(7);
  }

  @Test
  void lastOfSeveralInOneBlockAndInTheNextWrite() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    q.appendAll(List.of(Messages.make(1, 50), Messages.make(2, 60), Messages.make(3, 70)))
        .get(10, TimeUnit.SECONDS);
    assertThat(idOf(q.lastMessage())).isEqualTo(3);
    append(q, 4, 80);
    assertThat(idOf(q.lastMessage())).isEqualTo(4);
  }

  @Test
  void messageSpanningBlocksIsReturnedWholeAlsoAfterReopen() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    append(q, 1, 100);
    QueuePosition p = append(q, 2, 3 * BLOCK + 123); // starts in block 0, ends in block 3
    Optional<QueueMessage> last = q.lastMessage();
    assertThat(last).map(QueueMessage::position).contains(p);
    assertThat(idOf(last)).isEqualTo(2);

    fx.restart();
    q = fx.manager.openQueue(Q, SMALL);
    last = q.lastMessage();
    assertThat(last).map(QueueMessage::position).contains(p);
    assertThat(idOf(last)).isEqualTo(2);
    assertThat(q.info().lastPosition()).contains(p);
  }

  @Test
  void messageEndingExactlyAtABlockEndAfterReopen() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    int fillsBlock = BLOCK - BlockFormat.HEADER_SIZE - BlockFormat.RECORD_LENGTH_SIZE;
    QueuePosition p = append(q, 1, fillsBlock + BLOCK - BlockFormat.HEADER_SIZE); // 2 full blocks
    fx.restart();
    q = fx.manager.openQueue(Q, SMALL);
    assertThat(q.lastMessage()).map(QueueMessage::position).contains(p);
    assertThat(idOf(q.lastMessage())).isEqualTo(1);
  }

  @Test
  void aSpanningMessageTornByACrashDoesNotCountTheOneBeforeIsLast() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    QueuePosition first = append(q, 1, 100);
    append(q, 2, 3 * BLOCK); // blocks 0..3
    fx.restart();
    try (FileChannel ch = FileChannel.open(fx.segmentFile(Q, 0), StandardOpenOption.WRITE)) {
      ch.truncate(3L * BLOCK + 100); // the last block of message 2 is torn
    }
    q = fx.manager.openQueue(Q, SMALL);
    assertThat(q.lastMessage()).map(QueueMessage::position).contains(first);
    assertThat(idOf(q.lastMessage())).isEqualTo(1);
    // The next message is written after the abandoned one and becomes the last.
    QueuePosition p = append(q, 3, 100);
    assertThat(q.lastMessage()).map(QueueMessage::position).contains(p);
  }

  @Test
  void afterPurgeThereIsNoneUntilTheNextWrite() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    append(q, 1, 5000);
    append(q, 2, 5000);
    q.purge().get(10, TimeUnit.SECONDS);
    assertThat(q.lastMessage()).isEmpty();
    assertThat(q.info().lastPosition()).isEmpty();
    fx.restart();
    q = fx.manager.openQueue(Q, SMALL);
    assertThat(q.lastMessage()).isEmpty();
    QueuePosition p = append(q, 3, 100);
    assertThat(q.lastMessage()).map(QueueMessage::position).contains(p);
    assertThat(idOf(q.lastMessage())).isEqualTo(3);
  }

  @Test
  void confirmedLastMessageSpanningIntoTheNextSegmentStaysReadable() throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    QueueReader r = q.openReader("DSI");
    // Fill segment 0 (64 blocks) but its last 2 blocks, one full block per message...
    for (int i = 0; i < 62; i++) {
      append(q, i, BLOCK - BlockFormat.HEADER_SIZE - BlockFormat.RECORD_LENGTH_SIZE);
    }
    // ... then a message of 4 blocks: it starts in segment 0 and ends in segment 1.
    QueuePosition p = append(q, 100, 4 * BLOCK);
    assertThat(p).isEqualTo(new QueuePosition(0, 62, 0));
    List<QueueMessage> all = Messages.drain(r);
    r.confirm(all.get(all.size() - 1).position()); // every reader is past everything
    r.close();
    fx.restart(); // the writer looks at the truncation points before it stops
    q = fx.manager.openQueue(Q, SMALL);
    assertThat(q.info().firstSegment()).isZero();
    assertThat(q.lastMessage()).map(QueueMessage::position).contains(p);
    assertThat(idOf(q.lastMessage())).isEqualTo(100);
  }
}
