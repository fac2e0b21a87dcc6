package io.openrs.dsi.internal.hvar;

import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.DsiFailure;
import io.openrs.dsi.DsiSettings;
import io.openrs.dsi.ErrorAction;
import io.openrs.dsi.internal.GroupBound;
import io.openrs.dsi.internal.ReplicateSession;
import io.openrs.dsi.internal.RunContext;
import io.openrs.dsi.internal.SourceTransaction;
import io.openrs.ltl.TableName;
import io.openrs.ltl.packed.PackedRowReader;
import io.openrs.runtime.ThreadNames;
import io.openrs.runtime.WorkerThread;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HVAR's compiling thread: takes the transactions waiting in the hand-off and compiles them into
 * one group ({@link NetChangeDb}) until nothing more is waiting, {@code dsi_compile_max_cmds} would
 * be passed, the group's memory reaches {@code dsi_cdb_max_size}, or a transaction cannot be
 * compiled; such a transaction is applied in continuous mode after the group, in its place. Under
 * light load a group is one transaction and latency is that of continuous mode; under a backlog
 * groups fill.
 *
 * <p>This thread ({@code rs-dsi-hvar-<ds.db>}) hands units to the DSIEXEC threads ({@code
 * rs-dsi-exec-<ds.db>-<n>}) through an {@link HvarPipeline} and reads the catalog on a connection
 * of its own, so it compiles the next group while the last one is applied. The open group's inserts
 * go ahead on the session of the DSIEXEC thread that will apply it ({@link SharedApplySession}),
 * whenever no unit of that thread is being applied there.
 *
 * <p>Transactions rs_lastcommit already holds are not applied; they are marked done with the next
 * unit, never ahead of earlier work that is not committed yet.
 */
public final class HvarExecutor extends WorkerThread {
  private static final Logger LOG = LoggerFactory.getLogger(HvarExecutor.class);

  private final RunContext ctx;
  private final DsiSettings.Hvar settings;
  private final HvarTables tables;
  private final HvarPipeline pipeline;
  private final List<SharedApplySession> sessions; // DSIEXEC thread n's at n - 1
  private SharedApplySession openSession; // the open group's DSIEXEC thread's

  /** A group handed over, kept until it is done: its keys keep later inserts from going ahead. */
  private record Handed(long seq, NetChangeDb db) {}

  private final java.util.ArrayDeque<Handed> handed = new java.util.ArrayDeque<>();
  private Connection catalog;

  private NetChangeDb open;
  private boolean openReplicaMode; // the open group's: one mode per group
  private AheadInserts openAhead;
  private final boolean insertsAhead;
  private final PackedRowReader rows = new PackedRowReader();
  private final List<SourceTransaction> openTxs = new ArrayList<>();
  private final List<SourceTransaction> openIgnored = new ArrayList<>();
  private long openCommands;
  private long openTxBytes;
  private long compileNanos;
  private long nextSeq;
  // Rows per table of the last group that touched it: the next group's maps start that large.
  private final java.util.Map<TableName, Integer> lastRows = new java.util.HashMap<>();
  // per table, the bytes the last group's inserts ahead took encoded
  private final java.util.Map<TableName, Integer> lastAheadBytes = new java.util.HashMap<>();

  /** Tables whose inserts go ahead as text: the binary encoding met a value it does not write. */
  private final java.util.Set<TableName> textLoads = new java.util.HashSet<>();

  /** The threads of an HVAR run: this one, and with several DSIEXEC threads the executors. */
  public static List<WorkerThread> threads(RunContext ctx) {
    HvarTables tables = new HvarTables(ctx);
    List<WorkerThread> out = new ArrayList<>();
    HvarPipeline pipeline = new HvarPipeline(ctx, ctx.settings.numThreads());
    List<SharedApplySession> sessions = new ArrayList<>();
    for (int t = 1; t <= ctx.settings.numThreads(); t++) {
      sessions.add(new SharedApplySession(new ReplicateSession(ctx, t), pipeline));
    }
    out.add(new HvarExecutor(ctx, tables, pipeline, sessions));
    for (SharedApplySession s : sessions) {
      out.add(new ApplyThread(ctx, tables, pipeline, s));
    }
    return out;
  }

