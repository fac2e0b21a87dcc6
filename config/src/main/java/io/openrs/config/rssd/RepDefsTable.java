package io.openrs.config.rssd;

import java.util.List;
import java.util.Optional;

/**
 * Replication definitions: table level ({@code rs_objects}, {@code rs_columns}) and database level
 * ({@code rs_dbreps}, {@code rs_dbsubsets}). Both kinds share one name space.
 */
public interface RepDefsTable {
  /**
   * Stores a table repdef.
   *
   * @throws RssdException {@code DUPLICATE} when the name is taken (by either kind), {@code
   *     NOT_FOUND} when the primary connection does not exist, {@code INVALID} when a key or
   *     searchable column is not one of its columns, or a column appears twice
   */
  void create(RepDef repDef);

  /**
   * Stores a database repdef.
   *
   * @throws RssdException {@code DUPLICATE} when the name is taken (by either kind), {@code
   *     NOT_FOUND} when the primary connection does not exist
   */
  void createDatabaseRepDef(DatabaseRepDef repDef);

  Optional<RepDef> find(String name);

  /**
   * {@code alter replication definition}: replaces the definition's columns, key positions and
   * searchable columns with those of {@code changed} (same name; tables are not changed).
   *
   * @throws RssdException {@code NOT_FOUND}; {@code INVALID} for a definition that does not check
   */
  void alterColumns(RepDef changed);

  /** The table repdefs of one primary table, by name. */
  List<RepDef> forPrimaryTable(int primaryConnectionId, String schema, String table);

  /** The table repdefs of one primary connection, by name. */
  List<RepDef> forPrimaryConnection(int primaryConnectionId);

  /** The database repdefs of one primary connection, by name. */
  List<DatabaseRepDef> databaseRepDefsFor(int primaryConnectionId);

  Optional<DatabaseRepDef> findDatabaseRepDef(String name);

  /**
   * Drops a table repdef.
   *
   * @throws RssdException {@code NOT_FOUND}; {@code IN_USE} naming the subscriptions using it
   */
  void drop(String name);

  /**
   * Drops a database repdef.
   *
   * @throws RssdException {@code NOT_FOUND}; {@code IN_USE} naming the subscriptions using it
   */
  void dropDatabaseRepDef(String name);
}
