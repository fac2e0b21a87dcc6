package io.openrs.repserver.dist;

import io.openrs.config.rssd.DatabaseRepDef;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.Subscription;
import io.openrs.config.rssd.SubscriptionState;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.packed.OriginEnvelope;
import io.openrs.ltl.packed.PackedEncoder;
import io.openrs.repserver.rules.ReplicationRules;
import io.openrs.repserver.rules.TableRules;
import io.openrs.repserver.sqt.InboundRereader;
import io.openrs.repserver.sqt.QueuedCommand;
import io.openrs.repserver.sqt.SortedTransaction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/**
 * DIST for one origin: resolves each committed transaction's commands against the subscriptions,
 * maps them to each replicate's names, and appends each replicate's part of the transaction, whole
 * and contiguous (begin ... commit, in origin envelopes), to that replicate's outbound queue, in
 * commit order. The returned future completes when every outbound write is durable; only then may
 * the inbound queue be truncated behind the transaction (invariant 5).
 *
 * <p>{@code rs_ticket} markers go to every replicate subscribed to anything of the origin, stamped
 * with DIST's time. A transaction whose commit is at or below what an outbound queue already holds
 * for this origin (a re-read after a restart) is not written to it again.
 *
 * <p><b>Materialization</b> ({@code create subscription ... with materialization}): a transaction
 * whose body holds a ticket with first header {@code rs_materialize} carries snapshot rows of the
 * agent's incremental snapshot; its snapshot inserts go only to subscriptions that are
 * materializing (under their where clauses), never to valid ones. A ticket with first header {@code
 * rs_materialized} says the snapshot requested with the id in its second header is complete; once
 * the transaction holding it is durable in every outbound queue, the listener is told. Neither
 * ticket reaches a replicate (docs/ltl.md). Snapshot inserts of other transactions (the agent's
 * initial snapshot, {@code snapshot = on}) go to every subscription as before. Changes routed to a
 * materializing subscription are autocorrected ({@link SubscriptionRoute#routeAll}).
 *
 * <p>Owned by the origin's SQT/DIST thread.
 */
public final class Distributor {

  private static final int CHUNK_MESSAGES = 1024;

  /**
   * First header of the ticket marking a transaction's snapshot inserts as materialization rows.
   */
  public static final String MATERIALIZE_ROWS = "rs_materialize";

  /** First header of the ticket saying a materialization snapshot is complete (id second). */
  public static final String MATERIALIZED = "rs_materialized";

  /** Told the ids of completed materialization snapshots, once their marker is durable. */
  public interface MaterializationListener {
    void completed(List<String> requestIds);
  }

  private final int originId;
  private final ReplicationRules rules;
  private final IntFunction<OutboundQueue> outbound;
  private final InboundRereader rereader;
  private final DistStats stats;
  private final Map<Integer, Oqid> alreadyHeld;
  private final PackedEncoder encoder = new PackedEncoder();
  private final Map<TableName, List<SubscriptionRoute>> routes = new HashMap<>();
  private List<Integer> originTargets;
  private long rulesVersion = -1;
  private final MaterializationListener materialized;
  private boolean materializationRows;
  private final List<String> completed = new ArrayList<>();

  /**
   * @param outbound the outbound queue of a replicate connection id
   * @param alreadyHeld per replicate connection id, the last commit OQID of this origin its
   *     outbound queue holds (from the queue's contents at start)
   */
  public Distributor(
      int originId,
      ReplicationRules rules,
      IntFunction<OutboundQueue> outbound,
      InboundRereader rereader,
      DistStats stats,
      Map<Integer, Oqid> alreadyHeld) {
    this(originId, rules, outbound, rereader, stats, alreadyHeld, ids -> {});
  }

