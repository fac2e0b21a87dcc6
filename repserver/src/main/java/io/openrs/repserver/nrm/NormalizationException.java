package io.openrs.repserver.nrm;

import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import java.util.Optional;

/**
 * A change contradicts its replication definition. Log transfer from the origin stops; the change
 * is not dropped (the agent resends it once the DBA has fixed the definition).
 */
public final class NormalizationException extends Exception {
  private static final long serialVersionUID = 1L;

  private final Oqid oqid;
  private final TableName table;
  private final Optional<String> column;

  public NormalizationException(
      Oqid oqid, TableName table, Optional<String> column, String problem) {
    super(
        "change at OQID "
            + oqid
            + " to table "
            + table
            + column.map(c -> ", column " + c).orElse("")
            + ": "
            + problem);
    this.oqid = oqid;
    this.table = table;
    this.column = column;
  }

  public Oqid oqid() {
    return oqid;
  }

  public TableName table() {
    return table;
  }

  public Optional<String> column() {
    return column;
  }
}
