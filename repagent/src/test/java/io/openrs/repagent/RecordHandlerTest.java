package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;

import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When records are released to Debezium's offsets (invariant 2) and when a flush is asked. */
class RecordHandlerTest {

  private static final Instant TIME = Instant.parse("2026-11-21T10:15:30Z");

  @TempDir Path dir;

  /** A server whose durable point the test moves; optionally it confirms while waited for. */
  private static final class Server implements RecordHandler.DurablePoint {
    Oqid point;
    boolean confirmWhileWaited;
    final List<Oqid> waitedFor = new ArrayList<>();

    /** What the handler did, in order: each wait, and each flush with the chunks sent by then. */
    final List<String> events = new ArrayList<>();

    @Override
    public Optional<Oqid> durable() {
      return Optional.ofNullable(point);
    }

    @Override
    public boolean awaitDurable(Oqid target, Duration timeout) {
      waitedFor.add(target);
      events.add("await " + target);
      if (confirmWhileWaited) {
        point = target;
      }
      return point != null && point.compareTo(target) >= 0;
    }
  }

  private record Event(SourceRecord value) implements ChangeEvent<SourceRecord, SourceRecord> {
    @Override
    public SourceRecord key() {
      return null;
    }

    @Override
    public String destination() {
      return value.topic();
    }

    @Override
    public Integer partition() {
      return null;
    }
  }

  private static final class Committer
      implements DebeziumEngine.RecordCommitter<ChangeEvent<SourceRecord, SourceRecord>> {
    final List<String> processed = new ArrayList<>();
    int batches;

    @Override
    public void markProcessed(ChangeEvent<SourceRecord, SourceRecord> record) {
      processed.add(record.value().topic() + "@" + record.value().sourceOffset().get("pos"));
    }

    @Override
    public void markBatchFinished() {
      batches++;
    }

    @Override
    public void markProcessed(
        ChangeEvent<SourceRecord, SourceRecord> record, DebeziumEngine.Offsets offsets) {
      markProcessed(record);
    }

    @Override
    public DebeziumEngine.Offsets buildOffsets() {
      return null;
    }
  }

  /** Topic "begin", "row" or "end"; offset "pos" is the transaction's position. */
  private static Event record(String kind, long pos) {
    return new Event(
        new SourceRecord(Map.of("server", "x"), Map.of("pos", pos), kind, null, null, null, null));
  }

  private static List<ChangeEvent<SourceRecord, SourceRecord>> transaction(long pos) {
    return List.of(record("begin", pos), record("row", pos), record("end", pos));
  }

  private final Server server = new Server();
  private final Committer committer = new Committer();
  private final AgentCounters counters = new AgentCounters();
  private final List<LtlChunk> sent = new ArrayList<>();

  private RecordHandler handler(Optional<Oqid> startPoint) {
    TransactionAssembler assembler =
        new TransactionAssembler(8, 1 << 20, 1 << 20, dir, "txn-", sent::add, counters);
    SourceDialect.RecordMapper mapper =
        r -> {
          long pos = (Long) r.sourceOffset().get("pos");
          switch (r.topic()) {
            case "begin":
              assembler.begin(TranId.ofLong(pos), TIME, Optional.empty());
              return false;
            case "row":
              assembler.add(
                  (t, o) ->
                      new LtlCommand.Insert(
                          t,
                          o,
                          new TableName("s", "t"),
                          false,
                          List.of(new Column("id", new Value.Int32(1)))));
              return false;
            default:
              assembler.commit(ByteBuffer.allocate(8).putLong(pos).array(), TIME);
              return true;
          }
        };
    return new RecordHandler(
        mapper,
        assembler,
        server,
        startPoint,
        () -> server.events.add("flush " + sent.size()),
        counters);
  }

  private static Oqid commitOf(long pos) {
    return TransactionAssembler.oqid(ByteBuffer.allocate(8).putLong(pos).array(), 2);
  }

  @Test
  void theFirstDurableTransactionIsReleasedAndFlushedWithoutWaitingForAnotherRecord()
      throws Exception {
    server.confirmWhileWaited = true;
    RecordHandler h = handler(Optional.empty());

    h.handleBatch(transaction(100), committer);

    assertThat(server.waitedFor).containsExactly(commitOf(100));
    assertThat(committer.processed).containsExactly("end@100");
    assertThat(h.releasedCover()).contains(commitOf(100));
    assertThat(h.takeFlushRequest()).isTrue();
    assertThat(h.takeFlushRequest()).isFalse();

    // Later transactions are released when a batch finds them durable, without waiting.
    server.confirmWhileWaited = false;
    h.handleBatch(transaction(200), committer);
    assertThat(server.waitedFor).hasSize(1);
    assertThat(committer.processed).containsExactly("end@100");
    server.point = commitOf(200);
    h.handleBatch(List.of(record("begin", 300)), committer);
    assertThat(committer.processed).containsExactly("end@100", "end@200");
    assertThat(h.takeFlushRequest()).isFalse();
  }

  @Test
  void eachBatchOfRecordsEndsWithOneFlushBeforeWaitingForTheServer() throws Exception {
    server.confirmWhileWaited = true;
    RecordHandler h = handler(Optional.empty());
    List<ChangeEvent<SourceRecord, SourceRecord>> two = new ArrayList<>(transaction(100));
    two.addAll(transaction(200));

    h.handleBatch(two, committer);
    h.handleBatch(transaction(300), committer);
    h.handleBatch(List.of(record("begin", 400)), committer);

    // The first batch's two transactions are both handed over before its one flush, and the
    // flush comes before the wait for the first durable point (which needs them sent).
    assertThat(server.events)
        .containsExactly("flush 2", "await " + commitOf(100), "flush 3", "flush 3");
  }

  @Test
  void nothingIsReleasedBeyondTheDurablePoint() throws Exception {
    RecordHandler h = handler(Optional.empty());

    h.handleBatch(transaction(100), committer); // the server does not confirm in time

    assertThat(committer.processed).isEmpty();
    assertThat(h.releasedCover()).isEmpty();
    assertThat(h.takeFlushRequest()).isFalse();
    assertThat(committer.batches).isEqualTo(1);
  }

  @Test
  void atTheCloseWhatTheServerHoldsIsReleasedWithoutAnotherRecord() throws Exception {
    RecordHandler h = handler(Optional.of(commitOf(50)));
    h.handleBatch(transaction(100), committer);
    h.handleBatch(transaction(200), committer);
    assertThat(committer.processed).isEmpty();
    assertThat(h.newestPendingCover()).contains(commitOf(200));

    server.point = commitOf(100); // only the first is durable when the agent stops
    h.releaseCovered();

    assertThat(committer.processed).containsExactly("end@100");
    assertThat(h.releasedCover()).contains(commitOf(100));
    assertThat(h.newestPendingCover()).contains(commitOf(200));
    // A session that started from a position never waits for its first one.
    assertThat(server.waitedFor).isEmpty();
  }
}
