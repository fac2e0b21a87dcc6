package io.openrs.dsi.internal;

import io.micrometer.core.instrument.Timer;
import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.DsiSettings;
import io.openrs.dsi.ErrorAction;
import io.openrs.dsi.ErrorClass;
import io.openrs.dsi.dialect.Dialect;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.LtlCommand.InTransaction;
import io.openrs.ltl.Value;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the commands of source transactions on one replicate connection, inside the caller's
 * replicate transaction (it never commits). Two ways:
 *
 * <ul>
 *   <li><b>fast</b>: consecutive statements with the same SQL go in one JDBC batch ({@code
 *       dsi_cmd_batch_size}, {@code dsi_max_cmds_in_batch}); statements of different SQL (an
 *       update, an insert, another update, ...) go together in one round trip as a command batch
 *       with their values written as literals, where the dialect can ({@link
 *       Dialect#literalBatches}); a run of at least {@code dsi_bulk_threshold} plain inserts into
 *       one table goes through the dialect's bulk interface when {@code dsi_bulk_copy} is on. Any
 *       error ends it.
 *   <li><b>slow</b>: one statement at a time behind a savepoint, so the failing statement is known
 *       exactly, and an error the error class maps to {@code ignore} or {@code warn} rolls back
 *       only that statement.
 * </ul>
 *
 * Not thread-safe: owned by one executor thread.
 */
final class Applier {
  private static final Logger LOG = LoggerFactory.getLogger(Applier.class);

  /** Most plain inserts held for one bulk load; a longer run continues in the next load. */
  private static final int MAX_BULK_ROWS = 20_000;

  private final String name;
  private final Dialect dialect;
  private final DsiSettings settings;
  private final DsiMeters.Group meters;
  private final DsiMeters dsiMeters;
  private final ErrorPolicy policy;
  private final String defaultSchema;
  private final TableCatalog catalog;
  private final Planner planner;
  private final OriginRules rules;

  /**
   * Whether the session is in replica mode now (null: unknown, after a transaction that switched it
   * ended without a known commit: PostgreSQL undoes a {@code SET} with the rollback).
   */
  private Boolean replicaMode;

  /** The mode was switched inside the replicate transaction in hand. */
  private boolean modeSwitchedInTransaction;

  /** The mode was switched ahead, for the transaction the next {@link #begin()} starts. */
  private boolean switchedAhead;

  /** Deferrable constraints are deferred in the replicate transaction in hand. */
  private boolean deferred;

  private Connection connection;
  private StatementCache statements;

  // Per apply: the current run of statements with one SQL text; before it, shorter runs of other
  // SQL waiting to go with it in one command batch; counts to publish on commit.
  private final List<Op.Stmt> run = new ArrayList<>();
  private final List<Op.Stmt> mixed = new ArrayList<>();
  private long mixedBytes;

  /** Whether the transaction being planned is a stream still being read (no command batches). */
  private boolean streaming;

  /** Whether this connection takes command batches with literal values (asked once per attach). */
  private Boolean literalBatches;

  private final Map<DsiCounter, Long> pending = new EnumMap<>(DsiCounter.class);
  private final List<Op.TicketOp> tickets = new ArrayList<>();

  Applier(
      String name,
      Dialect dialect,
      DsiSettings settings,
      DsiMeters dsiMeters,
      DsiMeters.Group meters,
      ErrorPolicy policy,
      String defaultSchema,
      OriginRules rules) {
    this.rules = rules;
    this.name = name;
    this.dialect = dialect;
    this.settings = settings;
    this.dsiMeters = dsiMeters;
    this.meters = meters;
    this.policy = policy;
    this.defaultSchema = defaultSchema;
    this.catalog = new TableCatalog(dialect);
    this.planner = new Planner(dialect, settings, catalog, meters);
  }

  /** Uses {@code c}, in replica mode or not, from now on (a new or re-opened connection). */
  void attach(Connection c, boolean replicaMode) {
    detach();
    this.connection = c;
    this.statements = new StatementCache(c, 256);
    this.literalBatches = null;
    this.replicaMode = replicaMode;
    this.modeSwitchedInTransaction = false;
    this.switchedAhead = false;
  }

  /** Forgets the connection, closing its cached statements. */
  void detach() {
    if (statements != null) {
      statements.clear();
    }
    statements = null;
    connection = null;
  }

  Connection connection() {
    return connection;
  }

  StatementCache statements() {
    return statements;
  }

  /** A table's columns and keys (cached). */
  io.openrs.dsi.dialect.TableMeta table(Connection c, io.openrs.ltl.TableName name)
      throws SQLException {
    return catalog.get(c, name);
  }

  /** Forgets table metadata (after a failure that may come from a changed table). */
  void invalidateCatalog() {
    catalog.invalidate();
  }

  /** Starts a replicate transaction's bookkeeping. */
  void begin() {
    if (switchedAhead) {
      // the SET went ahead into this very transaction (HVAR's inserts ahead): it holds
      switchedAhead = false;
    } else if (modeSwitchedInTransaction) {
      replicaMode = null; // the last transaction may have been rolled back, and its SET with it
      modeSwitchedInTransaction = false;
    }
    deferred = false;
    run.clear();
    mixed.clear();
    mixedBytes = 0;
    pending.clear();
    tickets.clear();
  }

  /** The replicate transaction in hand committed: a mode it switched to stays. */
  void committed() {
    modeSwitchedInTransaction = false;
    switchedAhead = false;
  }

  /**
   * HVAR's compiling thread, before it sends inserts ahead into the transaction that {@link
   * #begin()} will then start: the session in the group's mode. A SET made here belongs to that
   * transaction, so {@code begin()} must not forget it: re-sending it there would meet the COPY the
   * inserts ahead hold open on the connection and wait for it for ever. Called again for the same
   * coming transaction (each transaction the open group takes asks), a SET already sent ahead
   * holds: nothing is sent, since a COPY may be open on the connection by then.
   */
  void useReplicaModeAhead(boolean on) throws StatementFailure {
    if (modeSwitchedInTransaction && !switchedAhead) {
      replicaMode = null; // the last transaction was not seen to commit: its SET may be gone
      modeSwitchedInTransaction = false;
    }
    useReplicaMode(on);
    switchedAhead = switchedAhead || modeSwitchedInTransaction;
  }

  /**
   * Puts the session in replica mode or out of it (after sending what is held), unless it is so;
   * refuses replica mode where the DSI's user may not turn it on (DSI error 5188, naming the
   * GRANT).
   */
  void useReplicaMode(boolean on) throws StatementFailure {
    if (replicaMode != null && replicaMode == on) {
      return;
    }
    flushAll();
    String sql = dialect.replicaModeStatement(on);
    if (on && rules.refusal().isPresent()) {
      throw StatementFailure.dsi(sql, ErrorClass.REPLICA_MODE_REFUSED, rules.refusal().get());
    }
    try (Statement st = connection.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw StatementFailure.database(sql, e);
    } catch (RuntimeException | AssertionError e) {
      throw StatementFailure.database(sql, Jdbc.wrap(e));
    }
    replicaMode = on;
    modeSwitchedInTransaction = true;
  }

  /**
   * Makes the rest of the replicate transaction check deferrable constraints at commit (once per
   * transaction, where the dialect has them), sent with the statements that follow.
   */
  void deferConstraints() throws StatementFailure {
    if (deferred || dialect.deferConstraintsStatement().isEmpty()) {
      return;
    }
    deferred = true;
    String sql = dialect.deferConstraintsStatement().get();
    try (Statement st = connection.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw StatementFailure.database(sql, e);
    } catch (RuntimeException | AssertionError e) {
      throw StatementFailure.database(sql, Jdbc.wrap(e));
    }
  }

  /**
   * The statement deferring deferrable constraints, to go before {@code s} when its table has them
   * and this transaction has not deferred them yet; null otherwise.
   */
  private Op.Stmt deferBefore(Op.Stmt s) {
    if (deferred
        || s.table == null
        || !s.table.deferrableConstraints()
        || dialect.deferConstraintsStatement().isEmpty()) {
      return null;
    }
    deferred = true;
    return new Op.Stmt(
        s.source,
        dialect.deferConstraintsStatement().get(),
        List.of(),
        List.of(),
        -1,
        null,
        false,
        s.table,
        List.of());
  }

  /** Counts of the applied commands, to add to the meters once the transaction commits. */
  Map<DsiCounter, Long> pendingCounts() {
    return pending;
  }

  /** Tickets of the applied transactions, to report once they commit. */
  List<Op.TicketOp> tickets() {
    return tickets;
  }

  // ---- fast path -----------------------------------------------------------------------------

  /** Applies every command of {@code txs}, batched; the first error ends it. */
  void applyFast(List<SourceTransaction> txs) throws StatementFailure {
    for (SourceTransaction t : txs) {
      // A streamed transaction's next command may not be read yet: what is planned goes out before
      // the stream waits for it (a large transaction starts early to hold its rows early), so no
      // statement waits in a command batch for commands to come.
      streaming = t.streamed();
      if (streaming) {
        flushAll();
      }
      useReplicaMode(rules.replicaMode(t.origin()));
      List<LtlCommand.Truncate> truncates = new ArrayList<>();
      for (InTransaction cmd : t.commands()) {
        if (cmd instanceof LtlCommand.Truncate tr) {
          truncates.add(tr); // consecutive truncates go as one (PostgreSQL's TRUNCATE a, b)
          continue;
        }
        if (!truncates.isEmpty()) {
          dispatchFast(planTruncates(truncates));
        }
        dispatchFast(plan(cmd));
      }
      if (!truncates.isEmpty()) {
        dispatchFast(planTruncates(truncates));
      }
    }
    streaming = false;
    flushAll();
  }

  private List<Op> plan(InTransaction cmd) throws StatementFailure {
    List<Op> ops = new ArrayList<>(2);
    try {
      planner.plan(connection, cmd, ops::add);
    } catch (SQLException e) {
      throw StatementFailure.database("reading the replicate catalog for " + cmd, e);
    } catch (RuntimeException | AssertionError e) {
      throw StatementFailure.database("reading the replicate catalog for " + cmd, Jdbc.wrap(e));
    }
    return ops;
  }

  /** Plans consecutive truncates of one transaction together, and forgets them. */
  private List<Op> planTruncates(List<LtlCommand.Truncate> truncates) throws StatementFailure {
    List<Op> ops = new ArrayList<>(truncates.size());
    try {
      planner.planTruncates(connection, truncates, ops::add);
    } catch (SQLException e) {
      throw StatementFailure.database("reading the replicate catalog for " + truncates, e);
    } catch (RuntimeException | AssertionError e) {
      throw StatementFailure.database(
          "reading the replicate catalog for " + truncates, Jdbc.wrap(e));
    } finally {
      truncates.clear();
    }
    return ops;
  }

  private void dispatchFast(List<Op> ops) throws StatementFailure {
    for (Op op : ops) {
      if (op instanceof Op.Stmt s) {
        Op.Stmt defer = deferBefore(s);
        if (defer != null) {
          addToRun(defer);
        }
        addToRun(s);
      } else if (op instanceof Op.DdlOp d) {
        flushAll();
        executeDdl(d);
      } else if (op instanceof Op.TicketOp t) {
        tickets.add(t);
      }
    }
  }

  private void addToRun(Op.Stmt s) throws StatementFailure {
    if (!run.isEmpty() && !run.get(0).sql.equals(s.sql)) {
      endRun();
    }
    run.add(s);
    boolean bulkCandidate = settings.bulkCopy() && s.bulkable;
    if (bulkCandidate
        ? run.size() >= MAX_BULK_ROWS
        : batchFull(mixed.size() + run.size(), mixedBytes + runBytes())) {
      flushAll();
    }
  }

  /**
   * The current run ends (the next statement has other SQL): a run short enough to go in a command
   * batch waits for the statements after it; a run for the bulk interface, or any run where command
   * batches cannot be used, goes now.
   */
  private void endRun() throws StatementFailure {
    if (!streaming && !bulkQualifies(run) && literalBatches()) {
      mixed.addAll(run);
      mixedBytes += runBytes();
      run.clear();
    } else {
      flushAll();
    }
  }

  private boolean literalBatches() throws StatementFailure {
    if (literalBatches == null) {
      try {
        literalBatches = settings.batch() && dialect.literalBatches(connection);
      } catch (SQLException e) {
        throw StatementFailure.database("asking the replicate how it takes command batches", e);
      }
    }
    return literalBatches;
  }

  private boolean bulkQualifies(List<Op.Stmt> stmts) {
    return settings.bulkCopy()
        && stmts.size() >= settings.bulkThreshold()
        && stmts.stream().allMatch(st -> st.bulkable);
  }

  /** Sends everything held: the waiting command batch with the current run, or each on its own. */
  private void flushAll() throws StatementFailure {
    if (!mixed.isEmpty()) {
      if (!bulkQualifies(run)) {
        mixed.addAll(run);
        run.clear();
      }
      List<Op.Stmt> todo = new ArrayList<>(mixed);
      mixed.clear();
      mixedBytes = 0;
      if (todo.stream().allMatch(st -> st.sql.equals(todo.get(0).sql))) {
        sendRun(todo);
      } else {
        executeCommandBatch(todo);
      }
    }
    flushRun();
  }

  private long runBytes() {
    long b = 0;
    for (Op.Stmt s : run) {
      b += s.bytes;
    }
    return b;
  }

  private boolean batchFull(int count, long bytes) {
    return !settings.batch()
        || count >= settings.maxCmdsInBatch()
        || bytes >= settings.cmdBatchSizeBytes();
  }

  /** Sends the current run: bulk when it qualifies, otherwise batches. */
  private void flushRun() throws StatementFailure {
    if (run.isEmpty()) {
      return;
    }
    List<Op.Stmt> todo = new ArrayList<>(run);
    run.clear();
    sendRun(todo);
  }

  /** Statements with one SQL text: bulk when they qualify, otherwise JDBC batches. */
  private void sendRun(List<Op.Stmt> todo) throws StatementFailure {
    if (bulkQualifies(todo)) {
      bulk(todo);
      return;
    }
    int from = 0;
    while (from < todo.size()) {
      int to = from;
      long bytes = 0;
      while (to < todo.size()) {
        bytes += todo.get(to).bytes;
        to++;
        if (batchFull(to - from, bytes)) {
          if (to < todo.size() && settings.batch()) {
            meters.add(DsiCounter.BF_MAX_BYTES, 1);
          }
          break;
        }
      }
      executeBatch(todo.subList(from, to));
      from = to;
    }
  }

  private void executeBatch(List<Op.Stmt> batch) throws StatementFailure {
    Op.Stmt first = batch.get(0);
    Timer.Sample sample = Timer.start();
    try {
      PreparedStatement ps = statements.get(first.sql);
      if (batch.size() == 1) {
        bind(ps, first);
        int n = ps.executeUpdate();
        checkCount(first, n);
      } else {
        for (Op.Stmt s : batch) {
          bind(ps, s);
          ps.addBatch();
        }
        int[] counts = ps.executeBatch();
        for (int i = 0; i < counts.length && i < batch.size(); i++) {
          checkCount(batch.get(i), counts[i]);
        }
      }
    } catch (SQLException | RuntimeException | AssertionError e) {
      throw StatementFailure.database(
          batch.size() == 1
              ? first.describe()
              : "batch of " + batch.size() + " statements: " + first.sql,
          e instanceof SQLException sql ? sql : Jdbc.wrap(e));
    } finally {
      sample.stop(meters.timer(DsiCounter.BATCH_TIME));
    }
    meters.add(DsiCounter.BATCH, 1);
    meters.add(DsiCounter.OCMD_COUNT, batch.size());
    for (Op.Stmt s : batch) {
      count(s);
    }
  }

  /**
   * Statements of different SQL in one round trip: each written with its values as literals ({@link
   * LiteralSql}) into one JDBC command batch, whose update counts are checked one by one.
   */
  private void executeCommandBatch(List<Op.Stmt> batch) throws StatementFailure {
    Timer.Sample sample = Timer.start();
    try (Statement st = connection.createStatement()) {
      for (Op.Stmt s : batch) {
        st.addBatch(LiteralSql.render(dialect, s.sql, s.values, s.columns));
      }
      int[] counts = st.executeBatch();
      for (int i = 0; i < counts.length && i < batch.size(); i++) {
        checkCount(batch.get(i), counts[i]);
      }
    } catch (SQLException | RuntimeException | AssertionError e) {
      throw StatementFailure.database(
          "command batch of " + batch.size() + " statements, the first: " + batch.get(0).sql,
          e instanceof SQLException sql ? sql : Jdbc.wrap(e));
    } finally {
      sample.stop(meters.timer(DsiCounter.BATCH_TIME));
    }
    meters.add(DsiCounter.BATCH, 1);
    meters.add(DsiCounter.OCMD_COUNT, batch.size());
    meters.add(DsiCounter.COMMAND_BATCHES, 1);
    for (Op.Stmt s : batch) {
      count(s);
    }
  }

  private void bulk(List<Op.Stmt> rows) throws StatementFailure {
    Op.Stmt first = rows.get(0);
    List<List<Value>> values = new ArrayList<>(rows.size());
    for (Op.Stmt s : rows) {
      values.add(s.values);
    }
    long start = System.nanoTime();
    long n;
    try {
      n =
          dialect.bulkInsert(
              connection, first.table, first.columnNames, values, settings.cmdBatchSizeBytes());
    } catch (SQLException e) {
      throw StatementFailure.database(
          "bulk insert of " + rows.size() + " rows into " + first.table.name(), e);
    } catch (RuntimeException | AssertionError e) {
      throw StatementFailure.database(
          "bulk insert of " + rows.size() + " rows into " + first.table.name(), Jdbc.wrap(e));
    } finally {
      meters.timer(DsiCounter.BULK_TIME).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
    }
    if (n != rows.size()) {
      throw StatementFailure.dsi(
          "bulk insert of " + rows.size() + " rows into " + first.table.name(),
          ErrorClass.ROW_COUNT_MISMATCH,
          "the replicate reports " + n + " rows inserted, expected " + rows.size());
    }
    meters.add(DsiCounter.BULK_ROWS, rows.size());
    for (Op.Stmt s : rows) {
      count(s);
    }
  }

  // ---- slow path -----------------------------------------------------------------------------

  /**
   * Applies one transaction statement by statement, each behind a savepoint; errors mapped to
   * {@code ignore} or {@code warn} roll back that statement alone and are counted.
   *
   * @throws StatementFailure the first error with another action, naming its statement
   */
  void applySlow(SourceTransaction t) throws StatementFailure {
    useReplicaMode(rules.replicaMode(t.origin()));
    List<LtlCommand.Truncate> truncates = new ArrayList<>();
    for (InTransaction cmd : t.commands()) {
      if (cmd instanceof LtlCommand.Truncate tr) {
        truncates.add(tr);
        continue;
      }
      if (!truncates.isEmpty()) {
        slowOps(planTruncatesTolerated(truncates));
      }
      List<Op> ops;
      try {
        ops = plan(cmd);
      } catch (StatementFailure f) {
        if (!tolerated(f)) {
          throw f;
        }
        continue;
      }
      slowOps(ops);
    }
    if (!truncates.isEmpty()) {
      slowOps(planTruncatesTolerated(truncates));
    }
  }

  private List<Op> planTruncatesTolerated(List<LtlCommand.Truncate> truncates)
      throws StatementFailure {
    try {
      return planTruncates(truncates);
    } catch (StatementFailure f) {
      if (!tolerated(f)) {
        throw f;
      }
      return List.of();
    }
  }

  private void slowOps(List<Op> ops) throws StatementFailure {
    for (Op op : ops) {
      if (op instanceof Op.Stmt s) {
        Op.Stmt defer = deferBefore(s);
        if (defer != null) {
          slowStatement(defer);
        }
        slowStatement(s);
      } else if (op instanceof Op.DdlOp d) {
        executeDdl(d);
      } else if (op instanceof Op.TicketOp tk) {
        tickets.add(tk);
      }
    }
  }

  private void slowStatement(Op.Stmt s) throws StatementFailure {
    Savepoint sp;
    try {
      sp = connection.setSavepoint();
    } catch (SQLException e) {
      throw StatementFailure.database("SAVEPOINT", e);
    } catch (RuntimeException | AssertionError e) {
      throw StatementFailure.database("SAVEPOINT", Jdbc.wrap(e));
    }
    try {
      PreparedStatement ps = statements.get(s.sql);
      bind(ps, s);
      Timer.Sample sample = Timer.start();
      int n;
      try {
        n = ps.executeUpdate();
      } finally {
        sample.stop(meters.timer(DsiCounter.BATCH_TIME));
      }
      meters.add(DsiCounter.BATCH, 1);
      meters.add(DsiCounter.OCMD_COUNT, 1);
      checkCount(s, n);
      connection.releaseSavepoint(sp);
      count(s);
    } catch (SQLException | StatementFailure | RuntimeException | AssertionError e) {
      StatementFailure f =
          e instanceof StatementFailure sf
              ? sf
              : StatementFailure.database(
                  s.describe(), e instanceof SQLException sql ? sql : Jdbc.wrap(e));
      try {
        connection.rollback(sp);
      } catch (SQLException rollbackFailed) {
        f.addSuppressed(rollbackFailed);
        throw f; // the connection is probably gone; the caller decides
      }
      if (!tolerated(f)) {
        throw f;
      }
    }
  }

  /** True if the error class says ignore or warn: the statement is skipped, counted, logged. */
  private boolean tolerated(StatementFailure f) {
    ErrorAction a = policy.action(f);
    if (a != ErrorAction.IGNORE && a != ErrorAction.WARN) {
      return false;
    }
    if (policy.kind(f) == io.openrs.dsi.dialect.ErrorKind.CONNECTION) {
      return false;
    }
    dsiMeters.add(DsiCounter.ERRORS_IGNORED, 1);
    if (a == ErrorAction.WARN) {
      LOG.warn(
          "{}: {} (action warn; the statement is rolled back, the transaction carries on):" + " {}",
          name,
          f.describeError(),
          f.statement());
    }
    return true;
  }

  // ---- shared ---------------------------------------------------------------------------------

  private void bind(PreparedStatement ps, Op.Stmt s) throws SQLException {
    for (int i = 0; i < s.values.size(); i++) {
      dialect.bind(ps, i + 1, s.values.get(i), s.columns.get(i));
    }
  }

  private void checkCount(Op.Stmt s, int n) throws StatementFailure {
    if (settings.rowCountValidation() && s.expectedRows >= 0 && n >= 0 && n != s.expectedRows) {
      throw StatementFailure.dsi(
          s.describe(),
          ErrorClass.ROW_COUNT_MISMATCH,
          "the statement touched "
              + n
              + " rows, expected "
              + s.expectedRows
              + " (dsi_row_count_validation): the replicate differs from the primary");
    }
  }

  private void count(Op.Stmt s) {
    if (s.counter != null) {
      pending.merge(s.counter, 1L, Long::sum);
    }
  }

  private void executeDdl(Op.DdlOp d) throws StatementFailure {
    if (!settings.applyDdl()) {
      LOG.info(
          "{}: DDL not applied (the connection does not opt in), oqid {}: {}",
          name,
          d.ddl.oqid(),
          d.ddl.statement());
      pending.merge(DsiCounter.DDL_SKIPPED, 1L, Long::sum);
      return;
    }
    try {
      if (d.ddl.schema().isPresent()) {
        dialect.useSchema(connection, d.ddl.schema().get());
      }
      try (Statement st = connection.createStatement()) {
        st.execute(d.ddl.statement());
      }
      if (d.ddl.schema().isPresent()) {
        dialect.useSchema(connection, defaultSchema);
      }
    } catch (SQLException e) {
      throw StatementFailure.database(d.ddl.statement(), e);
    } catch (RuntimeException | AssertionError e) {
      throw StatementFailure.database(d.ddl.statement(), Jdbc.wrap(e));
    } finally {
      catalog.invalidate();
      statements.clear();
    }
    pending.merge(DsiCounter.DDL_READ, 1L, Long::sum);
  }
}
