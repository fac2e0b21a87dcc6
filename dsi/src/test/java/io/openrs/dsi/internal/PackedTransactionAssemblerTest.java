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
import io.openrs.ltl.packed.PackedRowReader;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Runs held packed (HVAR): every shape of {@link TransactionAssemblerTest} again, and random
 * streams of runs against the assembler that holds them decoded (the reference): same transactions,
 * same commands whichever way they are read, same counts.
 */
class PackedTransactionAssemblerTest extends TransactionAssemblerTest {
  private static final TableName T = new TableName("s", "t");

  @Override
  boolean packed() {
    return true;
  }

  @Test
  void packedRunsHoldTheCommandsTheDecodedAssemblerHolds() throws Exception {
    long seed = System.nanoTime();
    Random r = new Random(seed);
    List<QueueMessage> messages = randomStream(r, 300);
    List<SourceTransaction> reference = new ArrayList<>();
    TransactionAssembler decoded =
        new TransactionAssembler(
            "reference",
            reference::add,
            new TransactionAssembler.Events() {
              @Override
              public void runDropped(int origin, String why, int commands) {}

              @Override
              public void unknownCommand(QueuePosition position) {}
            });
    for (QueueMessage m : messages) {
      decoded.accept(m);
      assembler.accept(m);
    }
    decoded.idle();
    assembler.idle();
    String why = "seed " + seed;
    assertThat(out).as(why).hasSameSizeAs(reference).isNotEmpty();
    for (int i = 0; i < out.size(); i++) {
      SourceTransaction p = out.get(i);
      SourceTransaction d = reference.get(i);
      assertThat(p.packed()).as(why).isTrue();
      assertThat(p.complete()).as(why).isEqualTo(d.complete());
      assertThat(p.first()).as(why).isEqualTo(d.first());
      assertThat(p.last()).as(why).isEqualTo(d.last());
      assertThat(p.bytes()).as(why).isEqualTo(d.bytes());
      assertThat(p.size()).as(why).isEqualTo(d.size());
      assertThat(readInPlace(p)).as(why).isEqualTo(d.body()); // as the compiler reads them
      assertThat(p.body()).as(why).isEqualTo(d.body()); // decoded from the packed bytes
      List<LtlCommand.InTransaction> iterated = new ArrayList<>();
      p.commands().forEach(iterated::add);
      assertThat(iterated).as(why).isEqualTo(d.body());
      assertThat(readInPlace(p)).as(why).isEqualTo(d.body()); // read again
      assertThat(p.allCommands()).as(why).isEqualTo(d.allCommands());
      assertThat(p.inserts()).as(why).isEqualTo(d.inserts());
      assertThat(p.updates()).as(why).isEqualTo(d.updates());
      assertThat(p.deletes()).as(why).isEqualTo(d.deletes());
      assertThat(p.hasDdl()).as(why).isEqualTo(d.hasDdl());
      assertThat(p.hasDdlOrTruncate()).as(why).isEqualTo(d.hasDdlOrTruncate());
      // the hand-off counts the heap of the packed bytes, about the queue bytes
      assertThat(p.handoffBytes()).as(why).isPositive().isLessThanOrEqualTo(2 * p.bytes() + 64);
    }
  }

  /** The commands of {@code t} as {@link PackedRowReader} reads them in place, made whole. */
  private static List<LtlCommand.InTransaction> readInPlace(SourceTransaction t) throws Exception {
    PackedRowReader r = t.rows(new PackedRowReader());
    List<LtlCommand.InTransaction> cmds = new ArrayList<>();
    while (r.next()) {
      if (r.kind() == PackedRowReader.Kind.OTHER) {
        cmds.add((LtlCommand.InTransaction) r.command().orElseThrow());
        continue;
      }
      // the reader's images hold the decoder's values
      LtlCommand.InTransaction c = (LtlCommand.InTransaction) r.command().orElseThrow();
      List<Column> image =
          c instanceof LtlCommand.Insert i
              ? i.after()
              : c instanceof LtlCommand.Update u ? u.after() : ((LtlCommand.Delete) c).before();
      PackedRowReader.Image flat = r.kind() == PackedRowReader.Kind.DELETE ? r.before() : r.after();
      assertThat(flat.size()).isEqualTo(image.size());
      for (int k = 0; k < image.size(); k++) {
        assertThat(flat.name(k)).isEqualTo(image.get(k).name());
        assertThat(flat.value(k)).isEqualTo(image.get(k).value());
      }
      assertThat(r.table()).isEqualTo(((LtlCommand.RowChange) c).table());
      cmds.add(c);
    }
    return cmds;
  }

