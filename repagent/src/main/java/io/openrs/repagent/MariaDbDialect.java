package io.openrs.repagent;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * MariaDB and MySQL through the binary log (Debezium's MariaDB and MySQL connectors; MariaDB always
 * has GTIDs, which Debezium uses to position itself).
 *
 * <p><b>OQID</b> (16 bytes): the binlog file number (the numeric suffix of {@code
 * mariadb-bin.000042}, 4 bytes), the position of the transaction's first event (its GTID or BEGIN
 * event) in that file (8 bytes), then the command's index inside the transaction (4 bytes; {@code
 * begin} = 0). A transaction is written to the binlog whole at commit, so transactions follow each
 * other in binlog order = commit order, and (file, position) grows strictly. A DDL statement is its
 * own transaction ({@code begin}, {@code ddl}, {@code commit}). Snapshot rows take the position
 * just before the binlog position the snapshot was read at.
 *
 * <p><b>Schema history</b> travels in the resume blob with the offsets ({@link
 * ServerSchemaHistory}); only DDL of captured tables is kept.
 */
final class MariaDbDialect implements SourceDialect {

  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(MariaDbDialect.class);
  static final int PREFIX_BYTES = 12;

  private final AgentSettings settings;

  /** Whether the zero-date check ran (once per agent, not per session). */
  private volatile boolean zeroDatesChecked;

  /** The zero-date warning the check found, reported to the server at every session. */
  private volatile Optional<io.openrs.wire.Frame.StatusItem> zeroDateWarning = Optional.empty();

  private final CaptureStatus status = new CaptureStatus();

  private final AgentSettings.SourceSettings source;

  MariaDbDialect(AgentSettings settings) {
    this.settings = settings;
    this.source = settings.source();
  }

  @Override
  public CaptureStatus captureStatus() {
    return status;
  }

  @Override
  public int prefixBytes() {
    return PREFIX_BYTES;
  }

  @Override
  public boolean keepsReadPosition() {
    return false;
  }

  /** For example "binlog file number 42 (*.000042), transaction at position 1234, command 3". */
  @Override
  public String describePosition(io.openrs.ltl.Oqid oqid) {
    return describe(oqid);
  }

  static String describe(io.openrs.ltl.Oqid oqid) {
    byte[] b = oqid.toBytes();
    if (b.length != PREFIX_BYTES + TransactionAssembler.INDEX_BYTES) {
      return "not a binlog OQID: " + b.length + " bytes";
    }
    ByteBuffer bb = ByteBuffer.wrap(b);
    long file = Integer.toUnsignedLong(bb.getInt());
    long pos = bb.getLong();
    long index = Integer.toUnsignedLong(bb.getInt());
    return String.format(
        java.util.Locale.ROOT,
        "binlog file number %d (*.%06d), transaction at position %d, command %d",
        file,
        file,
        pos,
        index);
  }

  private String jdbcUrl() {
    String scheme = source.profile() == SourceProfile.MYSQL ? "jdbc:mysql://" : "jdbc:mariadb://";
    return scheme + source.host() + ":" + source.port() + "/";
  }

