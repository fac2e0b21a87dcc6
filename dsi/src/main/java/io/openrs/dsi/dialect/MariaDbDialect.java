package io.openrs.dsi.dialect;

import io.openrs.dsi.ErrorAction;
import io.openrs.dsi.ErrorClass;
import io.openrs.ltl.TableName;
import io.openrs.ltl.Value;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * MariaDB 10.x and MySQL: back-quoted identifiers, {@code ON DUPLICATE KEY UPDATE} upserts,
 * multi-row parameterized inserts for the bulk path, vendor-code error classes. The session runs in
 * UTC (timestamps with time zone are stored as UTC) and in strict mode, so a value that does not
 * fit is an error, never silently truncated. DDL commits implicitly.
 */
public final class MariaDbDialect implements Dialect {

  /** Most parameters one statement may carry (the protocol's limit). */
  private static final int MAX_PARAMETERS = 65_535;

  private static final Set<String> TEXT_TYPES =
      Set.of("char", "varchar", "tinytext", "text", "mediumtext", "longtext");

  @Override
  public String name() {
    return "mariadb";
  }

  @Override
  public Map<String, String> driverProperties(String applicationName) {
    // useAffectedRows=false: an update reports the rows it matched, not only those it changed.
    // useServerPrepStmts: the binary protocol sends floats, doubles and times exactly (as text a
    // FLOAT's shortest decimal form can read back above FLT_MAX), and the server keeps the plans.
    // allowLocalInfile: HVAR loads work tables with LOAD DATA LOCAL from a stream it hands the
    // driver (never a file the server names).
    return Map.of(
        "useAffectedRows",
        "false",
        "useServerPrepStmts",
        "true",
        "allowLocalInfile",
        "true",
        "connectionAttributes",
        "program_name:" + applicationName);
  }

