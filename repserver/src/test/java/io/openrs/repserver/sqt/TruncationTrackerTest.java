package io.openrs.repserver.sqt;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.ltl.TranId;
import io.openrs.queue.QueuePosition;
import org.junit.jupiter.api.Test;

class TruncationTrackerTest {

  private static QueuePosition p(int row) {
    return new QueuePosition(0, 0, row);
  }

  @Test
  void confirmsOnlyBehindTheOldestUnfinishedTransaction() {
    TruncationTracker t = new TruncationTracker();
    TranId a = TranId.ofLong(1);
    TranId b = TranId.ofLong(2);
    TranId c = TranId.ofLong(3);
    assertThat(t.confirmable()).isEmpty();
    t.read(a, p(0));
    t.read(b, p(1));
    t.read(a, p(2));
    assertThat(t.confirmable()).isEmpty(); // a is open and started at the first message
    long tokenB = t.committed(b); // b committed at p(1)... its commit read:
    t.read(c, p(3));
    t.rolledBack(c);
    assertThat(t.confirmable()).isEmpty();
    t.durable(tokenB);
    assertThat(t.confirmable()).isEmpty(); // a still open
    long tokenA = t.committed(a);
    assertThat(t.confirmable()).isEmpty(); // a committed but not durable downstream
    t.durable(tokenA);
    assertThat(t.confirmable()).contains(p(3));
  }

  @Test
  void aLaterTransactionFinishingFirstDoesNotMoveThePointPastAnEarlierOne() {
    TruncationTracker t = new TruncationTracker();
    TranId a = TranId.ofLong(1);
    TranId b = TranId.ofLong(2);
    t.read(a, p(0));
    long tokenA = t.committed(a);
    t.read(b, p(1));
    long tokenB = t.committed(b);
    t.durable(tokenB);
    assertThat(t.confirmable()).isEmpty();
    t.durable(tokenA);
    assertThat(t.confirmable()).contains(p(1));
  }
}