  private HvarExecutor(
      RunContext ctx, HvarTables tables, HvarPipeline pipeline, List<SharedApplySession> sessions) {
    super(ThreadNames.of("dsi", "hvar", ctx.name()), StopPolicy.AFTER_STEP);
    this.ctx = ctx;
    this.settings = ctx.settings.hvar();
    this.tables = tables;
    this.pipeline = pipeline;
    this.sessions = List.copyOf(sessions);
    // The group's new rows go ahead to the replicate while the group compiles, on the session of
    // the DSIEXEC thread that will apply it (while no earlier unit is being applied there).
    this.insertsAhead = AheadInserts.supported(ctx.dialect);
  }

  @Override
  protected boolean doWork() throws Exception {
    try {
      if (ctx.lastCommit() == null) {
        readLastCommit();
      }
      pruneHanded(); // also when idle: a done group's net changes are not kept
      boolean grouping = open != null;
      List<SourceTransaction> batch =
          ctx.handoff.takeGroup(this::withinMaxCmds, grouping ? 0 : 200);
      if (batch.isEmpty()) {
        if (grouping && !ctx.stopping()) {
          close(DsiCounter.HVAR_CLOSED_EMPTY);
        }
        return !ctx.stopping();
      }
      for (SourceTransaction t : batch) {
        if (ctx.stopping()) {
          return false; // not applied, not confirmed: read again at the next start
        }
        process(t);
      }
      return !ctx.stopping();
    } catch (ReplicateSession.Stopping e) {
      return false;
    } catch (ReplicateSession.Down d) {
      ctx.fail(d.failure);
      return false;
    }
  }

  /** Takes transactions while they and the open group hold at most {@code dsi_compile_max_cmds}. */
  private GroupBound withinMaxCmds() {
    return new GroupBound() {
      private long commands;

      @Override
      public void first(SourceTransaction t) {
        commands = openCommands + t.size();
      }

      @Override
      public boolean joins(SourceTransaction next) {
        if (commands + next.size() > settings.maxCmds()) {
          return false;
        }
        commands += next.size();
        return true;
      }
    };
  }

  /** Compiles {@code t} into the open group, or applies it in continuous mode in its place. */
  private void process(SourceTransaction t)
      throws ReplicateSession.Down, ReplicateSession.Stopping, InterruptedException {
    if (ctx.lastCommit().applied(t)) {
      ctx.meters.add(DsiCounter.TRANS_IGNORED, 1);
      LOG.debug("{}: {} is already applied (rs_lastcommit)", ctx.name(), t);
      openGroup(open != null ? openReplicaMode : ctx.rules.replicaMode(t.origin()));
      openIgnored.add(t);
      return;
    }
    if (!t.complete()) {
      continuous(t, "an incomplete run");
      return;
    }
    if (ctx.skipPending()) {
      continuous(t, "resume connection ... skip transaction");
      return;
    }
    if (!openTxs.isEmpty() && openCommands + t.size() > settings.maxCmds()) {
      close(DsiCounter.HVAR_CLOSED_MAX_CMDS);
    }
    boolean replicaMode = ctx.rules.replicaMode(t.origin());
    if (open != null && openReplicaMode != replicaMode) {
      close(DsiCounter.HVAR_CLOSED_REPLICA_MODE);
    }
    openGroup(replicaMode);
    Optional<String> why;
    long start = System.nanoTime();
    // holding the session (when free) lets the group's inserts go ahead with this transaction
    boolean held = openSession != null && openSession.tryHold();
    try {
      why = t.packed() ? open.add(t.rows(rows), t.size()) : open.add(t.body());
    } catch (NetChangeDb.UnreadableRows e) {
      throw new ReplicateSession.Down(unreadable(t, e));
    } catch (SQLException | RuntimeException e) {
      why = Optional.of("reading the replicate's catalog failed: " + e);
      dropCatalog();
    } finally {
      if (held) {
        openSession.release();
      }
      compileNanos += System.nanoTime() - start;
    }
    if (why.isPresent()) {
      continuous(t, why.get());
      return;
    }
    openTxs.add(t);
    openCommands += t.size();
    openTxBytes += t.bytes();
    if (open.bytes() + openTxBytes >= settings.cdbMaxSizeBytes()) {
      close(DsiCounter.HVAR_CLOSED_CDB_SIZE);
    } else if (openCommands >= settings.maxCmds()) {
      close(DsiCounter.HVAR_CLOSED_MAX_CMDS);
    }
  }

