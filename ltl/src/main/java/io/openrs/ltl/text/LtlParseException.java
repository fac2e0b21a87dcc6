package io.openrs.ltl.text;

/**
 * A malformed LTL command. Names where (line, column, and the byte offset of the line in the batch,
 * from which a sender can resend), what was found there and what was expected. Commands on earlier
 * lines of the batch were parsed and handed on; nothing at or after this line was.
 */
public final class LtlParseException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int line;
  private final int column;
  private final long lineOffset;
  private final String found;
  private final String expected;

  public LtlParseException(int line, int column, long lineOffset, String found, String expected) {
    super(
        "LTL syntax error at line "
            + line
            + ", column "
            + column
            + ": expected "
            + expected
            + ", found "
            + found);
    this.line = line;
    this.column = column;
    this.lineOffset = lineOffset;
    this.found = found;
    this.expected = expected;
  }

  /** 1-based line number within the parsed batch. */
  public int line() {
    return line;
  }

  /** 1-based column, counted in Unicode code points. */
  public int column() {
    return column;
  }

  /** Byte offset of the start of the failing line within the parsed batch. */
  public long lineOffset() {
    return lineOffset;
  }

  /** The text at the error position (quoted), or {@code end of line}. */
  public String found() {
    return found;
  }

  /** What the grammar expected at that position. */
  public String expected() {
    return expected;
  }
}
