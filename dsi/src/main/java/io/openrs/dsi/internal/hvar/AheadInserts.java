package io.openrs.dsi.internal.hvar;

import io.openrs.dsi.dialect.Dialect;
import io.openrs.dsi.dialect.RowStream;
import io.openrs.dsi.dialect.TableMeta;
import io.openrs.dsi.internal.Jdbc;
import io.openrs.dsi.internal.StatementFailure;
import io.openrs.ltl.TableName;
import io.openrs.ltl.Value;
import io.openrs.ltl.packed.PackedRowReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * One HVAR group's inserts that go ahead ({@link InsertStream}): encoded as the compiler meets
 * them, sent to the replicate table through the dialect's streaming bulk load ({@link RowStream},
 * PostgreSQL {@code COPY}, binary where the dialect knows every column's type) on the DSIEXEC
 * session while the group is still compiling, so the replicate loads one part of the group while
 * the next is compiled. The session is free for them only while no earlier unit is being applied on
 * it ({@link SharedApplySession}); until then they wait in their buffers. The rows of a transaction
 * go once it is added to the group whole; nothing is committed until the group is: {@link #finish}
 * completes the load inside the group's replicate transaction, before the rest of the group.
 *
 * <p>Every row encoded stays in one buffer per table until the group is done: when the group's
 * transaction has to be run again (a lost connection, the session reconnected), {@link #finish}
 * sends them all again. A failure while streaming is kept and reported by {@link #finish}: the
 * group then fails as a whole and is rolled back, as if its bulk load had failed.
 *
 * <p>Not thread-safe: the compiling thread uses it until it hands the group over (through {@link
 * HvarPipeline}), the applying thread after; {@link SharedApplySession} orders the two on the
 * session.
 */
final class AheadInserts implements InsertStream {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AheadInserts.class);

  /** The session the rows go to while compiling. */
  interface Session {
    /**
     * The replicate connection {@code asking} may send on now, or null if none (then its rows wait
     * and go with a later transaction, or at the latest with {@link #finish}).
     */
    Connection connection(AheadInserts asking);
  }

  /** What {@link #accepts} asks of the catalog: the tables {@code t}'s foreign keys reference. */
  interface Parents {
    List<TableName> of(TableName t) throws SQLException;
  }

  /** A replicate table's rows: encoded, committed (whole transactions), sent. */
  private static final class Table {
    final TableMeta meta;
    final RowStream.Encoder rows;
    final List<String> columns = new ArrayList<>();
    int committedBytes;
    long committedRows;
    long encodedRows;
    int sentBytes;
    long sentRows;

    Table(TableMeta meta, RowStream.Encoder rows) {
      this.meta = meta;
      this.rows = rows;
      meta.columns().forEach(c -> columns.add(c.name()));
    }
  }

  /** How many chunks a table other than the one loading gathers before the load switches to it. */
  private static final int SWITCH_CHUNKS = 8;

  private final Dialect dialect;
  private final Session session;
  private final Parents parents;
  private final int chunk;
  private final ToIntFunction<TableName> expectedBytes;
  private final java.util.Set<TableName> textLoads;
  private final Map<TableName, Table> tables = new LinkedHashMap<>();
  private final List<Table> touched = new ArrayList<>();
  private Table last;

  // The load open on the session: its table, connection, and rows sent through it.
  private Table loading;
  private Connection loadingOn;
  private RowStream load;
  private long loadRows;

  private SQLException failed;
  private TableName failedTable;
  private TableName lastFailedTable;
  private boolean finishedOnce;

  /**
   * @param chunk about how many bytes one write carries ({@code dsi_cmd_batch_size})
   * @param expectedBytes about how many encoded bytes a table's rows will take (the last group's):
   *     its buffer starts that large instead of growing there by copies
   * @param textLoads tables loaded in the encoding that takes any value (PostgreSQL's text COPY)
   *     instead of the dialect's fastest (binary COPY): those where the fastest met a value it does
   *     not write. Kept by the caller across groups; this object adds to it.
   */
  AheadInserts(
      Dialect dialect,
      Session session,
      Parents parents,
      int chunk,
      ToIntFunction<TableName> expectedBytes,
      java.util.Set<TableName> textLoads) {
    this.dialect = dialect;
    this.session = session;
    this.parents = parents;
    this.chunk = Math.max(8192, chunk);
    this.expectedBytes = expectedBytes;
    this.textLoads = textLoads;
  }

  /** True if {@code dialect} can stream inserts while a group compiles. */
  static boolean supported(Dialect dialect) {
    return dialect.directLoad() && dialect.rowEncoder(16).isPresent();
  }

  @Override
  public boolean accepts(TableMeta t) throws SQLException {
    return t.keyed() && t.uniqueKeys().isEmpty() && parents.of(t.name()).isEmpty();
  }

  @Override
  public void row(TableMeta t, Value[] image) {
    Table table = table(t);
    try {
      table.rows.row(image);
    } catch (RowStream.Unencodable e) {
      unencodable(table, e);
    }
    table.encodedRows++; // also a refused row: the compiler took its key as inserted ahead
  }

  @Override
  public void row(TableMeta t, PackedRowReader.Image image, int[] columns) {
    Table table = table(t);
    try {
      table.rows.row(image, columns);
    } catch (RowStream.Unencodable e) {
      unencodable(table, e);
    }
    table.encodedRows++; // also a refused row: the compiler took its key as inserted ahead
  }

  /**
   * The table's encoder refused a value: the group fails (its rows already encoded, perhaps sent,
   * are in that encoding), is applied again in continuous mode, and the table's later groups load
   * it in the encoding that takes any value.
   */
  private void unencodable(Table table, RowStream.Unencodable e) {
    TableName name = table.meta.name();
    if (textLoads.add(name)) {
      LOG.info(
          "HVAR: {} is loaded as text from now on ({}); this group is applied again in"
              + " continuous mode",
          name,
          e.getMessage());
    }
    if (failed == null) {
      fail(table, new SQLException("HVAR bulk load of " + name + ": " + e.getMessage(), e));
    }
  }

  private Table table(TableMeta t) {
    Table table = last;
    if (table == null || table.meta != t) {
      table = tables.get(t.name());
      if (table == null) {
        int expected = expectedBytes.applyAsInt(t.name());
        int capacity = (int) Math.min(1 << 30, Math.max(chunk * 2L, expected + expected / 8L));
        RowStream.Encoder rows =
            textLoads.contains(t.name())
                ? dialect.rowEncoder(capacity).orElseThrow()
                : dialect.rowEncoder(t, capacity).orElseThrow();
        table = new Table(t, rows);
        tables.put(t.name(), table);
      }
      last = table;
    }
    if (!touched.contains(table)) {
      touched.add(table);
    }
    return table;
  }

  @Override
  public void transactionAdded() {
    for (Table t : touched) {
      t.committedBytes = t.rows.length();
      t.committedRows = t.encodedRows;
    }
    touched.clear();
    if (failed != null || finishedOnce) {
      return;
    }
    for (Table t : tables.values()) {
      // The load open on the session takes its table's rows a chunk at a time; another table's
      // rows wait until they fill SWITCH_CHUNKS chunks, as a switch ends one load and opens the
      // next (round trips and the backend's set-up of a COPY each). The rows are kept until the
      // group ends either way, so waiting costs no memory.
      int threshold = loading == null || t == loading ? chunk : chunk * SWITCH_CHUNKS;
      if (t.committedBytes - t.sentBytes >= threshold) {
        Connection c = session.connection(this);
        if (c == null) {
          return;
        }
        try {
          send(c, t);
        } catch (SQLException | RuntimeException e) {
          fail(t, e);
          return;
        }
      }
    }
  }

  @Override
  public void transactionDropped() {
    for (Table t : touched) {
      t.rows.truncate(t.committedBytes);
      t.encodedRows = t.committedRows;
    }
    touched.clear();
  }

  @Override
  public long bytes() {
    long b = 0;
    for (Table t : tables.values()) {
      b += t.rows.array().length;
    }
    return b;
  }

  /**
   * True if a row could not be encoded or sent: {@link #finish} fails, and the group with it (the
   * compiler counted the row's key as inserted ahead).
   */
  boolean failed() {
    return failed != null;
  }

  /** Rows that went ahead (whole transactions). */
  long rows() {
    long n = 0;
    for (Table t : tables.values()) {
      n += t.committedRows;
    }
    return n;
  }

  /**
   * Completes the load on {@code c}, inside the group's replicate transaction: the rows not sent
   * yet, or, when the group's transaction runs again, all of them.
   *
   * @throws StatementFailure the load failed (also a failure met while streaming)
   */
  void finish(Connection c) throws StatementFailure {
    boolean again = finishedOnce;
    finishedOnce = true;
    if (failed != null) {
      SQLException e = failed;
      TableName t = failedTable;
      failed = null;
      abandon();
      throw StatementFailure.database(statement(t), e);
    }
    if (again || (loading != null && loadingOn != c)) {
      abandon();
      for (Table t : tables.values()) {
        t.sentBytes = 0;
        t.sentRows = 0;
      }
    }
    Table current = null;
    try {
      for (Table t : tables.values()) {
        current = t;
        if (t.committedBytes > t.sentBytes) {
          send(c, t);
        }
      }
      current = loading;
      endLoad();
    } catch (SQLException e) {
      abandon();
      throw StatementFailure.database(statement(current == null ? null : current.meta.name()), e);
    } catch (RuntimeException | AssertionError e) {
      abandon();
      throw StatementFailure.database(
          statement(current == null ? null : current.meta.name()), Jdbc.wrap(e));
    }
  }

  /** The table a failure of {@link #finish} concerns, if known. */
  Optional<TableName> failedTable() {
    return Optional.ofNullable(lastFailedTable);
  }

  /** Bytes of the rows encoded (whole transactions), per replicate table. */
  Map<TableName, Integer> bytesByTable() {
    Map<TableName, Integer> out = new LinkedHashMap<>();
    tables.forEach((n, t) -> out.put(n, t.committedBytes));
    return out;
  }

  /** Rows that went ahead, per replicate table. */
  Map<TableName, Long> rowsByTable() {
    Map<TableName, Long> out = new LinkedHashMap<>();
    tables.forEach((n, t) -> out.put(n, t.committedRows));
    return out;
  }

  /** Cancels an open load (the group is dropped or its transaction rolled back). */
  void abandon() {
    if (load != null) {
      load.cancel();
    }
    load = null;
    loading = null;
    loadingOn = null;
    loadRows = 0;
  }

  private void send(Connection c, Table t) throws SQLException {
    if (loading != t || loadingOn != c) {
      endLoad();
      load =
          dialect
              .openRowStream(c, dialect.qualified(t.meta.name()), t.columns, t.rows)
              .orElseThrow(() -> new IllegalStateException("no streaming load"));
      loading = t;
      loadingOn = c;
      loadRows = 0;
    }
    load.write(t.rows.array(), t.sentBytes, t.committedBytes - t.sentBytes);
    loadRows += t.committedRows - t.sentRows;
    t.sentBytes = t.committedBytes;
    t.sentRows = t.committedRows;
  }

  private void endLoad() throws SQLException {
    if (load == null) {
      return;
    }
    RowStream l = load;
    Table t = loading;
    long expected = loadRows;
    load = null;
    loading = null;
    loadingOn = null;
    loadRows = 0;
    long n;
    try {
      n = l.end();
    } catch (SQLException | RuntimeException e) {
      l.cancel(); // a COPY the driver still holds would block the rollback
      throw e;
    }
    if (n != expected) {
      lastFailedTable = t.meta.name();
      throw new SQLException(
          "the replicate reports "
              + n
              + " rows loaded into "
              + t.meta.name()
              + ", sent "
              + expected);
    }
  }

  private void fail(Table t, Throwable e) {
    failed = e instanceof SQLException s ? s : Jdbc.wrap(e);
    failedTable = t.meta.name();
    abandon();
  }

  private String statement(TableName t) {
    lastFailedTable = t;
    return "HVAR insert of "
        + (t == null ? "a group's new rows" : t.toString())
        + ": COPY of the rows inserted ahead of the group";
  }
}
