package io.openrs.dsi.internal;

import io.micrometer.core.instrument.Timer;
import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.DsiFailure;
import io.openrs.dsi.ErrorAction;
import io.openrs.dsi.ErrorClass;
import io.openrs.dsi.LoggedTransaction;
import io.openrs.dsi.dialect.ErrorKind;
import io.openrs.ltl.LtlCommand;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One DSIEXEC thread's replicate connection and what it does with it: connect and reconnect with
 * back-off (re-reading {@code rs_lastcommit} each time), apply a group of source transactions as
 * one replicate transaction, and the error actions when that fails. Not thread-safe: owned by its
 * executor thread.
 *
 * <p>A failed group is re-applied transaction by transaction; a failed transaction is retried
 * (retry actions, up to {@code command_retry}), re-applied statement by statement to name the
 * failing statement exactly (and to skip statements mapped to {@code ignore}/{@code warn}), written
 * to the exceptions log ({@code log}) or stops the connection ({@link Down}).
 */
public final class ReplicateSession implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicateSession.class);
  private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

  /** The connection must stop: carries why. */
  public static final class Down extends Exception {
    private static final long serialVersionUID = 1L;
    public final transient DsiFailure failure;

    public Down(DsiFailure failure) {
      super(failure.describe());
      this.failure = failure;
    }
  }

  /** The run is stopping; unwinds without a failure. */
  public static final class Stopping extends Exception {
    private static final long serialVersionUID = 1L;

    public Stopping() {
      super("the DSI is stopping");
    }
  }

  private final RunContext ctx;
  private final int thread;
  private final String name;
  private final DsiMeters.Group meters;
  private Applier applier;
  private Connection connection;
  private int reconnects;

  public ReplicateSession(RunContext ctx, int thread) {
    this.ctx = ctx;
    this.thread = thread;
    this.name = ctx.name() + " DSIEXEC " + thread;
    this.meters = ctx.meters.exec(thread);
  }

  public boolean connected() {
    return connection != null;
  }

  public Connection connection() {
    return connection;
  }

  // ---- connections ---------------------------------------------------------------------------

  /**
   * Opens a connection, waiting with back-off while the replicate refuses; reads {@code
   * rs_lastcommit} on it. Before the first transaction: if every transaction is to be applied in
   * replica mode ({@code dsi_keep_triggers off}) and the DSI's user may not turn it on, the
   * connection goes down with the statement that grants it (otherwise that is found at the first
   * transaction of an origin that needs replica mode, before any of its statements).
   *
   * @throws Stopping if the run stops first
   * @throws Down if the user may not apply as the settings require
   */
  public void connect() throws Down, Stopping, InterruptedException {
    open();
    Optional<String> refused = ctx.rules.refusal();
    if (ctx.rules.alwaysReplica() && refused.isPresent()) {
      throw new Down(
          new DsiFailure(
              0,
              Optional.empty(),
              Optional.empty(),
              ctx.dialect.replicaModeStatement(true),
              Optional.of("42501"),
              0,
              "DSI error "
                  + ErrorClass.REPLICA_MODE_REFUSED
                  + ", "
                  + refused.get()
                  + " (dsi_keep_triggers is off)",
              ErrorAction.STOP_REPLICATION,
              ctx.clock.instant()));
    }
  }

  private void open() throws Stopping, InterruptedException {
    Duration backoff = FIRST_BACKOFF;
    int attempts = 0;
    while (!ctx.stopping()) {
      Connection c = null;
      try {
        c = ctx.pool.getConnection();
        if (!ctx.openedBeforeFirstCommit(name)) {
          // rs_lastcommit would skip a commit a crash lost once this session committed a later one
          evict(c);
          throw new Stopping();
        }
        c.setAutoCommit(false);
        if (ctx.settings.isolationLevel().jdbcLevel().isPresent()) {
          c.setTransactionIsolation(ctx.settings.isolationLevel().jdbcLevel().getAsInt());
        }
        ctx.dialect.prepareSession(c);
        ctx.rules.probe(ctx.dialect, c);
        boolean replicaMode = ctx.dialect.replicaMode(c);
        ctx.ensureProgressTables(c);
        ctx.lastCommit().load(c);
        if (applier == null) {
          applier =
              new Applier(
                  name,
                  ctx.dialect,
                  ctx.settings,
                  ctx.meters,
                  meters,
                  ctx.policy,
                  ctx.schema(),
                  ctx.rules);
        }
        applier.attach(c, replicaMode);
        connection = c;
        if (attempts > 0) {
          LOG.info("{}: connected to the replicate after {} attempts", name, attempts + 1);
        }
        return;
      } catch (SQLException e) {
        evict(c);
        attempts++;
        if (attempts == 1 || attempts % 10 == 0) {
          LOG.warn(
              "{}: cannot connect to the replicate (attempt {}, next in {} ms): {}",
              name,
              attempts,
              backoff.toMillis(),
              Jdbc.describe(e));
        }
        if (ctx.awaitStop(backoff)) {
          break;
        }
        backoff =
            backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0
                ? MAX_BACKOFF
                : backoff.multipliedBy(2);
      }
    }
    throw new Stopping();
  }

  private void reconnect(StatementFailure why) throws Stopping, InterruptedException {
    reconnects++;
    ctx.meters.add(DsiCounter.RECONNECTS, 1);
    if (ctx.asynchronousCommit()) {
      // Commits may have been lost with the replicate's unflushed log: this run's idea of what is
      // done cannot be trusted. A new run reads the queue again from what is known to be on disk
      // and skips what rs_lastcommit holds.
      dropConnection();
      ctx.restartRun("lost the replicate connection (" + why.describeError() + ")");
      throw new Stopping();
    }
    LOG.warn("{}: lost the replicate connection ({}); reconnecting", name, why.describeError());
    dropConnection();
    open();
  }

  private void dropConnection() {
    if (applier != null) {
      applier.detach();
    }
    evict(connection);
    connection = null;
  }

  private void evict(Connection c) {
    if (c == null) {
      return;
    }
    try {
      ctx.pool.evictConnection(c);
    } catch (RuntimeException e) {
      LOG.debug("{}: evicting a connection failed", name, e);
    }
  }

  /** True if the failure means the connection is gone. */
  private boolean connectionLost(StatementFailure f) {
    if (ctx.policy.kind(f) == ErrorKind.CONNECTION) {
      return true;
    }
    try {
      return connection == null || !connection.isValid(5);
    } catch (SQLException e) {
      return true;
    }
  }

  @Override
  public void close() {
    if (connection != null) {
      try {
        connection.rollback();
      } catch (SQLException ignored) {
        // closing anyway
      }
      if (applier != null) {
        applier.detach();
      }
      try {
        connection.close();
      } catch (SQLException ignored) {
        // the pool drops it
      }
      connection = null;
    }
  }

  // ---- applying ------------------------------------------------------------------------------

  /**
   * Applies {@code group} (consecutive source transactions in commit order) as one replicate
   * transaction. Each transaction ends done: committed, found already applied, or logged.
   *
   * @throws Down if a transaction stops the connection (those before it are committed)
   */
  public void applyGroup(List<SourceTransaction> group)
      throws Down, Stopping, InterruptedException {
    List<SourceTransaction> todo = unapplied(group);
    if (!todo.isEmpty() && ctx.takeSkip()) {
      SourceTransaction first = todo.remove(0);
      LOG.warn("{}: skipping {} (resume connection ... skip transaction)", name, first);
      logTransaction(
          first,
          LoggedTransaction.Reason.SKIPPED,
          "skipped by resume connection ... skip transaction");
    }
    if (todo.isEmpty()) {
      return;
    }
    if (!todo.get(0).complete()) {
      for (SourceTransaction t : todo) {
        incomplete(t);
      }
      return;
    }
    if (todo.size() == 1) {
      applyOne(todo.get(0));
      return;
    }
    while (true) {
      try {
        applier.begin();
        applier.applyFast(todo);
        commit(todo);
        return;
      } catch (StatementFailure f) {
        rollbackQuietly();
        checkStopping();
        if (connectionLost(f)) {
          reconnect(f);
          todo = unapplied(todo);
          if (todo.size() <= 1) {
            break;
          }
          continue;
        }
        ctx.meters.add(DsiCounter.GROUPS_SPLIT, 1);
        LOG.info(
            "{}: a group of {} transactions failed ({}); applying them one by one",
            name,
            todo.size(),
            f.describeError());
        applier.invalidateCatalog();
        break;
      }
    }
    for (SourceTransaction t : todo) {
      if (ctx.lastCommit().applied(t)) {
        ignored(t);
      } else {
        applyOne(t);
      }
    }
  }

  /** The transactions of {@code group} that rs_lastcommit does not hold; the others are done. */
  private List<SourceTransaction> unapplied(List<SourceTransaction> group) {
    List<SourceTransaction> todo = new ArrayList<>(group.size());
    for (SourceTransaction t : group) {
      if (ctx.lastCommit().applied(t)) {
        ignored(t);
      } else {
        todo.add(t);
      }
    }
    return todo;
  }

  private void ignored(SourceTransaction t) {
    ctx.meters.add(DsiCounter.TRANS_IGNORED, 1);
    LOG.debug("{}: {} is already applied (rs_lastcommit)", name, t);
    ctx.done(t);
  }

  /** One source transaction in its own replicate transaction, with the error actions. */
  void applyOne(SourceTransaction t) throws Down, Stopping, InterruptedException {
    int retries = 0;
    boolean slow = false;
    while (true) {
      try {
        applier.begin();
        if (slow) {
          applier.applySlow(t);
        } else {
          applier.applyFast(List.of(t));
        }
        commit(List.of(t));
        return;
      } catch (StatementFailure f) {
        rollbackQuietly();
        checkStopping();
        if (connectionLost(f)) {
          reconnect(f);
          if (ctx.lastCommit().applied(t)) {
            ignored(t); // its commit had gone through before the connection broke
            return;
          }
          continue;
        }
        ErrorKind kind = ctx.policy.kind(f);
        if (kind.transientConflict()) {
          ctx.meters.add(DsiCounter.DEADLOCKS, 1);
        }
        applier.invalidateCatalog();
        ErrorAction action = ctx.policy.action(f);
        if (action.retries()) {
          if (retries < ctx.settings.commandRetry()) {
            retries++;
            ctx.meters.add(DsiCounter.TRANS_RETRIED, 1);
            LOG.info(
                "{}: {} failed ({}); retry {} of {}",
                name,
                t,
                f.describeError(),
                retries,
                ctx.settings.commandRetry());
            continue;
          }
          action = action == ErrorAction.RETRY_LOG ? ErrorAction.LOG : ErrorAction.STOP_REPLICATION;
        } else if (!slow) {
          slow = true; // find the statement exactly, and skip ignored ones
          continue;
        }
        if (action == ErrorAction.LOG) {
          LOG.warn(
              "{}: {} failed ({}); writing it to the exceptions log", name, t, f.describeError());
          logTransaction(t, LoggedTransaction.Reason.ERROR_ACTION, f.describeError());
          return;
        }
        throw new Down(
            failure(
                t, f, action == ErrorAction.RETRY_STOP ? action : ErrorAction.STOP_REPLICATION));
      }
    }
  }

  private void incomplete(SourceTransaction t) throws Down, Stopping, InterruptedException {
    StatementFailure f =
        StatementFailure.dsi(
            t.size() + " commands at queue positions " + t.first() + ".." + t.last(),
            ErrorClass.INCOMPLETE_TRANSACTION,
            "commands of origin "
                + t.origin()
                + " without their begin (the outbound queue was purged or damaged inside a"
                + " transaction); they are not applied");
    ErrorAction action = ctx.policy.action(f);
    if (action == ErrorAction.IGNORE || action == ErrorAction.WARN) {
      LOG.warn("{}: {} dropped (action {}): {}", name, t, action.label(), f.getMessage());
      ctx.meters.add(DsiCounter.ERRORS_IGNORED, 1);
      ctx.done(t);
    } else if (action == ErrorAction.LOG || action == ErrorAction.RETRY_LOG) {
      logTransaction(t, LoggedTransaction.Reason.ERROR_ACTION, f.describeError());
    } else {
      throw new Down(failure(t, f, action));
    }
  }

  // ---- parallel units ----------------------------------------------------------------------

  /**
   * Reads rs_lastcommit again (before re-applying units another thread may have committed just
   * before its connection broke).
   */
  public void reloadLastCommit() throws Stopping, InterruptedException {
    try {
      ctx.lastCommit().load(connection);
    } catch (SQLException | RuntimeException e) {
      StatementFailure f =
          StatementFailure.database(
              "reading rs_lastcommit", e instanceof SQLException sql ? sql : Jdbc.wrap(e));
      rollbackQuietly();
      reconnect(f);
    }
  }

  /** Opens a unit's replicate transaction: locks its rs_threads row first. */
  public void startUnit(long seq, int row) throws StatementFailure {
    applier.begin();
    try {
      java.sql.PreparedStatement ps =
          applier.statements().get(ctx.dialect.threadSeqUpdate(ctx.schema()));
      ps.setLong(1, seq);
      ps.setInt(2, row);
      ps.executeUpdate();
    } catch (SQLException e) {
      throw StatementFailure.database("locking rs_threads row " + row, e);
    } catch (RuntimeException | AssertionError e) {
      throw StatementFailure.database("locking rs_threads row " + row, Jdbc.wrap(e));
    }
  }

  /** Applies a unit's transactions (fast path), leaving its transaction open. */
  public void applyUnit(List<SourceTransaction> group) throws StatementFailure {
    applier.applyFast(group);
  }

  /** Waits, in the database, for the transaction holding rs_threads row {@code row} to end. */
  public void waitForRow(int row) throws StatementFailure {
    Timer.Sample sample = Timer.start();
    try {
      java.sql.PreparedStatement ps =
          applier.statements().get(ctx.dialect.threadSeqWait(ctx.schema()));
      ps.setInt(1, row);
      try (java.sql.ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          // the row's value does not matter: the wait does
        }
      }
    } catch (SQLException e) {
      throw StatementFailure.database("waiting for rs_threads row " + row, e);
    } catch (RuntimeException | AssertionError e) {
      throw StatementFailure.database("waiting for rs_threads row " + row, Jdbc.wrap(e));
    } finally {
      sample.stop(meters.timer(DsiCounter.COMMIT_WAIT_TIME));
    }
  }

  /** Commits a unit (its predecessor has committed). */
  public void commitUnit(List<SourceTransaction> group) throws StatementFailure {
    commit(group);
  }

  /**
   * Rolls a unit back after {@code why} (null: its predecessor rolled back); drops the connection
   * if it is gone, so the next use reconnects.
   */
  public void abandon(StatementFailure why) {
    rollbackQuietly();
    if (why != null) {
      if (ctx.policy.kind(why).transientConflict()) {
        ctx.meters.add(DsiCounter.DEADLOCKS, 1);
      }
      if (connectionLost(why)) {
        ctx.meters.add(DsiCounter.RECONNECTS, 1);
        dropConnection();
      }
      applier.invalidateCatalog();
    }
  }

  /** A replicate table, from this thread's catalog (for dependency keys). */
  public io.openrs.dsi.dialect.TableMeta table(io.openrs.ltl.TableName name) throws SQLException {
    return applier.table(connection, name);
  }

  /** Writes rs_lastcommit, commits, and books what was applied. */
  private void commit(List<SourceTransaction> txs) throws StatementFailure {
    try {
      ctx.lastCommit().write(applier.statements(), txs);
    } catch (SQLException e) {
      throw StatementFailure.database("writing rs_lastcommit", e);
    } catch (RuntimeException | AssertionError e) {
      throw StatementFailure.database("writing rs_lastcommit", Jdbc.wrap(e));
    }
    Timer.Sample sample = Timer.start();
    try {
      connection.commit();
    } catch (SQLException e) {
      throw StatementFailure.database("COMMIT", e);
    } catch (RuntimeException | AssertionError e) {
      throw StatementFailure.database("COMMIT", Jdbc.wrap(e));
    } finally {
      sample.stop(meters.timer(DsiCounter.COMMIT_TIME));
    }
    applier.committed();
    ctx.lastCommit().committed(txs);
    ctx.meters.applied(txs);
    long commands = 0;
    for (SourceTransaction t : txs) {
      commands += t.size();
    }
    ctx.meters.add(DsiCounter.TRAN_GROUPS_COMMIT, 1);
    ctx.meters.add(DsiCounter.TRANS_UNGROUPED_COMMIT, txs.size());
    ctx.meters.add(DsiCounter.CMDS_SUCCEED, commands);
    ctx.transactionsCommitted.add(txs.size());
    ctx.commandsCommitted.add(commands);
    meters.add(DsiCounter.COMMITS_READ, txs.size());
    for (Map.Entry<DsiCounter, Long> e : applier.pendingCounts().entrySet()) {
      meters.add(e.getKey(), e.getValue());
    }
    reportTickets(txs);
    for (SourceTransaction t : txs) {
      ctx.done(t);
    }
  }

  private void reportTickets(List<SourceTransaction> txs) {
    if (applier.tickets().isEmpty()) {
      return;
    }
    java.time.Instant now = ctx.clock.instant();
    for (Op.TicketOp t : applier.tickets()) {
      java.time.Duration latency = java.time.Duration.between(t.ticket.time(), now);
      if (!latency.isNegative()) {
        ctx.meters.timer(DsiCounter.TICKET_LATENCY).record(latency);
      }
    }
    if (!ctx.settings.rsTicketReport()) {
      return;
    }
    String header =
        "DSI="
            + now
            + ";DSI_T="
            + ctx.transactionsCommitted.sum()
            + ";DSI_C="
            + ctx.commandsCommitted.sum();
    for (Op.TicketOp t : applier.tickets()) {
      int origin = txs.size() == 1 ? txs.get(0).origin() : 0; // a large one travels alone
      for (SourceTransaction s : txs) {
        if (origin == 0 && s.body().contains(t.ticket)) {
          origin = s.origin();
          break;
        }
      }
      try {
        ctx.sink.ticketApplied(origin, t.ticket, header, now);
      } catch (RuntimeException e) {
        LOG.warn("{}: reporting rs_ticket {} failed", name, t.ticket.oqid(), e);
      }
    }
  }

  /**
   * Hands {@code t} to the exceptions log, then records it as done in rs_lastcommit (its own
   * replicate transaction) so a restart does not apply it.
   */
  private void logTransaction(SourceTransaction t, LoggedTransaction.Reason reason, String error)
      throws Down, Stopping, InterruptedException {
    try {
      ctx.sink.logTransaction(
          new LoggedTransaction(
              ctx.target.connectionId(),
              t.origin(),
              t.begin().map(LtlCommand.Begin::tran),
              t.complete() ? Optional.of(t.commitOqid()) : Optional.empty(),
              t.allCommands(),
              reason,
              error));
    } catch (Exception e) {
      throw new Down(
          new DsiFailure(
              t.origin(),
              t.complete() ? Optional.of(t.commitOqid()) : Optional.empty(),
              t.begin().map(LtlCommand.Begin::tran),
              "writing the transaction to the exceptions log",
              Optional.empty(),
              0,
              "the exceptions log refused it: " + e,
              ErrorAction.STOP_REPLICATION,
              ctx.clock.instant()));
    }
    ctx.meters.add(DsiCounter.TRANS_LOGGED, 1);
    if (!t.complete()) {
      ctx.done(t);
      return;
    }
    while (true) {
      try {
        applier.begin();
        ctx.lastCommit().write(applier.statements(), List.of(t));
        connection.commit();
        applier.committed();
        ctx.lastCommit().committed(List.of(t));
        ctx.meters.applied(List.of(t));
        ctx.done(t);
        return;
      } catch (SQLException e) {
        StatementFailure f = StatementFailure.database("writing rs_lastcommit", e);
        rollbackQuietly();
        checkStopping();
        if (!connectionLost(f)) {
          throw new Down(failure(t, f, ErrorAction.STOP_REPLICATION));
        }
        reconnect(f);
        if (ctx.lastCommit().applied(t)) {
          ctx.done(t);
          return;
        }
      }
    }
  }

  private DsiFailure failure(SourceTransaction t, StatementFailure f, ErrorAction action) {
    return new DsiFailure(
        t.origin(),
        t.complete() ? Optional.of(t.commitOqid()) : Optional.empty(),
        t.begin().map(LtlCommand.Begin::tran),
        f.statement(),
        f.sqlState(),
        f.vendorCode(),
        f.getMessage(),
        action,
        ctx.clock.instant());
  }

  private void checkStopping() throws Stopping {
    if (ctx.stopping()) {
      throw new Stopping();
    }
  }

  private void rollbackQuietly() {
    if (connection == null) {
      return;
    }
    try {
      connection.rollback();
    } catch (SQLException e) {
      LOG.debug("{}: rollback failed", name, e);
    }
  }

  int reconnects() {
    return reconnects;
  }

  public int thread() {
    return thread;
  }

  // ---- HVAR: compiled groups (io.openrs.dsi.internal.hvar) -------------------------------------

  /** What an HVAR group does inside its replicate transaction, before rs_lastcommit and commit. */
  public interface GroupWork {
    void run(Connection c, StatementCache statements)
        throws StatementFailure, Stopping, InterruptedException;
  }

  /**
   * Applies an HVAR group as one replicate transaction: {@code work}, then each origin's last
   * commit OQID of {@code txs} in rs_lastcommit, then commit; {@code counts} go to this thread's
   * meters once it committed. A lost connection is re-opened and the group tried again, unless
   * rs_lastcommit shows that it committed before the connection broke.
   *
   * @return empty once the group is committed (or found committed); otherwise the failure, the
   *     replicate transaction rolled back
   */
  public Optional<StatementFailure> applyWork(
      List<SourceTransaction> txs, GroupWork work, Map<DsiCounter, Long> counts)
      throws Stopping, InterruptedException {
    while (true) {
      try {
        applier.begin();
        work.run(connection, applier.statements());
        commit(txs);
        counts.forEach(meters::add);
        return Optional.empty();
      } catch (StatementFailure f) {
        rollbackQuietly();
        checkStopping();
        if (connectionLost(f)) {
          reconnect(f);
          if (txs.stream().allMatch(ctx.lastCommit()::applied)) {
            txs.forEach(this::ignored); // its commit went through before the connection broke
            return Optional.empty();
          }
          continue;
        }
        applier.invalidateCatalog();
        return Optional.of(f);
      }
    }
  }

  /**
   * HVAR: applies what follows in this replicate transaction in replica mode or not (a group's
   * transactions share one mode), switching the session if needed; and with {@code defer} checks
   * deferrable constraints at commit.
   */
  public void prepareGroup(boolean replicaMode, boolean defer) throws StatementFailure {
    applier.useReplicaMode(replicaMode);
    if (defer) {
      applier.deferConstraints();
    }
  }

  /**
   * HVAR's compiling thread, holding the session before it sends a group's inserts ahead: the
   * session is in the group's mode; false if it cannot be (the group's apply then reports why).
   */
  public boolean readyForAhead(boolean replicaMode) {
    if (applier == null || connection == null) {
      return false;
    }
    try {
      applier.useReplicaModeAhead(replicaMode);
      return true;
    } catch (StatementFailure f) {
      LOG.debug("{}: no inserts ahead: {}", name, f.describeError());
      return false;
    }
  }

  /** The DOWN state for {@code t} failing with {@code f}. */
  public DsiFailure failureOf(SourceTransaction t, StatementFailure f, ErrorAction action) {
    return failure(t, f, action);
  }
}
