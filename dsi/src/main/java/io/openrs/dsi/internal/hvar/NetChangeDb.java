package io.openrs.dsi.internal.hvar;

import io.openrs.dsi.CommandConversion;
import io.openrs.dsi.dialect.ColumnMeta;
import io.openrs.dsi.dialect.TableMeta;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.LtlCommand.InTransaction;
import io.openrs.ltl.TableName;
import io.openrs.ltl.Value;
import io.openrs.ltl.packed.PackedFormatException;
import io.openrs.ltl.packed.PackedRowReader;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The net-change database of one HVAR group: the transactions added to it, compiled into the final
 * state of every row they touch. Per replicate table, rows are keyed by the primary key (every
 * column for a table without one), and successive commands on one key fold:
 *
 * <table>
 *   <caption>net result of two commands on one key</caption>
 *   <tr><th>first</th><th>then</th><th>net</th></tr>
 *   <tr><td>insert</td><td>update</td><td>insert of the final image</td></tr>
 *   <tr><td>insert</td><td>delete</td><td>nothing</td></tr>
 *   <tr><td>update</td><td>update</td><td>one update: the union of the set columns, last
 *       values</td></tr>
 *   <tr><td>update</td><td>delete</td><td>delete</td></tr>
 *   <tr><td>delete</td><td>insert</td><td>delete, then insert</td></tr>
 * </table>
 *
 * An update that changes the primary key is a delete of the old key and an insert of the new one;
 * columns its image does not provide (unchanged TOAST values, changed-only images) come from the
 * old key's row as the group found it, which the apply saves before deleting anything. Columns an
 * update marks unchanged keep the replicate's value unless a later command in the group provides
 * one. Tables without a primary key keep a count per distinct row (insert +1, delete -1, update -1
 * and +1).
 *
 * <p>{@link #add} takes one source transaction at a time, whole or not at all: a command it cannot
 * compile (DDL, truncate, rs_ticket, snapshot rows, a restricted table, an image that does not
 * identify its row, a sequence that cannot happen on a consistent replicate such as a second insert
 * of a key) leaves the database as it was and says why; the transaction is then applied in
 * continuous mode, which reports any real error exactly. {@code dsi_command_convert}'s {@code
 * x2none} rules drop commands as they are compiled; {@code i2di} and {@code u2di} apply to the net
 * rows when the group is sealed ({@link #seal()}).
 *
 * <p>Not thread-safe: owned by the thread compiling the group.
 */
public final class NetChangeDb {
  private final TableSource source;
  private final Function<TableName, Set<CommandConversion>> conversions;
  private final InsertStream ahead;
  private final ToIntFunction<TableName> expectedRows;
  // earlier groups, until this one is sealed (then dropped, with each table's earlierRows: a chain
  // of groups would stay reachable)
  private List<NetChangeDb> earlier;
  private final Map<TableName, TableNet> tables = new LinkedHashMap<>();
  private final List<Undo> undo = new ArrayList<>();

  /** Heap bytes counted for a key inserted ahead and kept packed (a slot of a long hash set). */
  private static final long PACKED_KEY_BYTES = 16;

  private final List<TableName> created = new ArrayList<>();
  private long commands;
  private long bytes;
  private long converted;
  private long streamed;
  private TableNet lastTable;

  /**
   * @param conversions the {@code dsi_command_convert} rules of a replicate table
   */
  public NetChangeDb(TableSource source, Function<TableName, Set<CommandConversion>> conversions) {
    this(source, conversions, null);
  }

  /**
   * @param ahead where inserts of keys the group has not seen go while it compiles (complete
   *     images, tables {@code ahead} accepts), or null: every net row waits for {@link #seal()}
   */
  public NetChangeDb(
      TableSource source,
      Function<TableName, Set<CommandConversion>> conversions,
      InsertStream ahead) {
    this(source, conversions, ahead, t -> 0);
  }

  /**
   * @param expectedRows about how many rows the group will hold per table (the previous group's
   *     count, say): each table's row map is made that large at once instead of growing and
   *     rehashing its way there under a backlog
   */
  public NetChangeDb(
      TableSource source,
      Function<TableName, Set<CommandConversion>> conversions,
      InsertStream ahead,
      ToIntFunction<TableName> expectedRows) {
    this(source, conversions, ahead, expectedRows, List.of());
  }

  /**
   * @param earlier sealed groups handed over before this one and perhaps not committed yet, on
   *     other replicate sessions than the one {@code ahead} sends on: an insert of a key one of
   *     them holds (deleted, updated, moved away; any row but one it inserted ahead) does not go
   *     ahead, as it could meet that group's row there, still in the table or deleted but not
   *     committed; it waits for this group's apply, which comes after theirs
   */
  public NetChangeDb(
      TableSource source,
      Function<TableName, Set<CommandConversion>> conversions,
      InsertStream ahead,
      ToIntFunction<TableName> expectedRows,
      List<NetChangeDb> earlier) {
    this.source = source;
    this.conversions = conversions;
    this.ahead = ahead;
    this.expectedRows = expectedRows;
    this.earlier = List.copyOf(earlier);
  }

  /** Commands of the transactions added. */
  public long commands() {
    return commands;
  }

  /** About how many heap bytes the net rows take (and the rows held to go ahead). */
  public long bytes() {
    return bytes + (ahead == null ? 0 : ahead.bytes());
  }

  /** Rows held per table (net rows of keyed tables, distinct rows of the others), so far. */
  public Map<TableName, Integer> rowsByTable() {
    Map<TableName, Integer> out = new LinkedHashMap<>();
    for (TableNet t : tables.values()) {
      out.put(t.name(), t.rows.size() + t.counts.size());
    }
    return out;
  }

  /** True if no transaction was added. */
  public boolean isEmpty() {
    return commands == 0 && tables.isEmpty();
  }

  /**
   * Compiles one source transaction's commands (between begin and commit) into the group.
   *
   * @return empty if they were added; otherwise why the transaction cannot be compiled, and the
   *     database is as it was before the call
   * @throws SQLException reading the replicate's catalog failed (the database is as it was)
   */
  public Optional<String> add(List<? extends InTransaction> body) throws SQLException {
    return add(
        () -> {
          for (InTransaction cmd : body) {
            String why = compile(cmd);
            if (why != null) {
              return why;
            }
          }
          return null;
        },
        body.size());
  }

  /**
   * Compiles one source transaction's commands as {@link #add(List)} does, read in place from their
   * packed form: {@code rows} is {@linkplain PackedRowReader#reset reset} on them and is read to
   * their end. Row commands make no command object: the compiler takes each column's value from the
   * packed bytes as it needs it (an insert that goes ahead is encoded from them directly).
   *
   * @param commands how many commands {@code rows} holds
   * @throws UnreadableRows if the bytes are not well-formed packed commands (DSI-S only reads each
   *     command's frame: this is where a row's body is first read and checked); the group is as
   *     before the call
   */
  public Optional<String> add(PackedRowReader rows, int commands) throws SQLException {
    return add(
        () -> {
          try {
            while (rows.next()) {
              String why = compile(rows);
              if (why != null) {
                return why;
              }
            }
          } catch (PackedFormatException e) {
            throw new UnreadableRows(e);
          }
          return null;
        },
        commands);
  }

  /** A held transaction's packed commands do not read ({@link #add(PackedRowReader, int)}). */
  public static final class UnreadableRows extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    UnreadableRows(PackedFormatException cause) {
      super(cause.getMessage(), cause);
    }
  }

  /** Compiles one transaction's commands; null, or why it cannot be compiled. */
  private interface Compilation {
    String run() throws SQLException;
  }

  private Optional<String> add(Compilation compilation, int size) throws SQLException {
    long bytesBefore = bytes;
    long convertedBefore = converted;
    long streamedBefore = streamed;
    String why;
    try {
      why = compilation.run();
    } catch (SQLException | RuntimeException e) {
      rollback(bytesBefore, convertedBefore, streamedBefore);
      throw e;
    }
    if (why != null) {
      rollback(bytesBefore, convertedBefore, streamedBefore);
      return Optional.of(why);
    }
    if (ahead != null && streamed != streamedBefore) {
      ahead.transactionAdded();
    }
    commands += size;
    undo.clear();
    created.clear();
    return Optional.empty();
  }

  private void rollback(long bytesBefore, long convertedBefore, long streamedBefore) {
    if (ahead != null && streamed != streamedBefore) {
      ahead.transactionDropped();
    }
    streamed = streamedBefore;
    for (int i = undo.size() - 1; i >= 0; i--) {
      undo.get(i).restore();
    }
    for (TableName t : created) {
      tables.remove(t);
    }
    lastTable = null;
    undo.clear();
    created.clear();
    bytes = bytesBefore;
    converted = convertedBefore;
  }

  // ---- compiling one command -------------------------------------------------------------------

  /** Compiles {@code cmd}; null if done, otherwise why it cannot be compiled. */
  private String compile(InTransaction cmd) throws SQLException {
    if (cmd instanceof LtlCommand.Insert ins) {
      return ins.snapshot() ? "snapshot rows (materialization) are upserts" : insert(ins);
    } else if (cmd instanceof LtlCommand.Update upd) {
      return update(upd);
    } else if (cmd instanceof LtlCommand.Delete del) {
      return delete(del);
    } else if (cmd instanceof LtlCommand.Truncate tr) {
      return "truncate of " + tr.table() + " is applied in log order";
    } else if (cmd instanceof LtlCommand.Ddl) {
      return "DDL is applied in log order";
    } else if (cmd instanceof LtlCommand.Ticket) {
      return "rs_ticket markers are applied in log order";
    }
    return "command " + cmd.getClass().getSimpleName() + " is applied in log order";
  }

  /** Compiles the row command {@code r} is on (another kind is decoded whole). */
  private String compile(PackedRowReader r) throws SQLException, PackedFormatException {
    switch (r.kind()) {
      case INSERT:
        return r.snapshot()
            ? "snapshot rows (materialization) are upserts"
            : insert(r.table(), r.after());
      case UPDATE:
        return update(r.table(), r.before(), r.after());
      case DELETE:
        return delete(r.table(), r.before());
      default:
        LtlCommand c =
            r.command()
                .orElseThrow(() -> new IllegalStateException("a held command of unknown kind"));
        if (!(c instanceof InTransaction in)) {
          throw new IllegalStateException("a held transaction holds " + c);
        }
        return compile(in);
    }
  }

  private String insert(LtlCommand.Insert ins) throws SQLException {
    TableNet t = table(ins.table());
    if (t.restriction != null) {
      return t.restriction;
    }
    if (t.conversions.contains(CommandConversion.I2NONE)) {
      converted++;
      return null;
    }
    Value[] img = new Value[t.width()];
    String why = t.read(ins.after(), img, false);
    if (why != null) {
      return why;
    }
    return insert(t, img);
  }

  /**
   * An insert read in place. The usual case under a backlog, a complete image of a key the group
   * has not seen going ahead, makes no value but the key's: the row is encoded from the packed
   * bytes.
   */
  private String insert(TableName name, PackedRowReader.Image after) throws SQLException {
    TableNet t = table(name);
    if (t.restriction != null) {
      return t.restriction;
    }
    if (t.conversions.contains(CommandConversion.I2NONE)) {
      converted++;
      return null;
    }
    String why = t.map(after, false);
    if (why != null) {
      return why;
    }
    if (t.ahead && t.mappedComplete()) {
      if (t.packedKey(after)) {
        // the usual case: an integer key, kept packed, with no key object at all
        long p = t.packed[0];
        RowKey k = t.rows.hasMapped() || !t.earlierRows.isEmpty() ? t.key(after) : null;
        if (!heldEarlier(t, k) && t.rows.streamIfAbsent(p, k)) {
          ahead.row(t.meta, after, t.fields);
          streamed++;
          undo.add(new Undo(t, null, null, 0, p));
          bytes += NetRow.STREAMED.bytes() + PACKED_KEY_BYTES;
          return null;
        } // else as any insert: the map is as it was
      } else {
        RowKey k = t.key(after);
        if (k != null && !heldEarlier(t, k) && t.rows.putIfAbsent(k, NetRow.STREAMED) == null) {
          ahead.row(t.meta, after, t.fields);
          streamed++;
          added(t, k, NetRow.STREAMED);
          return null;
        } // else as any insert: the map is as it was
      }
    }
    return insert(t, t.values(after));
  }

  private String insert(TableNet t, Value[] img) throws SQLException {
    if (!t.keyed()) {
      if (!NetRow.complete(img)) {
        return "an insert into " + t.name() + " (no primary key) does not give every column";
      }
      count(t, RowKey.of(img), 1);
      return null;
    }
    RowKey k = t.key(img);
    if (k == null) {
      return "an insert into " + t.name() + " lacks a value of its primary key " + t.primaryKey();
    }
    // one lookup for the usual case, a key the group has not seen
    boolean goesAhead = t.ahead && NetRow.complete(img) && !heldEarlier(t, k);
    NetRow fresh = goesAhead ? NetRow.STREAMED : NetRow.insert(img, null);
    NetRow e = t.rows.putIfAbsent(k, fresh);
    if (e == null) {
      if (goesAhead) {
        ahead.row(t.meta, img); // into the table now
        streamed++;
      }
      added(t, k, fresh);
    } else if (e.state == NetRow.State.DELETE) {
      put(t, k, NetRow.deleteInsert(img, null, e.deleteChecked));
    } else {
      return "an insert of key " + k + " into " + t.name() + ", which the group already holds";
    }
    return null;
  }

  private String update(LtlCommand.Update upd) throws SQLException {
    TableNet t = table(upd.table());
    if (t.restriction != null) {
      return t.restriction;
    }
    if (t.conversions.contains(CommandConversion.U2NONE)) {
      converted++;
      return null;
    }
    Value[] before = new Value[t.width()];
    String why = t.read(upd.before(), before, !t.keyed());
    if (why != null) {
      return why;
    }
    Value[] after = new Value[t.width()];
    why = t.read(upd.after(), after, false);
    if (why != null) {
      return why;
    }
    return update(t, before, after);
  }

  private String update(
      TableName name, PackedRowReader.Image beforeImage, PackedRowReader.Image afterImage)
      throws SQLException {
    TableNet t = table(name);
    if (t.restriction != null) {
      return t.restriction;
    }
    if (t.conversions.contains(CommandConversion.U2NONE)) {
      converted++;
      return null;
    }
    if (t.keyed()) {
      // of the before image only the key is used: no value is made for its other columns
      String why = t.map(beforeImage, false);
      if (why != null) {
        return why;
      }
      RowKey oldKey = t.key(beforeImage);
      if (oldKey == null) {
        return noOldKey(t);
      }
      Value[] after = new Value[t.width()];
      why = t.read(afterImage, after, false);
      return why != null ? why : update(t, oldKey, after);
    }
    Value[] before = new Value[t.width()];
    String why = t.read(beforeImage, before, true);
    if (why != null) {
      return why;
    }
    Value[] after = new Value[t.width()];
    why = t.read(afterImage, after, false);
    if (why != null) {
      return why;
    }
    return update(t, before, after);
  }

  private String update(TableNet t, Value[] before, Value[] after) {
    if (!t.keyed()) {
      if (!NetRow.complete(before)) {
        return "an update of "
            + t.name()
            + " (no primary key) whose before image lacks columns: the row is not identified";
      }
      count(t, RowKey.of(before), -1);
      count(t, RowKey.of(NetRow.overlay(before, after)), 1);
      return null;
    }
    RowKey oldKey = t.key(before);
    return oldKey == null ? noOldKey(t) : update(t, oldKey, after);
  }

  private static String noOldKey(TableNet t) {
    return "the before image of an update of "
        + t.name()
        + " lacks a value of its primary key "
        + t.primaryKey();
  }

  /** An update of the row {@code oldKey} names in keyed table {@code t}. */
  private String update(TableNet t, RowKey oldKey, Value[] after) {
    // full images repeat the key: a new key is made only when a key column really changes
    Value[] newKeyValues = null;
    for (int i = 0; i < t.keyPositions.length; i++) {
      Value v = after[t.keyPositions[i]];
      if (v != null) {
        if (v instanceof Value.Null) {
          return "an update of " + t.name() + " sets primary key column to null";
        }
        if (!oldKey.holds(i, v)) {
          if (newKeyValues == null) {
            newKeyValues = oldKey.values().clone();
          }
          newKeyValues[i] = v;
        }
      }
    }
    if (newKeyValues != null) {
      return move(t, oldKey, RowKey.of(newKeyValues), after);
    }
    for (int p : t.keyPositions) {
      after[p] = null;
    }
    if (NetRow.none(after)) {
      return null; // nothing but unchanged columns: the row stays as it is
    }
    NetRow e = t.rows.get(oldKey);
    if (e == null || e.state == NetRow.State.STREAMED) {
      put(t, oldKey, NetRow.update(after)); // a streamed row is in the table before the apply
      return null;
    }
    switch (e.state) {
      case INSERT:
        put(t, oldKey, NetRow.insert(NetRow.overlay(e.image, after), e.fill));
        return null;
      case DELETE_INSERT:
        put(
            t,
            oldKey,
            NetRow.deleteInsert(NetRow.overlay(e.image, after), e.fill, e.deleteChecked));
        return null;
      case UPDATE:
        put(t, oldKey, NetRow.update(NetRow.overlay(e.image, after)));
        return null;
      default:
        return "an update of key " + oldKey + " of " + t.name() + ", deleted earlier in the group";
    }
  }

  /** A primary key update: delete of the old key, insert of the new. */
  private String move(TableNet t, RowKey oldKey, RowKey newKey, Value[] after) {
    if (!t.keyMoves) {
      return "a change of the primary key of "
          + t.name()
          + ", whose delete the replicate cascades to other rows";
    }
    NetRow e1 = t.rows.get(oldKey);
    Value[] image;
    RowKey fill;
    NetRow e1After;
    if (e1 == null || e1.state == NetRow.State.STREAMED) {
      image = after.clone();
      fill = oldKey;
      e1After = NetRow.delete(true);
    } else {
      switch (e1.state) {
        case INSERT:
          image = NetRow.overlay(e1.image, after);
          fill = e1.fill;
          e1After = null;
          break;
        case DELETE_INSERT:
          image = NetRow.overlay(e1.image, after);
          fill = e1.fill;
          e1After = NetRow.delete(e1.deleteChecked);
          break;
        case UPDATE:
          image = NetRow.overlay(e1.image, after);
          fill = oldKey;
          e1After = NetRow.delete(true);
          break;
        default:
          return "an update of key "
              + oldKey
              + " of "
              + t.name()
              + ", deleted earlier in the group";
      }
    }
    for (int i = 0; i < t.keyPositions.length; i++) {
      image[t.keyPositions[i]] = newKey.values()[i];
    }
    if (fill != null && NetRow.complete(image)) {
      fill = null;
    }
    NetRow e2 = t.rows.get(newKey);
    NetRow e2After;
    if (e2 == null) {
      e2After = NetRow.insert(image, fill);
    } else if (e2.state == NetRow.State.DELETE) {
      e2After = NetRow.deleteInsert(image, fill, e2.deleteChecked);
    } else {
      return "an update of "
          + t.name()
          + " moves key "
          + oldKey
          + " to "
          + newKey
          + ", which the group already holds";
    }
    put(t, oldKey, e1After);
    put(t, newKey, e2After);
    return null;
  }

  private String delete(LtlCommand.Delete del) throws SQLException {
    TableNet t = table(del.table());
    if (t.restriction != null) {
      return t.restriction;
    }
    if (t.conversions.contains(CommandConversion.D2NONE)) {
      converted++;
      return null;
    }
    Value[] before = new Value[t.width()];
    String why = t.read(del.before(), before, !t.keyed());
    if (why != null) {
      return why;
    }
    return delete(t, before);
  }

  private String delete(TableName name, PackedRowReader.Image beforeImage) throws SQLException {
    TableNet t = table(name);
    if (t.restriction != null) {
      return t.restriction;
    }
    if (t.conversions.contains(CommandConversion.D2NONE)) {
      converted++;
      return null;
    }
    Value[] before = new Value[t.width()];
    String why = t.read(beforeImage, before, !t.keyed());
    if (why != null) {
      return why;
    }
    return delete(t, before);
  }

  private String delete(TableNet t, Value[] before) {
    if (!t.keyed()) {
      if (!NetRow.complete(before)) {
        return "a delete from "
            + t.name()
            + " (no primary key) whose before image lacks columns: the row is not identified";
      }
      count(t, RowKey.of(before), -1);
      return null;
    }
    RowKey k = t.key(before);
    if (k == null) {
      return "the before image of a delete from "
          + t.name()
          + " lacks a value of its primary key "
          + t.primaryKey();
    }
    NetRow e = t.rows.get(k);
    if (e == null || e.state == NetRow.State.STREAMED) {
      put(t, k, NetRow.delete(true));
      return null;
    }
    switch (e.state) {
      case INSERT:
        put(t, k, null);
        return null;
      case UPDATE:
        put(t, k, NetRow.delete(true));
        return null;
      case DELETE_INSERT:
        put(t, k, NetRow.delete(e.deleteChecked));
        return null;
      default:
        return "a delete of key " + k + " from " + t.name() + ", deleted earlier in the group";
    }
  }

  // ---- tables and undo -------------------------------------------------------------------------

  private TableNet table(TableName name) throws SQLException {
    TableNet last = lastTable;
    if (last != null && last.name().equals(name)) {
      return last; // commands come in runs on one table: no hashing of fresh name strings
    }
    TableNet t = tables.get(name);
    if (t == null) {
      TableMeta meta = source.table(name);
      Set<CommandConversion> conv = conversions.apply(name);
      String restriction = source.restriction(meta).orElse(null);
      if (restriction == null
          && !meta.keyed()
          && (conv.contains(CommandConversion.I2DI) || conv.contains(CommandConversion.U2DI))) {
        restriction = "dsi_command_convert i2di and u2di need a primary key on " + name;
      }
      t =
          new TableNet(
              meta,
              conv,
              restriction,
              restriction == null && source.uniqueChangesAsDeleteInsert(meta),
              restriction == null ? expectedRows.applyAsInt(name) : 0);
      t.keyMoves = restriction != null || source.keyMovesAsDeleteInsert(meta);
      t.ahead =
          ahead != null
              && restriction == null
              && meta.keyed()
              && meta.uniqueKeys().isEmpty()
              && !conv.contains(CommandConversion.I2DI)
              && ahead.accepts(meta);
      if (t.ahead) {
        for (NetChangeDb e : earlier) {
          TableNet et = e.tables.get(name);
          if (et != null && et.rows.hasMapped()) {
            t.earlierRows.add(et.rows);
          }
        }
      }
      tables.put(name, t);
      created.add(name);
    }
    lastTable = t;
    return t;
  }

  /** True if an earlier group holds {@code k} of {@code t} (other than inserted ahead). */
  private static boolean heldEarlier(TableNet t, RowKey k) {
    if (k == null) {
      return false;
    }
    for (RowMap earlier : t.earlierRows) {
      if (earlier.holdsMapped(k)) {
        return true;
      }
    }
    return false;
  }

  /** Records {@code row}, just put under {@code k} where there was none, as {@link #put} does. */
  private void added(TableNet t, RowKey k, NetRow row) {
    undo.add(new Undo(t, k, null, 0, 0));
    bytes += row.bytes() + k.bytes();
  }

  private void put(TableNet t, RowKey k, NetRow row) {
    NetRow old = row == null ? t.rows.remove(k) : t.rows.put(k, row);
    undo.add(new Undo(t, k, old, 0, 0));
    long keyBytes = k.bytes();
    bytes +=
        (row == null ? 0 : row.bytes() + keyBytes) - (old == null ? 0 : old.bytes() + keyBytes);
  }

  private void count(TableNet t, RowKey k, long delta) {
    Long old = t.counts.get(k);
    long now = (old == null ? 0 : old) + delta;
    if (now == 0) {
      t.counts.remove(k);
      bytes -= k.bytes();
    } else {
      t.counts.put(k, now);
      if (old == null) {
        bytes += k.bytes();
      }
    }
    undo.add(new Undo(t, k, null, old == null ? 0 : old, 0));
  }

  /**
   * Restores one entry as it was before a command of the transaction being added; a null {@code
   * key} is a key inserted ahead and kept packed ({@code packed}).
   */
  private record Undo(TableNet t, RowKey key, NetRow row, long count, long packed) {
    void restore() {
      if (key == null) {
        t.rows.unstream(packed);
      } else if (t.keyed()) {
        if (row == null) {
          t.rows.remove(key);
        } else {
          t.rows.put(key, row);
        }
      } else if (count == 0) {
        t.counts.remove(key);
      } else {
        t.counts.put(key, count);
      }
    }
  }

  // ---- sealing --------------------------------------------------------------------------------

  /**
   * The group's net rows, per table and operation, after {@code i2di} (a net insert becomes a
   * delete of its key, which may find nothing, then the insert) and {@code u2di} (a net update
   * becomes a delete and an insert of the whole row, its other columns taken from the row as the
   * group found it). The database must not be used afterwards.
   */
  public GroupPlan seal() {
    earlier = List.of();
    for (TableNet t : tables.values()) {
      t.earlierRows.clear();
    }
    List<TablePlan> plans = new ArrayList<>();
    long convertedRows = converted;
    long aheadRows = streamed;
    for (TableNet t : tables.values()) {
      TablePlan p = new TablePlan(t.meta);
      boolean i2di = t.conversions.contains(CommandConversion.I2DI);
      boolean u2di = t.conversions.contains(CommandConversion.U2DI);
      for (Map.Entry<RowKey, NetRow> e : t.rows.mapped()) {
        RowKey k = e.getKey();
        NetRow r = e.getValue();
        switch (r.state) {
          case STREAMED:
            break; // inserted ahead: in the table before the plan is applied
          case INSERT:
            if (i2di) {
              p.deletesUnchecked.add(k);
              convertedRows++;
            }
            addInsert(p, k, r.image, r.fill);
            break;
          case DELETE_INSERT:
            (r.deleteChecked ? p.deletes : p.deletesUnchecked).add(k);
            addInsert(p, k, r.image, r.fill);
            break;
          case DELETE:
            (r.deleteChecked ? p.deletes : p.deletesUnchecked).add(k);
            break;
          case UPDATE:
            boolean di = u2di || TablePlan.mask(r.image).intersects(t.uniqueColumns);
            if (di) {
              Value[] image = r.image.clone();
              for (int i = 0; i < t.keyPositions.length; i++) {
                image[t.keyPositions[i]] = k.values()[i];
              }
              p.deletes.add(k);
              addInsert(p, k, image, NetRow.complete(image) ? null : k);
              if (u2di) {
                convertedRows++;
              }
            } else {
              p.updates
                  .computeIfAbsent(TablePlan.mask(r.image), m -> new ArrayList<>())
                  .add(new TablePlan.Change(k, r.image, null));
            }
            break;
          default:
            throw new IllegalStateException(r.state.name());
        }
      }
      for (Map.Entry<RowKey, Long> e : t.counts.entrySet()) {
        long n = e.getValue();
        if (n < 0) {
          p.countedDeletes.add(new TablePlan.Counted(e.getKey().values(), -n));
        } else {
          for (long i = 0; i < n; i++) {
            p.countedInserts.add(e.getKey().values());
          }
        }
      }
      plans.add(p);
    }
    return new GroupPlan(plans, commands, convertedRows, aheadRows);
  }

  private static void addInsert(TablePlan p, RowKey k, Value[] image, RowKey fill) {
    Map<BitSet, List<TablePlan.Change>> into = fill == null ? p.inserts : p.fillInserts;
    into.computeIfAbsent(TablePlan.mask(image), m -> new ArrayList<>())
        .add(new TablePlan.Change(k, image, fill));
  }

  // ---- one table -------------------------------------------------------------------------------

  /** A replicate table's part of the net-change database. */
  private static final class TableNet {
    final TableMeta meta;
    final Set<CommandConversion> conversions;
    final String restriction;
    final int[] keyPositions;
    final Map<String, Integer> positions = new HashMap<>();
    final RowMap rows;

    /** What {@link #packedKey} found. */
    final long[] packed = new long[1];

    final Map<RowKey, Long> counts = new LinkedHashMap<>();

    /** Inserts of keys the group has not seen go ahead ({@link InsertStream}). */
    boolean ahead;

    /** A primary key change may be a delete and an insert (the delete cascades to nothing). */
    boolean keyMoves = true;

    /**
     * This table's rows in earlier groups ({@code earlier}) that hold any: keys not to go ahead.
     */
    final List<RowMap> earlierRows = new ArrayList<>(0);

    /** Columns of unique keys other than the primary key, when their updates become di. */
    final BitSet uniqueColumns = new BitSet();

    /** What {@link #map} found: per column position, the image's index of its value, or -1. */
    final int[] fields;

    /** Columns {@link #map} found a value for. */
    int mapped;

    // the column position of the name at each index of the last images mapped (names are shared)
    private String[] seenNames = new String[16];
    private int[] seenPositions = new int[16];

    TableNet(
        TableMeta meta,
        Set<CommandConversion> conversions,
        String restriction,
        boolean uniqueDeleteInsert,
        int expectedRows) {
      this.meta = meta;
      this.fields = new int[meta.columns().size()];
      int rowsNow = meta.keyed() ? Math.max(0, expectedRows) : 0;
      this.rows = new RowMap(meta.keyed() ? meta.primaryKey().size() : 0, rowsNow);
      this.conversions = conversions;
      this.restriction = restriction;
      List<ColumnMeta> cols = meta.columns();
      for (int i = 0; i < cols.size(); i++) {
        positions.putIfAbsent(cols.get(i).name(), i);
      }
      for (int i = 0; i < cols.size(); i++) {
        positions.putIfAbsent(cols.get(i).name().toLowerCase(Locale.ROOT), i);
      }
      keyPositions = new int[meta.primaryKey().size()];
      for (int i = 0; i < keyPositions.length; i++) {
        keyPositions[i] = positions.get(meta.primaryKey().get(i));
      }
      if (uniqueDeleteInsert && meta.keyed()) {
        for (List<String> uk : meta.uniqueKeys()) {
          for (String c : uk) {
            Integer p = positions.get(c);
            if (p != null) {
              uniqueColumns.set(p);
            }
          }
        }
      }
    }

    TableName name() {
      return meta.name();
    }

    boolean keyed() {
      return meta.keyed();
    }

    List<String> primaryKey() {
      return meta.primaryKey();
    }

    int width() {
      return meta.columns().size();
    }

    /**
     * Puts {@code image}'s values into {@code into} by column position: the first value of a column
     * counts; unchanged values are left out (null), or with {@code identifying} refused.
     *
     * @return null, or why the image cannot be compiled
     */
    String read(List<Column> image, Value[] into, boolean identifying) {
      List<ColumnMeta> cols = meta.columns();
      for (int i = 0; i < image.size(); i++) {
        Column c = image.get(i);
        Integer p;
        if (i < cols.size() && cols.get(i).name().equals(c.name())) {
          p = i; // images usually list the columns in the table's order
        } else {
          p = positions.get(c.name());
          if (p == null) {
            p = positions.get(c.name().toLowerCase(Locale.ROOT));
          }
        }
        if (p == null) {
          return "replicate table " + name() + " has no column " + c.name();
        }
        if (into[p] != null) {
          continue;
        }
        if (c.value() instanceof Value.Unchanged) {
          if (identifying) {
            return "a before image of " + name() + " marks column " + c.name() + " unchanged";
          }
          continue;
        }
        into[p] = c.value();
      }
      return null;
    }

    /**
     * Maps {@code image}'s columns to the table's as {@link #read(List, Value[], boolean)} reads
     * them, into {@link #fields}: per column position, the index in the image of the value that
     * counts (the first one that is not unchanged), or -1.
     *
     * @return null, or why the image cannot be compiled
     */
    String map(PackedRowReader.Image image, boolean identifying) {
      java.util.Arrays.fill(fields, -1);
      mapped = 0;
      int n = image.size();
      if (n > seenNames.length) {
        seenNames = java.util.Arrays.copyOf(seenNames, Math.max(n, seenNames.length * 2));
        seenPositions = java.util.Arrays.copyOf(seenPositions, seenNames.length);
      }
      for (int i = 0; i < n; i++) {
        String name = image.name(i);
        int p;
        if (seenNames[i] == name) {
          p = seenPositions[i]; // the reader shares names: the same column as last time
        } else {
          Integer q = position(i, name);
          if (q == null) {
            return "replicate table " + name() + " has no column " + name;
          }
          p = q;
          seenNames[i] = name;
          seenPositions[i] = p;
        }
        if (fields[p] >= 0) {
          continue;
        }
        if (image.unchanged(i)) {
          if (identifying) {
            return "a before image of " + name() + " marks column " + name + " unchanged";
          }
          continue;
        }
        fields[p] = i;
        mapped++;
      }
      return null;
    }

    /** True if the last {@link #map} gave every column a value. */
    boolean mappedComplete() {
      return mapped == fields.length;
    }

    /** The values the last {@link #map} found, by column position (null where none). */
    Value[] values(PackedRowReader.Image image) {
      Value[] into = new Value[fields.length];
      for (int p = 0; p < into.length; p++) {
        if (fields[p] >= 0) {
          into[p] = image.value(fields[p]);
        }
      }
      return into;
    }

    /** As {@link #read(List, Value[], boolean)}, from an image read in place. */
    String read(PackedRowReader.Image image, Value[] into, boolean identifying) {
      String why = map(image, identifying);
      if (why != null) {
        return why;
      }
      for (int p = 0; p < into.length; p++) {
        if (fields[p] >= 0) {
          into[p] = image.value(fields[p]);
        }
      }
      return null;
    }

    /**
     * The primary key of the image the last {@link #map} read, or null if it lacks a key column or
     * has a null one.
     */
    RowKey key(PackedRowReader.Image image) {
      Value[] k = new Value[keyPositions.length];
      for (int i = 0; i < k.length; i++) {
        int f = fields[keyPositions[i]];
        if (f < 0 || image.isNull(f)) {
          return null;
        }
        k[i] = image.value(f);
      }
      return RowKey.of(k);
    }

    private Integer position(int i, String name) {
      List<ColumnMeta> cols = meta.columns();
      if (i < cols.size() && cols.get(i).name().equals(name)) {
        return i; // images usually list the columns in the table's order
      }
      Integer p = positions.get(name);
      return p != null ? p : positions.get(name.toLowerCase(Locale.ROOT));
    }

    /**
     * Packs the primary key of the image the last {@link #map} read into {@link #packed} ({@link
     * RowKey#pack}): whether every key column has an integer value that fits.
     */
    boolean packedKey(PackedRowReader.Image image) {
      if (!rows.packs()) {
        return false;
      }
      long first = 0;
      long second = 0;
      for (int i = 0; i < keyPositions.length; i++) {
        int f = fields[keyPositions[i]];
        if (f < 0) {
          return false;
        }
        PackedRowReader.Type type = image.type(f);
        if (type != PackedRowReader.Type.I32
            && type != PackedRowReader.Type.I64
            && type != PackedRowReader.Type.I16) {
          return false;
        }
        if (i == 0) {
          first = image.longValue(f);
        } else {
          second = image.longValue(f);
        }
      }
      return RowKey.pack(first, second, keyPositions.length, packed);
    }

    /** The primary key of {@code image}, or null if it lacks a key column or has a null one. */
    RowKey key(Value[] image) {
      Value[] k = new Value[keyPositions.length];
      for (int i = 0; i < k.length; i++) {
        Value v = image[keyPositions[i]];
        if (v == null || v instanceof Value.Null) {
          return null;
        }
        k[i] = v;
      }
      return RowKey.of(k);
    }
  }
}
