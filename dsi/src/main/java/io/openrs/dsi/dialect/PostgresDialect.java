package io.openrs.dsi.dialect;

import io.openrs.dsi.ErrorAction;
import io.openrs.dsi.ErrorClass;
import io.openrs.ltl.TableName;
import io.openrs.ltl.Value;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.core.BaseConnection;

/**
 * PostgreSQL (tested with 15): double-quoted identifiers, {@code ON CONFLICT} upserts, {@code COPY
 * ... FROM STDIN} (text format; binary for HVAR's inserts ahead when every column's type is known,
 * {@link CopyBinaryEncoder}) for the bulk path, {@code session_replication_role} for {@code
 * dsi_keep_triggers off}, SQLSTATE-based error classes.
 */
public final class PostgresDialect implements Dialect {

  /**
   * A binary COPY stream's header: the signature {@code PGCOPY\n\377\r\n\0}, int32 flags 0, int32
   * header extension length 0. The rows follow ({@link CopyBinaryEncoder}), then the trailer.
   */
  private static final byte[] BINARY_COPY_HEADER = {
    'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF, '\r', '\n', 0, 0, 0, 0, 0, 0, 0, 0, 0
  };

  /** A binary COPY stream's trailer: int16 field count -1. */
  private static final byte[] BINARY_COPY_TRAILER = {(byte) 0xFF, (byte) 0xFF};

  /** Column types bound as character data; everything else takes text as an untyped literal. */
  private static final Set<String> TEXT_TYPES =
      Set.of("text", "varchar", "bpchar", "char", "name", "citext");

  @Override
  public String name() {
    return "postgresql";
  }

  @Override
  public Map<String, String> driverProperties(String applicationName) {
    return Map.of(
        "ApplicationName", applicationName,
        // Batched inserts become multi-row inserts: one statement per batch on the server.
        "reWriteBatchedInserts", "true",
        "tcpKeepAlive", "true");
  }

  @Override
  public void prepareSession(Connection c) {
    // nothing to set: the DSI switches session_replication_role per origin (replicaMode)
  }