  private Connection connect() {
    Properties p = new Properties();
    p.setProperty("user", source.user());
    p.setProperty("password", new String(source.password()));
    p.setProperty("connectTimeout", "10000");
    try {
      return DriverManager.getConnection(jdbcUrl(), p);
    } catch (SQLException e) {
      String state = e.getSQLState() == null ? "" : e.getSQLState();
      if (state.startsWith("28") || e.getErrorCode() == 1045) {
        return failLogin(e);
      }
      throw new AgentException(
          AgentException.Code.SOURCE_UNAVAILABLE,
          "cannot reach the primary "
              + source.profile().configName()
              + " "
              + source.host()
              + ":"
              + source.port()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  private Connection failLogin(SQLException e) {
    throw new AgentException(
        AgentException.Code.SOURCE_SETUP,
        "the primary refused the login of source_user "
            + source.user()
            + ": "
            + e.getMessage()
            + "; check source_user and source_password_env/_file",
        e);
  }

  /**
   * What must hold of the primary's global variables for its binlog to be read; empty when all is
   * well, else the message naming the setting (a pure function, unit-tested with bad values).
   */
  static Optional<String> checkBinlogSettings(
      String logBin, String binlogFormat, String binlogRowImage) {
    List<String> problems = new ArrayList<>();
    if (!("1".equals(logBin) || "ON".equalsIgnoreCase(logBin))) {
      problems.add("the binary log is off (log_bin); start the server with log_bin enabled");
    }
    if (!"ROW".equalsIgnoreCase(binlogFormat)) {
      problems.add(
          "binlog_format = "
              + binlogFormat
              + "; the agent needs binlog_format = ROW (SET GLOBAL binlog_format = 'ROW' and in"
              + " the server's configuration file)");
    }
    if (!"FULL".equalsIgnoreCase(binlogRowImage)) {
      problems.add(
          "binlog_row_image = "
              + binlogRowImage
              + "; the agent needs full row images: binlog_row_image = FULL");
    }
    return problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems));
  }

  @Override
  public void prepare() {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      try (ResultSet r =
          s.executeQuery(
              "SELECT @@GLOBAL.log_bin, @@GLOBAL.binlog_format, @@GLOBAL.binlog_row_image")) {
        r.next();
        Optional<String> problem =
            checkBinlogSettings(r.getString(1), r.getString(2), r.getString(3));
        if (problem.isPresent()) {
          throw new AgentException(
              AgentException.Code.SOURCE_SETUP,
              source.profile().configName()
                  + " at "
                  + source.host()
                  + ":"
                  + source.port()
                  + ": "
                  + problem.get());
        }
      }
      warnOfZeroDates(s);
      status.startFindings(zeroDateWarning.stream().toList());
      if (!settings.heartbeatInterval().isZero() && !heartbeatTableExists(c)) {
        // Only when missing: MariaDB writes even a no-op CREATE ... IF NOT EXISTS to the binlog.
        try {
          s.execute("CREATE DATABASE IF NOT EXISTS " + quote(source.heartbeatSchema()));
          s.execute(
              "CREATE TABLE IF NOT EXISTS "
                  + heartbeatTable()
                  + " (agent VARCHAR(64) PRIMARY KEY, beat DATETIME(6) NOT NULL)");
        } catch (SQLException e) {
          throw new AgentException(
              AgentException.Code.SOURCE_SETUP,
              "cannot create heartbeat_table "
                  + heartbeatTable()
                  + " as "
                  + source.user()
                  + ": "
                  + e.getMessage(),
              e);
        }
      }
      if (source.createTicket()) {
        ensureTicketObjects(c);
      }
    } catch (SQLException e) {
      throw new AgentException(
          AgentException.Code.SOURCE_UNAVAILABLE, "checking the primary: " + e.getMessage(), e);
    }
  }

  /**
   * Warns once, at the first start, when the primary's global sql_mode lets sessions store zero
   * dates ({@code 0000-00-00}, {@code 2026-00-10}): Debezium's binlog reader delivers such a value
   * as NULL, or as 1970-01-01 in a NOT NULL column, so the replicate would not hold what the
   * primary holds. A session can still set its own sql_mode; the warning names the global one.
   */
  private void warnOfZeroDates(Statement s) throws SQLException {
    if (zeroDatesChecked) {
      return;
    }
    zeroDatesChecked = true;
    try (ResultSet r = s.executeQuery("SELECT @@GLOBAL.sql_mode")) {
      r.next();
      String mode = r.getString(1) == null ? "" : r.getString(1);
      if (allowsZeroDates(mode)) {
        String message =
            "the primary's sql_mode '"
                + mode
                + "' lets it store zero dates; the log reader delivers a zero date as NULL"
                + " (1970-01-01 in a NOT NULL column), so such rows would differ at the"
                + " replicate: add STRICT_TRANS_TABLES, NO_ZERO_DATE and NO_ZERO_IN_DATE to its"
                + " sql_mode";
        LOG.warn("agent {}: {}", settings.agentName(), message);
        zeroDateWarning = Optional.of(CaptureStatus.warning(message));
      }
    }
  }

