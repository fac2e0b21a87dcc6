package io.openrs.repagent;

import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.openrs.ltl.Oqid;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The Debezium engine's consumer: maps each record to LTL (through the source's mapper, which hands
 * finished transactions to the sender) and releases records to Debezium's offset commit ({@code
 * markProcessed}) only once the server's durable point covers them (invariant 2).
 *
 * <p>A record is released only when it is a safe restart point (no transaction open after it) and
 * the server's truncation point is at or above the OQID of the last command the agent produced up
 * to that record (or the truncation point the session started from, when it produced none). So
 * Debezium's offsets, the resume blob the server keeps, and the PostgreSQL slot's confirmed
 * position all stay behind data the server holds durably.
 *
 * <p>Runs on the engine's record processing thread only (Debezium calls {@link #handleBatch}
 * serially); the committer is used on that thread only.
 */
final class RecordHandler
    implements DebeziumEngine.ChangeConsumer<ChangeEvent<SourceRecord, SourceRecord>> {

  private record Pending(ChangeEvent<SourceRecord, SourceRecord> event, Optional<Oqid> cover) {}

  private final SourceDialect.RecordMapper mapper;
  private final TransactionAssembler assembler;
  private final Supplier<Optional<Oqid>> durable;
  private final Optional<Oqid> startPoint;
  private final AgentCounters counters;
  private final ArrayDeque<Pending> pending = new ArrayDeque<>();
  private volatile Optional<Oqid> releasedCover;

  RecordHandler(
      SourceDialect.RecordMapper mapper,
      TransactionAssembler assembler,
      Supplier<Optional<Oqid>> durable,
      Optional<Oqid> startPoint,
      AgentCounters counters) {
    this.mapper = mapper;
    this.assembler = assembler;
    this.durable = durable;
    this.startPoint = startPoint;
    this.counters = counters;
    this.releasedCover = startPoint;
  }

  /**
   * The OQID the released offsets are covered by: what the resume blob of the next offset flush may
   * claim ({@code StoreResume.coveredUpTo}).
   */
  Optional<Oqid> releasedCover() {
    return releasedCover;
  }

  @Override
  public void handleBatch(
      List<ChangeEvent<SourceRecord, SourceRecord>> records,
      DebeziumEngine.RecordCommitter<ChangeEvent<SourceRecord, SourceRecord>> committer)
      throws InterruptedException {
    for (ChangeEvent<SourceRecord, SourceRecord> e : records) {
      counters.increment(AgentCounter.RA_LOG_RECORDS_SCANNED);
      if (mapper.map(e.value())) {
        Optional<Oqid> cover = assembler.lastEmitted();
        pending.addLast(new Pending(e, cover.isPresent() ? cover : startPoint));
      }
    }
    release(committer);
    committer.markBatchFinished();
  }

  private void release(
      DebeziumEngine.RecordCommitter<ChangeEvent<SourceRecord, SourceRecord>> committer)
      throws InterruptedException {
    Optional<Oqid> point = durable.get();
    Pending last = null;
    while (!pending.isEmpty()) {
      Pending p = pending.peekFirst();
      boolean covered =
          p.cover().isEmpty() || (point.isPresent() && p.cover().get().compareTo(point.get()) <= 0);
      if (!covered) {
        break;
      }
      pending.removeFirst();
      last = p;
    }
    if (last != null) {
      // Offsets are cumulative: marking the newest covered restart point releases all before it.
      committer.markProcessed(last.event());
      counters.increment(AgentCounter.RA_LOG_RELEASES);
      if (last.cover().isPresent()) {
        releasedCover = last.cover();
      }
    }
  }
}
