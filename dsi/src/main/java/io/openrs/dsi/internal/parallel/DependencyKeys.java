package io.openrs.dsi.internal.parallel;

import io.openrs.dsi.dialect.ColumnMeta;
import io.openrs.dsi.dialect.TableMeta;
import io.openrs.dsi.internal.SourceTransaction;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.TableName;
import io.openrs.ltl.Value;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a group of transactions writes, for the dependency-aware parallel DSI: row keys (table and
 * primary key values, and unique key values where the image carries them) and whole tables (tables
 * without a primary key, truncates). Two groups conflict when they share a row key, or one locks a
 * whole table the other touches. DDL and incomplete runs make a group exclusive.
 *
 * <p>Only an optimisation: transactions still commit in order behind a lock the replicate's
 * deadlock detector sees, and a transaction that fails because it ran beside another is rolled back
 * and applied again in commit order. Missed dependencies cost time, never correctness.
 */
final class DependencyKeys {
  final Set<String> rows = new HashSet<>();
  final Set<String> tables = new HashSet<>();
  final Set<String> tableLocks = new HashSet<>();
  boolean exclusive;

  /** Resolves tables (from the executor's catalog). */
  interface Catalog {
    TableMeta table(TableName name) throws Exception;
  }

  static DependencyKeys of(List<SourceTransaction> group, Catalog catalog) {
    DependencyKeys k = new DependencyKeys();
    Map<TableName, TableMeta> tables = new HashMap<>();
    try {
      for (SourceTransaction t : group) {
        if (!t.complete()) {
          k.exclusive = true;
          return k;
        }
        for (LtlCommand.InTransaction c : t.body()) {
          k.add(c, tables, catalog);
          if (k.exclusive) {
            return k;
          }
        }
      }
    } catch (Exception e) {
      k.exclusive = true; // cannot tell: apply it alone
    }
    return k;
  }

  private void add(LtlCommand.InTransaction c, Map<TableName, TableMeta> cache, Catalog catalog)
      throws Exception {
    if (c instanceof LtlCommand.Ddl) {
      exclusive = true;
      return;
    }
    if (c instanceof LtlCommand.Truncate tr) {
      String name = tr.table().toString();
      tables.add(name);
      tableLocks.add(name);
      return;
    }
    if (!(c instanceof LtlCommand.RowChange rc)) {
      return;
    }
    TableMeta meta = cache.get(rc.table());
    if (meta == null) {
      meta = catalog.table(rc.table());
      cache.put(rc.table(), meta);
    }
    String name = rc.table().toString();
    tables.add(name);
    if (!meta.keyed()) {
      tableLocks.add(name);
      return;
    }
    if (c instanceof LtlCommand.Insert ins) {
      image(name, meta, ins.after());
    } else if (c instanceof LtlCommand.Update upd) {
      image(name, meta, upd.before());
      image(name, meta, upd.after());
    } else if (c instanceof LtlCommand.Delete del) {
      image(name, meta, del.before());
    }
  }

  private void image(String table, TableMeta meta, List<Column> image) {
    Map<String, Value> byName = new HashMap<>();
    for (Column col : image) {
      String n = meta.column(col.name()).map(ColumnMeta::name).orElse(col.name());
      byName.put(n, col.value());
    }
    key(table, "pk", meta.primaryKey(), byName);
    for (int i = 0; i < meta.uniqueKeys().size(); i++) {
      key(table, "uk" + i, meta.uniqueKeys().get(i), byName);
    }
  }

  private void key(String table, String index, List<String> cols, Map<String, Value> values) {
    StringBuilder sb = new StringBuilder(table).append('\0').append(index);
    for (String col : cols) {
      Value v = values.get(col);
      if (v == null || v instanceof Value.Unchanged || v instanceof Value.Null) {
        return; // not in this image (or NULL, which a unique key does not hold)
      }
      sb.append('\0').append(normalized(v));
    }
    rows.add(sb.toString());
  }

  private static String normalized(Value v) {
    if (v instanceof Value.Decimal d) {
      return d.value().signum() == 0 ? "0" : d.value().stripTrailingZeros().toPlainString();
    } else if (v instanceof Value.Int16 n) {
      return Long.toString(n.value());
    } else if (v instanceof Value.Int32 n) {
      return Long.toString(n.value());
    } else if (v instanceof Value.Int64 n) {
      return Long.toString(n.value());
    }
    return v.toString();
  }

  /** True if groups with these keys may not run side by side. */
  boolean conflicts(DependencyKeys other) {
    if (exclusive || other.exclusive) {
      return true;
    }
    for (String t : tableLocks) {
      if (other.tables.contains(t)) {
        return true;
      }
    }
    for (String t : other.tableLocks) {
      if (tables.contains(t)) {
        return true;
      }
    }
    Set<String> small = rows.size() <= other.rows.size() ? rows : other.rows;
    Set<String> large = small == rows ? other.rows : rows;
    for (String r : small) {
      if (large.contains(r)) {
        return true;
      }
    }
    return false;
  }
}