  /** Whether a session in {@code sqlMode} may store a zero date or a date with a zero part. */
  static boolean allowsZeroDates(String sqlMode) {
    java.util.Set<String> flags =
        new java.util.HashSet<>(
            java.util.Arrays.asList(sqlMode.toUpperCase(java.util.Locale.ROOT).split("\\s*,\\s*")));
    boolean strict = flags.contains("STRICT_TRANS_TABLES") || flags.contains("STRICT_ALL_TABLES");
    boolean traditional = flags.contains("TRADITIONAL");
    return !traditional
        && !(strict && flags.contains("NO_ZERO_DATE") && flags.contains("NO_ZERO_IN_DATE"));
  }

  /**
   * Creates the database {@code rs_ticket_schema}, table {@code rs_ticket_marker} and procedure
   * {@code rs_ticket} when absent ({@link RsTicket}); only what is missing, since MariaDB writes
   * even a no-op {@code CREATE ... IF NOT EXISTS} to the binlog.
   */
  private void ensureTicketObjects(Connection c) throws SQLException {
    String db = source.ticketSchema();
    boolean schema =
        exists(c, "SELECT 1 FROM information_schema.schemata WHERE schema_name = ?", db);
    boolean table =
        schema
            && exists(
                c,
                "SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name ="
                    + " 'rs_ticket_marker'",
                db);
    boolean procedure =
        schema
            && exists(
                c,
                "SELECT 1 FROM information_schema.routines WHERE routine_schema = ? AND"
                    + " routine_name = 'rs_ticket' AND routine_type = 'PROCEDURE'",
                db);
    String what = "database " + quote(db);
    try (Statement s = c.createStatement()) {
      if (!schema) {
        s.execute("CREATE DATABASE IF NOT EXISTS " + quote(db));
      }
      what = "table " + quote(db) + ".`rs_ticket_marker`";
      if (!table) {
        try {
          s.execute(RsTicket.mariaDbTable(db));
        } catch (SQLException e) {
          if (e.getErrorCode() != 1050) { // ER_TABLE_EXISTS_ERROR: created meanwhile
            throw e;
          }
        }
      }
      what = "procedure " + quote(db) + ".`rs_ticket`";
      if (!procedure) {
        try {
          s.execute(RsTicket.mariaDbProcedure(db));
          LOG.info(
              "agent {}: created procedure {}.rs_ticket and table {}.rs_ticket_marker (rs_ticket)",
              settings.agentName(),
              db,
              db);
        } catch (SQLException e) {
          if (e.getErrorCode() != 1304) { // ER_SP_ALREADY_EXISTS: created meanwhile
            throw e;
          }
        }
      }
    } catch (SQLException e) {
      int code = e.getErrorCode();
      boolean denied = code == 1044 || code == 1142 || code == 1227 || code == 1370;
      throw new AgentException(
          AgentException.Code.SOURCE_SETUP,
          "cannot create "
              + what
              + " (rs_ticket) as source_user "
              + source.user()
              + " (error "
              + code
              + "): "
              + e.getMessage()
              + "; "
              + (denied
                  ? "source_user needs CREATE, CREATE ROUTINE, SELECT, INSERT and DELETE on "
                      + quote(db)
                      + " (GRANT CREATE, CREATE ROUTINE, SELECT, INSERT, DELETE ON "
                      + quote(db)
                      + ".* TO ...), or set rs_ticket_schema to a database where it has them"
                  : "fix the cause")
              + ", or create them yourself (docs/repagent.md, rs_ticket) and set"
              + " rs_ticket_create = off",
          e);
    }
  }

