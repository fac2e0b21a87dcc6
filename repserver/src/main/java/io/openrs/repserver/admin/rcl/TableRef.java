package io.openrs.repserver.admin.rcl;

import java.util.Objects;
import java.util.Optional;

/**
 * A table name as written in a replication definition: {@code table} or {@code schema.table}. Parts
 * written unquoted are folded to lower case; {@code "Quoted"} and {@code 'quoted'} parts are kept.
 */
public record TableRef(Optional<String> schema, String table) {

  public TableRef {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(table, "table");
    if (table.isEmpty() || schema.map(String::isEmpty).orElse(false)) {
      throw new IllegalArgumentException("table and schema names must not be empty");
    }
  }

  /** A table name without a schema. */
  public static TableRef of(String table) {
    return new TableRef(Optional.empty(), table);
  }

  /** A table name with a schema. */
  public static TableRef of(String schema, String table) {
    return new TableRef(Optional.of(schema), table);
  }

  /** {@code schema.table} or {@code table}, quoting parts that need it. */
  @Override
  public String toString() {
    return schema.map(s -> RclText.ident(s) + ".").orElse("") + RclText.ident(table);
  }
}
