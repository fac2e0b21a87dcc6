package io.openrs.repagent;

import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.openrs.ltl.Oqid;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * <p>Two moments do not wait for the next record: the <b>first</b> restart point the server holds
 * (while nothing is claimed yet, {@link #handleBatch} waits for the server's durable point to cover
 * it, releases it and asks for an offset flush at once, so the first resume blob reaches the server
 * without waiting for a later record or the periodic flush), and the agent's <b>close</b> ({@link
 * #releaseCovered}, so the engine's final flush claims what the server holds).
 *
 * <p>After mapping a batch of records it calls {@code endOfRecords} (the sender's {@link
 * Sender#flush}), so the LTL they made goes out without waiting to fill a batch.
 *
 * <p>Threads: Debezium calls {@link #handleBatch} serially on the engine's record processing
 * thread; {@link #releaseCovered} and {@link #newestPendingCover} are called by the session's
 * closing thread. All three hold this object's lock, so the committer is never used by two threads
 * at once.
 */
final class RecordHandler
    implements DebeziumEngine.ChangeConsumer<ChangeEvent<SourceRecord, SourceRecord>> {

  /** How long the first restart point may wait for the server's durable point. */
  static final Duration FIRST_RELEASE_WAIT = Duration.ofSeconds(10);

  /** The server's durable point, as the sender learns it. */
  interface DurablePoint {
    Optional<Oqid> durable();

    /** Waits (bounded) until the durable point is at or above {@code target}; whether it is. */
    boolean awaitDurable(Oqid target, Duration timeout) throws InterruptedException;
  }

  private record Pending(ChangeEvent<SourceRecord, SourceRecord> event, Optional<Oqid> cover) {}

  private final SourceDialect.RecordMapper mapper;
  private final TransactionAssembler assembler;
  private final DurablePoint durable;
  private final Optional<Oqid> startPoint;
  private final Runnable endOfRecords;
  private final AgentCounters counters;
  private final ArrayDeque<Pending> pending = new ArrayDeque<>();
  private final AtomicBoolean flushRequested = new AtomicBoolean();
  private volatile Optional<Oqid> releasedCover;
  private DebeziumEngine.RecordCommitter<ChangeEvent<SourceRecord, SourceRecord>> committer;

  RecordHandler(
      SourceDialect.RecordMapper mapper,
      TransactionAssembler assembler,
      DurablePoint durable,
      Optional<Oqid> startPoint,
      Runnable endOfRecords,
      AgentCounters counters) {
    this.mapper = mapper;
    this.assembler = assembler;
    this.durable = durable;
    this.startPoint = startPoint;
    this.endOfRecords = endOfRecords;
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

  /**
   * Whether an offset flush should happen now, whatever the periodic interval says: true once after
   * the first cover was claimed (the engine's commit policy asks).
   */
  boolean takeFlushRequest() {
    return flushRequested.getAndSet(false);
  }

  @Override
  public synchronized void handleBatch(
      List<ChangeEvent<SourceRecord, SourceRecord>> records,
      DebeziumEngine.RecordCommitter<ChangeEvent<SourceRecord, SourceRecord>> committer)
      throws InterruptedException {
    this.committer = committer;
    for (ChangeEvent<SourceRecord, SourceRecord> e : records) {
      counters.increment(AgentCounter.RA_LOG_RECORDS_SCANNED);
      if (mapper.map(e.value())) {
        Optional<Oqid> cover = assembler.lastEmitted();
        pending.addLast(new Pending(e, cover.isPresent() ? cover : startPoint));
      }
    }
    endOfRecords.run(); // the sender sends what these records made without waiting for more
    if (releasedCover.isEmpty()) {
      awaitFirstCover();
    }
    release(committer);
    committer.markBatchFinished();
  }

  /**
   * Nothing is claimed yet (the server held nothing when the session started): wait for the first
   * pending restart point with a cover to be durable, so its position is claimed now and not only
   * when the next record arrives (which on an idle primary may be long).
   */
  private void awaitFirstCover() throws InterruptedException {
    for (Pending p : pending) {
      if (p.cover().isPresent()) {
        durable.awaitDurable(p.cover().get(), FIRST_RELEASE_WAIT);
        return;
      }
    }
  }

  /** The cover of the newest restart point not yet released, if any. */
  synchronized Optional<Oqid> newestPendingCover() {
    for (var it = pending.descendingIterator(); it.hasNext(); ) {
      Pending p = it.next();
      if (p.cover().isPresent()) {
        return p.cover();
      }
    }
    return Optional.empty();
  }

  /**
   * Releases every pending restart point the server's durable point covers now (called when the
   * session closes, before the engine's final offset flush).
   */
  synchronized void releaseCovered() throws InterruptedException {
    if (committer != null) {
      release(committer);
    }
  }

  private void release(
      DebeziumEngine.RecordCommitter<ChangeEvent<SourceRecord, SourceRecord>> committer)
      throws InterruptedException {
    Optional<Oqid> point = durable.durable();
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
        if (releasedCover.isEmpty()) {
          flushRequested.set(true);
        }
        releasedCover = last.cover();
      }
    }
  }
}