  @Override
  public boolean replicaMode(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT current_setting('session_replication_role')")) {
      rs.next();
      boolean replica = "replica".equals(rs.getString(1));
      c.commit();
      return replica;
    }
  }

  @Override
  public String replicaModeStatement(boolean on) {
    // as PostgreSQL's own logical replication apply worker: foreign-key triggers (checks and
    // cascades) and ordinary triggers do not fire; triggers ENABLE ALWAYS / ENABLE REPLICA do
    return "SET SESSION session_replication_role = " + (on ? "replica" : "origin");
  }

  @Override
  public Optional<String> replicaModeRefusal(Connection c) throws SQLException {
    String user;
    int version;
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT current_user, current_setting('server_version_num')::int")) {
      rs.next();
      user = rs.getString(1);
      version = rs.getInt(2);
    }
    try (Statement s = c.createStatement()) {
      s.execute("SET LOCAL session_replication_role = replica");
      return Optional.empty();
    } catch (SQLException e) {
      if (!"42501".equals(e.getSQLState())) {
        throw e;
      }
      String grant =
          version >= 150000
              ? "GRANT SET ON PARAMETER session_replication_role TO " + quote(user)
              : "ALTER ROLE " + quote(user) + " SUPERUSER";
      return Optional.of(
          "user "
              + user
              + " may not set session_replication_role, which the DSI needs to apply changes"
              + " that the origin's log already holds (cascaded deletes and updates, rows written"
              + " by triggers) without the replicate's own foreign keys and triggers repeating"
              + " them; as a superuser run: "
              + grant
              + (version >= 150000 ? " (or make the user a superuser)" : "")
              + ", then resume the connection");
    } finally {
      c.rollback();
    }
  }

  @Override
  public Optional<String> deferConstraintsStatement() {
    return Optional.of("SET CONSTRAINTS ALL DEFERRED");
  }

  @Override
  public String insertOverriding(TableMeta t) {
    return t.alwaysIdentity().isEmpty() ? "" : " OVERRIDING SYSTEM VALUE";
  }

  @Override
  public String currentSchema(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT current_schema()")) {
      rs.next();
      String schema = rs.getString(1);
      c.commit();
      if (schema == null) {
        throw new SQLException("the DSI user's search_path names no existing schema", "3F000");
      }
      return schema;
    }
  }

  @Override
  public void useSchema(Connection c, String schema) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT set_config('search_path', ?, true)")) {
      ps.setString(1, quote(schema));
      ps.execute();
    }
  }

  @Override
  public boolean transactionalDdl() {
    return true;
  }

  @Override
  public String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  @Override
  public TableMeta describe(Connection c, TableName table) throws SQLException {
    String regclass = qualified(table);
    List<ColumnMeta> columns = new ArrayList<>();
    List<String> alwaysIdentity = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT a.attname, CASE WHEN t.typtype = 'd' THEN bt.typname ELSE t.typname END,"
                + " NOT a.attnotnull, a.attidentity = 'a'"
                + " FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid"
                + " LEFT JOIN pg_type bt ON bt.oid = t.typbasetype"
                + " WHERE a.attrelid = to_regclass(?) AND a.attnum > 0 AND NOT a.attisdropped"
                + " ORDER BY a.attnum")) {
      ps.setString(1, regclass);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          columns.add(new ColumnMeta(rs.getString(1), rs.getString(2), rs.getBoolean(3)));
          if (rs.getBoolean(4)) {
            alwaysIdentity.add(rs.getString(1));
          }
        }
      }
    }
    boolean deferrableKeys;
    boolean deferrable;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT EXISTS (SELECT 1 FROM pg_constraint WHERE condeferrable AND contype IN ('p',"
                + " 'u') AND conrelid = to_regclass(?)), EXISTS (SELECT 1 FROM pg_constraint WHERE"
                + " condeferrable AND (conrelid = to_regclass(?) OR confrelid = to_regclass(?)))")) {
      ps.setString(1, regclass);
      ps.setString(2, regclass);
      ps.setString(3, regclass);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        deferrableKeys = rs.getBoolean(1);
        deferrable = rs.getBoolean(2);
      }
    }
    List<String> primaryKey = List.of();
    List<List<String>> unique = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT i.indisprimary, ARRAY(SELECT a.attname FROM unnest(i.indkey::int2[])"
                + " WITH ORDINALITY AS k(attnum, ord) JOIN pg_attribute a ON a.attrelid ="
                + " i.indrelid AND a.attnum = k.attnum WHERE k.ord <= i.indnkeyatts ORDER BY"
                + " k.ord) FROM pg_index i WHERE i.indrelid = to_regclass(?) AND i.indisunique"
                + " AND i.indpred IS NULL AND i.indexprs IS NULL"
                + " ORDER BY i.indisprimary DESC, i.indexrelid")) {
      ps.setString(1, regclass);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Array a = rs.getArray(2);
          List<String> cols = List.of((String[]) a.getArray());
          a.free();
          if (rs.getBoolean(1)) {
            primaryKey = cols;
          } else {
            unique.add(cols);
          }
        }
      }
    }
    return new TableMeta(
        table, columns, primaryKey, unique, alwaysIdentity, deferrableKeys, deferrable);
  }

  @Override
  public String upsert(TableMeta t, List<String> columns) {
    if (!t.keyed()) {
      return insert(t, columns);
    }
    StringBuilder sb = new StringBuilder(insert(t, columns)).append(" ON CONFLICT (");
    appendList(sb, t.primaryKey(), ", ", "");
    sb.append(") DO ");
    List<String> rest = columns.stream().filter(c -> !t.primaryKey().contains(c)).toList();
    if (rest.isEmpty()) {
      return sb.append("NOTHING").toString();
    }
    sb.append("UPDATE SET ");
    for (int i = 0; i < rest.size(); i++) {
      String q = quote(rest.get(i));
      sb.append(i == 0 ? "" : ", ").append(q).append(" = EXCLUDED.").append(q);
    }
    return sb.toString();
  }

  @Override
  public String update(
      TableMeta t, List<String> setColumns, List<String> whereColumns, boolean byKey) {
    StringBuilder sb = new StringBuilder("UPDATE ").append(qualified(t.name())).append(" SET ");
    appendList(sb, setColumns, ", ", " = ?");
    return appendWhere(sb, t, whereColumns, byKey).toString();
  }

  @Override
  public String delete(TableMeta t, List<String> whereColumns, boolean byKey) {
    StringBuilder sb = new StringBuilder("DELETE FROM ").append(qualified(t.name()));
    return appendWhere(sb, t, whereColumns, byKey).toString();
  }

  private StringBuilder appendWhere(
      StringBuilder sb, TableMeta t, List<String> whereColumns, boolean byKey) {
    if (byKey && t.deferrableKeys()) {
      // Inside a transaction a deferrable key may be held by two rows (UPDATE t SET id = id + 1
      // moves 1 to 2 before 2 moves on): the change is to the row the transaction has not written
      // yet, as at the origin, where one statement changes each row once.
      sb.append(" WHERE ctid = (SELECT ctid FROM ").append(qualified(t.name())).append(" WHERE ");
      appendList(sb, whereColumns, " AND ", " = ?");
      return sb.append(" ORDER BY age(xmin) <= 0 LIMIT 1)");
    }
    if (byKey) {
      sb.append(" WHERE ");
      appendList(sb, whereColumns, " AND ", " = ?");
      return sb;
    }
    // No key: the row whose columns all equal the before image, null-safe; exactly one of
    // identical rows, as the source changed exactly one.
    sb.append(" WHERE ctid = (SELECT ctid FROM ").append(qualified(t.name())).append(" WHERE ");
    for (int i = 0; i < whereColumns.size(); i++) {
      String name = whereColumns.get(i);
      String type = t.column(name).map(ColumnMeta::typeName).orElse("");
      sb.append(i == 0 ? "" : " AND ");
      if (type.equals("json")) {
        // json has no equality operator; the stored text is what the source sent.
        sb.append(quote(name)).append("::text IS NOT DISTINCT FROM ?::text");
      } else {
        sb.append(quote(name)).append(" IS NOT DISTINCT FROM ?");
      }
    }
    return sb.append(" LIMIT 1)");
  }

  @Override
  public String truncate(TableMeta t) {
    return "TRUNCATE TABLE " + qualified(t.name());
  }

  /** One statement: a table a foreign key references may only be truncated with its children. */
  @Override
  public List<String> truncate(List<TableMeta> childrenFirst) {
    StringBuilder sb = new StringBuilder("TRUNCATE TABLE ");
    for (int i = 0; i < childrenFirst.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(qualified(childrenFirst.get(i).name()));
    }
    return List.of(sb.toString());
  }

  /** An integer value's number, or null for any other kind. */
  private static Long integerValue(Value v) {
    if (v instanceof Value.Int16 n) {
      return (long) n.value();
    } else if (v instanceof Value.Int32 n) {
      return (long) n.value();
    } else if (v instanceof Value.Int64 n) {
      return n.value();
    }
    return null;
  }

  /**
   * An integer for a boolean column (MariaDB's {@code BOOLEAN} is {@code tinyint(1)}): 0 is false,
   * 1 is true, anything else is refused, never converted.
   */
  private static boolean integerAsBoolean(long n, ColumnMeta column) throws SQLException {
    if (n == 0 || n == 1) {
      return n == 1;
    }
    throw new SQLException(
        "integer "
            + n
            + " for boolean column "
            + column.name()
            + ": only 0 (false) and 1 (true) are carried into a boolean",
        "22P02");
  }

  @Override
  public void bind(PreparedStatement ps, int i, Value v, ColumnMeta column) throws SQLException {
    String type = column == null ? null : column.typeName();
    if (v instanceof Value.Null) {
      ps.setNull(i, Types.OTHER);
    } else if (v instanceof Value.Bool b) {
      ps.setBoolean(i, b.value());
    } else if ("bool".equals(type) && integerValue(v) != null) {
      ps.setBoolean(i, integerAsBoolean(integerValue(v), column));
    } else if (v instanceof Value.Int16 n) {
      ps.setShort(i, n.value());
    } else if (v instanceof Value.Int32 n) {
      ps.setInt(i, n.value());
    } else if (v instanceof Value.Int64 n) {
      ps.setLong(i, n.value());
    } else if (v instanceof Value.Decimal d) {
      ps.setBigDecimal(i, d.value());
    } else if (v instanceof Value.Float32 f) {
      ps.setFloat(i, f.value());
    } else if (v instanceof Value.Float64 f) {
      ps.setDouble(i, f.value());
    } else if (v instanceof Value.Text t) {
      bindText(ps, i, t.value(), type);
    } else if (v instanceof Value.Binary b) {
      ps.setBytes(i, b.value());
    } else if (v instanceof Value.Date
        || v instanceof Value.Time
        || v instanceof Value.Timestamp
        || v instanceof Value.TimestampTz) {
      // The server reads the same text COPY writes: BC years and years past 9999 exact, on every
      // apply path (pgjdbc's own date binding turns dates before 4713 BC into -infinity).
      StringBuilder text = new StringBuilder(40);
      appendCopyValue(text, v);
      ps.setObject(i, text.toString(), Types.OTHER);
    } else if (v instanceof Value.NonFinite n) {
      ps.setObject(i, n.sqlText(), Types.OTHER);
    } else if (v instanceof Value.Native n) {
      bindNative(ps, i, n, type);
    } else if (v instanceof Value.Uuid u) {
      if (type == null || type.equals("uuid")) {
        ps.setObject(i, u.value());
      } else {
        bindText(ps, i, u.value().toString(), type);
      }
    } else if (v instanceof Value.Json j) {
      bindText(ps, i, j.value(), type == null ? "json" : type);
    } else {
      throw new IllegalArgumentException("value " + v + " is not bound (column left as it is)");
    }
  }

  /**
   * A source value in PostgreSQL's own text form: an untyped literal the column's type reads, so
   * the replicate stores what the primary wrote. Only a PostgreSQL source's native values are
   * literals here.
   *
   * @throws IllegalArgumentException naming the value when another database wrote it
   */
  private static void bindNative(PreparedStatement ps, int i, Value.Native n, String type)
      throws SQLException {
    requirePostgresNative(n);
    bindText(ps, i, n.text(), type);
  }

  private static void requirePostgresNative(Value.Native n) {
    if (!n.dialect().equals("postgresql")) {
      throw new IllegalArgumentException(
          "the "
              + n.dialect()
              + " value of type "
              + n.type()
              + " '"
              + n.text()
              + "' has no PostgreSQL form");
    }
  }

  /** Character columns get varchar; others an untyped literal that the server parses. */
  private static void bindText(PreparedStatement ps, int i, String s, String type)
      throws SQLException {
    if (type == null || TEXT_TYPES.contains(type)) {
      ps.setString(i, s);
    } else {
      ps.setObject(i, s, Types.OTHER);
    }
  }

  @Override
  public void bindInstant(PreparedStatement ps, int index, Instant time) throws SQLException {
    ps.setObject(index, time.atOffset(ZoneOffset.UTC));
  }

  // ---- asynchronous commit: dsi_synchronous_commit off ---------------------------------------

  @Override
  public Optional<String> asynchronousCommitStatement() {
    return Optional.of("SET synchronous_commit = off");
  }

  @Override
  public long logInsertPosition(Connection c) throws SQLException {
    return lsn(c, "SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint");
  }

  @Override
  public long logFlushPosition(Connection c) throws SQLException {
    return lsn(c, "SELECT (pg_current_wal_flush_lsn() - '0/0'::pg_lsn)::bigint");
  }

  private static long lsn(Connection c, String sql) throws SQLException {
    try (java.sql.Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  // ---- command batches: literal values -------------------------------------------------------

  /** With {@code standard_conforming_strings} on, a backslash in a literal is just a character. */
  @Override
  public boolean literalBatches(Connection c) throws SQLException {
    return c.unwrap(BaseConnection.class).getStandardConformingStrings();
  }

  /**
   * Every value but null as a quoted, untyped literal in the server's text form (the column's type
   * reads it, as it reads an untyped bound parameter): quotes doubled, bytea as {@code \x<hex>},
   * dates and times as for COPY.
   */
  @Override
  public void appendLiteral(StringBuilder sb, Value v, ColumnMeta column) {
    if (v instanceof Value.Null) {
      sb.append("NULL");
      return;
    }
    sb.append('\'');
    if (v instanceof Value.Text t) {
      appendQuoted(sb, t.value());
    } else if (v instanceof Value.Json j) {
      appendQuoted(sb, j.value());
    } else if (v instanceof Value.Native n) {
      requirePostgresNative(n);
      appendQuoted(sb, n.text());
    } else if (v instanceof Value.Binary b) {
      sb.append("\\x");
      appendHex(sb, b);
    } else if (v instanceof Value.Unchanged) {
      throw new IllegalArgumentException("value " + v + " has no literal (column left as it is)");
    } else {
      // Numbers, booleans, dates, times and UUIDs: their COPY text has no quote or backslash.
      appendCopyValue(sb, v);
    }
    sb.append('\'');
  }

  private static void appendHex(StringBuilder sb, Value.Binary b) {
    for (int i = 0; i < b.length(); i++) {
      int x = b.byteAt(i) & 0xff;
      sb.append(Character.forDigit(x >> 4, 16)).append(Character.forDigit(x & 15, 16));
    }
  }

  private static void appendQuoted(StringBuilder sb, String s) {
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == '\'') {
        sb.append('\'');
      }
      sb.append(ch);
    }
  }

  // ---- bulk: COPY FROM STDIN, text format ------------------------------------------------------

  @Override
  public long bulkInsert(
      Connection c, TableMeta t, List<String> columns, List<List<Value>> rows, int maxBytes)
      throws SQLException {
    StringBuilder sql = new StringBuilder("COPY ").append(qualified(t.name())).append(" (");
    appendList(sql, columns, ", ", "");
    sql.append(") FROM STDIN");
    CopyIn copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql.toString());
    try {
      StringBuilder buf = new StringBuilder(Math.min(maxBytes, 1 << 20) + 1024);
      for (List<Value> row : rows) {
        for (int k = 0; k < row.size(); k++) {
          if (k > 0) {
            buf.append('\t');
          }
          appendCopyValue(buf, row.get(k));
        }
        buf.append('\n');
        if (buf.length() >= maxBytes) {
          byte[] b = buf.toString().getBytes(StandardCharsets.UTF_8);
          copy.writeToCopy(b, 0, b.length);
          buf.setLength(0);
        }
      }
      if (buf.length() > 0) {
        byte[] b = buf.toString().getBytes(StandardCharsets.UTF_8);
        copy.writeToCopy(b, 0, b.length);
      }
      return copy.endCopy();
    } finally {
      if (copy.isActive()) {
        copy.cancelCopy();
      }
    }
  }

  /**
   * One value in COPY's text format: {@code \N} for null; backslash, newline, carriage return and
   * tab escaped; bytea as {@code \\x<hex>}; dates and times in ISO form with {@code BC} for years
   * before 1 (the year 0 of {@link LocalDate} is 1 BC).
   */
  static void appendCopyValue(StringBuilder sb, Value v) {
    if (v instanceof Value.Null) {
      sb.append("\\N");
    } else if (v instanceof Value.Bool b) {
      sb.append(b.value() ? 't' : 'f');
    } else if (v instanceof Value.Int16 n) {
      sb.append(n.value());
    } else if (v instanceof Value.Int32 n) {
      sb.append(n.value());
    } else if (v instanceof Value.Int64 n) {
      sb.append(n.value());
    } else if (v instanceof Value.Decimal d) {
      sb.append(d.value().toString());
    } else if (v instanceof Value.Float32 f) {
      appendFloat(sb, f.value(), Float.toString(f.value()));
    } else if (v instanceof Value.Float64 f) {
      appendFloat(sb, f.value(), Double.toString(f.value()));
    } else if (v instanceof Value.Text t) {
      appendEscaped(sb, t.value());
    } else if (v instanceof Value.Json j) {
      appendEscaped(sb, j.value());
    } else if (v instanceof Value.Binary b) {
      sb.append("\\\\x");
      appendHex(sb, b);
    } else if (v instanceof Value.Date d) {
      appendDate(sb, d.value());
      appendEra(sb, d.value());
    } else if (v instanceof Value.Time t) {
      appendTime(sb, t.value());
    } else if (v instanceof Value.Timestamp t) {
      appendDate(sb, t.value().toLocalDate());
      sb.append(' ');
      appendTime(sb, t.value().toLocalTime());
      appendEra(sb, t.value().toLocalDate());
    } else if (v instanceof Value.TimestampTz t) {
      appendDate(sb, t.value().toLocalDate());
      sb.append(' ');
      appendTime(sb, t.value().toLocalTime());
      sb.append(t.value().getOffset().getTotalSeconds() == 0 ? "+00" : t.value().getOffset());
      appendEra(sb, t.value().toLocalDate());
    } else if (v instanceof Value.Uuid u) {
      sb.append(u.value());
    } else if (v instanceof Value.NonFinite n) {
      sb.append(n.sqlText());
    } else if (v instanceof Value.Native n) {
      requirePostgresNative(n);
      appendEscaped(sb, n.text());
    } else {
      throw new IllegalArgumentException("value " + v + " cannot be copied");
    }
  }

  private static void appendFloat(StringBuilder sb, double value, String shortest) {
    if (Double.isNaN(value)) {
      sb.append("NaN");
    } else if (Double.isInfinite(value)) {
      sb.append(value > 0 ? "Infinity" : "-Infinity");
    } else {
      sb.append(shortest);
    }
  }

  private static void appendEscaped(StringBuilder sb, String s) {
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      switch (ch) {
        case '\\':
          sb.append("\\\\");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\r':
          sb.append("\\r");
          break;
        case '\t':
          sb.append("\\t");
          break;
        default:
          sb.append(ch);
      }
    }
  }

  private static void appendDate(StringBuilder sb, LocalDate d) {
    int year = d.getYear() <= 0 ? 1 - d.getYear() : d.getYear();
    pad(sb, year, 4).append('-');
    pad(sb, d.getMonthValue(), 2).append('-');
    pad(sb, d.getDayOfMonth(), 2);
  }

  private static void appendEra(StringBuilder sb, LocalDate d) {
    if (d.getYear() <= 0) {
      sb.append(" BC");
    }
  }

  private static void appendTime(StringBuilder sb, LocalTime t) {
    pad(sb, t.getHour(), 2).append(':');
    pad(sb, t.getMinute(), 2).append(':');
    pad(sb, t.getSecond(), 2);
    int micros = t.getNano() / 1000;
    if (micros != 0) {
      sb.append('.');
      pad(sb, micros, 6);
    }
  }

  private static StringBuilder pad(StringBuilder sb, int value, int width) {
    String s = Integer.toString(value);
    for (int i = s.length(); i < width; i++) {
      sb.append('0');
    }
    return sb.append(s);
  }

  // ---- progress tables -----------------------------------------------------------------------

  @Override
  public void createProgressTables(Connection c, String schema, int threadRows)
      throws SQLException {
    String s = quote(schema);
    try (Statement st = c.createStatement()) {
      st.execute(
          "CREATE TABLE IF NOT EXISTS "
              + s
              + ".rs_lastcommit (origin integer PRIMARY KEY, origin_qid bytea NOT NULL,"
              + " origin_time timestamptz, dest_commit_time timestamptz NOT NULL)");
      if (threadRows > 0) {
        st.execute(
            "CREATE TABLE IF NOT EXISTS "
                + s
                + ".rs_threads (id integer PRIMARY KEY, seq bigint NOT NULL)");
        st.execute(
            "INSERT INTO "
                + s
                + ".rs_threads (id, seq) SELECT g, 0 FROM generate_series(0, "
                + (threadRows - 1)
                + ") g ON CONFLICT (id) DO NOTHING");
      }
    }
    c.commit();
  }

  /**
   * A {@code SHARE} lock on the table waits for every transaction that wrote it (they hold {@code
   * ROW EXCLUSIVE} from their upsert, just before their COMMIT, to their end); a row lock ({@code
   * FOR SHARE}) would not wait for the insert of an origin's first row. The select after it sees
   * their commits at every isolation level: a repeatable read transaction takes its snapshot at the
   * select, after the lock.
   */
  @Override
  public Optional<String> lastCommitLock(String schema) {
    return Optional.of("LOCK TABLE " + quote(schema) + ".rs_lastcommit IN SHARE MODE");
  }

  @Override
  public String lastCommitUpsert(String schema) {
    return "INSERT INTO "
        + quote(schema)
        + ".rs_lastcommit (origin, origin_qid, origin_time, dest_commit_time)"
        + " VALUES (?, ?, ?, clock_timestamp()) ON CONFLICT (origin) DO UPDATE SET"
        + " origin_qid = EXCLUDED.origin_qid, origin_time = EXCLUDED.origin_time,"
        + " dest_commit_time = EXCLUDED.dest_commit_time";
  }

  @Override
  public String threadSeqWait(String schema) {
    return "SELECT seq FROM " + quote(schema) + ".rs_threads WHERE id = ? FOR SHARE";
  }

  // ---- errors --------------------------------------------------------------------------------

  @Override
  public ErrorKind classify(SQLException e) {
    String state = e.getSQLState();
    if (state == null || state.length() != 5) {
      return ErrorKind.OTHER;
    }
    if (state.startsWith("08")
        || state.equals("57P01")
        || state.equals("57P02")
        || state.equals("57P03")) {
      return ErrorKind.CONNECTION;
    }
    switch (state) {
      case "40P01":
        return ErrorKind.DEADLOCK;
      case "40001":
        return ErrorKind.SERIALIZATION;
      case "55P03":
        return ErrorKind.LOCK_TIMEOUT;
      default:
        break;
    }
    if (state.startsWith("23")) {
      return ErrorKind.CONSTRAINT;
    }
    return state.startsWith("22") ? ErrorKind.DATA : ErrorKind.OTHER;
  }

  @Override
  public ErrorClass defaultErrorClass() {
    return new ErrorClass(
        "rs_postgresql_error_class",
        Map.of(
            "40P01",
            ErrorAction.RETRY_STOP, // deadlock detected
            "40001",
            ErrorAction.RETRY_STOP, // serialization failure
            "55P03",
            ErrorAction.RETRY_STOP, // lock not available
            "57014",
            ErrorAction.RETRY_STOP, // statement timeout / cancel
            ErrorClass.ROW_COUNT_MISMATCH,
            ErrorAction.STOP_REPLICATION,
            ErrorClass.INCOMPLETE_TRANSACTION,
            ErrorAction.STOP_REPLICATION,
            ErrorClass.UNAPPLICABLE_CHANGE,
            ErrorAction.STOP_REPLICATION));
  }

  // ---- HVAR: work tables and set-based statements ---------------------------------------------

  @Override
  public List<TableName> referencedTables(Connection c, TableName t) throws SQLException {
    List<TableName> out = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT DISTINCT n.nspname, r.relname FROM pg_constraint k"
                + " JOIN pg_class r ON r.oid = k.confrelid"
                + " JOIN pg_namespace n ON n.oid = r.relnamespace"
                + " WHERE k.contype = 'f' AND k.conrelid = to_regclass(?)")) {
      ps.setString(1, qualified(t));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new TableName(rs.getString(1), rs.getString(2)));
        }
      }
    }
    return out;
  }

  @Override
  public boolean deleteObservable(Connection c, TableName t) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT 1 FROM pg_constraint WHERE contype = 'f' AND confrelid = to_regclass(?)"
                + " UNION ALL SELECT 1 FROM pg_trigger WHERE tgrelid = to_regclass(?)"
                + " AND NOT tgisinternal LIMIT 1")) {
      ps.setString(1, qualified(t));
      ps.setString(2, qualified(t));
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  @Override
  public boolean deleteCascades(Connection c, TableName t) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT 1 FROM pg_constraint WHERE contype = 'f' AND confrelid = to_regclass(?)"
                + " AND confdeltype IN ('c', 'n', 'd') LIMIT 1")) {
      ps.setString(1, qualified(t));
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  @Override
  public boolean deleteInsertInvisible(boolean replicaMode) {
    return replicaMode; // session_replication_role replica: no trigger, no foreign-key action
  }

  @Override
  public void createWorkTable(Connection c, String work, TableMeta t, List<WorkColumn> columns)
      throws SQLException {
    StringBuilder sb =
        new StringBuilder("CREATE TEMP TABLE ").append(quote(work)).append(" ON COMMIT DROP AS ");
    sb.append("SELECT ");
    for (int i = 0; i < columns.size(); i++) {
      WorkColumn w = columns.get(i);
      sb.append(i == 0 ? "" : ", ");
      if (w.source().isPresent()) {
        sb.append("x.").append(quote(w.source().get()));
      } else {
        sb.append("NULL::bigint");
      }
      sb.append(" AS ").append(quote(w.name()));
    }
    sb.append(" FROM ").append(qualified(t.name())).append(" x WITH NO DATA");
    try (Statement st = c.createStatement()) {
      st.execute(sb.toString());
    }
  }

  @Override
  public Optional<String> analyzeWorkTable(String work, List<String> columns) {
    StringBuilder sb = new StringBuilder("ANALYZE ").append(quote(work)).append(" (");
    for (int i = 0; i < columns.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(quote(columns.get(i)));
    }
    return Optional.of(sb.append(')').toString());
  }

  @Override
  public void dropWorkTables(Connection c, java.util.Collection<String> works) {
    // ON COMMIT DROP: the transaction's end drops them, committed or rolled back.
  }

  @Override
  public long loadRows(
      Connection c,
      String target,
      List<String> columns,
      List<ColumnMeta> metas,
      List<Value[]> rows,
      int maxBytes,
      boolean stream)
      throws SQLException {
    StringBuilder sql = new StringBuilder("COPY ").append(target).append(" (");
    appendList(sql, columns, ", ", "");
    sql.append(") FROM STDIN");
    CopyIn copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql.toString());
    try {
      int chunk = Math.max(8192, Math.min(maxBytes, 1 << 20));
      CopyTextEncoder enc = new CopyTextEncoder(chunk + 4096);
      for (Value[] row : rows) {
        enc.row(row);
        if (enc.length() >= chunk) {
          copy.writeToCopy(enc.array(), 0, enc.length());
          enc.reset();
        }
      }
      if (enc.length() > 0) {
        copy.writeToCopy(enc.array(), 0, enc.length());
      }
      return copy.endCopy();
    } finally {
      if (copy.isActive()) {
        copy.cancelCopy();
      }
    }
  }

  @Override
  public Optional<RowStream> openRowStream(
      Connection c, String target, List<String> columns, RowStream.Encoder rows)
      throws SQLException {
    boolean binary = rows instanceof CopyBinaryEncoder;
    StringBuilder sql = new StringBuilder("COPY ").append(target).append(" (");
    appendList(sql, columns, ", ", "");
    sql.append(binary ? ") FROM STDIN WITH (FORMAT binary)" : ") FROM STDIN");
    CopyIn copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql.toString());
    if (binary) {
      copy.writeToCopy(BINARY_COPY_HEADER, 0, BINARY_COPY_HEADER.length);
    }
    return Optional.of(
        new RowStream() {
          @Override
          public void write(byte[] bytes, int offset, int length) throws SQLException {
            copy.writeToCopy(bytes, offset, length);
          }

          @Override
          public long end() throws SQLException {
            if (binary) {
              copy.writeToCopy(BINARY_COPY_TRAILER, 0, BINARY_COPY_TRAILER.length);
            }
            return copy.endCopy();
          }

          @Override
          public void cancel() {
            try {
              if (copy.isActive()) {
                copy.cancelCopy();
              }
            } catch (SQLException | RuntimeException e) {
              // the connection is broken or the transaction failed: rolled back by the caller
            }
          }
        });
  }

  @Override
  public Optional<RowStream.Encoder> rowEncoder(int capacity) {
    return Optional.of(new CopyTextEncoder(capacity));
  }

  @Override
  public Optional<RowStream.Encoder> rowEncoder(TableMeta t, int capacity) {
    return Optional.of(
        CopyBinaryEncoder.supports(t)
            ? new CopyBinaryEncoder(t.columns(), capacity)
            : new CopyTextEncoder(capacity));
  }

  @Override
  public boolean directLoad() {
    return true;
  }

  @Override
  public String bulkDelete(TableMeta t, String work) {
    StringBuilder sb = new StringBuilder("DELETE FROM ").append(qualified(t.name()));
    sb.append(" x USING ").append(quote(work)).append(" w WHERE ");
    appendJoin(sb, t.primaryKey(), t.primaryKey());
    return sb.toString();
  }

  @Override
  public String bulkUpdate(TableMeta t, String work, List<String> setColumns) {
    StringBuilder sb = new StringBuilder("UPDATE ").append(qualified(t.name())).append(" x SET ");
    for (int i = 0; i < setColumns.size(); i++) {
      String q = quote(setColumns.get(i));
      sb.append(i == 0 ? "" : ", ").append(q).append(" = w.").append(q);
    }
    sb.append(" FROM ").append(quote(work)).append(" w WHERE ");
    appendJoin(sb, t.primaryKey(), t.primaryKey());
    return sb.toString();
  }

  @Override
  public String saveRows(TableMeta t, String saved, String keys) {
    StringBuilder sb =
        new StringBuilder("CREATE TEMP TABLE ").append(quote(saved)).append(" ON COMMIT DROP AS");
    sb.append(" SELECT x.* FROM ").append(qualified(t.name())).append(" x JOIN ");
    sb.append(quote(keys)).append(" w ON ");
    appendJoin(sb, t.primaryKey(), t.primaryKey());
    return sb.toString();
  }

  @Override
  public Optional<String> bulkDeleteCounted(
      TableMeta t, String work, String ordinal, String count) {
    // Rows equal in every column, compared as the row's text (hashable, null-safe, json too);
    // row_number() picks count of them, ctid deletes exactly those.
    StringBuilder x = new StringBuilder("ROW(");
    StringBuilder w = new StringBuilder("ROW(");
    for (int i = 0; i < t.columns().size(); i++) {
      String q = quote(t.columns().get(i).name());
      x.append(i == 0 ? "" : ", ").append("x.").append(q);
      w.append(i == 0 ? "" : ", ").append("w.").append(q);
    }
    x.append(")::text");
    w.append(")::text");
    String table = qualified(t.name());
    return Optional.of(
        "DELETE FROM "
            + table
            + " WHERE ctid = ANY (ARRAY(SELECT d.ctid FROM (SELECT x.ctid AS ctid, w."
            + quote(count)
            + " AS n, row_number() OVER (PARTITION BY w."
            + quote(ordinal)
            + ") AS rn FROM "
            + table
            + " x JOIN "
            + quote(work)
            + " w ON "
            + x
            + " = "
            + w
            + ") d WHERE d.rn <= d.n))");
  }

  /** {@code x.k1 = w.k1 AND ...}: the replicate's columns {@code xs} against the work's. */
  private void appendJoin(StringBuilder sb, List<String> xs, List<String> ws) {
    for (int i = 0; i < xs.size(); i++) {
      sb.append(i == 0 ? "" : " AND ").append("x.").append(quote(xs.get(i)));
      sb.append(" = w.").append(quote(ws.get(i)));
    }
  }
}