  @Override
  public void prepareSession(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(
          "SET SESSION time_zone = '+00:00', SESSION sql_mode ="
              + " 'STRICT_ALL_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION,"
              + "NO_AUTO_VALUE_ON_ZERO'");
    }
    c.commit();
  }

  @Override
  public boolean replicaMode(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@SESSION.foreign_key_checks")) {
      rs.next();
      boolean replica = rs.getInt(1) == 0;
      c.commit();
      return replica;
    }
  }

  @Override
  public String replicaModeStatement(boolean on) {
    // InnoDB neither checks nor cascades; triggers cannot be turned off per session
    return "SET SESSION foreign_key_checks = " + (on ? "0" : "1");
  }

  @Override
  public Optional<String> replicaModeRefusal(Connection c) {
    return Optional.empty(); // any user may set its session's foreign_key_checks
  }

  @Override
  public String currentSchema(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT DATABASE()")) {
      rs.next();
      String db = rs.getString(1);
      c.commit();
      if (db == null) {
        throw new SQLException("the DSI's JDBC URL names no database", "3D000");
      }
      return db;
    }
  }

  @Override
  public void useSchema(Connection c, String schema) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("USE " + quote(schema));
    }
  }

  @Override
  public boolean transactionalDdl() {
    return false;
  }

  @Override
  public String quote(String identifier) {
    return '`' + identifier.replace("`", "``") + '`';
  }

  @Override
  public TableMeta describe(Connection c, TableName table) throws SQLException {
    List<ColumnMeta> columns = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT column_name, data_type, is_nullable FROM information_schema.columns"
                + " WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position")) {
      ps.setString(1, table.schema());
      ps.setString(2, table.table());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          columns.add(
              new ColumnMeta(
                  rs.getString(1),
                  rs.getString(2).toLowerCase(java.util.Locale.ROOT),
                  "YES".equals(rs.getString(3))));
        }
      }
    }
    Map<String, List<String>> keys = new LinkedHashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT index_name, column_name FROM information_schema.statistics"
                + " WHERE table_schema = ? AND table_name = ? AND non_unique = 0"
                + " ORDER BY index_name = 'PRIMARY' DESC, index_name, seq_in_index")) {
      ps.setString(1, table.schema());
      ps.setString(2, table.table());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          keys.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
        }
      }
    }
    List<String> primaryKey = keys.getOrDefault("PRIMARY", List.of());
    List<List<String>> unique = new ArrayList<>();
    keys.forEach(
        (name, cols) -> {
          if (!name.equals("PRIMARY")) {
            unique.add(cols);
          }
        });
    return new TableMeta(table, columns, primaryKey, unique);
  }

  @Override
  public String upsert(TableMeta t, List<String> columns) {
    if (!t.keyed()) {
      return insert(t, columns);
    }
    List<String> rest = columns.stream().filter(c -> !t.primaryKey().contains(c)).toList();
    List<String> set = rest.isEmpty() ? List.of(t.primaryKey().get(0)) : rest;
    StringBuilder sb = new StringBuilder(insert(t, columns)).append(" ON DUPLICATE KEY UPDATE ");
    for (int i = 0; i < set.size(); i++) {
      String q = quote(set.get(i));
      sb.append(i == 0 ? "" : ", ").append(q).append(" = VALUES(").append(q).append(')');
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
    sb.append(" WHERE ");
    if (byKey) {
      appendList(sb, whereColumns, " AND ", " = ?");
      return sb;
    }
    for (int i = 0; i < whereColumns.size(); i++) {
      String name = whereColumns.get(i);
      String type = t.column(name).map(ColumnMeta::typeName).orElse("");
      sb.append(i == 0 ? "" : " AND ").append(quote(name));
      if (type.equals("float")) {
        // A FLOAT column compares as double: the parameter must be rounded to float the same way.
        sb.append(" <=> CAST(? AS FLOAT)");
      } else if (TEXT_TYPES.contains(type)) {
        // Exact text: neither case nor trailing spaces may make two rows equal.
        sb.append(" <=> ? COLLATE utf8mb4_nopad_bin");
      } else {
        sb.append(" <=> ?");
      }
    }
    return sb.append(" LIMIT 1");
  }

  @Override
  public String truncate(TableMeta t) {
    // TRUNCATE commits implicitly; DELETE keeps the change in the replicate transaction.
    return "DELETE FROM " + qualified(t.name());
  }

  @Override
  public void bind(PreparedStatement ps, int i, Value v, ColumnMeta column) throws SQLException {
    if (v instanceof Value.Null) {
      ps.setNull(i, Types.NULL);
    } else if (v instanceof Value.Bool b) {
      ps.setBoolean(i, b.value());
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
      ps.setString(i, t.value());
    } else if (v instanceof Value.Json j) {
      ps.setString(i, j.value());
    } else if (v instanceof Value.Binary b) {
      ps.setBytes(i, b.value());
    } else if (v instanceof Value.Date d) {
      ps.setObject(i, d.value());
    } else if (v instanceof Value.Time t) {
      ps.setObject(i, t.value());
    } else if (v instanceof Value.Timestamp t) {
      ps.setObject(i, t.value());
    } else if (v instanceof Value.TimestampTz t) {
      ps.setObject(i, utc(t.value().toInstant()));
    } else if (v instanceof Value.Uuid u) {
      ps.setString(i, u.value().toString());
    } else if (v instanceof Value.Native n) {
      ps.setString(i, nativeText(n, column));
    } else if (v instanceof Value.NonFinite n) {
      throw noNonFinite(n, column);
    } else {
      throw new IllegalArgumentException("value " + v + " is not bound (column left as it is)");
    }
  }

  /** Character types: a value in another database's text form may go into one as that text. */
  private static final Set<String> CHARACTER_TYPES =
      Set.of(
          "char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set", "json");

  /**
   * A source value in its own database's text form goes into a character column as that text (the
   * documented mapping); any other column has no faithful form for it.
   *
   * @throws IllegalArgumentException naming the column, type and value
   */
  static String nativeText(Value.Native n, ColumnMeta column) {
    if (column != null && CHARACTER_TYPES.contains(column.typeName().toLowerCase(Locale.ROOT))) {
      return n.text();
    }
    throw new IllegalArgumentException(
        "column "
            + (column == null ? "?" : column.name() + " (" + column.typeName() + ")")
            + " cannot hold the "
            + n.dialect()
            + " "
            + n.type()
            + " value '"
            + n.text()
            + "': MariaDB has no such type; only a character column takes it, as text");
  }

  /** MariaDB stores no NaN or infinity in a decimal, date or datetime column. */
  static IllegalArgumentException noNonFinite(Value.NonFinite n, ColumnMeta column) {
    return new IllegalArgumentException(
        "column "
            + (column == null ? "?" : column.name() + " (" + column.typeName() + ")")
            + " cannot hold "
            + n.typeName()
            + " "
            + n.sqlText()
            + ": MariaDB has no "
            + n.sqlText()
            + " for that type");
  }

  private static LocalDateTime utc(Instant t) {
    return LocalDateTime.ofInstant(t, ZoneOffset.UTC);
  }

  @Override
  public void bindInstant(PreparedStatement ps, int index, Instant time) throws SQLException {
    ps.setObject(index, utc(time));
  }

  @Override
  public long bulkInsert(
      Connection c, TableMeta t, List<String> columns, List<List<Value>> rows, int maxBytes)
      throws SQLException {
    int perStatement = Math.max(1, Math.min(1000, MAX_PARAMETERS / columns.size()));
    List<ColumnMeta> meta = new ArrayList<>();
    for (String col : columns) {
      meta.add(t.column(col).orElse(null));
    }
    long inserted = 0;
    String fullSql = multiRowInsert(t, columns, perStatement);
    for (int from = 0; from < rows.size(); from += perStatement) {
      int n = Math.min(perStatement, rows.size() - from);
      String sql = n == perStatement ? fullSql : multiRowInsert(t, columns, n);
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        int p = 1;
        for (int r = from; r < from + n; r++) {
          List<Value> row = rows.get(r);
          for (int k = 0; k < row.size(); k++) {
            bind(ps, p++, row.get(k), meta.get(k));
          }
        }
        inserted += ps.executeUpdate();
      }
    }
    return inserted;
  }

  private String multiRowInsert(TableMeta t, List<String> columns, int rows) {
    StringBuilder sb = new StringBuilder(insert(t, columns));
    String tuple = sb.substring(sb.lastIndexOf(" VALUES ") + 8);
    for (int r = 1; r < rows; r++) {
      sb.append(", ").append(tuple);
    }
    return sb.toString();
  }

  @Override
  public void createProgressTables(Connection c, String schema, int threadRows)
      throws SQLException {
    String s = quote(schema);
    try (Statement st = c.createStatement()) {
      st.execute(
          "CREATE TABLE IF NOT EXISTS "
              + s
              + ".rs_lastcommit (origin INT NOT NULL PRIMARY KEY, origin_qid VARBINARY(64) NOT"
              + " NULL, origin_time DATETIME(6) NULL, dest_commit_time DATETIME(6) NOT NULL)"
              + " ENGINE=InnoDB");
      if (threadRows > 0) {
        st.execute(
            "CREATE TABLE IF NOT EXISTS "
                + s
                + ".rs_threads (id INT NOT NULL PRIMARY KEY, seq BIGINT NOT NULL) ENGINE=InnoDB");
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < threadRows; i++) {
          values.append(i == 0 ? "" : ", ").append('(').append(i).append(", 0)");
        }
        st.execute("INSERT IGNORE INTO " + s + ".rs_threads (id, seq) VALUES " + values);
      }
    }
    c.commit();
  }

  /**
   * A locking read: InnoDB waits for the row locks of an unfinished writer (an uncommitted inserted
   * row included) and reads the latest committed rows, at any isolation level.
   */
  @Override
  public String lastCommitSelect(String schema) {
    return Dialect.super.lastCommitSelect(schema) + " LOCK IN SHARE MODE";
  }

  @Override
  public String lastCommitUpsert(String schema) {
    return "INSERT INTO "
        + quote(schema)
        + ".rs_lastcommit (origin, origin_qid, origin_time, dest_commit_time)"
        + " VALUES (?, ?, ?, UTC_TIMESTAMP(6)) ON DUPLICATE KEY UPDATE"
        + " origin_qid = VALUES(origin_qid), origin_time = VALUES(origin_time),"
        + " dest_commit_time = VALUES(dest_commit_time)";
  }

  @Override
  public String threadSeqWait(String schema) {
    return "SELECT seq FROM " + quote(schema) + ".rs_threads WHERE id = ? LOCK IN SHARE MODE";
  }

  @Override
  public ErrorKind classify(SQLException e) {
    switch (e.getErrorCode()) {
      case 1213:
        return ErrorKind.DEADLOCK;
      case 1205:
        return ErrorKind.LOCK_TIMEOUT;
      case 1053: // server shutdown in progress
      case 1152: // aborted connection
      case 1927: // connection was killed
      case 2002:
      case 2003:
      case 2006: // server has gone away
      case 2013: // lost connection during query
        return ErrorKind.CONNECTION;
      default:
        break;
    }
    String state = e.getSQLState();
    if (state == null || state.length() != 5) {
      return ErrorKind.OTHER;
    }
    if (state.startsWith("08")) {
      return ErrorKind.CONNECTION;
    }
    if (state.equals("40001")) {
      return ErrorKind.DEADLOCK;
    }
    if (state.startsWith("23")) {
      return ErrorKind.CONSTRAINT;
    }
    return state.startsWith("22") ? ErrorKind.DATA : ErrorKind.OTHER;
  }

  @Override
  public ErrorClass defaultErrorClass() {
    return new ErrorClass(
        "rs_mariadb_error_class",
        Map.of(
            "1213",
            ErrorAction.RETRY_STOP, // deadlock
            "1205",
            ErrorAction.RETRY_STOP, // lock wait timeout
            "40001",
            ErrorAction.RETRY_STOP, // serialization failure
            ErrorClass.ROW_COUNT_MISMATCH,
            ErrorAction.STOP_REPLICATION,
            ErrorClass.INCOMPLETE_TRANSACTION,
            ErrorAction.STOP_REPLICATION,
            ErrorClass.UNAPPLICABLE_CHANGE,
            ErrorAction.STOP_REPLICATION));
  }

  // ---- HVAR: work tables and set-based statements ---------------------------------------------

  /** Column types whose values travel as hex in {@code LOAD DATA} (bytes, not characters). */
  private static final Set<String> BINARY_TYPES =
      Set.of("binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob");

  @Override
  public List<TableName> referencedTables(Connection c, TableName t) throws SQLException {
    List<TableName> out = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT DISTINCT referenced_table_schema, referenced_table_name"
                + " FROM information_schema.key_column_usage WHERE table_schema = ?"
                + " AND table_name = ? AND referenced_table_name IS NOT NULL")) {
      ps.setString(1, t.schema());
      ps.setString(2, t.table());
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
            "SELECT 1 FROM information_schema.key_column_usage WHERE referenced_table_schema = ?"
                + " AND referenced_table_name = ? UNION ALL SELECT 1 FROM"
                + " information_schema.triggers WHERE event_object_schema = ? AND"
                + " event_object_table = ? LIMIT 1")) {
      ps.setString(1, t.schema());
      ps.setString(2, t.table());
      ps.setString(3, t.schema());
      ps.setString(4, t.table());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  @Override
  public boolean deleteCascades(Connection c, TableName t) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT 1 FROM information_schema.referential_constraints WHERE"
                + " unique_constraint_schema = ? AND referenced_table_name = ? AND delete_rule IN"
                + " ('CASCADE', 'SET NULL', 'SET DEFAULT') LIMIT 1")) {
      ps.setString(1, t.schema());
      ps.setString(2, t.table());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  @Override
  public boolean deleteInsertInvisible(boolean replicaMode) {
    return false; // triggers fire whatever the mode; foreign keys check and cascade in origin mode
  }

  @Override
  public void createWorkTable(Connection c, String work, TableMeta t, List<WorkColumn> columns)
      throws SQLException {
    StringBuilder sb = new StringBuilder("CREATE TEMPORARY TABLE ").append(quote(work));
    sb.append(" AS SELECT ");
    for (int i = 0; i < columns.size(); i++) {
      WorkColumn w = columns.get(i);
      sb.append(i == 0 ? "" : ", ");
      if (w.source().isPresent()) {
        sb.append("x.").append(quote(w.source().get()));
      } else {
        sb.append("CAST(NULL AS SIGNED)");
      }
      sb.append(" AS ").append(quote(w.name()));
    }
    sb.append(" FROM ").append(qualified(t.name())).append(" x LIMIT 0");
    try (Statement st = c.createStatement()) {
      st.execute(sb.toString());
    }
  }

  @Override
  public void dropWorkTables(Connection c, java.util.Collection<String> works) throws SQLException {
    if (works.isEmpty()) {
      return;
    }
    StringBuilder sb = new StringBuilder("DROP TEMPORARY TABLE IF EXISTS ");
    appendList(sb, new ArrayList<>(works), ", ", "");
    try (Statement st = c.createStatement()) {
      st.execute(sb.toString());
    }
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
    if (rows.isEmpty()) {
      return 0;
    }
    return stream
        ? loadData(c, target, columns, metas, rows)
        : multiRowLoad(c, target, columns, metas, rows);
  }

  /**
   * {@code LOAD DATA LOCAL INFILE} from a stream the driver reads: tab-separated, backslash
   * escapes, {@code \N} for null, bytes as hex through {@code UNHEX}. With {@code LOCAL} the server
   * turns value errors into warnings; any warning fails the load, so nothing is changed silently.
   */
  private long loadData(
      Connection c, String target, List<String> columns, List<ColumnMeta> metas, List<Value[]> rows)
      throws SQLException {
    boolean[] hex = new boolean[columns.size()];
    StringBuilder sql =
        new StringBuilder("LOAD DATA LOCAL INFILE 'rs_hvar' INTO TABLE ").append(target);
    sql.append(" CHARACTER SET utf8mb4 FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\'");
    sql.append(" LINES TERMINATED BY '\\n' (");
    StringBuilder set = new StringBuilder();
    for (int k = 0; k < columns.size(); k++) {
      ColumnMeta m = metas.get(k);
      hex[k] = m != null && BINARY_TYPES.contains(m.typeName());
      sql.append(k == 0 ? "" : ", ");
      if (hex[k]) {
        sql.append("@rs_hvar_").append(k);
        set.append(set.length() == 0 ? " SET " : ", ").append(quote(columns.get(k)));
        set.append(" = UNHEX(@rs_hvar_").append(k).append(')');
      } else {
        sql.append(quote(columns.get(k)));
      }
    }
    sql.append(')').append(set);
    java.io.InputStream in = new LoadDataStream(rows, hex);
    try (Statement st = c.createStatement()) {
      st.unwrap(org.mariadb.jdbc.Statement.class).setLocalInfileInputStream(in);
      long n = st.executeLargeUpdate(sql.toString());
      java.sql.SQLWarning w = st.getWarnings();
      if (w != null) {
        StringBuilder msg = new StringBuilder("LOAD DATA into " + target + " reported warnings:");
        for (int i = 0; w != null && i < 3; i++, w = w.getNextWarning()) {
          msg.append(' ').append(w.getMessage()).append(';');
        }
        throw new SQLException(msg.toString(), "22000", 0);
      }
      return n;
    }
  }

  @Override
  public boolean streamRefused(SQLException e) {
    String m = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
    return e.getErrorCode() == 1148
        || e.getErrorCode() == 4166
        || e.getErrorCode() == 3948
        || m.contains("allowlocalinfile")
        || m.contains("local infile");
  }

  /** The rows as multi-row parameterized inserts (up to 1000 rows or 65535 parameters each). */
  private long multiRowLoad(
      Connection c, String target, List<String> columns, List<ColumnMeta> metas, List<Value[]> rows)
      throws SQLException {
    int perStatement = Math.max(1, Math.min(1000, MAX_PARAMETERS / columns.size()));
    StringBuilder head = new StringBuilder("INSERT INTO ").append(target).append(" (");
    appendList(head, columns, ", ", "");
    head.append(") VALUES ");
    StringBuilder tuple = new StringBuilder("(");
    for (int i = 0; i < columns.size(); i++) {
      tuple.append(i == 0 ? "?" : ", ?");
    }
    tuple.append(')');
    long inserted = 0;
    for (int from = 0; from < rows.size(); from += perStatement) {
      int n = Math.min(perStatement, rows.size() - from);
      StringBuilder sql = new StringBuilder(head);
      for (int r = 0; r < n; r++) {
        sql.append(r == 0 ? "" : ", ").append(tuple);
      }
      try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
        int p = 1;
        for (int r = from; r < from + n; r++) {
          Value[] row = rows.get(r);
          for (int k = 0; k < row.length; k++) {
            bind(ps, p++, row[k], metas.get(k));
          }
        }
        inserted += ps.executeUpdate();
      }
    }
    return inserted;
  }

  @Override
  public boolean directLoad() {
    return false;
  }

  @Override
  public String bulkDelete(TableMeta t, String work) {
    StringBuilder sb = new StringBuilder("DELETE x FROM ").append(qualified(t.name()));
    sb.append(" x JOIN ").append(quote(work)).append(" w ON ");
    appendJoin(sb, t.primaryKey(), t.primaryKey());
    return sb.toString();
  }

  @Override
  public String bulkUpdate(TableMeta t, String work, List<String> setColumns) {
    StringBuilder sb = new StringBuilder("UPDATE ").append(qualified(t.name())).append(" x JOIN ");
    sb.append(quote(work)).append(" w ON ");
    appendJoin(sb, t.primaryKey(), t.primaryKey());
    sb.append(" SET ");
    for (int i = 0; i < setColumns.size(); i++) {
      String q = quote(setColumns.get(i));
      sb.append(i == 0 ? "" : ", ").append("x.").append(q).append(" = w.").append(q);
    }
    return sb.toString();
  }

  @Override
  public String saveRows(TableMeta t, String saved, String keys) {
    StringBuilder sb = new StringBuilder("CREATE TEMPORARY TABLE ").append(quote(saved));
    sb.append(" AS SELECT x.* FROM ").append(qualified(t.name())).append(" x JOIN ");
    sb.append(quote(keys)).append(" w ON ");
    appendJoin(sb, t.primaryKey(), t.primaryKey());
    return sb.toString();
  }

  private void appendJoin(StringBuilder sb, List<String> xs, List<String> ws) {
    for (int i = 0; i < xs.size(); i++) {
      sb.append(i == 0 ? "" : " AND ").append("x.").append(quote(xs.get(i)));
      sb.append(" = w.").append(quote(ws.get(i)));
    }
  }
}
