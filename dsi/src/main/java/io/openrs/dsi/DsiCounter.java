package io.openrs.dsi;

import io.openrs.runtime.CounterDefinition;
import io.openrs.runtime.CounterKind;
import io.openrs.runtime.CounterModule;

/**
 * The catalogue of the DSI's monitor counters, named as Replication Server names them where it has
 * a name ({@code rsName}) and ours otherwise. Registered in Micrometer with tags {@code module}
 * ({@code DSI} for the scheduler, {@code DSIEXEC} for the executor threads) and {@code instance}
 * (the replicate connection, {@code ds.db}); {@code DSIEXEC} meters add {@code thread} (1, 2, ...).
 * {@code docs/counters.md} describes each one (checked by a test). The {@link CounterDefinition}
 * pattern of every module's catalogue.
 */
public enum DsiCounter implements CounterDefinition {
  CMDS_READ(
      "DSICmdsRead",
      Module.DSI,
      CounterKind.COUNTER,
      "commands",
      true,
      "Commands read from the outbound queue."),
  READ_TRANS(
      "DSIReadTransUngrouped",
      Module.DSI,
      CounterKind.COUNTER,
      "transactions",
      true,
      "Whole transactions (begin ... commit runs) read from the outbound queue."),
  TRANS_DROPPED(
      "DSITransDropped",
      Module.DSI,
      CounterKind.COUNTER,
      "transactions",
      false,
      "Unfinished runs dropped: a begin arrived before the commit of the run before it (a crash"
          + " cut it; DIST wrote the transaction again in full after it)."),
  CMDS_UNKNOWN(
      "DSICmdsUnknown",
      Module.DSI,
      CounterKind.COUNTER,
      "commands",
      false,
      "Queue messages holding a command kind this version does not know, skipped."),
  TRANS_IGNORED(
      "DSITransIgnored",
      Module.DSI,
      CounterKind.COUNTER,
      "transactions",
      false,
      "Transactions not applied because rs_lastcommit says the replicate already has them (read"
          + " again after a restart or reconnect). RS shows this as Xacts_ignored."),
  TRAN_GROUPS_COMMIT(
      "DSITranGroupsCommit",
      Module.DSI,
      CounterKind.COUNTER,
      "groups",
      true,
      "Replicate transactions committed, each holding one or more grouped source transactions."),
  TRANS_UNGROUPED_COMMIT(
      "DSITransUngroupedCommit",
      Module.DSI,
      CounterKind.COUNTER,
      "transactions",
      true,
      "Source transactions committed at the replicate."),
  CMDS_SUCCEED(
      "DSICmdsSucceed",
      Module.DSI,
      CounterKind.COUNTER,
      "commands",
      true,
      "Commands of committed source transactions."),
  GROUPS_SPLIT(
      "DSIGroupsSplit",
      Module.DSI,
      CounterKind.COUNTER,
      "groups",
      false,
      "Groups that failed and were re-applied transaction by transaction to find the failing"
          + " one."),
  TRANS_RETRIED(
      "DSITransRetried",
      Module.DSI,
      CounterKind.COUNTER,
      "transactions",
      false,
      "Transactions rolled back and applied again after a retryable error (deadlock,"
          + " serialization failure, lock timeout; command_retry bounds it)."),
  DEADLOCKS(
      "DSIDeadlocks",
      Module.DSI,
      CounterKind.COUNTER,
      "errors",
      false,
      "Deadlocks and serialization failures the replicate reported."),
  RECONNECTS(
      "DSIReconnects",
      Module.DSI,
      CounterKind.COUNTER,
      "connections",
      false,
      "Replicate connections re-opened after the old one was lost."),
  TRANS_LOGGED(
      "DSITransLogged",
      Module.DSI,
      CounterKind.COUNTER,
      "transactions",
      false,
      "Transactions written to the exceptions log instead of being applied (resume connection"
          + " ... skip transaction, or the log / retry_log error actions)."),
  ERRORS_IGNORED(
      "DSIErrorsIgnored",
      Module.DSI,
      CounterKind.COUNTER,
      "errors",
      false,
      "Statements whose error the error class maps to ignore or warn: rolled back alone, the"
          + " transaction carried on."),
  ALL_THREADS_IN_USE(
      "AllThreadsInUse",
      Module.DSI,
      CounterKind.COUNTER,
      "events",
      true,
      "Times a transaction was ready to start but every DSIEXEC thread was busy (parallel DSI):"
          + " more threads could help."),
  PARALLEL_ROLLBACKS(
      "DSIParallelRollbacks",
      Module.DSI,
      CounterKind.COUNTER,
      "transactions",
      false,
      "Transactions rolled back because an earlier one running beside them failed; they are"
          + " applied again in commit order."),
  ALL_LARGE_THREADS_IN_USE(
      "AllLargeThreadsInUse",
      Module.DSI,
      CounterKind.COUNTER,
      "events",
      true,
      "Times a large transaction could start but every large-transaction thread"
          + " (dsi_num_large_xact_threads) was busy: it waited for its commit and was applied as a"
          + " normal one, its commands read again from the outbound queue."),
  LARGE_STREAMED(
      "DSILargeTransStreamed",
      Module.DSI,
      CounterKind.COUNTER,
      "transactions",
      false,
      "Large transactions started on a large-transaction thread before their commit was read,"
          + " their commands applied as they were read."),
  LARGE_ROLLED_BACK(
      "DSILargeTransRolledBack",
      Module.DSI,
      CounterKind.COUNTER,
      "transactions",
      false,
      "Streamed large transactions rolled back at the replicate because their run turned out"
          + " unfinished (dropped: DIST wrote it again) or rolled back at the primary."),
  LARGE_REREAD(
      "DSILargeTransReread",
      Module.DSI,
      CounterKind.COUNTER,
      "transactions",
      false,
      "Times the commands of a large transaction were read again from the outbound queue (it"
          + " is never held whole in memory): applied after a failure, with no large-transaction"
          + " thread free, read again after a restart, or written to the exceptions log."),
  TICKET_LATENCY(
      "TicketLatency",
      Module.DSI,
      CounterKind.TIMER,
      "seconds",
      false,
      "rs_ticket markers applied at the replicate, and for each the time from its commit at the"
          + " primary (the ticket's pdb time) to its commit at the replicate: the end-to-end"
          + " latency (dsi_rs_ticket_report on also keeps each one in rs_ticket_history)."),
  DSI_ACTIVE(
      "DSIActive",
      Module.DSI,
      CounterKind.GAUGE,
      "connections",
      false,
      "1 while the DSI applies (Active in admin who), 0 while it is Suspended or Down."),
  DSI_DOWN(
      "DSIDown",
      Module.DSI,
      CounterKind.GAUGE,
      "connections",
      false,
      "1 while the DSI is Down after an error (admin who_is_down; admin who, dsi names the failing"
          + " transaction), else 0."),
  DSI_LAG(
      "DSILag",
      Module.DSI,
      CounterKind.GAUGE,
      "seconds",
      false,
      "How far the replicate is behind its origins: now minus the origin commit time of the last"
          + " transaction the DSI applied, while transactions wait for it in the outbound queue"
          + " or its hand-off; 0 when none waits (caught up); NaN while some wait and none has"
          + " been applied since the server started."),
  DSI_BACKLOG_BYTES(
      "DSIBacklogBytes",
      Module.DSI,
      CounterKind.GAUGE,
      "bytes",
      false,
      "Bytes of the outbound queue after the DSI reader's confirmed position: what is left to"
          + " apply."),
  HANDOFF_BYTES(
      "DSIHandoffBytes",
      Module.DSI,
      CounterKind.GAUGE,
      "bytes",
      false,
      "Bytes of read transactions waiting for a DSIEXEC thread, the buffered commands of a"
          + " streamed large transaction included (bounded by dsi_sqt_max_cache_size); with"
          + " HVAR their packed commands, which is what they hold on the heap (HVAR hands on"
          + " transactions packed and compiles them in place)."),

