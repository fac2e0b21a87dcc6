package io.openrs.ltl;

import java.util.Objects;

/**
 * A qualified table name at the origin: schema (PostgreSQL schema, MariaDB/MySQL database) and
 * table, case preserved.
 */
public record TableName(String schema, String table) {
  public TableName {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(table, "table");
    if (schema.isEmpty() || table.isEmpty()) {
      throw new IllegalArgumentException("schema and table names must not be empty");
    }
  }

  @Override
  public String toString() {
    return schema + "." + table;
  }
}
