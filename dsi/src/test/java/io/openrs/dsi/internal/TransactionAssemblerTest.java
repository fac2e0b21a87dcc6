package io.openrs.dsi.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import io.openrs.ltl.packed.OriginEnvelope;
import io.openrs.ltl.packed.PackedEncoder;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The unfinished-run rule and incomplete runs, one shape per test; {@link
 * PackedTransactionAssemblerTest} runs them again with runs held packed.
 */
class TransactionAssemblerTest {
  private static final TableName T = new TableName("s", "t");
  private static final Instant TIME = Instant.parse("2026-01-01T00:00:00Z");

  private final PackedEncoder encoder = new PackedEncoder();
  final List<SourceTransaction> out = new ArrayList<>();
  final List<String> dropped = new ArrayList<>();
  private int unknown;
  private int row;
  final TransactionAssembler assembler =
      new TransactionAssembler(
          "test",
          out::add,
          new TransactionAssembler.Events() {
            @Override
            public void runDropped(int origin, String why, int commands) {
              dropped.add(origin + ":" + commands);
            }

            @Override
            public void unknownCommand(QueuePosition position) {
              unknown++;
            }
          },
          packed());

  /** True to hold runs packed (HVAR). */
  boolean packed() {
    return false;
  }

  void feed(int origin, LtlCommand c) throws Exception {
    assembler.accept(
        new QueueMessage(new QueuePosition(0, 0, row++), OriginEnvelope.pack(origin, c, encoder)));
  }

  static LtlCommand.Begin begin(long tran, long oqid) {
    return new LtlCommand.Begin(TranId.ofLong(tran), Oqid.ofLong(oqid, 8), TIME, Optional.empty());
  }

  static LtlCommand.Commit commit(long tran, long oqid) {
    return new LtlCommand.Commit(TranId.ofLong(tran), Oqid.ofLong(oqid, 8), TIME);
  }

  static LtlCommand.Insert insert(long tran, long oqid) {
    return new LtlCommand.Insert(
        TranId.ofLong(tran),
        Oqid.ofLong(oqid, 8),
        T,
        false,
        List.of(new Column("id", new Value.Int64(oqid))));
  }

  @Test
  void wholeRunsBecomeTransactionsInOrder() throws Exception {
    feed(101, begin(1, 1));
    feed(101, insert(1, 2));
    feed(101, insert(1, 3));
    feed(101, commit(1, 4));
    feed(102, begin(7, 1));
    feed(102, commit(7, 2));
    assertThat(out).hasSize(2);
    assertThat(out.get(0).origin()).isEqualTo(101);
    assertThat(out.get(0).size()).isEqualTo(2);
    assertThat(out.get(0).commitOqid()).isEqualTo(Oqid.ofLong(4, 8));
    assertThat(out.get(0).first()).isEqualTo(new QueuePosition(0, 0, 0));
    assertThat(out.get(0).last()).isEqualTo(new QueuePosition(0, 0, 3));
    assertThat(out.get(1).origin()).isEqualTo(102);
    assertThat(out.get(1).seq()).isEqualTo(2);
    assertThat(dropped).isEmpty();
  }

  @Test
  void aBeginBeforeTheCommitDropsTheUnfinishedRun() throws Exception {
    feed(101, begin(1, 1));
    feed(101, insert(1, 2));
    // crash: DIST writes the whole transaction again
    feed(101, begin(1, 1));
    feed(101, insert(1, 2));
    feed(101, insert(1, 3));
    feed(101, commit(1, 4));
    assertThat(dropped).containsExactly("101:1");
    assertThat(out).hasSize(1);
    assertThat(out.get(0).size()).isEqualTo(2);
    assertThat(out.get(0).first()).isEqualTo(new QueuePosition(0, 0, 2));
  }

  @Test
  void aBeginOfAnotherOriginAlsoEndsTheRun() throws Exception {
    feed(101, begin(1, 1));
    feed(101, insert(1, 2));
    feed(102, begin(9, 1));
    feed(102, commit(9, 2));
    assertThat(dropped).containsExactly("101:1");
    assertThat(out).singleElement().satisfies(t -> assertThat(t.origin()).isEqualTo(102));
  }

  @Test
  void commandsWithoutTheirBeginAreAnIncompleteRun() throws Exception {
    feed(101, insert(1, 2));
    feed(101, insert(1, 3));
    feed(101, commit(1, 4));
    feed(101, begin(2, 5));
    feed(101, commit(2, 6));
    assertThat(out).hasSize(2);
    assertThat(out.get(0).complete()).isFalse();
    assertThat(out.get(0).size()).isEqualTo(3);
    assertThat(out.get(1).complete()).isTrue();
  }

  @Test
  void anIncompleteRunAtTheTailIsHandedOnWhenTheQueueIsIdle() throws Exception {
    feed(101, insert(1, 2));
    assertThat(out).isEmpty();
    assembler.idle();
    assertThat(out).singleElement().satisfies(t -> assertThat(t.complete()).isFalse());
  }

  @Test
  void anUnfinishedRunAtTheTailWaitsForItsCommit() throws Exception {
    feed(101, begin(1, 1));
    feed(101, insert(1, 2));
    assembler.idle();
    assertThat(out).isEmpty();
    assertThat(assembler.runOpen()).isTrue();
    feed(101, commit(1, 3));
    assertThat(out).hasSize(1);
  }

  @Test
  void aRolledBackRunIsDropped() throws Exception {
    feed(101, begin(1, 1));
    feed(101, insert(1, 2));
    feed(101, new LtlCommand.Rollback(TranId.ofLong(1), Oqid.ofLong(3, 8)));
    assertThat(out).isEmpty();
    assertThat(dropped).containsExactly("101:1");
  }

  @Test
  void sessionCommandsAreSkippedAndCounted() throws Exception {
    feed(101, new LtlCommand.GetTruncation());
    assertThat(unknown).isEqualTo(1);
    assertThat(out).isEmpty();
  }
}