  HVAR_CMDS_COMPILED(
      "HVARCmdsCompiled",
      Module.DSI,
      CounterKind.COUNTER,
      "commands",
      false,
      "HVAR: commands compiled into net-change sets (of committed groups and of groups that fell"
          + " back to continuous mode)."),
  HVAR_NET_INSERTS(
      "HVARNetInserts",
      Module.DSI,
      CounterKind.COUNTER,
      "rows",
      false,
      "HVAR: net rows inserted (rows that did not exist before their group; the insert half of a"
          + " delete plus insert), after dsi_command_convert, in committed groups."),
  HVAR_NET_UPDATES(
      "HVARNetUpdates",
      Module.DSI,
      CounterKind.COUNTER,
      "rows",
      false,
      "HVAR: net rows updated (final values of each changed row), in committed groups."),
  HVAR_NET_DELETES(
      "HVARNetDeletes",
      Module.DSI,
      CounterKind.COUNTER,
      "rows",
      false,
      "HVAR: net rows deleted (rows that existed before their group), in committed groups."),
  HVAR_COMPILE_RATIO(
      "HVARCompileRatio",
      Module.DSI,
      CounterKind.GAUGE,
      "ratio",
      false,
      "HVAR: commands compiled per net row applied since the connection started"
          + " (HVARCmdsCompiled over the net rows): how much compilation saves; 1 means nothing"
          + " folded."),
  HVAR_GROUP_CMDS(
      "HVARGroupCmds",
      Module.DSI,
      CounterKind.SUMMARY,
      "commands",
      false,
      "HVAR groups closed, with the commands of each (count: groups; total: commands;"
          + " histogram buckets 1, 10, 100, 1000, 10000, 100000)."),
  HVAR_CLOSED_EMPTY(
      "HVARGroupsClosedEmpty",
      Module.DSI,
      CounterKind.COUNTER,
      "groups",
      false,
      "HVAR groups closed because no further transaction was waiting: light load, small groups,"
          + " low latency."),
  HVAR_CLOSED_MAX_CMDS(
      "HVARGroupsClosedMaxCmds",
      Module.DSI,
      CounterKind.COUNTER,
      "groups",
      false,
      "HVAR groups closed because the next transaction would pass dsi_compile_max_cmds."),
  HVAR_CLOSED_CDB_SIZE(
      "HVARGroupsClosedCdbSize",
      Module.DSI,
      CounterKind.COUNTER,
      "groups",
      false,
      "HVAR groups closed because their net changes and transactions reached dsi_cdb_max_size."),
  HVAR_CLOSED_NO_COMPILE(
      "HVARGroupsClosedNoCompile",
      Module.DSI,
      CounterKind.COUNTER,
      "groups",
      false,
      "HVAR groups closed at a transaction that cannot be compiled (DDL, truncate, rs_ticket,"
          + " snapshot rows, a table that is not bulk-applied, a change the net set cannot hold)."),
  HVAR_CLOSED_REPLICA_MODE(
      "HVARGroupsClosedReplicaMode",
      Module.DSI,
      CounterKind.COUNTER,
      "groups",
      false,
      "HVAR groups closed at a transaction whose origin needs the other replica mode (a PostgreSQL"
          + " origin's transactions are applied with the replicate's foreign keys and triggers"
          + " off, a MariaDB origin's with them on): a group is applied in one mode."),
  HVAR_TRANS_CONTINUOUS(
      "HVARTransContinuous",
      Module.DSI,
      CounterKind.COUNTER,
      "transactions",
      false,
      "HVAR: transactions applied in continuous mode, between groups, because they cannot be"
          + " compiled (not counting those of failed groups, see HVARGroupsFallback)."),
  HVAR_COMPILE_TIME(
      "HVARCompileTime",
      Module.DSI,
      CounterKind.TIMER,
      "seconds",
      false,
      "HVAR: groups and the time spent compiling their transactions into net changes."),
  HVAR_LOAD_TIME(
      "HVARLoadTime",
      Module.DSI,
      CounterKind.TIMER,
      "seconds",
      false,
      "HVAR: groups and the time spent loading their net rows through the bulk interface (work"
          + " tables; PostgreSQL COPY straight into the replicate table)."),
  HVAR_APPLY_TIME(
      "HVARApplyTime",
      Module.DSI,
      CounterKind.TIMER,
      "seconds",
      false,
      "HVAR: groups and the time of their set-based statements (join delete, join update,"
          + " insert select) and small row batches."),
  HVAR_COMMIT_TIME(
      "HVARCommitTime",
      Module.DSI,
      CounterKind.TIMER,
      "seconds",
      false,
      "HVAR: groups and the time writing rs_lastcommit and committing them."),
  HVAR_FALLBACKS(
      "HVARGroupsFallback",
      Module.DSI,
      CounterKind.COUNTER,
      "groups",
      false,
      "HVAR groups whose bulk apply failed and that were rolled back and applied again in"
          + " continuous mode (dsi_retry 0), so the failing command is found exactly."),
  HVAR_TABLES_CONTINUOUS(
      "HVARTablesContinuous",
      Module.DSI,
      CounterKind.COUNTER,
      "tables",
      false,
      "Replicate tables switched to continuous mode until the connection resumes, after"
          + " dsi_compile_retry_threshold failed bulk applies involving them."),
  HVAR_BATCH_ROWS(
      "HVARBatchRows",
      Module.DSI,
      CounterKind.SUMMARY,
      "rows",
      false,
      true,
      "HVAR: statements of group applies (set-based, or a batch of row statements below"
          + " dsi_bulk_threshold) and the rows of each, tagged table (schema.table) and op"
          + " (insert, update, delete): the histogram of batch sizes per table and operation."),

