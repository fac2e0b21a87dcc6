package io.openrs.pgwire;

import java.util.List;

/**
 * One command as it is run, and how to show an error position in the client's query string.
 *
 * @param text what the backend gets
 * @param tokens the text's tokens
 * @param clientQuery the query string the client sent (Query or Parse)
 * @param offset where the statement starts in it
 * @param substitution how parameters were put in, or null
 */
record Command(
    String text,
    List<SqlLexer.Token> tokens,
    String clientQuery,
    int offset,
    ParameterSubstitution substitution) {

  static Command of(String text, String clientQuery, int offset, ParameterSubstitution substitution)
      throws PgException {
    return new Command(text, SqlLexer.tokenize(text), clientQuery, offset, substitution);
  }

  /** The client-side position of a 1-based position in {@link #text}, 0 for none. */
  int clientPosition(int position) {
    if (position <= 0) {
      return 0;
    }
    int index = Math.min(position - 1, text.length());
    if (substitution != null) {
      index = substitution.originalIndex(index);
    }
    return codePointPosition(clientQuery, offset + index);
  }

  /** 1-based character (code point) position of the 0-based char index in the text. */
  static int codePointPosition(String text, int index) {
    int clamped = Math.max(0, Math.min(index, text.length()));
    return text.codePointCount(0, clamped) + 1;
  }
}
