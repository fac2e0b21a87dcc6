package io.openrs.dsi.internal.hvar;

import io.openrs.ltl.TableName;
import java.sql.SQLException;
import java.util.Optional;

/**
 * A group's bulk apply failed: which replicate table, what step ({@code load}, {@code delete},
 * {@code update}, {@code insert}, {@code save}), the statement, and the database's error or the
 * DSI's own finding (a row count that shows the replicate differs).
 */
public final class BulkApplyException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient TableName table;
  private final String step;
  private final String statement;
  private final SQLException sql;

  BulkApplyException(TableName table, String step, String statement, SQLException sql) {
    super(step + " of " + table + " failed: " + sql.getMessage(), sql);
    this.table = table;
    this.step = step;
    this.statement = statement;
    this.sql = sql;
  }

  BulkApplyException(TableName table, String step, String statement, String message) {
    super(step + " of " + table + ": " + message);
    this.table = table;
    this.step = step;
    this.statement = statement;
    this.sql = null;
  }

  /** The replicate table whose step failed. */
  public TableName table() {
    return table;
  }

  /** {@code load}, {@code save}, {@code delete}, {@code update} or {@code insert}. */
  public String step() {
    return step;
  }

  /** The statement that failed (without values: they are the work table's rows). */
  public String statement() {
    return statement;
  }

  /** The database's error, if the database refused the statement. */
  public Optional<SQLException> sqlException() {
    return Optional.ofNullable(sql);
  }
}
