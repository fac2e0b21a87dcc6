package io.openrs.dsi.dialect;

import io.openrs.dsi.ErrorClass;
import io.openrs.ltl.TableName;
import io.openrs.ltl.Value;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

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

  /** Prepares a fresh connection for applying: time zone, strictness. */
  void prepareSession(Connection c) throws SQLException;

  // ---- the replicate's own rules (design invariant 9) ------------------------------------------

  /**
   * Whether the session applies in <em>replica mode</em>: the replicate's own rules that repeat
   * what an origin's log already holds do not act (PostgreSQL {@code session_replication_role =
   * replica}: no foreign-key check or action, no ordinary trigger; MariaDB {@code
   * foreign_key_checks = 0}: no foreign-key check or action, triggers still fire).
   */
  boolean replicaMode(Connection c) throws SQLException;

  /** The statement that turns replica mode on or off for the session (for messages too). */
  String replicaModeStatement(boolean on);

  /**
   * Why the DSI's user may not turn replica mode on, with the statement that grants it; empty if it
   * may. Run on a fresh connection outside a transaction (it ends the one it opens).
   */
  Optional<String> replicaModeRefusal(Connection c) throws SQLException;

  /**
   * The statement that makes the rest of the replicate transaction check deferrable constraints at
   * its commit, as the origin did; empty where the replicate has no deferrable constraints.
   */
  default Optional<String> deferConstraintsStatement() {
    return Optional.empty();
  }

  /**
   * What goes between an insert's column list and its {@code VALUES} or {@code SELECT} so that the
   * origin's values of identity columns are kept (PostgreSQL {@code OVERRIDING SYSTEM VALUE} for a
   * table with a {@code GENERATED ALWAYS} identity column); empty by default.
   */
  default String insertOverriding(TableMeta t) {
    return "";
  }

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
    sb.append(')').append(insertOverriding(t)).append(" VALUES (");
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
   * Removes every row of several tables that the origin truncated together (PostgreSQL logs {@code
   * TRUNCATE a, b} or {@code TRUNCATE a CASCADE} as one truncate of all of them), given children
   * first: by default one {@link #truncate(TableMeta)} each, in that order.
   */
  default List<String> truncate(List<TableMeta> childrenFirst) {
    List<String> out = new ArrayList<>(childrenFirst.size());
    for (TableMeta t : childrenFirst) {
      out.add(truncate(t));
    }
    return out;
  }

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

  /**
   * Reads {@code origin, origin_qid} of every row of {@code rs_lastcommit}. Run after {@link
   * #lastCommitLock} in the same transaction, it must not return before every transaction of
   * another session that wrote the table has ended, and must then see what those did: a DSIEXEC
   * session that lost its connection in the middle of its COMMIT may still commit at the replicate
   * after the DSI has reconnected, and a snapshot read taken before that commit would miss it and
   * apply its transactions a second time.
   */
  default String lastCommitSelect(String schema) {
    return "SELECT origin, origin_qid FROM " + quote(schema) + "." + quote("rs_lastcommit");
  }

  /**
   * A statement run before {@link #lastCommitSelect} in the same transaction to wait for the
   * table's writers, where the select alone does not.
   */
  default Optional<String> lastCommitLock(String schema) {
    return Optional.empty();
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

  /**
   * Whether statements of different SQL may go to this connection in one round trip as a command
   * batch, their values written with {@link #appendLiteral} instead of bound (false: each run of
   * one SQL text is its own batch).
   */
  default boolean literalBatches(Connection c) throws SQLException {
    return false;
  }

  /**
   * Appends {@code v} as an SQL literal the server reads back as exactly that value in a column of
   * {@code column}'s type (only where {@link #literalBatches} is true).
   *
   * @throws IllegalArgumentException for a value it cannot write (the caller falls back)
   */
  default void appendLiteral(StringBuilder sb, Value v, ColumnMeta column) {
    throw new IllegalArgumentException("no SQL literals for " + v);
  }

  /**
   * The statement that makes a session commit without waiting for the log flush ({@code
   * dsi_synchronous_commit off}), run on every new DSI connection; empty where the dialect keeps
   * every commit synchronous (then the queue is confirmed at each commit as usual).
   */
  default Optional<String> asynchronousCommitStatement() {
    return Optional.empty();
  }

  /**
   * The replicate's log position after every commit returned so far, comparable with {@link
   * #logFlushPosition} (only where {@link #asynchronousCommitStatement} is not empty).
   */
  default long logInsertPosition(Connection c) throws SQLException {
    throw new SQLException("the dialect has no log positions");
  }

  /** How far the replicate's log is flushed: commits below it survive a crash of the replicate. */
  default long logFlushPosition(Connection c) throws SQLException {
    throw new SQLException("the dialect has no log positions");
  }

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

  // ---- HVAR: work tables and set-based statements ---------------------------------------------

  /**
   * Why HVAR cannot apply changes to {@code t} set-based, or empty if it can. Transactions touching
   * such a table are applied in continuous mode, between groups.
   */
  default Optional<String> bulkRestriction(TableMeta t) {
    if (!t.exists()) {
      return Optional.of("the replicate has no table " + t.name());
    }
    if (t.deferrableKeys()) {
      return Optional.of(
          "replicate table "
              + t.name()
              + " has a deferrable key: two rows may hold one key inside a transaction, which a"
              + " net change set keyed by it cannot tell apart");
    }
    return Optional.empty();
  }

  /**
   * The tables {@code t}'s foreign keys reference (its parents), as the replicate's catalog names
   * them; {@code t} itself for a self-reference.
   */
  List<TableName> referencedTables(Connection c, TableName t) throws SQLException;

  /**
   * True if deleting a row of {@code t} can be seen beyond the row: a foreign key of some table
   * references {@code t} (a check or a cascade), or {@code t} has triggers of its own.
   */
  boolean deleteObservable(Connection c, TableName t) throws SQLException;

  /**
   * True if deleting a row of {@code t} makes the replicate change other rows: a foreign key
   * referencing {@code t} cascades, sets null or sets a default on delete. HVAR then does not apply
   * a change of {@code t}'s primary key as a delete and an insert (the delete would take the
   * children with it), unless in replica mode where the dialect fires nothing.
   */
  boolean deleteCascades(Connection c, TableName t) throws SQLException;

  /**
   * True if deleting and inserting a row of a referenced table fires nothing at the replicate: no
   * foreign-key check or cascade, no trigger (PostgreSQL in {@link #replicaMode replica mode}).
   */
  boolean deleteInsertInvisible(boolean replicaMode);

  /**
   * Creates the empty temporary work table {@code work} (unqualified, visible to this session only)
   * with {@code columns}, each typed as the replicate column it names in {@code t} (constraints and
   * defaults are not copied). PostgreSQL drops it when the transaction ends; elsewhere {@link
   * #dropWorkTables} does.
   */
  void createWorkTable(Connection c, String work, TableMeta t, List<WorkColumn> columns)
      throws SQLException;

  /**
   * Drops work tables that outlive their transaction (MariaDB's temporary tables); a no-op where
   * the transaction's end drops them.
   */
  void dropWorkTables(Connection c, Collection<String> works) throws SQLException;

  /**
   * Loads {@code rows} (values in {@code columns} order; none {@link Value.Unchanged}) into {@code
   * target} (a quoted name: a work table, or with {@link #directLoad} the replicate table) through
   * the bulk interface, inside the current transaction.
   *
   * @param metas the replicate's column of each value (types for encoding), null where unknown
   * @param maxBytes about how many bytes one round trip carries ({@code dsi_cmd_batch_size})
   * @param stream the dialect's streaming interface may be used ({@code false} after the server
   *     refused it: MariaDB then sends multi-row inserts)
   * @return the rows the database reports loaded
   * @throws SQLException also when the database reports warnings about the values (a value it would
   *     have changed silently)
   */
  long loadRows(
      Connection c,
      String target,
      List<String> columns,
      List<ColumnMeta> metas,
      List<Value[]> rows,
      int maxBytes,
      boolean stream)
      throws SQLException;

  /**
   * Opens a bulk load into {@code target} (a quoted replicate table) of {@code columns} that takes
   * rows as they come, inside the current transaction; empty where the dialect has none (its loads
   * take all rows at once: {@link #loadRows}). Only with {@link #directLoad}: a failing row fails
   * the transaction, never skipped. {@code rows} is the encoder the bytes come from (its format).
   */
  default java.util.Optional<RowStream> openRowStream(
      Connection c, String target, List<String> columns, RowStream.Encoder rows)
      throws SQLException {
    return java.util.Optional.empty();
  }

  /**
   * An encoder of rows for {@link #openRowStream} that takes any column's values (PostgreSQL: the
   * text format); empty where the dialect has none.
   */
  default java.util.Optional<RowStream.Encoder> rowEncoder(int capacity) {
    return java.util.Optional.empty();
  }

  /**
   * The fastest encoder of {@code t}'s rows for {@link #openRowStream} (PostgreSQL: the binary
   * format when it knows every column's type); it may refuse a value ({@link
   * RowStream.Unencodable}), where {@link #rowEncoder(int)}'s would not.
   */
  default java.util.Optional<RowStream.Encoder> rowEncoder(TableMeta t, int capacity) {
    return rowEncoder(capacity);
  }

  /** True if {@code e} says the server refuses the streaming load interface (not the data). */
  default boolean streamRefused(SQLException e) {
    return false;
  }

  /**
   * True if net inserts may be loaded straight into the replicate table (PostgreSQL {@code COPY}: a
   * failure aborts the transaction, which HVAR then applies again in continuous mode); false where
   * a load would skip failing rows silently (MariaDB {@code LOAD DATA LOCAL} ignores duplicates),
   * so inserts go through a work table and {@code INSERT ... SELECT}.
   */
  boolean directLoad();

  /**
   * The statement that gives the planner the real size of a small work table just loaded, or empty
   * where none is needed. PostgreSQL plans a table never analyzed as at least ten pages (2,000-300
   * rows by its width), and for a few hundred keys then hashes the whole replicate table instead of
   * looking the keys up in its primary key (10-20 times slower, docs/dsi.md).
   *
   * @param columns the columns the apply joins on
   */
  default Optional<String> analyzeWorkTable(String work, List<String> columns) {
    return Optional.empty();
  }

  /** Deletes the rows of {@code t} whose primary key is in work table {@code work}. */
  String bulkDelete(TableMeta t, String work);

  /**
   * Sets {@code setColumns} of the rows of {@code t} from work table {@code work}, joined on the
   * primary key (the work table holds the key and the set columns under their names).
   */
  String bulkUpdate(TableMeta t, String work, List<String> setColumns);

  /** {@code INSERT INTO t (columns) SELECT columns FROM work}. */
  default String bulkInsertSelect(TableMeta t, String work, List<String> columns) {
    StringBuilder sb = new StringBuilder("INSERT INTO ").append(qualified(t.name())).append(" (");
    appendList(sb, columns, ", ", "");
    sb.append(')').append(insertOverriding(t)).append(" SELECT ");
    appendList(sb, columns, ", ", "");
    return sb.append(" FROM ").append(quote(work)).toString();
  }

  /**
   * Creates temporary table {@code saved} holding every column of the rows of {@code t} whose
   * primary key is in work table {@code keys} (columns named as the key): the rows as they are
   * before the group changes them. Reports the rows saved as its update count.
   */
  String saveRows(TableMeta t, String saved, String keys);

  /**
   * Inserts into {@code t} one row per row of work table {@code work}: {@code provided} columns
   * from the work table, every other column from the row of {@code saved} whose primary key equals
   * the work table's {@code keyColumns} (in primary key order).
   */
  default String insertFromSaved(
      TableMeta t, String work, String saved, List<String> provided, List<String> keyColumns) {
    List<String> rest = new ArrayList<>();
    for (ColumnMeta c : t.columns()) {
      if (!provided.contains(c.name())) {
        rest.add(c.name());
      }
    }
    StringBuilder sb = new StringBuilder("INSERT INTO ").append(qualified(t.name())).append(" (");
    List<String> all = new ArrayList<>(provided);
    all.addAll(rest);
    appendList(sb, all, ", ", "");
    sb.append(')').append(insertOverriding(t)).append(" SELECT ");
    for (int i = 0; i < all.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(i < provided.size() ? "w." : "s.");
      sb.append(quote(all.get(i)));
    }
    sb.append(" FROM ").append(quote(work)).append(" w JOIN ").append(quote(saved));
    sb.append(" s ON ");
    for (int i = 0; i < t.primaryKey().size(); i++) {
      sb.append(i == 0 ? "" : " AND ").append("s.").append(quote(t.primaryKey().get(i)));
      sb.append(" = w.").append(quote(keyColumns.get(i)));
    }
    return sb.toString();
  }

  /**
   * For a table without primary key: deletes, for each row of work table {@code work} (every column
   * of {@code t}, plus {@code ordinal} numbering the rows and {@code count}), {@code count} of the
   * rows of {@code t} equal to it in every column; empty if the dialect cannot do that in one
   * statement (the rows are then deleted one statement each, {@link #delete} without key).
   */
  default Optional<String> bulkDeleteCounted(
      TableMeta t, String work, String ordinal, String count) {
    return Optional.empty();
  }
}