  /**
   * {@code t}'s packed commands in the outbound queue do not read: the connection goes down (as
   * when DSI-S meets such a command), naming the transaction and where the queue holds it; nothing
   * of it or of the open group is applied, and resuming reads it again.
   */
  private DsiFailure unreadable(SourceTransaction t, NetChangeDb.UnreadableRows e) {
    LOG.error("{}: {} in the outbound queue does not read", ctx.name(), t, e);
    return new DsiFailure(
        t.origin(),
        t.commit().map(c -> c.oqid()),
        t.begin().map(b -> b.tran()),
        "compiling " + t + " (HVAR)",
        Optional.empty(),
        0,
        t + " in the outbound queue does not read: " + e.getMessage(),
        ErrorAction.STOP_REPLICATION,
        ctx.clock.instant());
  }

  /** Opens a group, applied in replica mode or not, if none is open. */
  private void openGroup(boolean replicaMode)
      throws ReplicateSession.Stopping, InterruptedException {
    if (open == null) {
      openReplicaMode = replicaMode;
      Connection c = catalog();
      List<NetChangeDb> earlier = new ArrayList<>();
      if (insertsAhead) {
        // the group will be the next unit handed over: its DSIEXEC thread is known now
        int thread = pipeline.threadOf(nextSeq + 1);
        openSession = sessions.get(thread - 1);
        openSession.aheadMode(replicaMode);
        pruneHanded();
        for (Handed h : handed) {
          if (pipeline.threadOf(h.seq()) != thread) {
            earlier.add(h.db());
          }
        }
        openAhead =
            new AheadInserts(
                ctx.dialect,
                openSession,
                t -> tables.parents(c, t),
                ctx.settings.cmdBatchSizeBytes(),
                t -> lastAheadBytes.getOrDefault(t, 0),
                textLoads);
      }
      open =
          new NetChangeDb(
              tables.source(c, replicaMode),
              this::conversions,
              openAhead,
              this::expectedRows,
              earlier);
    }
  }

  /**
   * Rows the open group's table {@code t} will likely hold: as many as the last group that touched
   * it held (a backlog fills every group alike), never more than {@code dsi_compile_max_cmds}.
   */
  private int expectedRows(TableName t) {
    return Math.min(lastRows.getOrDefault(t, 0), settings.maxCmds());
  }

  private java.util.Set<io.openrs.dsi.CommandConversion> conversions(TableName t) {
    return ctx.settings.conversionsFor(t.schema() + "." + t.table());
  }

