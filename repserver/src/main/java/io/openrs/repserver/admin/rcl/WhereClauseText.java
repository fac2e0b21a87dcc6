package io.openrs.repserver.admin.rcl;

import java.util.Objects;

/**
 * The where clause of {@code create subscription}, captured as text: its grammar belongs to the
 * server's subscription evaluator, which parses it later. Comments inside it are replaced by spaces
 * of the same length, so an error position {@code p} (1-based) that the evaluator reports inside
 * {@code text} is position {@code position + p - 1} of the whole command.
 *
 * @param text everything after {@code where} up to {@code without materialization}, {@code with
 *     materialization}, a final {@code ;} or the end, without surrounding whitespace; never empty
 * @param position 1-based character position of the first character of {@code text} in the command
 */
public record WhereClauseText(String text, int position) {

  public WhereClauseText {
    Objects.requireNonNull(text, "text");
    if (text.isBlank()) {
      throw new IllegalArgumentException("where clause text must not be empty");
    }
    if (position < 1) {
      throw new IllegalArgumentException("position is 1-based, got " + position);
    }
  }

  @Override
  public String toString() {
    return text;
  }
}
