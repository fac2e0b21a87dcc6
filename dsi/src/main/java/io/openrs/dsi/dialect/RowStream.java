package io.openrs.dsi.dialect;

import io.openrs.ltl.Value;
import io.openrs.ltl.packed.PackedRowReader;
import java.sql.SQLException;

/**
 * A bulk load into one table that is fed while its rows are still being produced (PostgreSQL {@code
 * COPY ... FROM STDIN}), inside the connection's current transaction: {@link #write} bytes a {@link
 * Encoder} produced, then {@link #end} (or {@link #cancel}). HVAR streams the net inserts of keys a
 * group has not seen before while it is still compiling the group ({@link Dialect#openRowStream}).
 */
public interface RowStream {

  /** Sends encoded rows (whole rows only). */
  void write(byte[] bytes, int offset, int length) throws SQLException;

  /** Ends the load; the rows the database reports loaded. */
  long end() throws SQLException;

  /** Abandons the load if it is still open (best effort; the transaction must be rolled back). */
  void cancel();

  /**
   * A value an {@link Encoder} does not write in its format for its column (a binary encoder meets
   * a value of another kind than the column's type); the row was not written.
   */
  final class Unencodable extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public Unencodable(String message) {
      super(message);
    }
  }

  /** Rows encoded into a growing byte buffer, in the format {@link #write} takes. */
  interface Encoder {
    /** Appends one row: every column of the table, in the column list's order. */
    void row(Value[] row);

    /**
     * Appends one row read in place: column {@code p} of the column list is {@code image}'s column
     * {@code columns[p]}. The same bytes as {@link #row(Value[])} with the image's values.
     */
    default void row(PackedRowReader.Image image, int[] columns) {
      Value[] row = new Value[columns.length];
      for (int p = 0; p < row.length; p++) {
        row[p] = image.value(columns[p]);
      }
      row(row);
    }

    /** The buffer; its first {@link #length()} bytes are the rows encoded so far. */
    byte[] array();

    int length();

    /** Forgets everything after the first {@code length} bytes (a row boundary). */
    void truncate(int length);
  }
}
