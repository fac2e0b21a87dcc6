package io.openrs.config.rssd;

import java.util.List;
import java.util.Objects;

/**
 * A database replication definition ({@code create database replication definition}), stored in
 * {@code rs_dbreps} and {@code rs_dbsubsets}.
 *
 * @param name the repdef name (shares the name space of table repdefs)
 * @param primaryConnectionId the primary connection
 * @param includeTables LIKE-style patterns {@code schema.table} ({@code %} any run, {@code _} one
 *     character) of the tables replicated; empty = all tables
 * @param excludeTables patterns of tables not replicated, applied after {@code includeTables}
 */
public record DatabaseRepDef(
    String name, int primaryConnectionId, List<String> includeTables, List<String> excludeTables) {
  public DatabaseRepDef {
    Objects.requireNonNull(name, "name");
    includeTables = List.copyOf(includeTables);
    excludeTables = List.copyOf(excludeTables);
  }
}
