package io.openrs.dsi.internal.hvar;

import io.openrs.dsi.dialect.ColumnMeta;
import io.openrs.dsi.dialect.Dialect;
import io.openrs.dsi.dialect.TableMeta;
import io.openrs.dsi.dialect.WorkColumn;
import io.openrs.dsi.internal.ForeignKeyOrder;
import io.openrs.ltl.TableName;
import io.openrs.ltl.Value;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Applies a sealed group ({@link GroupPlan}) to the replicate inside the caller's transaction, in
 * two steps so that a pipelined DSI can load the next group while the previous one commits:
 *
 * <ol>
 *   <li>{@link #load}: every table and operation with at least {@code dsi_bulk_threshold} net rows
 *       gets a temporary work table, filled through the dialect's bulk interface (PostgreSQL {@code
 *       COPY}, MariaDB {@code LOAD DATA LOCAL} from a stream). Touches no replicate table.
 *   <li>{@link #apply}: saves the rows whose columns moved inserts need (primary key updates, u2di)
 *       before anything changes; deletes, children before parents; then per table, parents before
 *       children, updates (one join update per distinct set of updated columns) and inserts
 *       (PostgreSQL: {@code COPY} straight into the table; otherwise {@code INSERT ... SELECT} from
 *       the work table). Smaller sets go as batches of ordinary prepared statements, as in
 *       continuous mode. Deletes come before inserts within a table, so a key deleted and inserted
 *       again, or a unique value passed from a deleted row to a new one, works.
 * </ol>
 *
 * With {@code dsi_row_count_validation} every delete and update must touch exactly its rows;
 * otherwise the replicate differs from the primary and the apply fails, so the group is applied
 * again in continuous mode, which names the command. Any failure leaves the transaction to be
 * rolled back by the caller.
 *
 * <p>Not thread-safe: one per replicate connection (work table names are unique per session).
 */
public final class BulkApplier {

  /** The session's prepared statements, cached by SQL text (not closed by the caller). */
  public interface Statements {
    PreparedStatement get(String sql) throws SQLException;
  }

  /** Told about every statement of a group's apply and the rows it carried. */
  public interface Listener {
    void batch(TableName table, String op, long rows);
  }

  /**
   * @param bulkThreshold {@code dsi_bulk_threshold}: net rows of one table and operation from which
   *     a work table is used
   * @param maxCmdsInBatch {@code dsi_max_cmds_in_batch}: statements per JDBC batch below it
   * @param maxBytes {@code dsi_cmd_batch_size}: bytes per round trip of a bulk load
   * @param rowCountValidation {@code dsi_row_count_validation}
   */
  public record Settings(
      int bulkThreshold, int maxCmdsInBatch, int maxBytes, boolean rowCountValidation) {}

  /** Column names of the work tables' own columns. */
  static final String KEY_PREFIX = "rs_hvar_k";

  static final String ORDINAL = "rs_hvar_ord";
  static final String COUNT = "rs_hvar_count";

  private final Dialect dialect;
  private final Settings settings;
  private final Listener listener;
  private final String sessionTag;
  private final Set<String> created = new LinkedHashSet<>();
  private boolean streamRefused;
  private long nextWork;
  private long loadNanos;
  private long applyNanos;

  /**
   * @param sessionTag distinguishes this session's work tables in messages ({@code 1}, {@code 2})
   */
  public BulkApplier(Dialect dialect, Settings settings, Listener listener, String sessionTag) {
    this.dialect = dialect;
    this.settings = settings;
    this.listener = listener;
    this.sessionTag = sessionTag;
  }

  /** What {@link #load} prepared for {@link #apply}: the work tables of each table's steps. */
  public static final class Loaded {
    private final GroupPlan plan;
    private final Map<TablePlan, Work> work = new HashMap<>();

    private Loaded(GroupPlan plan) {
      this.plan = plan;
    }
  }

  /** One table's work tables; null where the rows go as statements. */
  private static final class Work {
    String deletes;
    String deletesUnchecked;
    String counted;
    String fillKeys;
    String saved;
    final Map<BitSet, String> updates = new HashMap<>();
    final Map<BitSet, String> inserts = new HashMap<>();
    final Map<BitSet, String> fillInserts = new HashMap<>();
  }

  /** Nanoseconds spent loading (work tables and direct loads) since the last call. */
  public long takeLoadNanos() {
    long n = loadNanos;
    loadNanos = 0;
    return n;
  }

  /** Nanoseconds spent in the set-based statements and row batches since the last call. */
  public long takeApplyNanos() {
    long n = applyNanos;
    applyNanos = 0;
    return n;
  }

  // ---- step 1: work tables -------------------------------------------------------------------

  /** Creates and fills the group's work tables; touches no replicate table. */
  public Loaded load(Connection c, GroupPlan plan) throws BulkApplyException {
    long start = System.nanoTime();
    try {
      Loaded l = new Loaded(plan);
      for (TablePlan p : plan.tablePlans()) {
        Work w = new Work();
        l.work.put(p, w);
        TableMeta t = p.meta;
        List<String> key = t.primaryKey();
        if (bulk(p.deletes.size())) {
          w.deletes = loadKeys(c, t, "delete", p.deletes);
        }
        if (bulk(p.deletesUnchecked.size())) {
          w.deletesUnchecked = loadKeys(c, t, "delete", p.deletesUnchecked);
        }
        for (Map.Entry<BitSet, List<TablePlan.Change>> e : p.updates.entrySet()) {
          if (bulk(e.getValue().size())) {
            List<String> set = names(t, e.getKey());
            List<String> cols = new ArrayList<>(key);
            cols.addAll(set);
            String work = createWork(c, t, "update", workColumns(cols));
            List<Value[]> rows = new ArrayList<>(e.getValue().size());
            int[] pos = positions(t, set);
            for (TablePlan.Change ch : e.getValue()) {
              Value[] r = new Value[cols.size()];
              System.arraycopy(ch.key().values(), 0, r, 0, key.size());
              for (int i = 0; i < pos.length; i++) {
                r[key.size() + i] = ch.image()[pos[i]];
              }
              rows.add(r);
            }
            loadInto(c, t, "update", work, cols, rows);
            analyzeIfSmall(c, t, "update", work, key, rows.size());
            w.updates.put(e.getKey(), work);
          }
        }
        if (!dialect.directLoad()) {
          for (Map.Entry<BitSet, List<TablePlan.Change>> e : p.inserts.entrySet()) {
            if (bulk(e.getValue().size())) {
              List<String> cols = names(t, e.getKey());
              String work = createWork(c, t, "insert", workColumns(cols));
              loadInto(c, t, "insert", work, cols, project(e.getValue(), positions(t, cols)));
              w.inserts.put(e.getKey(), work);
            }
          }
          if (bulk(p.countedInserts.size())) {
            List<String> cols = names(t, allColumns(t));
            String work = createWork(c, t, "insert", workColumns(cols));
            loadInto(c, t, "insert", work, cols, p.countedInserts);
            w.inserts.put(null, work);
          }
        }
        if (!p.fillInserts.isEmpty()) {
          loadFill(c, p, w);
        }
        if (bulk(p.countedDeletes.size())) {
          // only where the dialect deletes counted rows in one statement
          if (dialect.bulkDeleteCounted(t, "w", ORDINAL, COUNT).isPresent()) {
            List<String> cols = names(t, allColumns(t));
            List<WorkColumn> wc = workColumns(cols);
            wc.add(WorkColumn.bigint(ORDINAL));
            wc.add(WorkColumn.bigint(COUNT));
            String work = createWork(c, t, "delete", wc);
            List<Value[]> rows = new ArrayList<>(p.countedDeletes.size());
            long ord = 0;
            for (TablePlan.Counted cd : p.countedDeletes) {
              Value[] r = new Value[cols.size() + 2];
              System.arraycopy(cd.row(), 0, r, 0, cols.size());
              r[cols.size()] = new Value.Int64(++ord);
              r[cols.size() + 1] = new Value.Int64(cd.count());
              rows.add(r);
            }
            List<String> names = new ArrayList<>(cols);
            names.add(ORDINAL);
            names.add(COUNT);
            loadInto(c, t, "delete", work, names, rows, wc);
            analyzeIfSmall(c, t, "delete", work, cols, rows.size());
            w.counted = work;
          }
        }
      }
      return l;
    } finally {
      loadNanos += System.nanoTime() - start;
    }
  }

  /** The keys of rows whose columns moved inserts need, and the moved inserts themselves. */
  private void loadFill(Connection c, TablePlan p, Work w) throws BulkApplyException {
    TableMeta t = p.meta;
    List<String> key = t.primaryKey();
    Map<RowKey, Boolean> keys = new java.util.LinkedHashMap<>();
    for (List<TablePlan.Change> l : p.fillInserts.values()) {
      for (TablePlan.Change ch : l) {
        keys.put(ch.fill(), Boolean.TRUE);
      }
    }
    w.fillKeys = createWork(c, t, "save", workColumns(key));
    List<Value[]> keyRows = new ArrayList<>(keys.size());
    for (RowKey k : keys.keySet()) {
      keyRows.add(k.values());
    }
    loadInto(c, t, "save", w.fillKeys, key, keyRows);
    analyzeIfSmall(c, t, "save", w.fillKeys, key, keyRows.size());
    for (Map.Entry<BitSet, List<TablePlan.Change>> e : p.fillInserts.entrySet()) {
      List<String> provided = names(t, e.getKey());
      List<String> cols = new ArrayList<>(provided);
      List<WorkColumn> wc = workColumns(provided);
      for (int i = 0; i < key.size(); i++) {
        cols.add(KEY_PREFIX + (i + 1));
        wc.add(WorkColumn.as(KEY_PREFIX + (i + 1), key.get(i)));
      }
      String work = createWork(c, t, "insert", wc);
      int[] pos = positions(t, provided);
      List<Value[]> rows = new ArrayList<>(e.getValue().size());
      for (TablePlan.Change ch : e.getValue()) {
        Value[] r = new Value[cols.size()];
        for (int i = 0; i < pos.length; i++) {
          r[i] = ch.image()[pos[i]];
        }
        System.arraycopy(ch.fill().values(), 0, r, pos.length, key.size());
        rows.add(r);
      }
      loadInto(c, t, "insert", work, cols, rows, wc);
      w.fillInserts.put(e.getKey(), work);
    }
  }

  private String loadKeys(Connection c, TableMeta t, String step, List<RowKey> keys)
      throws BulkApplyException {
    String work = createWork(c, t, step, workColumns(t.primaryKey()));
    List<Value[]> rows = new ArrayList<>(keys.size());
    for (RowKey k : keys) {
      rows.add(k.values());
    }
    loadInto(c, t, step, work, t.primaryKey(), rows);
    analyzeIfSmall(c, t, step, work, t.primaryKey(), rows.size());
    return work;
  }

  /**
   * Work tables of fewer rows than this are analyzed once loaded ({@link
   * Dialect#analyzeWorkTable}): below about ten pages the planner's guess for a table never
   * analyzed is too high. Analyzing one costs under a millisecond at this size; larger ones are
   * guessed from their pages well enough.
   */
  static final int SMALL_WORK_ROWS = 3000;

  private void analyzeIfSmall(
      Connection c, TableMeta t, String step, String work, List<String> joinColumns, int rows)
      throws BulkApplyException {
    if (rows >= SMALL_WORK_ROWS) {
      return;
    }
    Optional<String> sql = dialect.analyzeWorkTable(work, joinColumns);
    if (sql.isPresent()) {
      try (Statement st = c.createStatement()) {
        st.execute(sql.get());
      } catch (SQLException e) {
        throw new BulkApplyException(t.name(), step, sql.get(), e);
      }
    }
  }

  private String createWork(Connection c, TableMeta t, String step, List<WorkColumn> columns)
      throws BulkApplyException {
    String name = "rs_hvar_" + sessionTag + "_" + (++nextWork);
    try {
      dialect.createWorkTable(c, name, t, columns);
    } catch (SQLException e) {
      throw new BulkApplyException(t.name(), step, "create work table " + name, e);
    }
    created.add(name);
    return name;
  }

  private void loadInto(
      Connection c, TableMeta t, String step, String work, List<String> cols, List<Value[]> rows)
      throws BulkApplyException {
    loadInto(c, t, step, work, cols, rows, workColumns(cols));
  }

  private void loadInto(
      Connection c,
      TableMeta t,
      String step,
      String work,
      List<String> cols,
      List<Value[]> rows,
      List<WorkColumn> wc)
      throws BulkApplyException {
    List<ColumnMeta> metas = new ArrayList<>(wc.size());
    for (WorkColumn w : wc) {
      metas.add(w.source().flatMap(t::column).orElse(null));
    }
    long n = load(c, t, step, dialect.quote(work), cols, metas, rows);
    if (n != rows.size()) {
      throw new BulkApplyException(
          t.name(),
          step,
          "load of work table " + work,
          "the replicate reports " + n + " rows loaded, expected " + rows.size());
    }
  }

  /** Loads through the bulk interface; a server that refuses streaming gets statements. */
  private long load(
      Connection c,
      TableMeta t,
      String step,
      String target,
      List<String> cols,
      List<ColumnMeta> metas,
      List<Value[]> rows)
      throws BulkApplyException {
    String what = "load of " + rows.size() + " rows into " + target;
    try {
      return dialect.loadRows(c, target, cols, metas, rows, settings.maxBytes(), !streamRefused);
    } catch (SQLException e) {
      if (!streamRefused && dialect.streamRefused(e)) {
        streamRefused = true;
        try {
          return dialect.loadRows(c, target, cols, metas, rows, settings.maxBytes(), false);
        } catch (SQLException again) {
          throw new BulkApplyException(t.name(), step, what, again);
        }
      }
      throw new BulkApplyException(t.name(), step, what, e);
    } catch (RuntimeException | AssertionError e) {
      throw new BulkApplyException(t.name(), step, what, driverFailure(e));
    }
  }

  // ---- step 2: the replicate tables ----------------------------------------------------------

  /**
   * Applies the loaded group to the replicate tables.
   *
   * @param parentsFirst the group's tables with every table after the tables its foreign keys
   *     reference ({@link ForeignKeyOrder})
   */
  public void apply(Connection c, Statements st, Loaded l, List<TableName> parentsFirst)
      throws BulkApplyException {
    long start = System.nanoTime();
    long loadBefore = loadNanos;
    try {
      List<TablePlan> order = ordered(l.plan, parentsFirst);
      for (TablePlan p : order) {
        Work w = l.work.get(p);
        if (w.fillKeys != null) {
          save(c, p, w);
        }
      }
      for (int i = order.size() - 1; i >= 0; i--) {
        TablePlan p = order.get(i);
        deletes(c, st, p, l.work.get(p));
      }
      for (TablePlan p : order) {
        Work w = l.work.get(p);
        updates(c, st, p, w);
        inserts(c, st, p, w);
      }
    } finally {
      applyNanos += System.nanoTime() - start - (loadNanos - loadBefore);
    }
  }

  private static List<TablePlan> ordered(GroupPlan plan, List<TableName> parentsFirst) {
    List<TablePlan> out = new ArrayList<>(plan.tablePlans().size());
    for (TableName n : parentsFirst) {
      for (TablePlan p : plan.tablePlans()) {
        if (p.meta.name().equals(n) && !out.contains(p)) {
          out.add(p);
        }
      }
    }
    for (TablePlan p : plan.tablePlans()) {
      if (!out.contains(p)) {
        out.add(p);
      }
    }
    return out;
  }

  private void save(Connection c, TablePlan p, Work w) throws BulkApplyException {
    w.saved = "rs_hvar_" + sessionTag + "_" + (++nextWork);
    created.add(w.saved);
    String sql = dialect.saveRows(p.meta, w.saved, w.fillKeys);
    long n = execute(c, p.meta, "save", sql);
    long expected = 0;
    Set<RowKey> keys = new java.util.HashSet<>();
    for (List<TablePlan.Change> ch : p.fillInserts.values()) {
      for (TablePlan.Change x : ch) {
        keys.add(x.fill());
      }
    }
    expected = keys.size();
    if (settings.rowCountValidation() && n != expected) {
      throw rowCount(p.meta, "save", sql, n, expected);
    }
  }

  private void deletes(Connection c, Statements st, TablePlan p, Work w) throws BulkApplyException {
    TableMeta t = p.meta;
    keyedDeletes(c, st, t, p.deletes, w.deletes, true);
    keyedDeletes(c, st, t, p.deletesUnchecked, w.deletesUnchecked, false);
    if (p.countedDeletes.isEmpty()) {
      return;
    }
    long expected = 0;
    for (TablePlan.Counted cd : p.countedDeletes) {
      expected += cd.count();
    }
    if (w.counted != null) {
      String sql = dialect.bulkDeleteCounted(t, w.counted, ORDINAL, COUNT).orElseThrow();
      long n = execute(c, t, "delete", sql);
      listener.batch(t.name(), "delete", expected);
      if (settings.rowCountValidation() && n != expected) {
        throw rowCount(t, "delete", sql, n, expected);
      }
      return;
    }
    List<String> cols = names(t, allColumns(t));
    String sql = dialect.delete(t, cols, false);
    List<Value[]> rows = new ArrayList<>();
    for (TablePlan.Counted cd : p.countedDeletes) {
      for (long i = 0; i < cd.count(); i++) {
        rows.add(cd.row());
      }
    }
    batches(st, t, "delete", sql, metas(t, cols), rows, settings.rowCountValidation() ? 1 : -1);
  }

  private void keyedDeletes(
      Connection c, Statements st, TableMeta t, List<RowKey> keys, String work, boolean checked)
      throws BulkApplyException {
    if (keys.isEmpty()) {
      return;
    }
    boolean check = checked && settings.rowCountValidation();
    if (work != null) {
      String sql = dialect.bulkDelete(t, work);
      long n = execute(c, t, "delete", sql);
      listener.batch(t.name(), "delete", keys.size());
      if (check && n != keys.size()) {
        throw rowCount(t, "delete", sql, n, keys.size());
      }
      return;
    }
    List<Value[]> rows = new ArrayList<>(keys.size());
    for (RowKey k : keys) {
      rows.add(k.values());
    }
    String sql = dialect.delete(t, t.primaryKey(), true);
    batches(st, t, "delete", sql, metas(t, t.primaryKey()), rows, check ? 1 : -1);
  }

  private void updates(Connection c, Statements st, TablePlan p, Work w) throws BulkApplyException {
    TableMeta t = p.meta;
    boolean check = settings.rowCountValidation();
    for (Map.Entry<BitSet, List<TablePlan.Change>> e : p.updates.entrySet()) {
      List<String> set = names(t, e.getKey());
      List<TablePlan.Change> rows = e.getValue();
      String work = w.updates.get(e.getKey());
      if (work != null) {
        String sql = dialect.bulkUpdate(t, work, set);
        long n = execute(c, t, "update", sql);
        listener.batch(t.name(), "update", rows.size());
        if (check && n != rows.size()) {
          throw rowCount(t, "update", sql, n, rows.size());
        }
        continue;
      }
      int[] pos = positions(t, set);
      List<Value[]> values = new ArrayList<>(rows.size());
      for (TablePlan.Change ch : rows) {
        Value[] r = new Value[set.size() + t.primaryKey().size()];
        for (int i = 0; i < pos.length; i++) {
          r[i] = ch.image()[pos[i]];
        }
        System.arraycopy(ch.key().values(), 0, r, pos.length, t.primaryKey().size());
        values.add(r);
      }
      List<String> cols = new ArrayList<>(set);
      cols.addAll(t.primaryKey());
      String sql = dialect.update(t, set, t.primaryKey(), true);
      batches(st, t, "update", sql, metas(t, cols), values, check ? 1 : -1);
    }
  }

  private void inserts(Connection c, Statements st, TablePlan p, Work w) throws BulkApplyException {
    TableMeta t = p.meta;
    for (Map.Entry<BitSet, List<TablePlan.Change>> e : p.inserts.entrySet()) {
      List<String> cols = names(t, e.getKey());
      insertRows(
          c, st, t, cols, project(e.getValue(), positions(t, cols)), w.inserts.get(e.getKey()));
    }
    if (!p.countedInserts.isEmpty()) {
      insertRows(c, st, t, names(t, allColumns(t)), p.countedInserts, w.inserts.get(null));
    }
    for (Map.Entry<BitSet, List<TablePlan.Change>> e : p.fillInserts.entrySet()) {
      List<String> provided = names(t, e.getKey());
      List<String> keyCols = new ArrayList<>();
      for (int i = 0; i < t.primaryKey().size(); i++) {
        keyCols.add(KEY_PREFIX + (i + 1));
      }
      String sql =
          dialect.insertFromSaved(t, w.fillInserts.get(e.getKey()), w.saved, provided, keyCols);
      long n = execute(c, t, "insert", sql);
      listener.batch(t.name(), "insert", e.getValue().size());
      if (settings.rowCountValidation() && n != e.getValue().size()) {
        throw rowCount(t, "insert", sql, n, e.getValue().size());
      }
    }
  }

  private void insertRows(
      Connection c, Statements st, TableMeta t, List<String> cols, List<Value[]> rows, String work)
      throws BulkApplyException {
    if (work != null) {
      String sql = dialect.bulkInsertSelect(t, work, cols);
      long n = execute(c, t, "insert", sql);
      listener.batch(t.name(), "insert", rows.size());
      if (n != rows.size()) {
        throw rowCount(t, "insert", sql, n, rows.size());
      }
    } else if (dialect.directLoad() && bulk(rows.size())) {
      long start = System.nanoTime();
      try {
        long n = load(c, t, "insert", dialect.qualified(t.name()), cols, metas(t, cols), rows);
        listener.batch(t.name(), "insert", rows.size());
        if (n != rows.size()) {
          throw rowCount(t, "insert", "COPY into " + t.name(), n, rows.size());
        }
      } finally {
        loadNanos += System.nanoTime() - start;
      }
    } else {
      batches(st, t, "insert", dialect.insert(t, cols), metas(t, cols), rows, -1);
    }
  }

  // ---- statements -------------------------------------------------------------------------------

  private long execute(Connection c, TableMeta t, String step, String sql)
      throws BulkApplyException {
    try (Statement s = c.createStatement()) {
      return s.executeLargeUpdate(sql);
    } catch (SQLException e) {
      throw new BulkApplyException(t.name(), step, sql, e);
    } catch (RuntimeException | AssertionError e) {
      throw new BulkApplyException(t.name(), step, sql, driverFailure(e));
    }
  }

  /** Row statements in JDBC batches; {@code expected} rows each (or -1: any). */
  private void batches(
      Statements st,
      TableMeta t,
      String step,
      String sql,
      List<ColumnMeta> metas,
      List<Value[]> rows,
      int expected)
      throws BulkApplyException {
    try {
      PreparedStatement ps = st.get(sql);
      int from = 0;
      while (from < rows.size()) {
        int to = Math.min(rows.size(), from + settings.maxCmdsInBatch());
        for (int r = from; r < to; r++) {
          Value[] row = rows.get(r);
          for (int k = 0; k < row.length; k++) {
            dialect.bind(ps, k + 1, row[k], metas.get(k));
          }
          ps.addBatch();
        }
        int[] counts = ps.executeBatch();
        listener.batch(t.name(), step, to - from);
        if (expected >= 0) {
          for (int i = 0; i < counts.length; i++) {
            if (counts[i] >= 0 && counts[i] != expected) {
              throw rowCount(t, step, sql, counts[i], expected);
            }
          }
        }
        from = to;
      }
    } catch (SQLException e) {
      throw new BulkApplyException(t.name(), step, sql, e);
    } catch (RuntimeException | AssertionError e) {
      throw new BulkApplyException(t.name(), step, sql, driverFailure(e));
    }
  }

  /**
   * A driver that throws unchecked (a bug, or an assertion under {@code -ea} when its connection
   * breaks): an SQLException without SQLSTATE, so the caller checks whether the connection works.
   */
  private static SQLException driverFailure(Throwable e) {
    return new SQLException("driver failure: " + e, null, 0, e);
  }

  private static BulkApplyException rowCount(
      TableMeta t, String step, String sql, long n, long expected) {
    return new BulkApplyException(
        t.name(),
        step,
        sql,
        "the statement touched "
            + n
            + " rows, expected "
            + expected
            + " (dsi_row_count_validation): the replicate differs from the primary");
  }

  /** Drops the work tables that outlive the transaction (MariaDB); best effort. */
  public void cleanup(Connection c) {
    if (created.isEmpty()) {
      return;
    }
    try {
      if (c != null && !c.isClosed()) {
        dialect.dropWorkTables(c, created);
      }
    } catch (SQLException | RuntimeException e) {
      // the session's temporary tables go with the session; names are never reused
    }
    created.clear();
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private boolean bulk(int rows) {
    return rows > 0 && rows >= settings.bulkThreshold();
  }

  private static BitSet allColumns(TableMeta t) {
    BitSet b = new BitSet();
    b.set(0, t.columns().size());
    return b;
  }

  private static List<String> names(TableMeta t, BitSet mask) {
    List<String> out = new ArrayList<>(mask.cardinality());
    for (int i = mask.nextSetBit(0); i >= 0; i = mask.nextSetBit(i + 1)) {
      out.add(t.columns().get(i).name());
    }
    return out;
  }

  private static int[] positions(TableMeta t, List<String> names) {
    int[] out = new int[names.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = indexOf(t, names.get(i));
    }
    return out;
  }

  private static int indexOf(TableMeta t, String name) {
    for (int i = 0; i < t.columns().size(); i++) {
      if (t.columns().get(i).name().equals(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException(t.name() + " has no column " + name);
  }

  private static List<Value[]> project(List<TablePlan.Change> rows, int[] pos) {
    boolean identity = true;
    for (int i = 0; i < pos.length; i++) {
      identity &= pos[i] == i;
    }
    if (identity && !rows.isEmpty() && rows.get(0).image().length == pos.length) {
      // every column, in order: the images themselves (no copy of a 50,000-row insert set)
      return new java.util.AbstractList<>() {
        @Override
        public Value[] get(int index) {
          return rows.get(index).image();
        }

        @Override
        public int size() {
          return rows.size();
        }
      };
    }
    List<Value[]> out = new ArrayList<>(rows.size());
    for (TablePlan.Change ch : rows) {
      Value[] r = new Value[pos.length];
      for (int i = 0; i < pos.length; i++) {
        r[i] = ch.image()[pos[i]];
      }
      out.add(r);
    }
    return out;
  }

  private static List<WorkColumn> workColumns(List<String> cols) {
    List<WorkColumn> out = new ArrayList<>(cols.size() + 2);
    for (String c : cols) {
      out.add(WorkColumn.of(c));
    }
    return out;
  }

  private static List<ColumnMeta> metas(TableMeta t, List<String> cols) {
    List<ColumnMeta> out = new ArrayList<>(cols.size());
    for (String c : cols) {
      out.add(t.column(c).orElse(null));
    }
    return out;
  }
}
