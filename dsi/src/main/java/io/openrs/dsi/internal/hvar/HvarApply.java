package io.openrs.dsi.internal.hvar;

import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.DsiFailure;
import io.openrs.dsi.ErrorAction;
import io.openrs.dsi.ErrorClass;
import io.openrs.dsi.internal.GroupBound;
import io.openrs.dsi.internal.Grouping;
import io.openrs.dsi.internal.Jdbc;
import io.openrs.dsi.internal.ReplicateSession;
import io.openrs.dsi.internal.RunContext;
import io.openrs.dsi.internal.SourceTransaction;
import io.openrs.dsi.internal.StatementFailure;
import io.openrs.ltl.TableName;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies HVAR units on one DSIEXEC thread's replicate session: a compiled group as one replicate
 * transaction (work tables, set-based statements, rs_lastcommit, commit), a transaction HVAR does
 * not compile in continuous mode. When a group's bulk apply fails it is rolled back and, with
 * {@code dsi_retry} 0, applied again in continuous mode (grouped as continuous mode groups, a
 * failing group split transaction by transaction), so the failing command is found exactly and
 * meets the connection's error actions; with {@code dsi_retry} 1 the connection goes down instead.
 * Not thread-safe: owned by its executor thread.
 */
final class HvarApply {
  private static final Logger LOG = LoggerFactory.getLogger(HvarApply.class);

  private final RunContext ctx;
  private final ReplicateSession session;
  private final HvarTables tables;
  private final BulkApplier bulk;
  private final Grouping grouping;

  HvarApply(RunContext ctx, ReplicateSession session, HvarTables tables) {
    this.ctx = ctx;
    this.session = session;
    this.tables = tables;
    this.grouping = new Grouping(ctx.settings, ctx.dialect.transactionalDdl());
    this.bulk =
        new BulkApplier(
            ctx.dialect,
            new BulkApplier.Settings(
                ctx.settings.bulkThreshold(),
                ctx.settings.maxCmdsInBatch(),
                ctx.settings.cmdBatchSizeBytes(),
                ctx.settings.rowCountValidation()),
            (table, op, rows) ->
                ctx.meters.recordPerTable(
                    DsiCounter.HVAR_BATCH_ROWS, table.schema() + "." + table.table(), op, rows),
            Integer.toString(session.thread()));
  }

  /** Applies {@code u} in its turn; marks its transactions done. */
  void apply(HvarPipeline.Unit u, HvarPipeline.Gate gate)
      throws ReplicateSession.Down, ReplicateSession.Stopping, InterruptedException {
    if (u instanceof HvarPipeline.Continuous c) {
      gate.awaitTurn(u.seq);
      session.applyGroup(List.of(c.tx));
    } else {
      HvarPipeline.Group g = (HvarPipeline.Group) u;
      if (!g.txs.isEmpty()) {
        applyGroup(g, gate);
      } else {
        gate.awaitTurn(u.seq);
      }
    }
    for (SourceTransaction t : u.ignored) {
      ctx.done(t);
    }
    gate.complete(u.seq);
  }

  private void applyGroup(HvarPipeline.Group g, HvarPipeline.Gate gate)
      throws ReplicateSession.Down, ReplicateSession.Stopping, InterruptedException {
    Map<DsiCounter, Long> counts = sourceCounts(g.txs);
    counts.merge(DsiCounter.CONVERTED, g.plan.converted(), Long::sum);
    List<TableName> blamed = new ArrayList<>();
    long[] workEnd = new long[1];
    long[] aheadNanos = new long[1];
    Optional<StatementFailure> failed;
    try {
      failed =
          session.applyWork(
              g.txs,
              (c, statements) -> {
                blamed.clear();
                session.prepareGroup(g.replicaMode, g.deferConstraints);
                if (g.ahead != null) {
                  // the compiler kept inserts of earlier groups' keys from going ahead, not those
                  // of transactions in continuous mode
                  gate.awaitEarlierContinuous(g.seq);
                  long start = System.nanoTime();
                  try {
                    g.ahead.finish(c);
                  } catch (StatementFailure f) {
                    g.ahead.failedTable().ifPresent(blamed::add);
                    throw f;
                  } finally {
                    aheadNanos[0] += System.nanoTime() - start;
                  }
                }
                try {
                  BulkApplier.Loaded loaded = bulk.load(c, g.plan);
                  gate.awaitTurn(g.seq);
                  bulk.apply(c, statements::get, loaded, g.parentsFirst);
                } catch (BulkApplyException e) {
                  blamed.add(e.table());
                  throw failure(e);
                } catch (RuntimeException | AssertionError e) {
                  throw StatementFailure.database("HVAR group apply", Jdbc.wrap(e));
                }
                workEnd[0] = System.nanoTime();
              },
              counts);
      // the group's counters before the cleanup's round trip: whoever sees its rs_lastcommit
      // sees them about at once
      long load = bulk.takeLoadNanos() + aheadNanos[0];
      long apply = bulk.takeApplyNanos();
      ctx.meters.add(DsiCounter.HVAR_CMDS_COMPILED, g.plan.commands());
      if (failed.isEmpty()) {
        ctx.meters.timer(DsiCounter.HVAR_LOAD_TIME).record(load, TimeUnit.NANOSECONDS);
        ctx.meters.timer(DsiCounter.HVAR_APPLY_TIME).record(apply, TimeUnit.NANOSECONDS);
        ctx.meters
            .timer(DsiCounter.HVAR_COMMIT_TIME)
            .record(Math.max(0, System.nanoTime() - workEnd[0]), TimeUnit.NANOSECONDS);
        ctx.meters.add(DsiCounter.HVAR_NET_INSERTS, g.plan.netInserts());
        ctx.meters.add(DsiCounter.HVAR_NET_UPDATES, g.plan.netUpdates());
        ctx.meters.add(DsiCounter.HVAR_NET_DELETES, g.plan.netDeletes());
        if (g.ahead != null) {
          g.ahead
              .rowsByTable()
              .forEach(
                  (t, n) ->
                      ctx.meters.recordPerTable(
                          DsiCounter.HVAR_BATCH_ROWS, t.schema() + "." + t.table(), "insert", n));
        }
      }
    } finally {
      bulk.cleanup(session.connection());
      if (g.ahead != null) {
        g.ahead.abandon();
      }
    }
    if (failed.isEmpty()) {
      return;
    }
    fallBack(g, failed.get(), blamed, gate);
  }

