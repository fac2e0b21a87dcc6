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
                "dsi_command_convert u2di needs every column, but "
                    + col.name()
                    + " is unchanged and not in the before image");
          }
        }
        full.add(new Column(col.name(), v));
      }
      out.accept(delete(upd, t, upd.before(), -1, null));
      out.accept(insert(upd, t, Row.of(t, full, true), false));
      return;
    }
    Row set = Row.of(t, upd.after(), true);
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

    /** The value of {@code column} in this image, or null. */
    Value value(TableMeta t, String column) {
      String name = t.column(column).map(ColumnMeta::name).orElse(column);
      int i = names.indexOf(name);
      return i < 0 ? null : values.get(i);
    }
  }
}