  COMMITS_READ(
      "CommitsRead",
      Module.DSIEXEC,
      CounterKind.COUNTER,
      "transactions",
      true,
      "Source transactions this thread applied and committed."),
  INSERTS_READ(
      "InsertsRead", Module.DSIEXEC, CounterKind.COUNTER, "commands", true, "Inserts applied."),
  UPDATES_READ(
      "UpdatesRead", Module.DSIEXEC, CounterKind.COUNTER, "commands", true, "Updates applied."),
  DELETES_READ(
      "DeletesRead", Module.DSIEXEC, CounterKind.COUNTER, "commands", true, "Deletes applied."),
  TRUNCATES_READ(
      "TruncatesRead",
      Module.DSIEXEC,
      CounterKind.COUNTER,
      "commands",
      false,
      "Truncates applied."),
  DDL_READ(
      "CmdsSQLDDLRead",
      Module.DSIEXEC,
      CounterKind.COUNTER,
      "commands",
      true,
      "DDL commands applied (only where the connection opts in)."),
  DDL_SKIPPED(
      "DSIEDdlSkipped",
      Module.DSIEXEC,
      CounterKind.COUNTER,
      "commands",
      false,
      "DDL commands not applied because the connection does not opt in (logged at INFO)."),
  CONVERTED(
      "DSIECmdsConverted",
      Module.DSIEXEC,
      CounterKind.COUNTER,
      "commands",
      false,
      "Commands rewritten or dropped by dsi_command_convert."),
  BATCH(
      "DSIEBatch",
      Module.DSIEXEC,
      CounterKind.COUNTER,
      "batches",
      true,
      "Batches of statements sent to the replicate."),
  BATCH_TIME(
      "DSIEBatchTime",
      Module.DSIEXEC,
      CounterKind.TIMER,
      "seconds",
      true,
      "Batches and the time of each round trip (send and results). Dominating the apply time"
          + " means the replicate is the bottleneck."),
  LOG_FLUSH_CHECKS(
      "DSILogFlushChecks",
      Module.DSI,
      CounterKind.COUNTER,
      "reads",
      false,
      "Reads of the replicate's flushed log position, to confirm the outbound queue only behind"
          + " commits on disk (dsi_synchronous_commit off)."),
  COMMAND_BATCHES(
      "DSIECmdBatches",
      Module.DSIEXEC,
      CounterKind.COUNTER,
      "batches",
      false,
      "Batches of statements with different SQL sent in one round trip, their values written as"
          + " literals (batch on, PostgreSQL replicates); also counted in DSIEBatch."),
  BF_MAX_BYTES(
      "DSIEBFMaxBytes",
      Module.DSIEXEC,
      CounterKind.COUNTER,
      "batches",
      true,
      "Batches sent because dsi_cmd_batch_size (or dsi_max_cmds_in_batch) was reached."),
  OCMD_COUNT(
      "DSIEOCmdCount",
      Module.DSIEXEC,
      CounterKind.COUNTER,
      "statements",
      true,
      "Statements sent to the replicate, bulk rows excluded."),
  BULK_ROWS(
      "DSIEBulkRows",
      Module.DSIEXEC,
      CounterKind.COUNTER,
      "rows",
      false,
      "Rows inserted through the bulk interface (dsi_bulk_copy)."),
  BULK_TIME(
      "DSIEBulkTime",
      Module.DSIEXEC,
      CounterKind.TIMER,
      "seconds",
      false,
      "Bulk loads (one per run of inserts) and their time."),
  COMMIT_TIME(
      "DSIECommitTime",
      Module.DSIEXEC,
      CounterKind.TIMER,
      "seconds",
      false,
      "Commits of replicate transactions and their round-trip time."),
  COMMIT_WAIT_TIME(
      "DSIECommitWaitTime",
      Module.DSIEXEC,
      CounterKind.TIMER,
      "seconds",
      false,
      "Parallel DSI: waits of a transaction ready to commit for its predecessor's commit (on the"
          + " rs_threads row), and their time.");

