package io.openrs.pgwire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Puts the values of a Bind into the text of a prepared statement: every {@code $n} outside quotes
 * and comments becomes the n-th value as a quoted SQL string literal ({@code 'it''s'}; {@code NULL}
 * for null), since the backend's commands take literals. Remembers where each piece came from so
 * that an error position in the substituted text can be shown at the right place of the text the
 * client prepared (a position inside a substituted literal points at its {@code $n}). Immutable.
 */
final class ParameterSubstitution {
  /** Most parameters a statement may have (Bind counts them in 16 bits). */
  static final int MAX_PARAMETERS = 65535;

  private final String text;
  private final int[] substitutedStarts;
  private final int[] originalStarts;
  private final boolean[] literal;

  private ParameterSubstitution(
      String text, int[] substitutedStarts, int[] originalStarts, boolean[] literal) {
    this.text = text;
    this.substitutedStarts = substitutedStarts;
    this.originalStarts = originalStarts;
    this.literal = literal;
  }

  /** The highest {@code $n} in the tokens, 0 when there is none. */
  static int parameterCount(List<SqlLexer.Token> tokens) throws PgException {
    int max = 0;
    for (SqlLexer.Token t : tokens) {
      if (t.kind() == SqlLexer.Kind.PARAM) {
        int n = parameterNumber(t);
        if (n < 1 || n > MAX_PARAMETERS) {
          throw new PgException(
              PgSqlState.UNDEFINED_PARAMETER, "there is no parameter $" + t.value(), t.start() + 1);
        }
        max = Math.max(max, n);
      }
    }
    return max;
  }

  private static int parameterNumber(SqlLexer.Token t) {
    String digits = t.value();
    if (digits.length() > 6) {
      return Integer.MAX_VALUE;
    }
    return Integer.parseInt(digits);
  }

  /** The text with parameters substituted; {@code values.get(n - 1)} is {@code $n}. */
  static ParameterSubstitution substitute(
      String original, List<SqlLexer.Token> tokens, List<String> values) {
    StringBuilder out = new StringBuilder(original.length() + 16 * values.size());
    List<int[]> segments = new ArrayList<>();
    int copied = 0;
    for (SqlLexer.Token t : tokens) {
      if (t.kind() != SqlLexer.Kind.PARAM) {
        continue;
      }
      if (t.start() > copied) {
        segments.add(new int[] {out.length(), copied, 0});
        out.append(original, copied, t.start());
      }
      segments.add(new int[] {out.length(), t.start(), 1});
      out.append(literal(values.get(parameterNumber(t) - 1)));
      copied = t.end();
    }
    if (copied < original.length() || segments.isEmpty()) {
      segments.add(new int[] {out.length(), copied, 0});
      out.append(original, copied, original.length());
    }
    int[] subst = new int[segments.size()];
    int[] orig = new int[segments.size()];
    boolean[] lit = new boolean[segments.size()];
    for (int i = 0; i < segments.size(); i++) {
      subst[i] = segments.get(i)[0];
      orig[i] = segments.get(i)[1];
      lit[i] = segments.get(i)[2] == 1;
    }
    return new ParameterSubstitution(out.toString(), subst, orig, lit);
  }

  /** A value as a SQL literal: {@code 'text'} with quotes doubled, or {@code NULL}. */
  static String literal(String value) {
    if (value == null) {
      return "NULL";
    }
    return "'" + value.replace("'", "''") + "'";
  }

  /** The substituted text. */
  String text() {
    return text;
  }

  /** The 0-based index in the original text that the 0-based index in {@link #text()} came from. */
  int originalIndex(int substitutedIndex) {
    int i = Arrays.binarySearch(substitutedStarts, substitutedIndex);
    if (i < 0) {
      i = -i - 2;
    }
    if (i < 0) {
      return substitutedIndex;
    }
    if (literal[i]) {
      return originalStarts[i];
    }
    return originalStarts[i] + (substitutedIndex - substitutedStarts[i]);
  }
}