  /** The group's bulk apply failed (rolled back): continuous mode, or down with dsi_retry 1. */
  private void fallBack(
      HvarPipeline.Group g, StatementFailure f, List<TableName> blamed, HvarPipeline.Gate gate)
      throws ReplicateSession.Down, ReplicateSession.Stopping, InterruptedException {
    for (TableName t : blamed.isEmpty() ? g.plan.tables() : blamed) {
      tables.blame(t);
    }
    tables.invalidate();
    SourceTransaction first = g.txs.get(0);
    SourceTransaction last = g.txs.get(g.txs.size() - 1);
    String group =
        "an HVAR group of "
            + g.txs.size()
            + " transactions ("
            + g.plan.commands()
            + " commands, "
            + first
            + " to commit OQID "
            + (last.complete() ? last.commitOqid() : "?")
            + ")";
    if (ctx.settings.suspendOnGroupFailure()) {
      DsiFailure d = session.failureOf(first, f, ErrorAction.STOP_REPLICATION);
      throw new ReplicateSession.Down(
          new DsiFailure(
              d.originConnectionId(),
              d.commitOqid(),
              d.tran(),
              d.statement(),
              d.sqlState(),
              d.vendorCode(),
              group
                  + " failed and dsi_retry is 1 (suspend instead of re-applying it in"
                  + " continuous mode): "
                  + d.message(),
              ErrorAction.STOP_REPLICATION,
              d.time()));
    }
    ctx.meters.add(DsiCounter.HVAR_FALLBACKS, 1);
    LOG.info(
        "{} DSIEXEC {}: {} failed ({}; {}); applying its transactions in continuous mode",
        ctx.name(),
        session.thread(),
        group,
        f.describeError(),
        f.statement());
    gate.awaitTurn(g.seq);
    // Continuous mode as it runs without HVAR: groups of dsi_max_xacts_in_group transactions,
    // a failing one split transaction by transaction, so the failing command is found exactly.
    List<SourceTransaction> chunk = new ArrayList<>();
    GroupBound bound = grouping.newGroup();
    for (SourceTransaction t : g.txs) {
      if (chunk.isEmpty()) {
        bound.first(t);
      } else if (!bound.joins(t)) {
        session.applyGroup(chunk);
        chunk = new ArrayList<>();
        bound = grouping.newGroup();
        bound.first(t);
      }
      chunk.add(t);
    }
    if (!chunk.isEmpty()) {
      session.applyGroup(chunk);
    }
  }

  private static StatementFailure failure(BulkApplyException e) {
    String statement = "HVAR " + e.step() + " of " + e.table() + ": " + e.statement();
    if (e.sqlException().isPresent()) {
      return StatementFailure.database(statement, e.sqlException().get());
    }
    return StatementFailure.dsi(statement, ErrorClass.ROW_COUNT_MISMATCH, e.getMessage());
  }

  /** InsertsRead, UpdatesRead, DeletesRead of the source commands. */
  private static Map<DsiCounter, Long> sourceCounts(List<SourceTransaction> txs) {
    long ins = 0;
    long upd = 0;
    long del = 0;
    for (SourceTransaction t : txs) {
      ins += t.inserts();
      upd += t.updates();
      del += t.deletes();
    }
    Map<DsiCounter, Long> m = new EnumMap<>(DsiCounter.class);
    m.put(DsiCounter.INSERTS_READ, ins);
    m.put(DsiCounter.UPDATES_READ, upd);
    m.put(DsiCounter.DELETES_READ, del);
    return m;
  }
}
