package io.openrs.dsi;

import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Everything a DSI reads from its connection's parameters, read once when the connection starts or
 * resumes ({@link #from}); changed values take effect at the next resume, as in Replication Server.
 *
 * @param numThreads {@code dsi_num_threads}: DSIEXEC threads (1: continuous mode; see {@link
 *     #applyMode()})
 * @param largeXactSize {@code dsi_large_xact_size}: a transaction with more commands is never
 *     grouped
 * @param serializationMethod {@code dsi_serialization_method} (parallel DSI only)
 * @param batch {@code batch}: JDBC batches (off: one statement per round trip)
 * @param maxCmdsInBatch {@code dsi_max_cmds_in_batch}
 * @param cmdBatchSizeBytes {@code dsi_cmd_batch_size}: bytes of statements and values per batch
 * @param xactGroupSizeBytes {@code dsi_xact_group_size}: bytes of source transactions per group
 * @param maxXactsInGroup {@code dsi_max_xacts_in_group} (1: no grouping)
 * @param bulkCopy {@code dsi_bulk_copy}
 * @param bulkThreshold {@code dsi_bulk_threshold}: inserts in a row into one table that go through
 *     the bulk interface
 * @param commandConvert {@code dsi_command_convert} for every table
 * @param tableCommandConvert {@code dsi_command_convert} set for single replicate tables ({@code
 *     schema.table}), overriding {@code commandConvert}; an empty set means "inherit"
 * @param commandRetry {@code command_retry}: retries of a transaction before a retry action gives
 *     up
 * @param rowCountValidation {@code dsi_row_count_validation}
 * @param keepTriggers {@code dsi_keep_triggers} (off: PostgreSQL session_replication_role replica)
 * @param isolationLevel {@code dsi_isolation_level}
 * @param sqtMaxCacheBytes {@code dsi_sqt_max_cache_size}: bytes of read transactions waiting for
 *     the DSIEXEC threads
 * @param suspendOnGroupFailure {@code dsi_retry} 1: suspend instead of re-applying a failed bulk or
 *     parallel group transaction by transaction
 * @param rsTicketReport {@code dsi_rs_ticket_report}: hand applied rs_tickets to the server
 * @param applyDdl whether DDL commands are applied (the connection opts in); otherwise they are
 *     counted and skipped
 * @param errorClass the connection's error class, over the dialect's defaults
 * @param numLargeXactThreads {@code dsi_num_large_xact_threads}: of the {@code numThreads} threads,
 *     how many are kept for large transactions, which start before their commit is read (parallel
 *     DSI only; less than {@code numThreads} unless 0)
 * @param synchronousCommit {@code dsi_synchronous_commit}: off lets the replicate commit without
 *     waiting for its log flush (where the dialect can), the queue then confirmed behind the flush
 * @param hvar HVAR: {@code dsi_compile_enable} and the parameters of compiled groups
 */
public record DsiSettings(
    int numThreads,
    long largeXactSize,
    SerializationMethod serializationMethod,
    boolean batch,
    int maxCmdsInBatch,
    int cmdBatchSizeBytes,
    long xactGroupSizeBytes,
    int maxXactsInGroup,
    boolean bulkCopy,
    int bulkThreshold,
    Set<CommandConversion> commandConvert,
    Map<String, Set<CommandConversion>> tableCommandConvert,
    int commandRetry,
    boolean rowCountValidation,
    boolean keepTriggers,
    IsolationLevel isolationLevel,
    long sqtMaxCacheBytes,
    boolean suspendOnGroupFailure,
    boolean rsTicketReport,
    boolean applyDdl,
    ErrorClass errorClass,
    int numLargeXactThreads,
    boolean synchronousCommit,
    Hvar hvar) {

  /** The parameter that opts a connection in to DDL, read when the catalogue has it. */
  public static final String APPLY_DDL_PARAMETER = "dsi_apply_ddl";

  public DsiSettings {
    check(numThreads >= 1 && numThreads <= 255, "dsi_num_threads", numThreads, "1..255");
    check(largeXactSize >= 1, "dsi_large_xact_size", largeXactSize, ">= 1");
    Objects.requireNonNull(serializationMethod, "serializationMethod");
    check(maxCmdsInBatch >= 1, "dsi_max_cmds_in_batch", maxCmdsInBatch, ">= 1");
    check(cmdBatchSizeBytes >= 1, "dsi_cmd_batch_size", cmdBatchSizeBytes, ">= 1");
    check(xactGroupSizeBytes >= 1, "dsi_xact_group_size", xactGroupSizeBytes, ">= 1");
    check(maxXactsInGroup >= 1, "dsi_max_xacts_in_group", maxXactsInGroup, ">= 1");
    check(bulkThreshold >= 1, "dsi_bulk_threshold", bulkThreshold, ">= 1");
    check(commandRetry >= 0, "command_retry", commandRetry, ">= 0");
    check(sqtMaxCacheBytes >= 1, "dsi_sqt_max_cache_size", sqtMaxCacheBytes, ">= 1");
    Objects.requireNonNull(isolationLevel, "isolationLevel");
    Objects.requireNonNull(errorClass, "errorClass");
    check(numLargeXactThreads >= 0, "dsi_num_large_xact_threads", numLargeXactThreads, ">= 0");
    if (numLargeXactThreads > 0 && numLargeXactThreads >= numThreads) {
      throw new IllegalArgumentException(
          "dsi_num_large_xact_threads is "
              + numLargeXactThreads
              + ", expected less than dsi_num_threads ("
              + numThreads
              + "): the large-transaction threads are part of dsi_num_threads, and at least one"
              + " thread must remain for the other transactions");
    }
    Objects.requireNonNull(hvar, "hvar");
    commandConvert = Collections.unmodifiableSet(copy(commandConvert));
    Map<String, Set<CommandConversion>> tables = new TreeMap<>();
    tableCommandConvert.forEach((t, c) -> tables.put(t, Collections.unmodifiableSet(copy(c))));
    tableCommandConvert = Collections.unmodifiableMap(tables);
  }

  private static Set<CommandConversion> copy(Set<CommandConversion> s) {
    return s.isEmpty() ? EnumSet.noneOf(CommandConversion.class) : EnumSet.copyOf(s);
  }

  private static void check(boolean ok, String name, long value, String range) {
    if (!ok) {
      throw new IllegalArgumentException(name + " is " + value + ", expected " + range);
    }
  }

  /** Every parameter at its catalogue default. */
  public static DsiSettings defaults() {
    return from(ParameterValues.defaults(Scope.CONNECTION));
  }

  /**
   * The settings of one connection: its {@code ParameterValues} of scope connection (layered over
   * the server's).
   *
   * @throws IllegalArgumentException if a value cannot be used (e.g. a conversion list naming one
   *     operation twice)
   */
  public static DsiSettings from(ParameterValues values) {
    boolean applyDdl = values.getBoolean(APPLY_DDL_PARAMETER);
    return new DsiSettings(
        values.getInt("dsi_num_threads"),
        values.getLong("dsi_large_xact_size"),
        SerializationMethod.parse(values.get("dsi_serialization_method")),
        values.getBoolean("batch"),
        values.getInt("dsi_max_cmds_in_batch"),
        values.getInt("dsi_cmd_batch_size"),
        values.getLong("dsi_xact_group_size"),
        values.getInt("dsi_max_xacts_in_group"),
        values.getBoolean("dsi_bulk_copy"),
        values.getInt("dsi_bulk_threshold"),
        CommandConversion.parse(values.getList("dsi_command_convert")),
        Map.of(),
        values.getInt("command_retry"),
        values.getBoolean("dsi_row_count_validation"),
        values.getBoolean("dsi_keep_triggers"),
        IsolationLevel.valueOf(
            values.get("dsi_isolation_level").toUpperCase(java.util.Locale.ROOT)),
        values.getLong("dsi_sqt_max_cache_size"),
        values.getInt("dsi_retry") == 1,
        values.getBoolean("dsi_rs_ticket_report"),
        applyDdl,
        ErrorClass.none(),
        values.getInt("dsi_num_large_xact_threads"),
        values.getBoolean("dsi_synchronous_commit"),
        new Hvar(
            values.getBoolean("dsi_compile_enable"),
            values.getInt("dsi_compile_max_cmds"),
            values.getLong("dsi_cdb_max_size"),
            values.getInt("dsi_compile_retry_threshold"),
            Set.of()));
  }

  /** A copy that applies DDL ({@code applyDdl}) or skips it. */
  public DsiSettings withApplyDdl(boolean apply) {
    return new DsiSettings(
        numThreads,
        largeXactSize,
        serializationMethod,
        batch,
        maxCmdsInBatch,
        cmdBatchSizeBytes,
        xactGroupSizeBytes,
        maxXactsInGroup,
        bulkCopy,
        bulkThreshold,
        commandConvert,
        tableCommandConvert,
        commandRetry,
        rowCountValidation,
        keepTriggers,
        isolationLevel,
        sqtMaxCacheBytes,
        suspendOnGroupFailure,
        rsTicketReport,
        apply,
        errorClass,
        numLargeXactThreads,
        synchronousCommit,
        hvar);
  }

  /**
   * A copy with {@code dsi_serialization_method} set to {@code method} (the catalogue does not list
   * {@code dependency_aware} yet).
   */
  public DsiSettings withSerializationMethod(SerializationMethod method) {
    return new DsiSettings(
        numThreads,
        largeXactSize,
        method,
        batch,
        maxCmdsInBatch,
        cmdBatchSizeBytes,
        xactGroupSizeBytes,
        maxXactsInGroup,
        bulkCopy,
        bulkThreshold,
        commandConvert,
        tableCommandConvert,
        commandRetry,
        rowCountValidation,
        keepTriggers,
        isolationLevel,
        sqtMaxCacheBytes,
        suspendOnGroupFailure,
        rsTicketReport,
        applyDdl,
        errorClass,
        numLargeXactThreads,
        synchronousCommit,
        hvar);
  }

  /** A copy with the connection's error class. */
  public DsiSettings withErrorClass(ErrorClass ec) {
    return new DsiSettings(
        numThreads,
        largeXactSize,
        serializationMethod,
        batch,
        maxCmdsInBatch,
        cmdBatchSizeBytes,
        xactGroupSizeBytes,
        maxXactsInGroup,
        bulkCopy,
        bulkThreshold,
        commandConvert,
        tableCommandConvert,
        commandRetry,
        rowCountValidation,
        keepTriggers,
        isolationLevel,
        sqtMaxCacheBytes,
        suspendOnGroupFailure,
        rsTicketReport,
        applyDdl,
        ec,
        numLargeXactThreads,
        synchronousCommit,
        hvar);
  }

  /** A copy with table-level {@code dsi_command_convert} values, keyed {@code schema.table}. */
  public DsiSettings withTableCommandConvert(Map<String, Set<CommandConversion>> byTable) {
    return new DsiSettings(
        numThreads,
        largeXactSize,
        serializationMethod,
        batch,
        maxCmdsInBatch,
        cmdBatchSizeBytes,
        xactGroupSizeBytes,
        maxXactsInGroup,
        bulkCopy,
        bulkThreshold,
        commandConvert,
        byTable,
        commandRetry,
        rowCountValidation,
        keepTriggers,
        isolationLevel,
        sqtMaxCacheBytes,
        suspendOnGroupFailure,
        rsTicketReport,
        applyDdl,
        errorClass,
        numLargeXactThreads,
        synchronousCommit,
        hvar);
  }

  /** A copy with other HVAR settings. */
  public DsiSettings withHvar(Hvar h) {
    return new DsiSettings(
        numThreads,
        largeXactSize,
        serializationMethod,
        batch,
        maxCmdsInBatch,
        cmdBatchSizeBytes,
        xactGroupSizeBytes,
        maxXactsInGroup,
        bulkCopy,
        bulkThreshold,
        commandConvert,
        tableCommandConvert,
        commandRetry,
        rowCountValidation,
        keepTriggers,
        isolationLevel,
        sqtMaxCacheBytes,
        suspendOnGroupFailure,
        rsTicketReport,
        applyDdl,
        errorClass,
        numLargeXactThreads,
        synchronousCommit,
        h);
  }

  /**
   * HVAR (High Volume Adaptive Replication): compiling many transactions into one net change per
   * row and applying it set-based ({@code docs/dsi.md}).
   *
   * @param enable {@code dsi_compile_enable}
   * @param maxCmds {@code dsi_compile_max_cmds}: most commands compiled into one group (a larger
   *     transaction forms a group alone)
   * @param cdbMaxSizeBytes {@code dsi_cdb_max_size}: most memory one group's net changes and source
   *     transactions take; reaching it closes the group
   * @param retryThreshold {@code dsi_compile_retry_threshold}: failed bulk applies involving a
   *     replicate table after which its transactions are applied in continuous mode until the
   *     connection resumes
   * @param tablesNotCompiled replicate tables ({@code schema.table}) whose transactions are always
   *     applied in continuous mode (Replication Server's table-level {@code dsi_compile_enable
   *     off})
   */
  public record Hvar(
      boolean enable,
      int maxCmds,
      long cdbMaxSizeBytes,
      int retryThreshold,
      Set<String> tablesNotCompiled) {
    public Hvar {
      check(maxCmds >= 1, "dsi_compile_max_cmds", maxCmds, ">= 1");
      check(cdbMaxSizeBytes >= 1, "dsi_cdb_max_size", cdbMaxSizeBytes, ">= 1");
      check(retryThreshold >= 1, "dsi_compile_retry_threshold", retryThreshold, ">= 1");
      tablesNotCompiled = Set.copyOf(tablesNotCompiled);
    }

    /** A copy with {@code dsi_compile_enable} set. */
    public Hvar withEnable(boolean on) {
      return new Hvar(on, maxCmds, cdbMaxSizeBytes, retryThreshold, tablesNotCompiled);
    }

    /** A copy with {@code dsi_compile_max_cmds} set (tests use sizes below the catalogue's 100). */
    public Hvar withMaxCmds(int n) {
      return new Hvar(enable, n, cdbMaxSizeBytes, retryThreshold, tablesNotCompiled);
    }

    /** A copy with {@code dsi_cdb_max_size} set. */
    public Hvar withCdbMaxSizeBytes(long n) {
      return new Hvar(enable, maxCmds, n, retryThreshold, tablesNotCompiled);
    }

    /** A copy with tables ({@code schema.table}) that are never compiled. */
    public Hvar withTablesNotCompiled(Set<String> tables) {
      return new Hvar(enable, maxCmds, cdbMaxSizeBytes, retryThreshold, tables);
    }
  }

  /**
   * How this DSI applies transactions: the one place the mode is worked out from {@code
   * dsi_compile_enable} and {@code dsi_num_threads}.
   */
  public ApplyMode applyMode() {
    if (hvar.enable()) {
      return ApplyMode.HVAR;
    }
    return numThreads > 1 ? ApplyMode.PARALLEL : ApplyMode.CONTINUOUS;
  }

  /** The conversions for one replicate table ({@code schema.table}). */
  public Set<CommandConversion> conversionsFor(String qualifiedTable) {
    Set<CommandConversion> t = tableCommandConvert.get(qualifiedTable);
    return t == null || t.isEmpty() ? commandConvert : t;
  }
}
