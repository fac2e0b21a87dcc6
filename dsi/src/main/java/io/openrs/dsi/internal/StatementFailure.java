package io.openrs.dsi.internal;

import java.sql.SQLException;
import java.util.Optional;

/**
 * A statement (or batch) the replicate refused, or a change the DSI cannot express: carries the
 * statement text with its values and, for database errors, the {@link SQLException}.
 */
public final class StatementFailure extends Exception {
  private static final long serialVersionUID = 1L;

  private final String statement;
  private final SQLException sql;
  private final String dsiCode;

  private StatementFailure(String statement, String message, SQLException sql, String dsiCode) {
    super(message, sql);
    this.statement = statement;
    this.sql = sql;
    this.dsiCode = dsiCode;
  }

  /** The database refused {@code statement}. */
  public static StatementFailure database(String statement, SQLException e) {
    return new StatementFailure(statement, e.getMessage(), e, null);
  }

  /** The DSI's own error {@code code} (an {@code ErrorClass} number such as 5185). */
  public static StatementFailure dsi(String statement, String code, String message) {
    return new StatementFailure(statement, message, null, code);
  }

  public String statement() {
    return statement;
  }

  Optional<SQLException> sqlException() {
    return Optional.ofNullable(sql);
  }

  /** The DSI error number, for the DSI's own errors. */
  Optional<String> dsiCode() {
    return Optional.ofNullable(dsiCode);
  }

  Optional<String> sqlState() {
    return sql == null ? Optional.empty() : Optional.ofNullable(sql.getSQLState());
  }

  int vendorCode() {
    return sql != null ? sql.getErrorCode() : Integer.parseInt(dsiCode);
  }

  /** SQLSTATE, vendor code and message in one line. */
  public String describeError() {
    StringBuilder sb = new StringBuilder();
    sqlState().ifPresent(s -> sb.append("SQLSTATE ").append(s).append(", "));
    if (vendorCode() != 0) {
      sb.append(sql != null ? "vendor code " : "DSI error ").append(vendorCode()).append(", ");
    }
    return sb.append(getMessage()).toString();
  }
}
