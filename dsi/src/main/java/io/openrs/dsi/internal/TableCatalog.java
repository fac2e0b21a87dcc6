package io.openrs.dsi.internal;

import io.openrs.dsi.dialect.Dialect;
import io.openrs.dsi.dialect.TableMeta;
import io.openrs.ltl.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * Replicate tables' columns and keys, read from the catalog once and kept until DDL is applied or a
 * statement fails. Not thread-safe: one per executor thread.
 */
final class TableCatalog {
  private final Dialect dialect;
  private final Map<TableName, TableMeta> tables = new HashMap<>();

  TableCatalog(Dialect dialect) {
    this.dialect = dialect;
  }

  TableMeta get(Connection c, TableName name) throws SQLException {
    TableMeta t = tables.get(name);
    if (t == null) {
      t = dialect.describe(c, name);
      if (t.exists()) {
        tables.put(name, t);
      }
    }
    return t;
  }

  void invalidate() {
    tables.clear();
  }
}