  /**
   * @param materialized told when the marker of a complete materialization snapshot is durable
   */
  public Distributor(
      int originId,
      ReplicationRules rules,
      IntFunction<OutboundQueue> outbound,
      InboundRereader rereader,
      DistStats stats,
      Map<Integer, Oqid> alreadyHeld,
      MaterializationListener materialized) {
    this.materialized = materialized;
    this.originId = originId;
    this.rules = rules;
    this.outbound = outbound;
    this.rereader = rereader;
    this.stats = stats;
    this.alreadyHeld = new HashMap<>(alreadyHeld);
  }

  /**
   * Distributes one committed transaction.
   *
   * @return completes when every outbound write of it is durable
   * @throws DistributionException when a command cannot be placed
   */
  public CompletableFuture<Void> distribute(SortedTransaction t)
      throws DistributionException, InterruptedException {
    refreshRules();
    stats.transProcessed++;
    completed.clear();
    CompletableFuture<Void> written = distributeTransaction(t);
    if (completed.isEmpty()) {
      return written;
    }
    List<String> ids = List.copyOf(completed);
    completed.clear();
    return written.thenRun(() -> materialized.completed(ids));
  }

  private CompletableFuture<Void> distributeTransaction(SortedTransaction t)
      throws DistributionException, InterruptedException {
    LtlCommand.Commit commit = t.commit();
    materializationRows = false;
    if (!t.removed()) {
      Map<Integer, List<byte[]>> parts = new LinkedHashMap<>();
      for (QueuedCommand c : t.body()) {
        stats.cmdsRead++;
        route(c, (target, mapped, source) -> add(parts, target, mapped, source, commit.oqid()));
      }
      List<CompletableFuture<?>> writes = new ArrayList<>();
      for (Map.Entry<Integer, List<byte[]>> e : parts.entrySet()) {
        List<byte[]> messages = new ArrayList<>(e.getValue().size() + 2);
        messages.add(OriginEnvelope.pack(originId, begin(t), encoder));
        messages.addAll(e.getValue());
        messages.add(OriginEnvelope.pack(originId, commit, encoder));
        writes.add(write(e.getKey(), List.of(messages), commit.oqid()));
      }
      return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new));
    }
    return distributeRemoved(t);
  }

  /** A transaction too large for the SQT cache: re-read once per target, streamed in chunks. */
  private CompletableFuture<Void> distributeRemoved(SortedTransaction t)
      throws DistributionException, InterruptedException {
    TreeSet<Integer> targets = new TreeSet<>();
    materializationRows = false;
    Iterator<QueuedCommand> scan = rereader.body(t);
    while (scan.hasNext()) {
      QueuedCommand c = scan.next();
      stats.cmdsRead++;
      route(
          c,
          (target, mapped, source) -> {
            if (!isHeld(target, t.commit().oqid())) {
              targets.add(target);
            }
          });
    }
    List<CompletableFuture<?>> writes = new ArrayList<>();
    for (int target : targets) {
      OutboundQueue q = outbound.apply(target);
      long start = System.nanoTime();
      q.lock().lock();
      try {
        List<byte[]> chunk = new ArrayList<>();
        chunk.add(OriginEnvelope.pack(originId, begin(t), encoder));
        long forThisTarget = 0;
        materializationRows = false;
        completed.clear();
        Iterator<QueuedCommand> body = rereader.body(t);
        while (body.hasNext()) {
          QueuedCommand c = body.next();
          List<byte[]> forTarget = chunk;
          int before = chunk.size();
          route(
              c,
              (tg, mapped, source) -> {
                if (tg == target) {
                  forTarget.add(envelope(mapped, source));
                }
              });
          forThisTarget += chunk.size() - before;
          if (chunk.size() >= CHUNK_MESSAGES) {
            writes.add(q.append(chunk));
            chunk = new ArrayList<>();
          }
        }
        chunk.add(OriginEnvelope.pack(originId, t.commit(), encoder));
        writes.add(q.append(chunk));
        alreadyHeld.put(target, t.commit().oqid());
        count(target, forThisTarget);
      } finally {
        q.lock().unlock();
        stats.outboundWaitNanos += System.nanoTime() - start;
        stats.outboundWaits++;
      }
    }
    if (targets.isEmpty()) {
      stats.cmdsNoSubscriber += t.commandCount();
    }
    return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new));
  }

  /** Takes each command routed to a target: {@code mapped}, or when null {@code source} as is. */
  private interface Sink {
    void accept(int target, LtlCommand.InTransaction mapped, QueuedCommand source);
  }

  /** The outbound message of a routed command: the source's own bytes when it passes unchanged. */
  private byte[] envelope(LtlCommand.InTransaction mapped, QueuedCommand source) {
    return mapped == null
        ? OriginEnvelope.wrap(originId, source.packed())
        : OriginEnvelope.pack(originId, mapped, encoder);
  }

  private void route(QueuedCommand queued, Sink sink) throws DistributionException {
    if (queued.isRowChange()) {
      List<SubscriptionRoute> rs = routesFor(queued.table());
      boolean any = false;
      boolean materializationRow = materializationRows && queued.isSnapshotInsert();
      for (SubscriptionRoute r : rs) {
        if (materializationRow && !r.materializing()) {
          continue;
        }
        if (r.passesUnchanged()) {
          any = true;
          sink.accept(r.replicateConnectionId(), null, queued);
          continue;
        }
        LtlCommand.RowChange change = (LtlCommand.RowChange) queued.command();
        List<LtlCommand.InTransaction> mapped;
        try {
          mapped = r.routeAll(change);
        } catch (WhereClause.EvaluationException e) {
          throw new DistributionException(
              change.oqid(),
              "DIST of origin "
                  + originId
                  + " stopped at OQID "
                  + change.oqid()
                  + ", table "
                  + change.table()
                  + ", subscription "
                  + r.subscription()
                  + ": "
                  + e.getMessage(),
              e);
        }
        for (LtlCommand.InTransaction m : mapped) {
          any = true;
          sink.accept(r.replicateConnectionId(), m, queued);
        }
      }
      if (!any) {
        stats.cmdsNoSubscriber++;
      }
      return;
    }
    LtlCommand.InTransaction c = queued.command();
    if (c instanceof LtlCommand.Truncate t) {
      List<SubscriptionRoute> rs = routesFor(t.table());
      for (SubscriptionRoute r : rs) {
        sink.accept(r.replicateConnectionId(), r.mapTruncate(t), queued);
      }
      if (rs.isEmpty()) {
        stats.cmdsNoSubscriber++;
      }
    } else if (c instanceof LtlCommand.Ticket ticket
        && !ticket.headers().isEmpty()
        && ticket.headers().get(0).equals(MATERIALIZE_ROWS)) {
      materializationRows = true;
    } else if (c instanceof LtlCommand.Ticket ticket
        && !ticket.headers().isEmpty()
        && ticket.headers().get(0).equals(MATERIALIZED)) {
      String id = ticket.headers().size() > 1 ? ticket.headers().get(1) : "";
      if (!completed.contains(id)) {
        completed.add(id);
      }
    } else if (c instanceof LtlCommand.Ticket ticket) {
      stats.tickets++;
      List<String> headers = new ArrayList<>(ticket.headers());
      headers.add("DIST=" + Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MICROS));
      LtlCommand.Ticket stamped =
          new LtlCommand.Ticket(ticket.tran(), ticket.oqid(), ticket.time(), headers);
      for (int target : originTargets) {
        sink.accept(target, stamped, queued);
      }
    } else if (c instanceof LtlCommand.Ddl) {
      for (int target : databaseLevelTargets()) {
        sink.accept(target, null, queued);
      }
    }
  }

  private void add(
      Map<Integer, List<byte[]>> parts,
      int target,
      LtlCommand.InTransaction mapped,
      QueuedCommand source,
      Oqid commitOqid) {
    if (isHeld(target, commitOqid)) {
      return;
    }
    parts.computeIfAbsent(target, k -> new ArrayList<>()).add(envelope(mapped, source));
  }

  private boolean isHeld(int target, Oqid commitOqid) {
    Oqid held = alreadyHeld.get(target);
    return held != null && commitOqid.compareTo(held) <= 0;
  }

  private CompletableFuture<?> write(int target, List<List<byte[]>> chunks, Oqid commitOqid)
      throws InterruptedException {
    OutboundQueue q = outbound.apply(target);
    long start = System.nanoTime();
    q.lock().lock();
    try {
      CompletableFuture<?> last = null;
      long n = 0;
      for (List<byte[]> chunk : chunks) {
        last = q.append(chunk);
        n += chunk.size() - 2;
      }
      alreadyHeld.put(target, commitOqid);
      count(target, n);
      return last;
    } finally {
      q.lock().unlock();
      stats.outboundWaitNanos += System.nanoTime() - start;
      stats.outboundWaits++;
    }
  }

  private void count(int target, long commands) {
    LongAdder cmds = stats.cmdsDistributed.get(target);
    if (cmds == null) {
      cmds = new LongAdder();
      stats.transDistributed.put(target, new LongAdder());
      stats.cmdsDistributed.put(target, cmds);
      stats.newReplicate.accept(target);
    }
    cmds.add(commands);
    stats.transDistributed.get(target).increment();
  }

  private static LtlCommand.Begin begin(SortedTransaction t) {
    if (t.begin().isPresent()) {
      return t.begin().get();
    }
    Oqid oqid = t.body().isEmpty() ? t.commit().oqid() : t.body().get(0).oqid();
    return new LtlCommand.Begin(t.tran(), oqid, t.commit().time(), Optional.empty());
  }

  // ---- subscription resolution ----------------------------------------------------------

  private void refreshRules() {
    long v = rules.version();
    if (v == rulesVersion) {
      return;
    }
    routes.clear();
    TreeSet<Integer> targets = new TreeSet<>();
    for (RepDef d : rules.repDefsOf(originId)) {
      for (Subscription s : rules.sts().subscriptionsFor(d.name())) {
        targets.add(s.replicateConnectionId());
      }
    }
    targets.addAll(databaseLevelTargets());
    originTargets = List.copyOf(targets);
    rulesVersion = v;
  }

  private List<Integer> databaseLevelTargets() {
    TreeSet<Integer> targets = new TreeSet<>();
    for (DatabaseRepDef d : rules.sts().databaseRepDefs(originId)) {
      for (Subscription s : rules.sts().subscriptionsFor(d.name())) {
        targets.add(s.replicateConnectionId());
      }
    }
    return List.copyOf(targets);
  }

  private List<SubscriptionRoute> routesFor(TableName table) {
    List<SubscriptionRoute> rs = routes.get(table);
    if (rs == null) {
      rs = compile(rules.forTable(originId, table));
      routes.put(table, rs);
    }
    return rs;
  }

  private List<SubscriptionRoute> compile(TableRules r) {
    List<SubscriptionRoute> out = new ArrayList<>();
    for (RepDef d : r.tableRepDefs()) {
      for (Subscription s : rules.sts().subscriptionsFor(d.name())) {
        out.add(
            new SubscriptionRoute(
                s.name(),
                s.replicateConnectionId(),
                Optional.of(d),
                s.whereClause().map(WhereClause::parse),
                s.state() == SubscriptionState.MATERIALIZING));
      }
    }
    for (DatabaseRepDef d : r.databaseRepDefs()) {
      for (Subscription s : rules.sts().subscriptionsFor(d.name())) {
        out.add(
            new SubscriptionRoute(
                s.name(),
                s.replicateConnectionId(),
                Optional.empty(),
                s.whereClause().map(WhereClause::parse),
                s.state() == SubscriptionState.MATERIALIZING));
      }
    }
    return out;
  }
}
