package io.openrs.repserver.sqt;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import io.openrs.ltl.packed.PackedDecoder;
import io.openrs.ltl.packed.PackedEncoder;
import io.openrs.ltl.packed.PackedFormatException;
import io.openrs.queue.QueuePosition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TransactionSorterTest {

  private static final Instant T = Instant.parse("2026-11-21T00:00:00Z");
  private static final TableName TABLE = new TableName("public", "t");
  private final PackedEncoder encoder = new PackedEncoder();
  private final PackedDecoder decoder = new PackedDecoder();
  private long oqid;
  private int row;

  private LtlCommand.InTransaction begin(long tran) {
    return new LtlCommand.Begin(TranId.ofLong(tran), next(), T, Optional.empty());
  }

  private LtlCommand.InTransaction insert(long tran, int id) {
    return new LtlCommand.Insert(
        TranId.ofLong(tran), next(), TABLE, false, List.of(new Column("id", new Value.Int32(id))));
  }

  private LtlCommand.InTransaction commit(long tran) {
    return new LtlCommand.Commit(TranId.ofLong(tran), next(), T);
  }

  private LtlCommand.InTransaction rollback(long tran) {
    return new LtlCommand.Rollback(TranId.ofLong(tran), next());
  }

  private Oqid next() {
    return Oqid.ofLong(++oqid, 12);
  }

  private QueuePosition pos() {
    return new QueuePosition(0, 0, row++);
  }

  /** {@code c} as SQT reads it from the queue: packed, then read back. */
  private TransactionSorter.Outcome accept(
      TransactionSorter sorter, LtlCommand.InTransaction c, int packedBytes) {
    QueuePosition at = pos();
    try {
      QueuedCommand q = QueuedCommand.read("101:1", at, encoder.encode(c), decoder).orElseThrow();
      return sorter.accept(at, q, packedBytes);
    } catch (PackedFormatException e) {
      throw new AssertionError(e);
    }
  }

  private static List<LtlCommand.InTransaction> commands(SortedTransaction t) {
    return t.body().stream().map(QueuedCommand::command).toList();
  }

  @Test
  void interleavedTransactionsComeOutWholeInCommitOrderAndRollbacksVanish() {
    TransactionSorter sorter = new TransactionSorter("101:1", 1 << 20, new SqtStats());
    List<LtlCommand.InTransaction> stream =
        List.of(
            begin(1),
            insert(1, 1),
            begin(2),
            insert(2, 20),
            begin(3),
            insert(1, 2),
            insert(3, 30),
            commit(2),
            rollback(3),
            insert(1, 3),
            commit(1));
    List<SortedTransaction> out = new ArrayList<>();
    List<TranId> rolledBack = new ArrayList<>();
    for (LtlCommand.InTransaction c : stream) {
      TransactionSorter.Outcome o = accept(sorter, c, 100);
      if (o instanceof TransactionSorter.Committed committed) {
        out.add(committed.transaction());
      } else if (o instanceof TransactionSorter.RolledBack rb) {
        rolledBack.add(rb.tran());
      }
    }
    assertThat(out)
        .extracting(SortedTransaction::tran)
        .containsExactly(TranId.ofLong(2), TranId.ofLong(1));
    assertThat(commands(out.get(1))).containsExactly(stream.get(1), stream.get(5), stream.get(9));
    assertThat(out.get(1).begin()).contains((LtlCommand.Begin) stream.get(0));
    assertThat(commands(out.get(0))).containsExactly(stream.get(3));
    assertThat(rolledBack).containsExactly(TranId.ofLong(3));
    assertThat(sorter.openTransactions()).isZero();
    assertThat(sorter.cachedBytes()).isZero();
  }

  @Test
  void aFullCacheRemovesTheLargestOpenTransactionWhichIsThenMarkedForRereading() {
    SqtStats stats = new SqtStats();
    TransactionSorter sorter = new TransactionSorter("101:1", 1000, stats);
    accept(sorter, begin(1), 10);
    accept(sorter, begin(2), 10);
    for (int i = 0; i < 8; i++) {
      accept(sorter, insert(1, i), 100);
    }
    accept(sorter, insert(2, 99), 100);
    assertThat(sorter.cachedBytes()).isEqualTo(900);
    accept(sorter, insert(1, 8), 100); // 1000: still fits
    accept(sorter, insert(2, 100), 100); // 1100: tran 1 (900 bytes) goes
    assertThat(stats.transRemoved).isEqualTo(1);
    assertThat(sorter.cachedBytes()).isEqualTo(200);
    accept(sorter, insert(1, 9), 100); // removed transactions stay out of the cache
    assertThat(sorter.cachedBytes()).isEqualTo(200);

    TransactionSorter.Outcome o1 = accept(sorter, commit(1), 10);
    SortedTransaction t1 = ((TransactionSorter.Committed) o1).transaction();
    assertThat(t1.removed()).isTrue();
    assertThat(t1.body()).isEmpty();
    assertThat(t1.commandCount()).isEqualTo(10);
    assertThat(t1.firstPosition()).isEqualTo(new QueuePosition(0, 0, 0));

    SortedTransaction t2 =
        ((TransactionSorter.Committed) accept(sorter, commit(2), 10)).transaction();
    assertThat(t2.removed()).isFalse();
    assertThat(t2.body()).hasSize(2);
    assertThat(sorter.cachedBytes()).isZero();
    assertThat(stats.largestTranCmds).isEqualTo(10);
  }

  @Test
  void aCommandWithoutBeginOpensItsTransactionImplicitly() {
    TransactionSorter sorter = new TransactionSorter("101:1", 1 << 20, new SqtStats());
    LtlCommand.InTransaction i = insert(7, 1);
    accept(sorter, i, 50);
    SortedTransaction t =
        ((TransactionSorter.Committed) accept(sorter, commit(7), 10)).transaction();
    assertThat(t.begin()).isEmpty();
    assertThat(commands(t)).containsExactly(i);
  }
}
