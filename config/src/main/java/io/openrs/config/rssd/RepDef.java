package io.openrs.config.rssd;

import java.util.List;
import java.util.Objects;

/**
 * A table replication definition ({@code create replication definition}), stored in {@code
 * rs_objects} and {@code rs_columns}. Table and database repdefs share one name space.
 *
 * @param name the repdef name
 * @param primaryConnectionId the primary connection ({@code with primary at ds.db})
 * @param primarySchema schema (owner) of the primary table
 * @param primaryTable the primary table
 * @param replicateSchema schema at the replicate
 * @param replicateTable table name at the replicate
 * @param columns the replicated columns in declared order
 * @param primaryKey primary key column names (primary names), in key order; empty = all columns
 * @param searchableColumns columns subscriptions may use in where-clauses
 */
public record RepDef(
    String name,
    int primaryConnectionId,
    String primarySchema,
    String primaryTable,
    String replicateSchema,
    String replicateTable,
    List<RepDefColumn> columns,
    List<String> primaryKey,
    List<String> searchableColumns) {

  public RepDef {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(primarySchema, "primarySchema");
    Objects.requireNonNull(primaryTable, "primaryTable");
    Objects.requireNonNull(replicateSchema, "replicateSchema");
    Objects.requireNonNull(replicateTable, "replicateTable");
    columns = List.copyOf(columns);
    primaryKey = List.copyOf(primaryKey);
    searchableColumns = List.copyOf(searchableColumns);
  }
}