  private static boolean exists(Connection c, String sql, String arg) throws SQLException {
    try (java.sql.PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, arg);
      try (ResultSet r = ps.executeQuery()) {
        return r.next();
      }
    }
  }

  /**
   * Whether a DDL statement from the binlog is about the rs_ticket objects in {@code ticketDb}
   * (never sent): on table {@code rs_ticket_marker}, or creating, altering or dropping procedure
   * {@code rs_ticket}.
   *
   * @param table the table Debezium names for the statement, or null
   * @param tableDb the database of that table, or null
   * @param databaseName the database the statement ran in, or null
   */
  static boolean isTicketDdl(
      String ticketDb, String table, String tableDb, String databaseName, String ddl) {
    if (RsTicket.MARKER_TABLE.equals(table)
        && ticketDb.equals(tableDb == null ? databaseName : tableDb)) {
      return true;
    }
    java.util.regex.Matcher m = TICKET_PROCEDURE_DDL.matcher(ddl == null ? "" : ddl);
    if (!m.find()) {
      return false;
    }
    String db = m.group(1);
    if (db == null) {
      return ticketDb.equals(databaseName);
    }
    if (db.startsWith("`")) {
      db = db.substring(1, db.length() - 1).replace("``", "`");
    }
    return ticketDb.equals(db);
  }

  private static final java.util.regex.Pattern TICKET_PROCEDURE_DDL =
      java.util.regex.Pattern.compile(
          "^\\s*(?:CREATE|DROP|ALTER)\\b[^(]*?\\bPROCEDURE\\s+(?:IF\\s+(?:NOT\\s+)?EXISTS\\s+)?"
              + "(?:(`(?:[^`]|``)+`|\\w+)\\s*\\.\\s*)?(?:`rs_ticket`|rs_ticket)(?=[\\s(;]|$)",
          java.util.regex.Pattern.CASE_INSENSITIVE | java.util.regex.Pattern.DOTALL);

  private boolean heartbeatTableExists(Connection c) throws SQLException {
    try (java.sql.PreparedStatement ps =
        c.prepareStatement(
            "SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = ?")) {
      ps.setString(1, source.heartbeatSchema());
      ps.setString(2, source.heartbeatTable());
      try (ResultSet r = ps.executeQuery()) {
        return r.next();
      }
    }
  }

  private String heartbeatTable() {
    return quote(source.heartbeatSchema()) + "." + quote(source.heartbeatTable());
  }

  static String quote(String s) {
    return "`" + s.replace("`", "``") + "`";
  }

  @Override
  public Properties connectorProperties() {
    Properties p = new Properties();
    p.setProperty(
        "connector.class",
        source.profile() == SourceProfile.MYSQL
            ? "io.debezium.connector.mysql.MySqlConnector"
            : "io.debezium.connector.mariadb.MariaDbConnector");
    p.setProperty("database.hostname", source.host());
    p.setProperty("database.port", Integer.toString(source.port()));
    p.setProperty("database.user", source.user());
    p.setProperty("database.password", new String(source.password()));
    p.setProperty("database.server.id", Long.toString(source.serverId()));
    p.setProperty("snapshot.mode", source.snapshot() ? "initial" : "no_data");
    p.setProperty("include.schema.changes", "true");
    p.setProperty("bigint.unsigned.handling.mode", "precise");
    p.setProperty("schema.history.internal.store.only.captured.tables.ddl", "true");
    p.setProperty("schema.history.internal.store.only.captured.databases.ddl", "true");
    List<String> databases = new ArrayList<>();
    List<String> tables = new ArrayList<>(source.tableIncludeList());
    if (!source.database().isEmpty()) {
      databases.add(source.database());
    }
    for (String t : source.tableIncludeList()) {
      String db = t.substring(0, t.indexOf('.'));
      if (!databases.contains(db) && !db.contains("%")) {
        databases.add(db);
      }
    }
    if (!settings.heartbeatInterval().isZero()) {
      if (!databases.isEmpty() && !databases.contains(source.heartbeatSchema())) {
        databases.add(source.heartbeatSchema());
      }
      if (!tables.isEmpty()) {
        tables.add(source.heartbeatSchema() + "." + source.heartbeatTable());
      }
      p.setProperty(
          "heartbeat.action.query",
          "INSERT INTO "
              + heartbeatTable()
              + " (agent, beat) VALUES ('"
              + settings.agentName().replace("'", "''")
              + "', NOW(6)) ON DUPLICATE KEY UPDATE beat = VALUES(beat)");
    }
    if (!databases.isEmpty() && !databases.contains(source.ticketSchema())) {
      databases.add(source.ticketSchema());
    }
    if (!tables.isEmpty()) {
      tables.add(source.ticketSchema() + "." + RsTicket.MARKER_TABLE);
    }
    if (!databases.isEmpty()) {
      p.setProperty("database.include.list", PostgresDialect.includeRegex(databases));
    }
    if (!tables.isEmpty()) {
      p.setProperty("table.include.list", PostgresDialect.includeRegex(tables));
    }
    return p;
  }

  @Override
  public RecordMapper newMapper(TransactionAssembler out, AgentCounters counters) {
    return new Mapper(out, counters);
  }

  /** The numeric suffix of a binlog file name ({@code mariadb-bin.000042} is 42). */
  static int fileNumber(String file) {
    int dot = file.lastIndexOf('.');
    try {
      return Integer.parseInt(file.substring(dot + 1));
    } catch (NumberFormatException | IndexOutOfBoundsException e) {
      throw new AgentException(
          AgentException.Code.INTERNAL, "binlog file name without a number: " + file);
    }
  }

  static byte[] prefix(String file, long position) {
    return ByteBuffer.allocate(PREFIX_BYTES).putInt(fileNumber(file)).putLong(position).array();
  }

  /** Maps binlog records; see the class comment for the OQID. */
  final class Mapper implements RecordMapper {
    private final TransactionAssembler out;

    /**
     * The delete half of a primary-key update, held until the next record tells whether its create
     * half follows (then both become one {@code update}) or not (then it is sent as a delete).
     */
    private PostgresDialect.HeldDelete held;

    private final AgentCounters counters;
    private final RowImages images = new RowImages();
    private final String transactionTopic;
    private final String schemaTopic;
    private final TableName heartbeat =
        new TableName(source.heartbeatSchema(), source.heartbeatTable());
    private final TableName ticketTable =
        new TableName(source.ticketSchema(), RsTicket.MARKER_TABLE);
    private byte[] openPrefix;
    private boolean snapshotOpen;

    Mapper(TransactionAssembler out, AgentCounters counters) {
      this.out = out;
      this.counters = counters;
      String prefix = AgentSession.topicPrefix(settings);
      this.transactionTopic = prefix + ".transaction";
      this.schemaTopic = prefix;
    }

    @Override
    public boolean map(SourceRecord record) throws InterruptedException {
      if (held != null && !held.pairsWith(record, "db")) {
        releaseHeld();
      }
      Map<String, ?> offset = record.sourceOffset();
      if (record.topic().equals(transactionTopic)) {
        Struct v = (Struct) record.value();
        if (v.getString("status").equals("BEGIN")) {
          openPrefix = prefix((String) offset.get("file"), PostgresDialect.longOf(offset, "pos"));
          out.begin(TranId.of(openPrefix), seconds(offset), Optional.empty());
          counters.increment(AgentCounter.RA_LOG_RECORDS_PROCESSED);
          return false;
        }
        if (!out.inTransaction()) {
          throw new AgentException(
              AgentException.Code.INTERNAL,
              "transaction END " + v.getString("id") + " without its BEGIN");
        }
        out.commit(openPrefix, seconds(offset));
        counters.increment(AgentCounter.RA_LOG_RECORDS_PROCESSED);
        openPrefix = null;
        return true;
      }
      if (!(record.value() instanceof Struct value)) {
        counters.increment(AgentCounter.RA_LOG_RECORDS_SKIPPED);
        return !out.inTransaction();
      }
      if (record.topic().equals(schemaTopic) && value.schema().field("ddl") != null) {
        return schemaChange(value, offset);
      }
      if (value.schema().field("op") == null) {
        counters.increment(AgentCounter.RA_LOG_RECORDS_SKIPPED);
        return !out.inTransaction();
      }
      Struct src = value.getStruct("source");
      TableName table = new TableName(src.getString("db"), src.getString("table"));
      String op = value.getString("op");
      if (table.equals(heartbeat)) {
        counters.increment(AgentCounter.RA_LOG_RECORDS_SKIPPED);
        return op.equals("r") ? skippedSnapshotRow(value, offset) : !out.inTransaction();
      }
      if (table.equals(ticketTable)) {
        return ticketRow(value, op, offset);
      }
      if (op.equals("r")) {
        return snapshotRow(value, table, offset);
      }
      if (!out.inTransaction()) {
        throw new AgentException(
            AgentException.Code.INTERNAL, "change to " + table + " outside a transaction");
      }
      switch (op) {
        case "c":
          {
            var after = images.all(value.getStruct("after"));
            if (held != null) {
              // held.pairsWith(record) (map released it otherwise): one primary-key update
              var before = held.before();
              held = null;
              out.add((t, o) -> new LtlCommand.Update(t, o, table, before, after));
              break;
            }
            out.add((t, o) -> new LtlCommand.Insert(t, o, table, false, after));
            break;
          }
        case "u":
          {
            var before = images.all(value.getStruct("before"));
            var after = images.all(value.getStruct("after"));
            out.add((t, o) -> new LtlCommand.Update(t, o, table, before, after));
            break;
          }
        case "d":
          {
            var before = images.all(value.getStruct("before"));
            Struct newKey = PostgresDialect.header(record, PostgresDialect.NEW_KEY_HEADER);
            if (newKey != null && record.key() instanceof Struct oldKey) {
              // Debezium emits a primary-key update as this delete and then a create: hold it
              held = new PostgresDialect.HeldDelete(table, before, oldKey, newKey);
              break;
            }
            out.add((t, o) -> new LtlCommand.Delete(t, o, table, before));
            break;
          }
        case "t":
          out.add((t, o) -> new LtlCommand.Truncate(t, o, table));
          break;
        default:
          throw new AgentException(
              AgentException.Code.INTERNAL, "unknown change operation '" + op + "' on " + table);
      }
      counters.increment(AgentCounter.RA_LOG_RECORDS_PROCESSED);
      return false;
    }

    /** Sends the held delete as a delete: no create of the same key update followed it. */
    private void releaseHeld() {
      PostgresDialect.HeldDelete d = held;
      held = null;
      out.add((t, o) -> new LtlCommand.Delete(t, o, d.table(), d.before()));
    }

    /**
     * A change to the marker table: an insert is a ticket at its place in the transaction; updates,
     * deletes (the procedure's clean-up) and snapshot rows are never sent.
     */
    private boolean ticketRow(Struct value, String op, Map<String, ?> offset)
        throws InterruptedException {
      if (op.equals("r")) {
        counters.increment(AgentCounter.RA_LOG_RECORDS_SKIPPED);
        return skippedSnapshotRow(value, offset);
      }
      if (!op.equals("c") || !out.inTransaction()) {
        counters.increment(AgentCounter.RA_LOG_RECORDS_SKIPPED);
        return !out.inTransaction();
      }
      Struct after = value.getStruct("after");
      List<String> headers =
          RsTicket.headers(
              text(after, "h1"), text(after, "h2"), text(after, "h3"), text(after, "h4"));
      Instant pdb = pdbTime(after, offset);
      out.add((t, o) -> new LtlCommand.Ticket(t, o, pdb, headers));
      counters.increment(AgentCounter.RA_TICKETS);
      counters.increment(AgentCounter.RA_LOG_RECORDS_PROCESSED);
      return false;
    }

    private String text(Struct row, String column) {
      if (row.schema().field(column) == null) {
        return null;
      }
      Object v = row.get(column);
      return v == null ? null : v.toString();
    }

    /** {@code pdb_time} (a UTC DATETIME) as Debezium delivers it; the commit time otherwise. */
    private Instant pdbTime(Struct row, Map<String, ?> offset) {
      org.apache.kafka.connect.data.Field f = row.schema().field("pdb_time");
      Object v = f == null ? null : row.get(f);
      if (!(v instanceof Number n)) {
        return seconds(offset);
      }
      String type = f.schema().name() == null ? "" : f.schema().name();
      switch (type) {
        case "io.debezium.time.Timestamp":
          return Instant.ofEpochMilli(n.longValue());
        case "io.debezium.time.NanoTimestamp":
          return RsTicket.ofMicros(Math.floorDiv(n.longValue(), 1000L));
        default:
          return RsTicket.ofMicros(n.longValue());
      }
    }

    /**
     * A snapshot row of a table whose rows are never sent (heartbeat, rs_ticket markers): still
     * ends the snapshot when it is the last row.
     */
    private boolean skippedSnapshotRow(Struct value, Map<String, ?> offset)
        throws InterruptedException {
      Struct src = value.getStruct("source");
      if (!"last".equals(src.getString("snapshot"))) {
        return false;
      }
      if (snapshotOpen) {
        out.commit(openPrefix, seconds(offset));
        openPrefix = null;
        snapshotOpen = false;
      }
      return !out.inTransaction();
    }

    /**
     * A DDL statement from the binlog: its own transaction (DDL commits implicitly). Schema records
     * of Debezium's schema snapshot (DROP/CREATE of the captured tables) are not sent.
     */
    private boolean schemaChange(Struct value, Map<String, ?> offset) throws InterruptedException {
      Struct src = value.getStruct("source");
      String snapshot = src.getString("snapshot");
      if (snapshot != null && !snapshot.equals("false")) {
        counters.increment(AgentCounter.RA_LOG_RECORDS_SKIPPED);
        return !out.inTransaction();
      }
      String ddl = value.getString("ddl");
      String db = value.getString("databaseName");
      if (source.heartbeatTable().equals(src.getString("table"))
          && source.heartbeatSchema().equals(src.getString("db"))) {
        counters.increment(AgentCounter.RA_LOG_RECORDS_SKIPPED);
        return !out.inTransaction();
      }
      if (isTicketDdl(
          source.ticketSchema(), src.getString("table"), src.getString("db"), db, ddl)) {
        counters.increment(AgentCounter.RA_LOG_RECORDS_SKIPPED);
        return !out.inTransaction();
      }
      if (!out.inTransaction()) {
        openPrefix = prefix((String) offset.get("file"), PostgresDialect.longOf(offset, "pos"));
        out.begin(TranId.of(openPrefix), seconds(offset), Optional.empty());
      }
      Optional<String> schema = db == null || db.isEmpty() ? Optional.empty() : Optional.of(db);
      out.add((t, o) -> new LtlCommand.Ddl(t, o, schema, ddl));
      out.commit(openPrefix, seconds(offset));
      openPrefix = null;
      counters.increment(AgentCounter.RA_LOG_RECORDS_PROCESSED);
      // Not a restart point: Debezium's offset here may still replay the DDL's own events.
      return false;
    }

    private boolean snapshotRow(Struct value, TableName table, Map<String, ?> offset)
        throws InterruptedException {
      if (!snapshotOpen) {
        if (out.inTransaction()) {
          out.abort();
        }
        // Just before the snapshot's binlog position: the first streamed transaction starts
        // there or later.
        openPrefix = prefix((String) offset.get("file"), PostgresDialect.longOf(offset, "pos") - 1);
        out.begin(
            TranId.of(("snapshot:" + offset.get("file") + ":" + offset.get("pos")).getBytes()),
            seconds(offset),
            Optional.empty());
        snapshotOpen = true;
      }
      var after = images.all(value.getStruct("after"));
      out.add((t, o) -> new LtlCommand.Insert(t, o, table, true, after));
      counters.increment(AgentCounter.RA_LOG_RECORDS_PROCESSED);
      String marker = value.getStruct("source").getString("snapshot");
      if ("last".equals(marker)) {
        out.commit(openPrefix, seconds(offset));
        openPrefix = null;
        snapshotOpen = false;
        return true;
      }
      return false;
    }
  }

  /** Binlog times have seconds ({@code ts_sec} of the offset). */
  static Instant seconds(Map<String, ?> offset) {
    Object v = offset.get("ts_sec");
    return v instanceof Number n ? Instant.ofEpochSecond(n.longValue()) : Instant.EPOCH;
  }
}
