package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import io.openrs.ltl.text.LtlParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransactionAssemblerTest {

  private static final TableName T = new TableName("s", "t");
  private static final Instant TIME = Instant.parse("2026-11-21T10:15:30.123456Z");

  @TempDir Path dir;
  private final List<LtlChunk> chunks = new ArrayList<>();
  private final AgentCounters counters = new AgentCounters();

  private TransactionAssembler assembler(int chunkBytes, long memory) {
    return new TransactionAssembler(8, chunkBytes, memory, dir, "txn-", chunks::add, counters);
  }

  private static void rows(TransactionAssembler a, int n) {
    for (int i = 0; i < n; i++) {
      int v = i;
      a.add(
          (t, o) ->
              new LtlCommand.Insert(t, o, T, false, List.of(new Column("id", new Value.Int32(v)))));
    }
  }

  private List<LtlCommand> parsed() throws Exception {
    List<LtlCommand> out = new ArrayList<>();
    for (LtlChunk c : chunks) {
      List<LtlCommand> got = new ArrayList<>();
      new LtlParser().parse(c.text(), 0, c.text().length, got::add);
      assertThat(got).hasSize(c.commands());
      assertThat(((LtlCommand.InTransaction) got.get(got.size() - 1)).oqid())
          .isEqualTo(c.lastOqid());
      out.addAll(got);
    }
    return out;
  }

  @Test
  void everyOqidIsTheCommitPositionThenTheIndex() throws Exception {
    TransactionAssembler a = assembler(1 << 20, 1 << 20);
    a.begin(TranId.ofLong(7), TIME, Optional.empty());
    rows(a, 3);
    Oqid commit = a.commit(new byte[] {0, 0, 0, 0, 0x01, 0x6b, 0x3a, 0x48}, TIME);
    assertThat(commit).isEqualTo(Oqid.parse("0x00000000016b3a4800000004"));
    List<LtlCommand> cmds = parsed();
    assertThat(cmds).hasSize(5);
    for (int i = 0; i < cmds.size(); i++) {
      assertThat(((LtlCommand.InTransaction) cmds.get(i)).oqid())
          .isEqualTo(Oqid.parse(String.format("0x00000000016b3a48%08x", i)));
    }
    assertThat(cmds.get(0)).isInstanceOf(LtlCommand.Begin.class);
    assertThat(cmds.get(4)).isEqualTo(new LtlCommand.Commit(TranId.ofLong(7), commit, TIME));
    assertThat(chunks.get(chunks.size() - 1).commitTime()).contains(TIME);
    assertThat(a.lastEmitted()).contains(commit);
  }

  @Test
  void chunksStayWithinTheBatchSizeAndCarryWholeLines() throws Exception {
    TransactionAssembler a = assembler(1024, 1 << 20);
    a.begin(TranId.ofLong(1), TIME, Optional.of("alice"));
    rows(a, 500);
    a.commit(new byte[8], TIME);
    assertThat(chunks.size()).isGreaterThan(10);
    assertThat(chunks).allMatch(c -> c.text().length <= 1024);
    assertThat(chunks.subList(0, chunks.size() - 1)).allMatch(c -> c.commitTime().isEmpty());
    assertThat(parsed()).hasSize(502);
  }

  @Test
  void aLargeTransactionSpillsToAFileAndComesBackIntact() throws Exception {
    TransactionAssembler a = assembler(4096, 64 * 1024);
    a.begin(TranId.ofLong(2), TIME, Optional.empty());
    rows(a, 20_000);
    assertThat(counters.get(AgentCounter.RA_TRANSACTIONS_SPILLED)).isEqualTo(1);
    try (var files = Files.list(dir)) {
      assertThat(files).hasSize(1);
    }
    a.commit(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, TIME);
    List<LtlCommand> cmds = parsed();
    assertThat(cmds).hasSize(20_002);
    Oqid prev = null;
    for (LtlCommand c : cmds) {
      Oqid o = ((LtlCommand.InTransaction) c).oqid();
      assertThat(o.toString()).startsWith("0x0102030405060708");
      if (prev != null) {
        assertThat(o).isGreaterThan(prev);
      }
      prev = o;
    }
    try (var files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void aTransactionWithoutChangesIsSentAsItsBeginAndCommit() throws Exception {
    TransactionAssembler a = assembler(1024, 1 << 20);
    a.begin(TranId.ofLong(3), TIME, Optional.empty());
    Oqid commit = a.commit(new byte[] {0, 0, 0, 0, 0, 0, 0x01, 0x00}, TIME);
    // Its commit is what a restart point after it (a heartbeat's END) is covered by.
    assertThat(commit).isEqualTo(Oqid.parse("0x000000000000010000000001"));
    assertThat(a.lastEmitted()).contains(commit);
    assertThat(parsed())
        .containsExactly(
            new LtlCommand.Begin(
                TranId.ofLong(3), Oqid.parse("0x000000000000010000000000"), TIME, Optional.empty()),
            new LtlCommand.Commit(TranId.ofLong(3), commit, TIME));
    assertThat(a.inTransaction()).isFalse();
  }

  @Test
  void anUnfinishedTransactionIsDroppedWhenTheNextBegins() throws Exception {
    TransactionAssembler a = assembler(1024, 1 << 20);
    a.begin(TranId.ofLong(4), TIME, Optional.empty());
    rows(a, 2);
    a.begin(TranId.ofLong(5), TIME, Optional.empty());
    rows(a, 1);
    a.commit(new byte[8], TIME);
    List<LtlCommand> cmds = parsed();
    assertThat(cmds).hasSize(3);
    assertThat(cmds).allMatch(c -> ((LtlCommand.InTransaction) c).tran().equals(TranId.ofLong(5)));
  }

  @Test
  void aLineLongerThanABatchTravelsAlone() throws Exception {
    TransactionAssembler a = assembler(1024, 1 << 20);
    a.begin(TranId.ofLong(6), TIME, Optional.empty());
    String big = "é".repeat(5000);
    a.add(
        (t, o) ->
            new LtlCommand.Insert(t, o, T, false, List.of(new Column("b", new Value.Text(big)))));
    a.commit(new byte[8], TIME);
    assertThat(chunks).hasSize(3);
    assertThat(chunks.get(1).commands()).isEqualTo(1);
    assertThat(chunks.get(1).text().length).isGreaterThan(10_000);
    assertThat(parsed()).hasSize(3);
  }
}