  @Test
  void aRunLargerThanTheKeptBufferAndTheRunsAfterItDecodeWhole() throws Exception {
    int rows = 12_000; // about 1.5 MiB packed: past the buffer the builder keeps
    feed(101, begin(1, 1));
    for (int i = 0; i < rows; i++) {
      feed(101, row(1, 2 + i, i));
    }
    feed(101, commit(1, rows + 2));
    feed(101, begin(2, rows + 3));
    feed(101, row(2, rows + 4, -1));
    feed(101, commit(2, rows + 5));
    assertThat(out).hasSize(2);
    assertThat(out.get(0).body()).hasSize(rows).last().isEqualTo(row(1, rows + 1, rows - 1));
    assertThat(out.get(1).body()).containsExactly(row(2, rows + 4, -1));
  }

  @Test
  void aDroppedRunLeavesNothingInTheNextOne() throws Exception {
    feed(101, begin(1, 1));
    feed(101, row(1, 2, 1));
    feed(101, begin(1, 1)); // DIST writes it again
    feed(101, row(1, 2, 2));
    feed(101, commit(1, 3));
    assertThat(out)
        .singleElement()
        .satisfies(t -> assertThat(t.body()).containsExactly(row(1, 2, 2)));
  }

  private static LtlCommand.Insert row(long tran, long oqid, int i) {
    return new LtlCommand.Insert(
        TranId.ofLong(tran),
        Oqid.ofLong(oqid, 8),
        T,
        false,
        List.of(
            new Column("id", new Value.Int32(i)),
            new Column("cost", new Value.Decimal(BigDecimal.valueOf(i, 2))),
            new Column("at", new Value.Timestamp(LocalDateTime.of(2026, 1, 1, 0, 0))),
            new Column("note", new Value.Text("row " + i + " é"))));
  }

  /**
   * Runs of random commands from two origins, some cut by a begin (dropped), some rolled back, some
   * without their begin (incomplete).
   */
  private static List<QueueMessage> randomStream(Random r, int runs) {
    PackedEncoder encoder = new PackedEncoder();
    List<QueueMessage> out = new ArrayList<>();
    long oqid = 1;
    for (int run = 0; run < runs; run++) {
      int origin = 101 + r.nextInt(2);
      TranId tran = TranId.ofLong(run);
      List<LtlCommand> cmds = new ArrayList<>();
      boolean incomplete = r.nextInt(20) == 0;
      if (!incomplete) {
        cmds.add(
            new LtlCommand.Begin(tran, Oqid.ofLong(oqid++, 8), Instant.EPOCH, Optional.empty()));
      }
      int n = r.nextInt(30);
      for (int i = 0; i < n; i++) {
        Oqid o = Oqid.ofLong(oqid++, 8);
        int k = r.nextInt(1000);
        List<Column> image =
            List.of(
                new Column("id", new Value.Int64(k)),
                new Column("v", r.nextBoolean() ? Value.NULL : new Value.Text("v" + r.nextInt())));
        List<Column> key = List.of(new Column("id", new Value.Int64(k)));
        switch (r.nextInt(12)) {
          case 0 -> cmds.add(new LtlCommand.Truncate(tran, o, T));
          case 1 -> cmds.add(new LtlCommand.Ddl(tran, o, Optional.of("s"), "alter table t"));
          case 2, 3 -> cmds.add(new LtlCommand.Update(tran, o, T, key, image));
          case 4, 5 -> cmds.add(new LtlCommand.Delete(tran, o, T, key));
          default -> cmds.add(new LtlCommand.Insert(tran, o, T, false, image));
        }
      }
      int end = r.nextInt(20);
      if (end == 0) {
        cmds.add(new LtlCommand.Rollback(tran, Oqid.ofLong(oqid++, 8)));
      } else if (end > 1) { // end == 1: cut, the next begin drops it
        cmds.add(new LtlCommand.Commit(tran, Oqid.ofLong(oqid++, 8), Instant.EPOCH));
      }
      for (LtlCommand c : cmds) {
        out.add(
            new QueueMessage(
                new QueuePosition(0, 0, out.size()), OriginEnvelope.pack(origin, c, encoder)));
      }
    }
    return out;
  }
}