  /** Applies {@code t} in continuous mode after the open group. */
  private void continuous(SourceTransaction t, String why)
      throws ReplicateSession.Down, ReplicateSession.Stopping, InterruptedException {
    close(DsiCounter.HVAR_CLOSED_NO_COMPILE);
    ctx.meters.add(DsiCounter.HVAR_TRANS_CONTINUOUS, 1);
    LOG.debug("{}: {} is applied in continuous mode: {}", ctx.name(), t, why);
    long seq = ++nextSeq;
    submit(new HvarPipeline.Continuous(seq, t, List.of()));
    if (barrier(t)) {
      // Later groups must see the tables as DDL left them; and no later group may hold a lock
      // (its work tables are created from the replicate's tables) that a DDL or truncate waits
      // for while that group waits for it: the replicate could not see that deadlock.
      pipeline.awaitCompleted(seq);
      tables.invalidate();
    }
  }

  /** Forgets the groups handed over that are done. */
  private void pruneHanded() {
    if (handed.isEmpty()) {
      return;
    }
    long done = pipeline.completed();
    while (!handed.isEmpty() && handed.peekFirst().seq() <= done) {
      handed.removeFirst();
    }
  }

  /** Closes the open group (if it holds anything) and applies it. */
  private void close(DsiCounter reason)
      throws ReplicateSession.Down, ReplicateSession.Stopping, InterruptedException {
    if (open == null) {
      return;
    }
    NetChangeDb db = open;
    boolean replicaMode = openReplicaMode;
    AheadInserts ahead = openAhead;
    List<SourceTransaction> txs = List.copyOf(openTxs);
    List<SourceTransaction> ignored = List.copyOf(openIgnored);
    long compile = compileNanos;
    open = null;
    openAhead = null;
    openSession = null;
    openTxs.clear();
    openIgnored.clear();
    openCommands = 0;
    openTxBytes = 0;
    compileNanos = 0;
    if (txs.isEmpty() && ignored.isEmpty()) {
      return;
    }
    lastRows.putAll(db.rowsByTable());
    if (ahead != null) {
      lastAheadBytes.putAll(ahead.bytesByTable());
    }
    GroupPlan plan = db.seal();
    List<TableName> order = plan.tables();
    if (!txs.isEmpty()) {
      ctx.meters.add(reason, 1);
      ctx.meters.record(DsiCounter.HVAR_GROUP_CMDS, plan.commands());
      ctx.meters.timer(DsiCounter.HVAR_COMPILE_TIME).record(compile, TimeUnit.NANOSECONDS);
      if (order.size() > 1) {
        try {
          order = tables.parentsFirst(catalog(), order);
        } catch (SQLException | RuntimeException e) {
          LOG.warn(
              "{}: reading the replicate's foreign keys failed ({}); the group's tables are"
                  + " applied in the order it first touched them",
              ctx.name(),
              e.toString());
          dropCatalog();
        }
      }
    }
    long seq = nextSeq + 1;
    if (insertsAhead && sessions.size() > 1 && !txs.isEmpty()) {
      handed.addLast(new Handed(seq, db));
    }
    nextSeq = seq;
    submit(
        new HvarPipeline.Group(
            seq,
            txs,
            ignored,
            plan,
            order,
            // a failed load holds rows the plan left out (it fails the group's apply): never null
            ahead != null && (ahead.rows() > 0 || ahead.failed()) ? ahead : null,
            replicaMode,
            !txs.isEmpty()
                && ctx.dialect.deferConstraintsStatement().isPresent()
                && tables.deferrable(plan.tables())));
  }

  private void submit(HvarPipeline.Unit u) throws ReplicateSession.Stopping, InterruptedException {
    pipeline.put(u);
  }

  /** A transaction holding DDL or a truncate: nothing is compiled until it is applied. */
  private static boolean barrier(SourceTransaction t) {
    return t.hasDdlOrTruncate();
  }

  // ---- the catalog connection ------------------------------------------------------------------

  /** The connection the compiler reads the catalog on: its own. */
  private Connection catalog() throws ReplicateSession.Stopping, InterruptedException {
    while (catalog == null) {
      try {
        Connection c = ctx.pool.getConnection();
        c.setAutoCommit(false);
        catalog = c;
      } catch (SQLException e) {
        LOG.warn("{}: no connection to read the replicate's catalog: {}", ctx.name(), e.toString());
        if (ctx.awaitStop(java.time.Duration.ofSeconds(1))) {
          throw new ReplicateSession.Stopping();
        }
      }
    }
    return catalog;
  }

