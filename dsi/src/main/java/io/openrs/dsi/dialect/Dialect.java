package io.openrs.dsi.dialect;

import io.openrs.dsi.ErrorClass;
import io.openrs.ltl.TableName;
import io.openrs.ltl.Value;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Everything in which replicate databases differ, behind one interface: a new target is one class
 * implementing it (Flyway's {@code Database}). Statements are parameterized (values are bound,
 * never spliced into SQL) and identifiers quoted.
 *
 * <p>Implementations are stateless and thread-safe; every method that talks to the database gets
 * the connection to use.
 */
public interface Dialect {

  /**
   * The dialect for a name: {@code postgresql} (or {@code postgres}, {@code pg}), {@code mariadb}
   * (or {@code mysql}).
   */
  static Dialect forName(String name) {
    switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "postgresql":
      case "postgres":
      case "pg":
        return new PostgresDialect();
      case "mariadb":
      case "mysql":
        return new MariaDbDialect();
      default:
        throw new IllegalArgumentException(
            "no DSI dialect '" + name + "'; known: postgresql, mariadb");
    }
  }

  /** The dialect's name ({@code postgresql}, {@code mariadb}). */
  String name();

  // ---- connections ---------------------------------------------------------------------------

  /** JDBC driver properties for the DSI's connections ({@code applicationName} names the DSI). */
  Map<String, String> driverProperties(String applicationName);

  /**
   * Prepares a fresh connection for applying: time zone, strictness, and with {@code keepTriggers}
   * off the replicate's way of not firing triggers, where it has one.
   */
  void prepareSession(Connection c, boolean keepTriggers) throws SQLException;

  /** The schema (PostgreSQL) or database (MariaDB) the connection works in. */
  String currentSchema(Connection c) throws SQLException;

  /**
   * Makes {@code schema} the default for unqualified names until {@link #useSchema} is called again
   * (for DDL, which names its objects as the origin ran it).
   */
  void useSchema(Connection c, String schema) throws SQLException;

  /** Whether DDL takes part in transactions (PostgreSQL) or commits implicitly (MariaDB). */
  boolean transactionalDdl();

  // ---- catalog -------------------------------------------------------------------------------

  /** Quotes an identifier. */
  String quote(String identifier);

  /** {@code schema.table}, quoted. */
  default String qualified(TableName t) {
    return quote(t.schema()) + "." + quote(t.table());
  }

  /** Reads a table's columns and keys from the catalog (no columns if it does not exist). */
  TableMeta describe(Connection c, TableName table) throws SQLException;

  // ---- statements ----------------------------------------------------------------------------

  /** {@code INSERT INTO t (columns) VALUES (?, ...)}. */
  default String insert(TableMeta t, List<String> columns) {
    StringBuilder sb = new StringBuilder("INSERT INTO ").append(qualified(t.name())).append(" (");
    appendList(sb, columns, ", ", "");
    sb.append(") VALUES (");
    for (int i = 0; i < columns.size(); i++) {
      sb.append(i == 0 ? "?" : ", ?");
    }
    return sb.append(')').toString();
  }

  /**
   * An insert that updates the row when its primary key exists (snapshot rows of materialization).
   * A table without a primary key gets a plain insert.
   */
  String upsert(TableMeta t, List<String> columns);

  /**
   * {@code UPDATE t SET c = ?, ... WHERE ...}: parameters are the set values, then the where
   * values. With {@code byKey} the where clause compares the primary key; otherwise every listed
   * column, null-safe, and exactly one matching row is changed.
   */
  String update(TableMeta t, List<String> setColumns, List<String> whereColumns, boolean byKey);

  /** {@code DELETE FROM t WHERE ...}, the where clause as in {@link #update}. */
  String delete(TableMeta t, List<String> whereColumns, boolean byKey);

  /** Removes every row, inside the current transaction. */
  String truncate(TableMeta t);

  /**
   * Binds {@code value} with its exact type.
   *
   * @param column the target column, or null if the table has no such column (the statement then
   *     fails with the database's error)
   * @throws IllegalArgumentException for {@link Value.Unchanged}, which is never bound
   */
  void bind(PreparedStatement ps, int index, Value value, ColumnMeta column) throws SQLException;

  /** Binds a point in time to a timestamp-with-time-zone (or UTC datetime) parameter. */
  void bindInstant(PreparedStatement ps, int index, Instant time) throws SQLException;

  /**
   * Inserts {@code rows} (values in {@code columns} order, none {@link Value.Unchanged}) through
   * the bulk interface, inside the current transaction.
   *
   * @param maxBytes about how many bytes one round trip may carry ({@code dsi_cmd_batch_size})
   * @return the rows the database reports inserted
   */
  long bulkInsert(
      Connection c, TableMeta t, List<String> columns, List<List<Value>> rows, int maxBytes)
      throws SQLException;

  // ---- progress tables -----------------------------------------------------------------------

  /**
   * Creates {@code rs_lastcommit} in {@code schema} when missing (one row per origin: {@code
   * origin} primary key, {@code origin_qid}, {@code origin_time}, {@code dest_commit_time}); with
   * {@code threadRows} above 0 also {@code rs_threads} ({@code id} primary key, {@code seq})
   * holding rows {@code 0 .. threadRows - 1}. Commits.
   */
  void createProgressTables(Connection c, String schema, int threadRows) throws SQLException;

  /** Reads {@code origin, origin_qid} of every row of {@code rs_lastcommit}. */
  default String lastCommitSelect(String schema) {
    return "SELECT origin, origin_qid FROM " + quote(schema) + "." + quote("rs_lastcommit");
  }

  /**
   * Sets one origin's row of {@code rs_lastcommit}; parameters: origin (int), origin_qid (bytes),
   * origin_time ({@link #bindInstant}). The apply time is the database's clock.
   */
  String lastCommitUpsert(String schema);

  /** Marks {@code rs_threads} row {@code id} (2nd parameter) with {@code seq} (1st): locks it. */
  default String threadSeqUpdate(String schema) {
    return "UPDATE " + quote(schema) + "." + quote("rs_threads") + " SET seq = ? WHERE id = ?";
  }

  /**
   * Reads {@code seq} of {@code rs_threads} row {@code id}, waiting for a transaction holding its
   * lock to end: the commit-order wait the database's deadlock detector sees.
   */
  String threadSeqWait(String schema);

  // ---- errors --------------------------------------------------------------------------------

  /** What one error (not its chain) means. */
  ErrorKind classify(SQLException e);

  /** The dialect's default error actions (RS's {@code rs_sqlserver_error_class} analogue). */
  ErrorClass defaultErrorClass();

  /** Appends quoted names joined by {@code sep}, each followed by {@code suffix}. */
  default void appendList(StringBuilder sb, List<String> names, String sep, String suffix) {
    for (int i = 0; i < names.size(); i++) {
      if (i > 0) {
        sb.append(sep);
      }
      sb.append(quote(names.get(i))).append(suffix);
    }
  }
}
