package io.openrs.repagent;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL through logical decoding ({@code pgoutput}), Debezium's PostgreSQL connector.
 *
 * <p><b>OQID</b> (12 bytes): the transaction's commit LSN as Debezium reports it at the
 * transaction's END ({@code lsn_commit} of its offset: the end of the commit record, the position
 * the slot is confirmed to when the transaction is released), 8 bytes big-endian, then the
 * command's index inside the transaction, 4 bytes ({@code begin} = 0, the commit last). pgoutput
 * sends transactions whole and in commit order, and commit LSNs grow with commit order, so OQIDs
 * grow strictly; they depend on nothing but the WAL, so a replay gives every command the OQID it
 * had.
 *
 * <p><b>Slot</b>: {@code slot_name}, created by Debezium when absent; {@code lsn.flush.mode =
 * connector}, so the slot is confirmed only from offsets the agent released (never by the JDBC
 * driver's keepalives), i.e. behind the server's durable point. A heartbeat writes {@code
 * heartbeat_table} (in the publication), so a primary whose captured tables are idle still moves
 * the slot.
 */
final class PostgresDialect implements SourceDialect {

  private static final Logger LOG = LoggerFactory.getLogger(PostgresDialect.class);
  static final int PREFIX_BYTES = 8;

  private final AgentSettings settings;
  private final AgentSettings.SourceSettings source;
  private final java.util.Set<String> loggedOnce =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final CaptureStatus status = new CaptureStatus();

  /**
   * Captured tables left out of the capture (Debezium cannot read them, or their {@code timetz}
   * values would change); found by {@link #prepare()}.
   */
  private volatile List<String> leftOutTables = List.of();

  /** Who keeps the publication; decided by {@link #prepare()}, before the engine starts. */
  private volatile PostgresPublication.Mode publicationMode = PostgresPublication.Mode.FILTERED;

  PostgresDialect(AgentSettings settings) {
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

  /** The replication slot: without offsets Debezium streams from its confirmed position. */
  @Override
  public boolean keepsReadPosition() {
    return true;
  }

  @Override
  public String describePosition(io.openrs.ltl.Oqid oqid) {
    byte[] b = oqid.toBytes();
    if (b.length != PREFIX_BYTES + TransactionAssembler.INDEX_BYTES) {
      return "not a PostgreSQL OQID: " + b.length + " bytes";
    }
    java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(b);
    long lsn = bb.getLong();
    long index = Integer.toUnsignedLong(bb.getInt());
    return String.format(
        java.util.Locale.ROOT,
        "commit LSN %X/%X, command %d",
        lsn >>> 32,
        lsn & 0xFFFF_FFFFL,
        index);
  }

  String jdbcUrl() {
    return "jdbc:postgresql://" + source.host() + ":" + source.port() + "/" + source.database();
  }

  Connection connect() {
    Properties p = new Properties();
    p.setProperty("user", source.user());
    p.setProperty("password", new String(source.password()));
    p.setProperty("connectTimeout", "10");
    p.setProperty("ApplicationName", "openrs-repagent-" + settings.agentName());
    try {
      return DriverManager.getConnection(jdbcUrl(), p);
    } catch (SQLException e) {
      throw classify(e);
    }
  }

  /** Connection and login failures: setup errors need the DBA, the rest may pass. */
  AgentException classify(SQLException e) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    String where =
        source.user() + "@" + source.host() + ":" + source.port() + "/" + source.database();
    if (state.startsWith("28")) {
      return new AgentException(
          AgentException.Code.SOURCE_SETUP,
          "PostgreSQL refused the login of source_user "
              + where
              + " (SQLSTATE "
              + state
              + "): "
              + e.getMessage()
              + "; check source_user and source_password_env/_file",
          e);
    }
    if (state.equals("3D000")) {
      return new AgentException(
          AgentException.Code.SOURCE_SETUP,
          "source_database " + source.database() + " does not exist at " + where,
          e);
    }
    return new AgentException(
        AgentException.Code.SOURCE_UNAVAILABLE,
        "cannot reach the primary PostgreSQL "
            + where
            + " (SQLSTATE "
            + state
            + "): "
            + e.getMessage(),
        e);
  }

  @Override
  public void prepare() {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      String walLevel;
      try (ResultSet r = s.executeQuery("SHOW wal_level")) {
        r.next();
        walLevel = r.getString(1);
      }
      if (!walLevel.equals("logical")) {
        throw new AgentException(
            AgentException.Code.SOURCE_SETUP,
            "PostgreSQL at "
                + source.host()
                + ":"
                + source.port()
                + " runs with wal_level = "
                + walLevel
                + "; reading its log needs wal_level = logical (set it in postgresql.conf and"
                + " restart PostgreSQL)");
      }
      boolean replication;
      try (ResultSet r =
          s.executeQuery(
              "SELECT rolreplication OR rolsuper FROM pg_roles WHERE rolname = current_user")) {
        replication = r.next() && r.getBoolean(1);
      }
      if (!replication) {
        throw new AgentException(
            AgentException.Code.SOURCE_SETUP,
            "source_user '"
                + source.user()
                + "' lacks the REPLICATION attribute needed to read the log of "
                + source.database()
                + " (ALTER ROLE "
                + quoteIdent(source.user())
                + " REPLICATION, or name another source_user)");
      }
      try (PreparedStatement ps =
          c.prepareStatement("SELECT plugin FROM pg_replication_slots WHERE slot_name = ?")) {
        ps.setString(1, source.slotName());
        try (ResultSet r = ps.executeQuery()) {
          if (r.next() && !"pgoutput".equals(r.getString(1))) {
            throw new AgentException(
                AgentException.Code.SOURCE_SETUP,
                "replication slot "
                    + source.slotName()
                    + " (slot_name) exists with plugin "
                    + r.getString(1)
                    + "; the agent needs a pgoutput slot: drop it or name another slot_name");
          }
        }
      }
      if (!settings.heartbeatInterval().isZero()) {
        try {
          s.execute(
              "CREATE TABLE IF NOT EXISTS "
                  + heartbeatTable()
                  + " (agent text PRIMARY KEY, beat timestamptz NOT NULL)");
        } catch (SQLException e) {
          throw new AgentException(
              AgentException.Code.SOURCE_SETUP,
              "cannot create heartbeat_table "
                  + heartbeatTable()
                  + " as "
                  + source.user()
                  + " (SQLSTATE "
                  + e.getSQLState()
                  + "): "
                  + e.getMessage()
                  + "; create it (agent text PRIMARY KEY, beat timestamptz NOT NULL) or grant"
                  + " CREATE",
              e);
        }
      }
      if (source.createTicket()) {
        ensureTicketFunction(c);
      }
      // materialization (Materialization): the signal table
      Materialization.createPostgresSignalTable(c, source.ticketSchema());
      findLeftOutTables(c);
      ensurePublication(c);
    } catch (SQLException e) {
      throw classify(e);
    }
  }

  /**
   * Creates {@code rs_ticket(h1, h2, h3, h4)} in {@code rs_ticket_schema} when absent ({@link
   * RsTicket}); an existing one is left as it is.
   */
  private void ensureTicketFunction(Connection c) throws SQLException {
    String schema = source.ticketSchema();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
                + " WHERE n.nspname = ? AND p.proname = 'rs_ticket'"
                + " AND oidvectortypes(p.proargtypes) = 'text, text, text, text'")) {
      ps.setString(1, schema);
      try (ResultSet r = ps.executeQuery()) {
        if (r.next()) {
          return;
        }
      }
    }
    String fn = quoteIdent(schema) + ".rs_ticket(text, text, text, text)";
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      s.execute(RsTicket.postgresFunction(schema));
      s.execute(RsTicket.postgresComment(schema));
      c.commit();
      LOG.info(
          "agent {}: created function {} in {} (rs_ticket)",
          settings.agentName(),
          fn,
          source.database());
    } catch (SQLException e) {
      try {
        c.rollback();
      } catch (SQLException ignored) {
        LOG.debug("rollback after a failed create of {}: {}", fn, ignored.toString());
      }
      String state = e.getSQLState() == null ? "" : e.getSQLState();
      if (state.equals("42723") || state.equals("23505")) {
        return; // created at the same time by another session
      }
      if (state.startsWith("08")) {
        throw classify(e);
      }
      String fix;
      if (state.equals("3F000")) {
        fix =
            "rs_ticket_schema "
                + schema
                + " does not exist in "
                + source.database()
                + ": create it or set rs_ticket_schema to another schema";
      } else if (state.equals("42501")) {
        fix =
            "source_user '"
                + source.user()
                + "' needs the CREATE privilege on schema "
                + schema
                + " (GRANT CREATE ON SCHEMA "
                + quoteIdent(schema)
                + " TO "
                + quoteIdent(source.user())
                + "), or set rs_ticket_schema to a schema it may create in";
      } else {
        fix = "fix the cause";
      }
      throw new AgentException(
          AgentException.Code.SOURCE_SETUP,
          "cannot create function "
              + fn
              + " (rs_ticket) in "
              + source.database()
              + " as source_user '"
              + source.user()
              + "' (SQLSTATE "
              + state
              + "): "
              + e.getMessage()
              + "; "
              + fix
              + ", or create the function yourself (docs/repagent.md, rs_ticket) and set"
              + " rs_ticket_create = off",
          e);
    } finally {
      c.setAutoCommit(true);
    }
  }

  /** Logs {@code message} at {@code warn} or INFO the first time {@code key} is seen. */
  private void once(String key, boolean warn, String message, Object... args) {
    if (loggedOnce.add(key)) {
      if (warn) {
        LOG.warn(message, args);
      } else {
        LOG.info(message, args);
      }
    }
  }

  private String heartbeatTable() {
    return quoteIdent(source.heartbeatSchema()) + "." + quoteIdent(source.heartbeatTable());
  }

  static String quoteIdent(String s) {
    return "\"" + s.replace("\"", "\"\"") + "\"";
  }

  @Override
  public Map<ByteBuffer, ByteBuffer> restartOffsets(
      Map<ByteBuffer, ByteBuffer> stored, Optional<io.openrs.ltl.Oqid> serverPoint) {
    OptionalLong resume = PostgresResumeOffsets.lastCommit(stored);
    if (resume.isPresent()) {
      long held =
          serverPoint
              .filter(o -> o.toBytes().length >= PREFIX_BYTES) // a PostgreSQL OQID
              .map(PostgresDialect::commitEnd)
              .orElse(resume.getAsLong());
      requireChangesAfter(resume.getAsLong(), Math.max(held, resume.getAsLong()));
    }
    return PostgresResumeOffsets.safeToRestart(stored);
  }

  /** The commit end LSN an OQID of this source starts with. */
  static long commitEnd(io.openrs.ltl.Oqid oqid) {
    return ByteBuffer.wrap(oqid.toBytes()).getLong();
  }

  /**
   * The check Debezium's own would make ({@code internal.log.position.check.enable}, turned off: it
   * compares the slot's {@code restart_lsn} with {@code lsn_proc}, which {@link
   * PostgresResumeOffsets} moves one byte before the commit end, below a slot that moved exactly to
   * that commit on an idle primary), made against what the server holds: the slot must still
   * deliver every transaction committed after {@code heldCommitEnd}, the end of the last commit the
   * server holds durably, i.e. its {@code confirmed_flush_lsn} must not be past it. The slot may be
   * past {@code resumeCommitEnd}, the resume blob's position (the server saves a blob only after
   * the data it covers, and a server stopped between the two keeps the older blob): PostgreSQL then
   * streams from the slot's confirmed position, and every transaction it skips is at the server.
   */
  private void requireChangesAfter(long resumeCommitEnd, long heldCommitEnd) {
    try (Connection c = connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT (restart_lsn - '0/0'::pg_lsn)::bigint,"
                    + " (confirmed_flush_lsn - '0/0'::pg_lsn)::bigint,"
                    + " (pg_current_wal_lsn() - restart_lsn)::bigint FROM pg_replication_slots"
                    + " WHERE slot_name = ?")) {
      ps.setString(1, source.slotName());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next() || rs.getObject(1) == null) {
          return; // no slot yet: created at start, from the current end of the log
        }
        long restart = rs.getLong(1);
        long confirmed = rs.getObject(2) == null ? restart : rs.getLong(2);
        // The walsender decodes every database's WAL from restart_lsn on before this database's
        // first change: after a long stop on a busy cluster that is minutes of silence.
        LOG.info(
            "agent {}: resuming after {}; the primary decodes the WAL of all its databases from"
                + " slot {}'s restart_lsn {} on, {} MiB up to its current end, before the first"
                + " change arrives",
            settings.agentName(),
            lsnText(resumeCommitEnd),
            source.slotName(),
            lsnText(restart),
            rs.getLong(3) >> 20);
        if (confirmed > heldCommitEnd) {
          throw new AgentException(
              AgentException.Code.RESUME_POSITION_MISSING,
              "replication slot "
                  + source.slotName()
                  + " was confirmed up to "
                  + lsnText(confirmed)
                  + ", past "
                  + lsnText(heldCommitEnd)
                  + " (the end of the last transaction the server holds): the changes committed"
                  + " in between are gone from the primary (the slot was dropped and created"
                  + " again, or advanced by something other than this agent). Rematerialize the"
                  + " replicates, then start the agent once with snapshot = on");
        }
        if (confirmed > resumeCommitEnd) {
          LOG.info(
              "agent {}: slot {} is confirmed up to {}, past the saved resume position {} but not"
                  + " past the last commit the server holds ({}): the primary streams from {} and"
                  + " every transaction before it is at the server",
              settings.agentName(),
              source.slotName(),
              lsnText(confirmed),
              lsnText(resumeCommitEnd),
              lsnText(heldCommitEnd),
              lsnText(confirmed));
        }
      }
    } catch (SQLException e) {
      throw classify(e);
    }
  }

  @Override
  public Properties connectorProperties() {
    Properties p = new Properties();
    p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
    p.setProperty("database.hostname", source.host());
    p.setProperty("database.port", Integer.toString(source.port()));
    p.setProperty("database.user", source.user());
    p.setProperty("database.password", new String(source.password()));
    p.setProperty("database.dbname", source.database());
    p.setProperty("plugin.name", "pgoutput");
    p.setProperty("slot.name", source.slotName());
    p.setProperty("slot.drop.on.stop", "false");
    p.setProperty("publication.name", source.publicationName());
    p.setProperty("lsn.flush.mode", "connector");
    // The agent checks the resume position against the slot itself (requireChangesAfter):
    // Debezium's
    // check would refuse the safe offset PostgresResumeOffsets writes when the slot sits exactly
    // at the last commit (an idle primary), and the agent would fail at every restart.
    p.setProperty("internal.log.position.check.enable", "false");
    p.setProperty("snapshot.mode", source.snapshot() ? "initial" : "no_data");
    // Every column type Debezium cannot carry exactly, and every TOASTable one, goes through the
    // agent's own converter: exact values, and "unchanged TOASTed value" as a flag.
    p.setProperty("converters", PostgresColumnValues.NAME);
    p.setProperty(PostgresColumnValues.NAME + ".type", PostgresColumnValues.class.getName());
    p.setProperty(
        PostgresColumnValues.NAME + "." + PostgresColumnValues.SKIP_TABLES,
        Materialization.includePattern(source.ticketSchema()));
    p.setProperty("skipped.operations", "none");
    p.setProperty("include.unknown.datatypes", "true");
    List<String> unreadable = List.copyOf(leftOutTables);
    if (source.tableIncludeList().isEmpty()) {
      p.setProperty("publication.autocreate.mode", "all_tables");
      if (!unreadable.isEmpty()) {
        p.setProperty("table.exclude.list", exactRegex(unreadable));
      }
    } else {
      p.setProperty("publication.autocreate.mode", publicationMode.debeziumName);
      String include = includeRegex(publishedPatterns());
      if (!unreadable.isEmpty()) {
        // each include pattern behind a negative lookahead: Debezium takes one list, not two
        String notUnreadable = "(?!(?:" + String.join("|", quoted(unreadable)) + ")$)";
        include = notUnreadable + include.replace(",", "," + notUnreadable);
      }
      p.setProperty("table.include.list", include);
    }
    if (!settings.heartbeatInterval().isZero()) {
      p.setProperty(
          "heartbeat.action.query",
          "INSERT INTO "
              + heartbeatTable()
              + " (agent, beat) VALUES ('"
              + settings.agentName().replace("'", "''")
              + "', now()) ON CONFLICT (agent) DO UPDATE SET beat = excluded.beat");
    }
    // materialization (Materialization): signals and notifications
    Materialization.addProperties(p, source.ticketSchema(), AgentSession.topicPrefix(settings));
    return p;
  }

  /**
   * The tables the publication holds: the include list, the heartbeat table and materialization's
   * signal table.
   */
  private List<String> publishedPatterns() {
    List<String> tables = new ArrayList<>(source.tableIncludeList());
    if (!settings.heartbeatInterval().isZero()) {
      tables.add(source.heartbeatSchema() + "." + source.heartbeatTable());
    }
    tables.add(Materialization.includePattern(source.ticketSchema())); // materialization
    return tables;
  }

  /**
   * Has the agent keep the publication when the include list is whole schemas and named tables
   * ({@link PostgresPublication}), so tables created later in those schemas are captured.
   */
  private void ensurePublication(Connection c) throws SQLException {
    if (source.tableIncludeList().isEmpty()) {
      return; // FOR ALL TABLES: Debezium's, new tables included
    }
    PostgresPublication.Decision d =
        PostgresPublication.ensure(c, source.publicationName(), publishedPatterns(), leftOutTables);
    publicationMode = d.mode();
    if (d.schemasMissed()) {
      LOG.warn(
          "agent {}: tables created later in the schemas of table_include_list are captured only"
              + " from the agent's next start: {}",
          settings.agentName(),
          d.whyFiltered().orElse(""));
    } else if (d.mode() == PostgresPublication.Mode.DISABLED) {
      LOG.info(
          "agent {}: publication {} is FOR TABLES IN SCHEMA of table_include_list: tables created"
              + " there later are captured from their creation",
          settings.agentName(),
          source.publicationName());
    }
  }

  /**
   * Finds the captured tables the agent leaves out, each reported to the server ({@link
   * CaptureStatus}) and logged as an error naming the table and columns; the rest replicates:
   *
   * <ul>
   *   <li>tables Debezium refuses to read, which would stop the whole database's capture (Debezium
   *       3.5 stops its connector on a table with two columns whose names differ only by case). A
   *       table that gains such columns while the agent runs stops the log reader at that point of
   *       the log for good: pgoutput decodes with the catalog of that time, so leaving the table
   *       out of the publication later does not get past it;
   *   <li>unless {@code timetz_at_utc}, tables with a {@code timetz} column or a domain over it:
   *       Debezium's decoder moves every such value to UTC and drops its offset before the agent
   *       sees it, so the replicate would hold another value.
   * </ul>
   */
  private void findLeftOutTables(Connection c) throws SQLException {
    java.util.regex.Pattern included =
        source.tableIncludeList().isEmpty()
            ? null
            : java.util.regex.Pattern.compile(
                String.join("|", includeRegex(source.tableIncludeList()).split(",")));
    java.util.LinkedHashMap<String, String> found = new java.util.LinkedHashMap<>();
    columnsWhere(
        c,
        "",
        "GROUP BY n.nspname, k.relname, lower(a.attname) HAVING count(*) > 1",
        included,
        (table, columns) ->
            found.putIfAbsent(
                table,
                "its columns "
                    + columns
                    + " differ only by case, and Debezium cannot read such a table (rename one of"
                    + " them; the agent's next session then captures the table again, from that"
                    + " point on)"));
    if (!source.timetzAtUtc()) {
      columnsWhere(
          c,
          " JOIN pg_type t ON t.oid = a.atttypid",
          "AND 'timetz'::regtype IN (t.oid, t.typbasetype) GROUP BY n.nspname, k.relname",
          included,
          (table, columns) -> found.putIfAbsent(table, timetzMessage(columns)));
    }
    List<io.openrs.wire.Frame.StatusItem> items = new ArrayList<>();
    for (Map.Entry<String, String> e : found.entrySet()) {
      LOG.error(
          "agent {}: table {} is not replicated: {}",
          settings.agentName(),
          e.getKey(),
          e.getValue());
      items.add(CaptureStatus.tableLeftOut(e.getKey(), e.getValue()));
    }
    leftOutTables = List.copyOf(found.keySet());
    status.startFindings(items);
  }

  /**
   * Hands {@code found} each table ({@code schema.table}, among those {@code included} matches, or
   * all when null) and its columns (quoted, comma-separated) that a query over the user tables'
   * columns finds: {@code join} adds to its FROM, {@code tail} adds conditions and the grouping.
   */
  private static void columnsWhere(
      Connection c,
      String join,
      String tail,
      java.util.regex.Pattern included,
      java.util.function.BiConsumer<String, String> found)
      throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT n.nspname, k.relname, string_agg(quote_ident(a.attname), ', '"
                    + " ORDER BY a.attnum) FROM pg_attribute a JOIN pg_class k"
                    + " ON k.oid = a.attrelid JOIN pg_namespace n ON n.oid = k.relnamespace"
                    + join
                    + " WHERE a.attnum > 0 AND NOT a.attisdropped AND k.relkind IN ('r', 'p')"
                    + " AND n.nspname NOT IN ('pg_catalog', 'information_schema') "
                    + tail)) {
      while (r.next()) {
        String table = r.getString(1) + "." + r.getString(2);
        if (included == null || included.matcher(table).matches()) {
          found.accept(table, r.getString(3));
        }
      }
    }
  }

  /** Why a table with {@code timetz} columns is left out. */
  static String timetzMessage(String columns) {
    return "its column(s) "
        + columns
        + " are timetz, whose values Debezium's decoder moves to UTC, dropping their offset"
        + " (10:11:12+05:30 would arrive as 04:41:12+00); set timetz_at_utc = on to replicate the"
        + " table with its timetz values at UTC, or change the column to timestamptz or time";
  }

  /** Debezium's regex list matching exactly the tables {@code schema.table} given. */
  static String exactRegex(List<String> tables) {
    return String.join(",", quoted(tables));
  }

  private static List<String> quoted(List<String> tables) {
    return tables.stream().map(java.util.regex.Pattern::quote).toList();
  }

  /** Debezium's regex list for {@code schema.table} patterns with {@code %} wildcards. */
  static String includeRegex(List<String> patterns) {
    List<String> out = new ArrayList<>();
    for (String t : patterns) {
      StringBuilder b = new StringBuilder();
      for (char c : t.toCharArray()) {
        if (c == '%') {
          b.append(".*");
        } else if (Character.isLetterOrDigit(c) || c == '_') {
          b.append(c);
        } else {
          b.append('\\').append(c);
        }
      }
      out.add(b.toString());
    }
    return String.join(",", out);
  }

  @Override
  public RecordMapper newMapper(TransactionAssembler out, AgentCounters counters) {
    return new Mapper(out, counters);
  }

  /** Maps pgoutput records; see the class comment for the OQID. */
  final class Mapper implements RecordMapper {
    private final TransactionAssembler out;
    private final AgentCounters counters;
    private final RowImages images = new RowImages();
    private final ChangeEnvelopes envelopes = new ChangeEnvelopes();
    private final String transactionTopic;
    private final Map<TableName, Boolean> fullIdentity = new HashMap<>();
    private final TableName heartbeat =
        new TableName(source.heartbeatSchema(), source.heartbeatTable());
    private final String ticketPrefix = RsTicket.messagePrefix(source.ticketSchema());
    private Connection catalog;
    private boolean snapshotOpen;
    private final Materialization materialization; // materialization hook
    private final TimetzColumns timetz = new TimetzColumns();
    private final java.util.Set<TableName> leftOut = new java.util.HashSet<>();

    /**
     * The delete half of a primary-key update, held until the next record tells whether it is
     * followed by its create half (then both become one {@code update}) or not (then it is sent as
     * the delete it is).
     */
    private HeldDelete held;

    Mapper(TransactionAssembler out, AgentCounters counters) {
      this.out = out;
      this.counters = counters;
      this.transactionTopic = AgentSession.topicPrefix(settings) + ".transaction";
      this.materialization =
          new Materialization(source.ticketSchema(), AgentSession.topicPrefix(settings));
    }

    @Override
    public boolean map(SourceRecord record) throws InterruptedException {
      if (held != null && !held.pairsWith(record)) {
        releaseHeld();
      }
      Map<String, ?> offset = record.sourceOffset();
      if (record.topic().equals(transactionTopic)) {
        Struct v = (Struct) record.value();
        String status = v.getString("status");
        if (status.equals("BEGIN")) {
          out.begin(TranId.ofLong(longOf(offset, "txId")), micros(offset), Optional.empty());
          materialization.flushInto(out); // materialization hook: a chunk's rows go first
          counters.increment(AgentCounter.RA_LOG_RECORDS_PROCESSED);
          return false;
        }
        if (!out.inTransaction()) {
          // The END of a transaction whose BEGIN this session did not see: Debezium never
          // restarts inside a transaction from the offsets the agent releases.
          throw new AgentException(
              AgentException.Code.INTERNAL,
              "transaction END " + v.getString("id") + " without its BEGIN");
        }
        byte[] prefix =
            ByteBuffer.allocate(PREFIX_BYTES).putLong(longOf(offset, "lsn_commit")).array();
        out.commit(prefix, micros(offset));
        counters.increment(AgentCounter.RA_LOG_RECORDS_PROCESSED);
        return true;
      }
      if (materialization.isNotification(record)) { // materialization hook
        materialization.notification(out, (Struct) record.value());
        return false;
      }
      ChangeEnvelopes.Fields fields =
          record.value() instanceof Struct v ? envelopes.of(v) : ChangeEnvelopes.NONE;
      if (fields.op() == null) {
        counters.increment(AgentCounter.RA_LOG_RECORDS_SKIPPED);
        return !out.inTransaction() && !materialization.holding(); // materialization hook
      }
      Struct value = (Struct) record.value();
      if (fields.message() != null) {
        return message(value);
      }
      TableName table = envelopes.table((Struct) value.get(fields.source()));
      String op = (String) value.get(fields.op());
      if (table.equals(heartbeat)) {
        counters.increment(AgentCounter.RA_LOG_RECORDS_SKIPPED);
        return op.equals("r") ? skippedSnapshotRow(value, offset) : !out.inTransaction();
      }
      if (materialization.isSignalTable(table)) { // materialization hook: never sent
        counters.increment(AgentCounter.RA_LOG_RECORDS_SKIPPED);
        return !out.inTransaction();
      }
      if (op.equals("r") && Materialization.isIncremental(value)) { // materialization hook
        materialization.row(out, table, images.all(after(value)));
        counters.increment(AgentCounter.RA_LOG_RECORDS_PROCESSED);
        return false;
      }
      if (op.equals("r")) {
        return snapshotRow(record, value, table, offset);
      }
      if (!out.inTransaction()) {
        throw new AgentException(
            AgentException.Code.INTERNAL,
            "change to " + table + " outside a transaction (provide.transaction.metadata is off?)");
      }
      if (leftOutWhileStreaming(table, fields.after())) {
        counters.increment(AgentCounter.RA_LOG_RECORDS_SKIPPED);
        return false;
      }
      addChange(record, value, table, op);
      counters.increment(AgentCounter.RA_LOG_RECORDS_PROCESSED);
      return false;
    }

    /**
     * Whether the change is of a table left out while streaming: one created, or given a {@code
     * timetz} column, after the agent's start check, without {@code timetz_at_utc}. Its first such
     * change leaves it out until the agent's next start (whose check leaves it out again while the
     * column is there), reported to the server and logged.
     */
    private boolean leftOutWhileStreaming(TableName table, Field afterField) {
      if (source.timetzAtUtc()) {
        return false;
      }
      if (leftOut.contains(table)) {
        return true;
      }
      String columns = timetz.of(afterField);
      if (columns.isEmpty()) {
        return false;
      }
      leftOut.add(table);
      String message =
          timetzMessage(columns)
              + "; it gained the column while the agent was streaming: its changes from then on are"
              + " not sent (materialize it again once it replicates)";
      LOG.error("agent {}: table {} is not replicated: {}", settings.agentName(), table, message);
      status.add(CaptureStatus.tableLeftOut(table.toString(), message));
      return true;
    }

    /**
     * A logical decoding message (Debezium's {@code op = m} record): a transactional one with this
     * agent's rs_ticket prefix becomes an LTL ticket at its place in the transaction; any other is
     * skipped (logged once).
     */
    private boolean message(Struct value) {
      Struct msg = value.getStruct("message");
      Struct src = value.getStruct("source");
      String prefix = msg.getString("prefix");
      Object lsn = src.schema().field("lsn") == null ? null : src.get("lsn");
      Object txId = src.schema().field("txId") == null ? null : src.get("txId");
      if (!ticketPrefix.equals(prefix)) {
        counters.increment(AgentCounter.RA_LOG_RECORDS_SKIPPED);
        once(
            "prefix",
            false,
            "agent {}: logical decoding messages with prefix '{}' (first at LSN {}) are not"
                + " tickets of this agent (prefix '{}'); they and other prefixes are skipped"
                + " (logged once)",
            settings.agentName(),
            prefix,
            lsn,
            ticketPrefix);
        return !out.inTransaction();
      }
      if (txId == null || !out.inTransaction()) {
        counters.increment(AgentCounter.RA_LOG_RECORDS_SKIPPED);
        once(
            "non-transactional",
            true,
            "agent {}: a non-transactional logical decoding message with the rs_ticket prefix"
                + " '{}' at LSN {} is skipped: tickets travel inside their transaction"
                + " (rs_ticket emits transactional messages); further ones are skipped"
                + " silently",
            settings.agentName(),
            prefix,
            lsn);
        return !out.inTransaction();
      }
      RsTicket.Payload ticket;
      try {
        ticket = RsTicket.parse(bytesOf(msg.get("content")));
      } catch (IllegalArgumentException e) {
        counters.increment(AgentCounter.RA_LOG_RECORDS_SKIPPED);
        LOG.warn(
            "agent {}: the logical decoding message with the rs_ticket prefix '{}' at LSN {} in"
                + " transaction {} is not a ticket written by rs_ticket ({}); skipped",
            settings.agentName(),
            prefix,
            lsn,
            txId,
            e.getMessage());
        return false;
      }
      out.add((t, o) -> new LtlCommand.Ticket(t, o, ticket.pdbTime(), ticket.headers()));
      counters.increment(AgentCounter.RA_TICKETS);
      counters.increment(AgentCounter.RA_LOG_RECORDS_PROCESSED);
      return false;
    }

    private Struct after(Struct value) {
      return (Struct) value.get(envelopes.of(value).after());
    }

    private void addChange(SourceRecord record, Struct value, TableName table, String op) {
      switch (op) {
        case "c":
          {
            var after = images.all(after(value));
            if (held != null) {
              // held.pairsWith(record) held (map released it otherwise): one key update.
              var before = held.before();
              held = null;
              out.add((t, o) -> new LtlCommand.Update(t, o, table, before, after));
              return;
            }
            refuseUnchanged(record, value, table, after);
            out.add((t, o) -> new LtlCommand.Insert(t, o, table, false, after));
            return;
          }
        case "u":
          {
            var before = beforeImage(record, value, table);
            var after = images.all(after(value));
            out.add((t, o) -> new LtlCommand.Update(t, o, table, before, after));
            return;
          }
        case "d":
          {
            var before = beforeImage(record, value, table);
            Struct newKey = header(record, NEW_KEY_HEADER);
            if (newKey != null && record.key() instanceof Struct oldKey) {
              held = new HeldDelete(table, before, oldKey, newKey);
              return;
            }
            out.add((t, o) -> new LtlCommand.Delete(t, o, table, before));
            return;
          }
        case "t":
          out.add((t, o) -> new LtlCommand.Truncate(t, o, table));
          return;
        default:
          throw new AgentException(
              AgentException.Code.INTERNAL, "unknown change operation '" + op + "' on " + table);
      }
    }

    /** Sends the held delete as a delete: no create of the same key update followed it. */
    private void releaseHeld() {
      HeldDelete d = held;
      held = null;
      out.add((t, o) -> new LtlCommand.Delete(t, o, d.table(), d.before()));
    }

    /**
     * An insert that is not the second half of a key update cannot carry a value the source did not
     * provide: the replicate would store NULL (or the default) where the primary holds a value.
     * Stop instead, naming where.
     */
    private void refuseUnchanged(
        SourceRecord record, Struct value, TableName table, List<io.openrs.ltl.Column> after) {
      List<String> missing = new ArrayList<>();
      for (io.openrs.ltl.Column c : after) {
        if (c.value() instanceof io.openrs.ltl.Value.Unchanged) {
          missing.add(c.name());
        }
      }
      if (missing.isEmpty()) {
        return;
      }
      Struct src = value.getStruct("source");
      Object lsn = src.schema().field("lsn") == null ? null : src.get("lsn");
      Object txId = src.schema().field("txId") == null ? null : src.get("txId");
      throw new AgentException(
          AgentException.Code.INTERNAL,
          "an insert into "
              + table
              + " (key "
              + record.key()
              + ", LSN "
              + (lsn instanceof Number n ? lsnText(n.longValue()) : String.valueOf(lsn))
              + ", transaction "
              + txId
              + ") lacks the value(s) of column(s) "
              + missing
              + " (the primary did not provide them: unchanged TOASTed values), and it is not"
              + " the second half of a primary-key update (no delete of the same update,"
              + " with header "
              + NEW_KEY_HEADER
              + ", came just before it); sending it would store NULL there at the replicates,"
              + " so the agent stops");
    }

    private List<io.openrs.ltl.Column> beforeImage(
        SourceRecord record, Struct value, TableName table) {
      Struct before = (Struct) value.get(envelopes.of(value).before());
      Struct key = record.key() instanceof Struct k ? k : null;
      if (before != null && (key == null || isFullIdentity(table))) {
        return images.all(before);
      }
      if (key == null) {
        throw new AgentException(
            AgentException.Code.INTERNAL,
            "change to " + table + " carries neither a before image nor a key");
      }
      return images.key(key, before);
    }

    /** Snapshot rows (Debezium's initial snapshot) go as one transaction of snapshot inserts. */
    private boolean snapshotRow(
        SourceRecord record, Struct value, TableName table, Map<String, ?> offset)
        throws InterruptedException {
      if (!snapshotOpen) {
        if (out.inTransaction()) {
          out.abort();
        }
        byte[] id = ("snapshot:" + longOf(offset, "lsn")).getBytes(StandardCharsets.US_ASCII);
        out.begin(TranId.of(id), micros(offset), Optional.empty());
        snapshotOpen = true;
      }
      var after = images.all(value.getStruct("after"));
      out.add((t, o) -> new LtlCommand.Insert(t, o, table, true, after));
      counters.increment(AgentCounter.RA_LOG_RECORDS_PROCESSED);
      Struct src = value.getStruct("source");
      String marker = src.getString("snapshot");
      if ("last".equals(marker)) {
        finishSnapshot(offset);
        return true;
      }
      return false;
    }

    /**
     * A snapshot row of a table whose rows are never sent (the heartbeat table): still ends the
     * snapshot when it is the last row.
     */
    private boolean skippedSnapshotRow(Struct value, Map<String, ?> offset)
        throws InterruptedException {
      if (!"last".equals(value.getStruct("source").getString("snapshot"))) {
        return false;
      }
      if (snapshotOpen) {
        finishSnapshot(offset);
      }
      return !out.inTransaction();
    }

    private void finishSnapshot(Map<String, ?> offset) throws InterruptedException {
      // The snapshot's position is the slot's consistent point: every streamed transaction
      // commits after it, so the snapshot's OQIDs sort before theirs.
      byte[] prefix = ByteBuffer.allocate(PREFIX_BYTES).putLong(longOf(offset, "lsn")).array();
      out.commit(prefix, micros(offset));
      snapshotOpen = false;
    }

    private boolean isFullIdentity(TableName table) {
      Boolean full = fullIdentity.get(table);
      if (full == null) {
        full = queryFullIdentity(table);
        fullIdentity.put(table, full);
      }
      return full;
    }

    private boolean queryFullIdentity(TableName table) {
      try {
        if (catalog == null || catalog.isClosed()) {
          catalog = connect();
        }
        try (PreparedStatement ps =
            catalog.prepareStatement(
                "SELECT c.relreplident FROM pg_class c JOIN pg_namespace n ON n.oid ="
                    + " c.relnamespace WHERE n.nspname = ? AND c.relname = ?")) {
          ps.setString(1, table.schema());
          ps.setString(2, table.table());
          try (ResultSet r = ps.executeQuery()) {
            return r.next() && "f".equals(r.getString(1));
          }
        }
      } catch (SQLException e) {
        throw classify(e);
      }
    }

    @Override
    public void close() {
      held = null;
      if (catalog != null) {
        try {
          catalog.close();
        } catch (SQLException e) {
          LOG.debug("closing the catalog connection: {}", e.toString());
        }
      }
    }
  }

  /** Header of the delete half of a primary-key update: the row's new key (Debezium). */
  static final String NEW_KEY_HEADER = "__debezium.newkey";

  /** Header of the create half of a primary-key update: the row's old key (Debezium). */
  static final String OLD_KEY_HEADER = "__debezium.oldkey";

  /**
   * The delete half of a primary-key update: Debezium emits an update that changes the key as a
   * delete of the old key (header {@link #NEW_KEY_HEADER}) followed at once by a create of the new
   * key (header {@link #OLD_KEY_HEADER}), the create's TOASTed columns the source did not provide
   * holding the placeholder.
   */
  record HeldDelete(
      TableName table, List<io.openrs.ltl.Column> before, Struct oldKey, Struct newKey) {

    /** Whether {@code record} is this update's create half. */
    boolean pairsWith(SourceRecord record) {
      return pairsWith(record, "schema");
    }

    /**
     * Whether {@code record} is this update's create half; {@code schemaField} names the source
     * field holding the table's schema ({@code schema}, or {@code db} for MariaDB and MySQL).
     */
    boolean pairsWith(SourceRecord record, String schemaField) {
      if (!(record.value() instanceof Struct v)
          || v.schema().field("op") == null
          || !"c".equals(v.getString("op"))
          || !newKey.equals(record.key())) {
        return false;
      }
      Struct src = v.getStruct("source");
      if (!table.schema().equals(src.getString(schemaField))
          || !table.table().equals(src.getString("table"))) {
        return false;
      }
      return oldKey.equals(header(record, OLD_KEY_HEADER));
    }
  }

  /** The last header {@code name} of {@code record} when it holds a struct, else null. */
  static Struct header(SourceRecord record, String name) {
    Header h = record.headers().lastWithName(name);
    return h != null && h.value() instanceof Struct s ? s : null;
  }

  /** An LSN as PostgreSQL writes it ({@code 16/B374D848}). */
  static String lsnText(long lsn) {
    return String.format(java.util.Locale.ROOT, "%X/%X", lsn >>> 32, lsn & 0xFFFF_FFFFL);
  }

  /**
   * Debezium's bytes ({@code binary.handling.mode = bytes}).
   *
   * @throws IllegalArgumentException when {@code v} is not bytes
   */
  static byte[] bytesOf(Object v) {
    if (v instanceof byte[] b) {
      return b;
    }
    if (v instanceof ByteBuffer bb) {
      ByteBuffer d = bb.duplicate();
      byte[] b = new byte[d.remaining()];
      d.get(b);
      return b;
    }
    if (v == null) {
      return new byte[0];
    }
    throw new IllegalArgumentException(
        "content arrived as "
            + v.getClass().getSimpleName()
            + ", not bytes (was"
            + " binary.handling.mode overridden?)");
  }

  static long longOf(Map<String, ?> offset, String key) {
    Object v = offset.get(key);
    if (!(v instanceof Number n)) {
      throw new AgentException(
          AgentException.Code.INTERNAL, "Debezium offset without " + key + ": " + offset);
    }
    return n.longValue();
  }

  /** The commit time Debezium keeps in the offset ({@code ts_usec}, microseconds). */
  static Instant micros(Map<String, ?> offset) {
    long us = longOf(offset, "ts_usec");
    return Instant.ofEpochSecond(
        Math.floorDiv(us, 1_000_000L), Math.floorMod(us, 1_000_000L) * 1000L);
  }
}