  /** rs_lastcommit is read here first, to know what is applied before compiling. */
  private void readLastCommit() throws ReplicateSession.Stopping, InterruptedException {
    while (ctx.lastCommit() == null) {
      try {
        Connection c = catalog();
        ctx.ensureProgressTables(c);
        ctx.lastCommit().load(c);
      } catch (SQLException e) {
        LOG.warn("{}: reading rs_lastcommit failed: {}", ctx.name(), e.toString());
        dropCatalog();
        if (ctx.awaitStop(java.time.Duration.ofSeconds(1))) {
          throw new ReplicateSession.Stopping();
        }
      }
    }
  }

  private void dropCatalog() {
    tables.invalidate();
    if (catalog != null) {
      try {
        ctx.pool.evictConnection(catalog);
      } catch (RuntimeException e) {
        LOG.debug("{}: evicting the catalog connection failed", ctx.name(), e);
      }
      catalog = null;
    }
  }

  @Override
  protected void onFatal(Throwable error) {
    ctx.fail(
        new DsiFailure(
            0,
            Optional.empty(),
            Optional.empty(),
            "compiling and applying HVAR groups",
            Optional.empty(),
            0,
            "internal error in the DSI executor: " + error,
            ErrorAction.STOP_REPLICATION,
            ctx.clock.instant()));
  }

  @Override
  protected void onExit() {
    if (openAhead != null) {
      // a group not applied: its rows go with the session's rollback
      openSession.abandon(openAhead);
    }
    if (catalog != null) {
      try {
        catalog.rollback();
        catalog.close();
      } catch (SQLException e) {
        LOG.debug("{}: closing the catalog connection failed", ctx.name(), e);
      }
      catalog = null;
    }
  }

  /**
   * A DSIEXEC thread of HVAR: applies the units the compiling thread hands it on its session, which
   * it shares with the compiling thread's inserts ahead of the groups it will apply.
   */
  static final class ApplyThread extends WorkerThread {
    private final RunContext ctx;
    private final HvarPipeline pipeline;
    private final ReplicateSession session;
    private final SharedApplySession shared;
    private final HvarApply apply;

    ApplyThread(
        RunContext ctx, HvarTables tables, HvarPipeline pipeline, SharedApplySession shared) {
      super(
          ThreadNames.of("dsi", "exec", ctx.name() + "-" + shared.session().thread()),
          StopPolicy.AFTER_STEP);
      this.ctx = ctx;
      this.pipeline = pipeline;
      this.session = shared.session();
      this.shared = shared;
      this.apply = new HvarApply(ctx, session, tables);
    }

    @Override
    protected boolean doWork() throws Exception {
      try {
        if (!session.connected()) {
          shared.hold();
          try {
            session.connect();
          } finally {
            shared.release();
          }
        }
        HvarPipeline.Unit u = pipeline.take(session.thread(), 200);
        if (u != null) {
          shared.hold();
          try {
            apply.apply(u, pipeline.gate);
          } finally {
            shared.release();
          }
        }
        return !ctx.stopping();
      } catch (ReplicateSession.Stopping e) {
        return false;
      } catch (ReplicateSession.Down d) {
        ctx.fail(d.failure);
        return false;
      }
    }

    @Override
    protected void onFatal(Throwable error) {
      ctx.fail(
          new DsiFailure(
              0,
              Optional.empty(),
              Optional.empty(),
              "applying HVAR groups",
              Optional.empty(),
              0,
              "internal error in the DSI executor: " + error,
              ErrorAction.STOP_REPLICATION,
              ctx.clock.instant()));
    }

    @Override
    protected void onExit() {
      shared.close();
    }
  }
}
