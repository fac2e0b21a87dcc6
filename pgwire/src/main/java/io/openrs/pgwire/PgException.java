package io.openrs.pgwire;

import java.util.Objects;
import java.util.Optional;

/**
 * A command failed: sent to the client as ErrorResponse (severity ERROR) with this SQLSTATE,
 * message, and where given the position of the offending word, a hint and a detail. Common
 * SQLSTATEs are named in {@link PgSqlState}.
 */
public final class PgException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String sqlState;
  private final int position;
  private final String hint;
  private final String detail;

  /** An error without position. */
  public PgException(String sqlState, String message) {
    this(sqlState, message, 0, null, null);
  }

  /**
   * An error at a place in the command.
   *
   * @param position 1-based index of the offending character in the command text the backend got
   *     (counted in Java chars); 0 = none. The server translates it to the client's query string.
   */
  public PgException(String sqlState, String message, int position) {
    this(sqlState, message, position, null, null);
  }

  /**
   * An error with every field.
   *
   * @param position as in {@link #PgException(String, String, int)}
   * @param hint advice on how to fix it (ErrorResponse field H), or null
   * @param detail more about the error (ErrorResponse field D), or null
   */
  public PgException(String sqlState, String message, int position, String hint, String detail) {
    super(Objects.requireNonNull(message, "message"));
    this.sqlState = checkSqlState(sqlState);
    if (position < 0) {
      throw new IllegalArgumentException("position must be >= 0 (0 = none), got " + position);
    }
    this.position = position;
    this.hint = hint;
    this.detail = detail;
  }

  /** An error caused by another exception (e.g. the RSSD failed). */
  public PgException(String sqlState, String message, Throwable cause) {
    this(sqlState, message, 0, null, null);
    initCause(cause);
  }

  private static String checkSqlState(String sqlState) {
    Objects.requireNonNull(sqlState, "sqlState");
    if (sqlState.length() != 5) {
      throw new IllegalArgumentException("SQLSTATE must be 5 characters, got '" + sqlState + "'");
    }
    for (int i = 0; i < 5; i++) {
      char c = sqlState.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'))) {
        throw new IllegalArgumentException(
            "SQLSTATE must be digits and upper-case letters, got '" + sqlState + "'");
      }
    }
    return sqlState;
  }

  /** The five-character SQLSTATE. */
  public String sqlState() {
    return sqlState;
  }

  /** 1-based position in the command text, 0 = none. */
  public int position() {
    return position;
  }

  /** The hint, if any. */
  public Optional<String> hint() {
    return Optional.ofNullable(hint);
  }

  /** The detail, if any. */
  public Optional<String> detail() {
    return Optional.ofNullable(detail);
  }

  /** The same error at another position (the server uses it to re-base positions). */
  public PgException atPosition(int newPosition) {
    PgException moved = new PgException(sqlState, getMessage(), newPosition, hint, detail);
    moved.initCause(getCause());
    moved.setStackTrace(getStackTrace());
    return moved;
  }

  @Override
  public String toString() {
    return "PgException["
        + sqlState
        + "] "
        + getMessage()
        + (position > 0 ? " at " + position : "");
  }
}
