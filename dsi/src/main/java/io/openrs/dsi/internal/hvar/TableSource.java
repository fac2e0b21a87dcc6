package io.openrs.dsi.internal.hvar;

import io.openrs.dsi.dialect.TableMeta;
import io.openrs.ltl.TableName;
import java.sql.SQLException;
import java.util.Optional;

/** Where the compiler learns about replicate tables: the catalog, and which it must not compile. */
public interface TableSource {

  /** The replicate table's columns and keys (no columns if it does not exist). */
  TableMeta table(TableName name) throws SQLException;

  /**
   * Why changes to {@code t} must not be compiled (its transactions are applied in continuous
   * mode), or empty.
   */
  Optional<String> restriction(TableMeta t);

  /**
   * True if a net update that sets a column of one of {@code t}'s unique keys (other than the
   * primary key) may be applied as a delete and an insert of the whole row: then values of a unique
   * key can move between rows in one group (deletes run before inserts), where a set-based update
   * would fail on the first row that takes a value another row still holds. Safe where nothing sees
   * the delete: no foreign key references the table and it has no trigger, or the replicate fires
   * neither for the DSI.
   */
  default boolean uniqueChangesAsDeleteInsert(TableMeta t) throws SQLException {
    return false;
  }

  /**
   * True if a change of {@code t}'s primary key may be applied as a delete of the old key and an
   * insert of the new: false where the delete would make the replicate change other rows (a foreign
   * key referencing {@code t} cascades on delete, and the group is not applied in replica mode).
   * Such a transaction is applied in continuous mode, where an update changes the key.
   */
  default boolean keyMovesAsDeleteInsert(TableMeta t) throws SQLException {
    return true;
  }
}
