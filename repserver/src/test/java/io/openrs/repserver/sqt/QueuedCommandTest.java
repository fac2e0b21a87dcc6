package io.openrs.repserver.sqt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import io.openrs.ltl.packed.PackedDecoder;
import io.openrs.ltl.packed.PackedEncoder;
import io.openrs.queue.QueuePosition;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What SQT keeps of a queued command, and when it reads a row change's images. */
class QueuedCommandTest {
  private static final TranId TRAN = TranId.ofLong(0x51);
  private static final TableName ORDERS = new TableName("shop", "orders");
  private static final LtlCommand.Insert INSERT =
      new LtlCommand.Insert(
          TRAN,
          Oqid.ofLong(0x70, 3),
          ORDERS,
          true,
          List.of(new Column("id", new Value.Int64(5)), new Column("note", new Value.Text("hé"))));
  private static final QueuePosition AT = new QueuePosition(3, 2, 1);

  private final PackedEncoder encoder = new PackedEncoder();
  private final PackedDecoder decoder = new PackedDecoder();

  @Test
  void aRowChangeIsSortedAndRoutedByItsHeadAndPassedOnAsTheBytesItCameIn() throws Exception {
    byte[] payload = encoder.encode(INSERT);
    QueuedCommand q = QueuedCommand.read("101:0", AT, payload, decoder).orElseThrow();
    assertThat(q.isRowChange()).isTrue();
    assertThat(q.tran()).isEqualTo(TRAN);
    assertThat(q.oqid()).isEqualTo(INSERT.oqid());
    assertThat(q.table()).isEqualTo(ORDERS);
    assertThat(q.isSnapshotInsert()).isTrue();
    assertThat(q.isDecoded()).isFalse();
    assertThat(q.packed()).isSameAs(payload);
    assertThat(q.command()).isEqualTo(INSERT);
    assertThat(q.isDecoded()).isTrue();
  }

  @Test
  void aDamagedRowIsFoundWhenItsImagesAreReadNamingWhereItIs() throws Exception {
    byte[] payload = encoder.encode(INSERT);
    payload[payload.length - 1] = (byte) 0xff; // the second byte of 'é': no longer UTF-8
    QueuedCommand q = QueuedCommand.read("101:0", AT, payload, decoder).orElseThrow();
    assertThat(q.table()).isEqualTo(ORDERS);
    assertThatThrownBy(q::command)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("inbound queue 101:0 holds a damaged insert at " + AT)
        .hasMessageContaining("transaction " + TRAN)
        .hasMessageContaining("OQID " + INSERT.oqid())
        .hasMessageContaining("table " + ORDERS)
        .hasRootCauseMessage(
            "malformed packed LTL command at byte "
                + (payload.length - 3)
                + ": a string that is not well-formed UTF-8");
  }

  @Test
  void otherKindsAreDecodedAtOnceAndSessionCommandsAreNotTransactionCommands() throws Exception {
    LtlCommand.Commit commit = new LtlCommand.Commit(TRAN, Oqid.ofLong(0x71, 1), Instant.EPOCH);
    QueuedCommand q =
        QueuedCommand.read("101:0", AT, encoder.encode(commit), decoder).orElseThrow();
    assertThat(q.isRowChange()).isFalse();
    assertThat(q.isDecoded()).isTrue();
    assertThat(q.command()).isEqualTo(commit);
    assertThatThrownBy(q::table).isInstanceOf(IllegalStateException.class);
    assertThat(
            QueuedCommand.read(
                "101:0", AT, encoder.encode(new LtlCommand.GetTruncation()), decoder))
        .isEmpty();
  }
}
