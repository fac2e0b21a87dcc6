package io.openrs.repserver.admin.rcl;

import java.util.Objects;

/**
 * An admin command that does not follow the grammar. Names the offending word, its position and
 * what the grammar expected there, e.g. {@code syntax error at position 27: expected 'to' after
 * 'set port', found 'too'}.
 */
public final class RclSyntaxException extends Exception {
  private static final long serialVersionUID = 1L;

  /** PostgreSQL's SQLSTATE {@code syntax_error}, for the wire layer's ErrorResponse. */
  public static final String SQLSTATE = "42601";

  /** What {@link #found()} says when the command ended too early. */
  public static final String END_OF_COMMAND = "end of command";

  private final int position;
  private final String found;
  private final String expected;

  RclSyntaxException(int position, String expected, String found, String detail) {
    super("syntax error at position " + position + ": " + detail);
    if (position < 1) {
      throw new IllegalArgumentException("position is 1-based, got " + position);
    }
    this.position = position;
    this.expected = Objects.requireNonNull(expected, "expected");
    this.found = Objects.requireNonNull(found, "found");
  }

  /**
   * 1-based character offset in the command text of the offending word (of the opening quote for an
   * unterminated string); just after the last word when the command ended too early.
   */
  public int position() {
    return position;
  }

  /**
   * The offending word as written (a string literal with its quotes), or {@value #END_OF_COMMAND}.
   */
  public String found() {
    return found;
  }

  /** What the grammar expected there, e.g. {@code 'to'} or {@code a database name}. */
  public String expected() {
    return expected;
  }
}
