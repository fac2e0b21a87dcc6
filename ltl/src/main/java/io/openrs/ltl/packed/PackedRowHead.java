package io.openrs.ltl.packed;

import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import java.util.Objects;

/**
 * What a packed row change (insert, update, delete) is about, read without its row images ({@link
 * PackedDecoder#rowHead}): enough to sort it into its transaction and route it by table. The images
 * are neither read nor checked; whoever needs them decodes the command.
 *
 * @param kind insert, update or delete
 * @param tran the origin transaction
 * @param oqid the command's OQID
 * @param table the primary table
 * @param snapshot an insert marked as a snapshot row (always false for update and delete)
 */
public record PackedRowHead(
    PackedRowReader.Kind kind, TranId tran, Oqid oqid, TableName table, boolean snapshot) {

  public PackedRowHead {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(tran, "tran");
    Objects.requireNonNull(oqid, "oqid");
    Objects.requireNonNull(table, "table");
    if (kind == PackedRowReader.Kind.OTHER) {
      throw new IllegalArgumentException("a row head is of an insert, update or delete");
    }
  }
}
