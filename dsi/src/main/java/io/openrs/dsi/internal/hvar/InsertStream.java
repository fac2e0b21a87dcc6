package io.openrs.dsi.internal.hvar;

import io.openrs.dsi.dialect.TableMeta;
import io.openrs.ltl.Value;
import io.openrs.ltl.packed.PackedRowReader;
import java.sql.SQLException;

/**
 * Where a {@link NetChangeDb} sends net inserts ahead of its group's apply, while it is still
 * compiling: inserts of keys the group has not seen before, into tables where inserting them before
 * the group's other changes gives the same result ({@link #accepts}). The rows of the transaction
 * being added are held back until {@link #transactionAdded}, and forgotten on {@link
 * #transactionDropped}, so a transaction goes into the group whole or not at all.
 *
 * <p>A later command of the group on a streamed key then compiles as if the row had been in the
 * table before the group (an update is a net update, a delete a net delete); a second insert of it
 * cannot be compiled, as for any key the group holds.
 */
public interface InsertStream {

  /**
   * True if complete-image inserts of new keys into {@code t} may go ahead: {@code t} has a primary
   * key, no other unique key and no foreign key of its own (a parent row could come later in the
   * group). The compiler checks the rest (restrictions, {@code i2di}).
   */
  boolean accepts(TableMeta t) throws SQLException;

  /** One insert of the transaction being added: every column of {@code t}, in its order. */
  void row(TableMeta t, Value[] image);

  /**
   * One insert of the transaction being added, read in place: column {@code p} of {@code t} is
   * {@code image}'s column {@code columns[p]} (every column of {@code t} has one).
   */
  void row(TableMeta t, PackedRowReader.Image image, int[] columns);

  /** The transaction being added went into the group: its rows may be sent. */
  void transactionAdded();

  /** The transaction being added did not: its rows are forgotten. */
  void transactionDropped();

  /** About how many heap bytes the rows held take. */
  long bytes();
}
