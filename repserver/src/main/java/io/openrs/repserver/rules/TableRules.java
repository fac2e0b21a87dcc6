package io.openrs.repserver.rules;

import io.openrs.config.rssd.DatabaseRepDef;
import io.openrs.config.rssd.RepDef;
import io.openrs.ltl.TableName;
import java.util.List;

/**
 * The replication definitions that cover one primary table of one origin: table-level ones naming
 * it, and database-level ones whose name patterns include it.
 */
public record TableRules(
    TableName table, List<RepDef> tableRepDefs, List<DatabaseRepDef> databaseRepDefs) {

  public TableRules {
    tableRepDefs = List.copyOf(tableRepDefs);
    databaseRepDefs = List.copyOf(databaseRepDefs);
  }

  /** Whether any definition covers the table. */
  public boolean replicated() {
    return !tableRepDefs.isEmpty() || !databaseRepDefs.isEmpty();
  }

  /** Whether a database-level definition covers it (then every column is replicated as is). */
  public boolean coveredByDatabaseRepDef() {
    return !databaseRepDefs.isEmpty();
  }
}
