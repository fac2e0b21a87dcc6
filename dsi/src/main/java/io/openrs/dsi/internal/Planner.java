package io.openrs.dsi.internal;

import io.openrs.dsi.CommandConversion;
import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.DsiSettings;
import io.openrs.dsi.ErrorClass;
import io.openrs.dsi.dialect.ColumnMeta;
import io.openrs.dsi.dialect.Dialect;
import io.openrs.dsi.dialect.TableMeta;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.LtlCommand.InTransaction;
import io.openrs.ltl.TableName;
import io.openrs.ltl.Value;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Turns commands into statements for the replicate: {@code dsi_command_convert}, column names as
 * the replicate's catalog spells them, updates that set only the columns the change carries
 * (columns the source marked unchanged are left as they are), where clauses on the primary key (the
 * before image's, so a key change finds the old row) or, for tables without one, on every
 * before-image column. Snapshot rows become upserts. Not thread-safe: one per executor thread.
 */
final class Planner {
  private final Dialect dialect;
  private final DsiSettings settings;
  private final TableCatalog catalog;
  private final DsiMeters.Group meters;

  Planner(Dialect dialect, DsiSettings settings, TableCatalog catalog, DsiMeters.Group meters) {
    this.dialect = dialect;
    this.settings = settings;
    this.catalog = catalog;
    this.meters = meters;
  }

  /** Plans one command, handing its operations (none, one or two) to {@code out}. */
  void plan(Connection c, InTransaction cmd, Consumer<Op> out)
      throws SQLException, StatementFailure {
    if (cmd instanceof LtlCommand.Insert ins) {
      planInsert(c, ins, out);
    } else if (cmd instanceof LtlCommand.Update upd) {
      planUpdate(c, upd, out);
    } else if (cmd instanceof LtlCommand.Delete del) {
      Set<CommandConversion> conv = conversions(del.table());
      if (conv.contains(CommandConversion.D2NONE)) {
        meters.add(DsiCounter.CONVERTED, 1);
        return;
      }
      TableMeta t = catalog.get(c, del.table());
      out.accept(delete(del, t, del.before(), 1, DsiCounter.DELETES_READ));
    } else if (cmd instanceof LtlCommand.Truncate tr) {
      if (conversions(tr.table()).contains(CommandConversion.T2NONE)) {
        meters.add(DsiCounter.CONVERTED, 1);
        return;
      }
      TableMeta t = catalog.get(c, tr.table());
      out.accept(
          new Op.Stmt(
              tr,
              dialect.truncate(t),
              List.of(),
              List.of(),
              -1,
              DsiCounter.TRUNCATES_READ,
              false,
              t,
              List.of()));
    } else if (cmd instanceof LtlCommand.Ddl ddl) {
      out.accept(new Op.DdlOp(ddl));
    } else if (cmd instanceof LtlCommand.Ticket ticket) {
      out.accept(new Op.TicketOp(ticket));
    } else {
      throw StatementFailure.dsi(
          ValueText.command(cmd),
          ErrorClass.UNAPPLICABLE_CHANGE,
          "command " + cmd.getClass().getSimpleName() + " has no place inside a transaction");
    }
  }

  /**
   * Plans consecutive truncates of one transaction (PostgreSQL logs {@code TRUNCATE a, b} and
   * {@code TRUNCATE a CASCADE} as one truncate of every table, which Debezium passes on as one
   * truncate per table): together, children first ({@link Dialect#truncate(List)}), as a table a
   * foreign key references may only be truncated with its children.
   */
  void planTruncates(Connection c, List<LtlCommand.Truncate> truncates, Consumer<Op> out)
      throws SQLException {
    List<TableMeta> tables = new ArrayList<>(truncates.size());
    LtlCommand.Truncate first = null;
    for (LtlCommand.Truncate tr : truncates) {
      if (conversions(tr.table()).contains(CommandConversion.T2NONE)) {
        meters.add(DsiCounter.CONVERTED, 1);
        continue;
      }
      TableMeta t = catalog.get(c, tr.table());
      if (tables.stream().noneMatch(x -> x.name().equals(t.name()))) {
        tables.add(t);
      }
      first = first == null ? tr : first;
    }
    if (tables.isEmpty()) {
      return;
    }
    if (tables.size() > 1) {
      tables = childrenFirst(c, tables);
    }
    List<String> statements = dialect.truncate(tables);
    for (String sql : statements) {
      out.accept(
          new Op.Stmt(
              first,
              sql,
              List.of(),
              List.of(),
              -1,
              DsiCounter.TRUNCATES_READ,
              false,
              tables.get(0),
              List.of()));
    }
    if (tables.size() > statements.size()) {
      meters.add(DsiCounter.TRUNCATES_READ, tables.size() - statements.size());
    }
  }

  private List<TableMeta> childrenFirst(Connection c, List<TableMeta> tables) throws SQLException {
    Map<TableName, List<TableName>> parents = new LinkedHashMap<>();
    Map<TableName, TableMeta> byName = new LinkedHashMap<>();
    for (TableMeta t : tables) {
      parents.put(t.name(), dialect.referencedTables(c, t.name()));
      byName.put(t.name(), t);
    }
    List<TableName> order =
        new ArrayList<>(ForeignKeyOrder.parentsFirst(List.copyOf(byName.keySet()), parents));
    java.util.Collections.reverse(order);
    List<TableMeta> out = new ArrayList<>(order.size());
    for (TableName n : order) {
      out.add(byName.get(n));
    }
    return out;
  }

  private Set<CommandConversion> conversions(TableName t) {
    return settings.conversionsFor(t.schema() + "." + t.table());
  }

  private void planInsert(Connection c, LtlCommand.Insert ins, Consumer<Op> out)
      throws SQLException, StatementFailure {
    Set<CommandConversion> conv = conversions(ins.table());
    if (conv.contains(CommandConversion.I2NONE)) {
      meters.add(DsiCounter.CONVERTED, 1);
      return;
    }
    TableMeta t = catalog.get(c, ins.table());
    Row row = Row.of(t, ins.after(), true);
    if (conv.contains(CommandConversion.I2DI)) {
      meters.add(DsiCounter.CONVERTED, 1);
      out.accept(delete(ins, t, ins.after(), -1, null));
      out.accept(insert(ins, t, row, false));
    } else if (ins.snapshot()) {
      out.accept(
          new Op.Stmt(
              ins,
              dialect.upsert(t, row.names),
              row.values,
              row.columns,
              -1,
              DsiCounter.INSERTS_READ,
              false,
              t,
              row.names));
    } else {
      out.accept(insert(ins, t, row, !row.hadUnchanged));
    }
  }

  private Op.Stmt insert(InTransaction src, TableMeta t, Row row, boolean bulkable) {
    return new Op.Stmt(
        src,
        dialect.insert(t, row.names),
        row.values,
        row.columns,
        -1,
        DsiCounter.INSERTS_READ,
        bulkable,
        t,
        row.names);
  }

  private void planUpdate(Connection c, LtlCommand.Update upd, Consumer<Op> out)
      throws SQLException, StatementFailure {
    Set<CommandConversion> conv = conversions(upd.table());
    if (conv.contains(CommandConversion.U2NONE)) {
      meters.add(DsiCounter.CONVERTED, 1);
      return;
    }
    TableMeta t = catalog.get(c, upd.table());
    if (conv.contains(CommandConversion.U2DI)) {
      meters.add(DsiCounter.CONVERTED, 1);
      deleteInsert(upd, t, -1, out);
      return;
    }
    Row set = Row.of(t, upd.after(), true);
    if (!t.alwaysIdentity().isEmpty() && !skipUnchangedIdentity(t, upd, set)) {
      // an identity column generated always cannot be updated to a value: the row moves
      deleteInsert(upd, t, 1, out);
      return;
    }
    if (set.names.isEmpty()) {
      return; // nothing but unchanged columns: the row stays as it is
    }
    Where where = where(upd, t, upd.before());
    List<Value> values = new ArrayList<>(set.values);
    values.addAll(where.row.values);
    List<ColumnMeta> columns = new ArrayList<>(set.columns);
    columns.addAll(where.row.columns);
    out.accept(
        new Op.Stmt(
            upd,
            dialect.update(t, set.names, where.row.names, where.byKey),
            values,
            columns,
            1,
            DsiCounter.UPDATES_READ,
            false,
            t,
            set.names));
  }

  /**
   * Leaves out of {@code set} the identity columns generated always whose value the update keeps;
   * false if one changes (or the before image does not say), which an update cannot express.
   */
  private static boolean skipUnchangedIdentity(TableMeta t, LtlCommand.Update upd, Row set) {
    Row before = Row.of(t, upd.before(), true);
    for (String id : t.alwaysIdentity()) {
      int i = set.names.indexOf(id);
      if (i < 0) {
        continue;
      }
      Value was = before.value(t, id);
      if (was == null || !was.equals(set.values.get(i))) {
        return false;
      }
      set.remove(i);
    }
    return true;
  }

  /**
   * An update as a delete of the old row ({@code expected} rows, -1: any) and an insert of the new
   * one; columns marked unchanged are taken from the before image, and if it lacks one the change
   * cannot be expressed.
   */
  private void deleteInsert(LtlCommand.Update upd, TableMeta t, int expected, Consumer<Op> out)
      throws StatementFailure {
    Row before = Row.of(t, upd.before(), true);
    List<Column> full = new ArrayList<>();
    for (Column col : upd.after()) {
      Value v = col.value();
      if (v instanceof Value.Unchanged) {
        v = before.value(t, col.name());
        if (v == null) {
          throw StatementFailure.dsi(
              ValueText.command(upd),
              ErrorClass.UNAPPLICABLE_CHANGE,
              (expected < 0 ? "dsi_command_convert u2di" : "a change of an identity column")
                  + " needs every column, but "
                  + col.name()
                  + " is unchanged and not in the before image");
        }
      }
      full.add(new Column(col.name(), v));
    }
    out.accept(
        delete(upd, t, upd.before(), expected, expected < 0 ? null : DsiCounter.UPDATES_READ));
    out.accept(insert(upd, t, Row.of(t, full, true), false));
  }

  private Op.Stmt delete(
      InTransaction src, TableMeta t, List<Column> image, int expected, DsiCounter counter)
      throws StatementFailure {
    Where where = where(src, t, image);
    return new Op.Stmt(
        src,
        dialect.delete(t, where.row.names, where.byKey),
        where.row.values,
        where.row.columns,
        expected,
        counter,
        false,
        t,
        where.row.names);
  }

  /** The where clause: the primary key's values from {@code image}, or all its columns. */
  private Where where(InTransaction src, TableMeta t, List<Column> image) throws StatementFailure {
    Row all = Row.of(t, image, true);
    if (!t.keyed()) {
      if (all.names.isEmpty()) {
        throw StatementFailure.dsi(
            ValueText.command(src),
            ErrorClass.UNAPPLICABLE_CHANGE,
            "the row image identifies no row of " + t.name() + " (no column has a value)");
      }
      return new Where(all, false);
    }
    Row key = new Row();
    for (String k : t.primaryKey()) {
      int i = all.names.indexOf(k);
      if (i < 0) {
        throw StatementFailure.dsi(
            ValueText.command(src),
            ErrorClass.UNAPPLICABLE_CHANGE,
            "the before image lacks column "
                + k
                + " of the primary key "
                + t.primaryKey()
                + " of replicate table "
                + t.name());
      }
      key.add(k, all.values.get(i), all.columns.get(i));
    }
    return new Where(key, true);
  }

  private record Where(Row row, boolean byKey) {}

  /** Column names as the replicate spells them, their values and catalog entries. */
  private static final class Row {
    final List<String> names = new ArrayList<>();
    final List<Value> values = new ArrayList<>();
    final List<ColumnMeta> columns = new ArrayList<>();
    boolean hadUnchanged;

    static Row of(TableMeta t, List<Column> image, boolean skipUnchanged) {
      Row r = new Row();
      Map<String, Boolean> seen = new LinkedHashMap<>();
      for (Column col : image) {
        if (col.value() instanceof Value.Unchanged && skipUnchanged) {
          r.hadUnchanged = true;
          continue;
        }
        ColumnMeta meta = t.column(col.name()).orElse(null);
        String name = meta == null ? col.name() : meta.name();
        if (seen.put(name, Boolean.TRUE) == null) {
          r.add(name, col.value(), meta);
        }
      }
      return r;
    }

    void add(String name, Value v, ColumnMeta meta) {
      names.add(name);
      values.add(v);
      columns.add(meta);
    }

    void remove(int i) {
      names.remove(i);
      values.remove(i);
      columns.remove(i);
    }

    /** The value of {@code column} in this image, or null. */
    Value value(TableMeta t, String column) {
      String name = t.column(column).map(ColumnMeta::name).orElse(column);
      int i = names.indexOf(name);
      return i < 0 ? null : values.get(i);
    }
  }
}