  /** The Replication Server module a counter belongs to (its {@code module} tag). */
  public enum Module implements CounterModule {
    DSI,
    DSIEXEC
  }

  private final String counterName;
  private final Module module;
  private final CounterKind kind;
  private final String unit;
  private final boolean rsName;
  private final String description;
  private final boolean perTable;

  DsiCounter(
      String counterName,
      Module module,
      CounterKind kind,
      String unit,
      boolean rsName,
      String description) {
    this(counterName, module, kind, unit, rsName, false, description);
  }

  DsiCounter(
      String counterName,
      Module module,
      CounterKind kind,
      String unit,
      boolean rsName,
      boolean perTable,
      String description) {
    this.counterName = counterName;
    this.module = module;
    this.kind = kind;
    this.unit = unit;
    this.rsName = rsName;
    this.perTable = perTable;
    this.description = description;
  }

  /** True for meters kept per replicate table and operation (tags {@code table}, {@code op}). */
  public boolean perTable() {
    return perTable;
  }

  /** The meter name, e.g. {@code DSICmdsRead}. */
  @Override
  public String counterName() {
    return counterName;
  }

  @Override
  public Module module() {
    return module;
  }

  @Override
  public CounterKind kind() {
    return kind;
  }

  /** {@code seconds} for timers, {@code bytes}, or what is counted. */
  @Override
  public String unit() {
    return unit;
  }

  /** Whether Replication Server has a counter of this name. */
  public boolean rsName() {
    return rsName;
  }

  @Override
  public String description() {
    return description;
  }
}
