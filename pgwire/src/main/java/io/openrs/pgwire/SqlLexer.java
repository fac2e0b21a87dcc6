package io.openrs.pgwire;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits SQL-like text into tokens the way PostgreSQL's scanner does, as far as this server needs:
 * to split a query string into statements at the {@code ;} outside quotes and comments, to find
 * {@code $n} parameters, and to recognise the session statements it answers itself.
 *
 * <p>Knows: white space; {@code --} and nested {@code /* *}{@code /} comments; {@code '...'}
 * strings ({@code ''} inside; standard_conforming_strings is always on, so a backslash is an
 * ordinary character) and {@code E'...'} strings with backslash escapes; {@code "..."} quoted
 * identifiers ({@code ""} inside); dollar-quoted strings ({@code $tag$...$tag$}); numbers; {@code
 * $n} parameters; identifiers (folded to lower case); {@code ::}; every other character is a
 * one-character operator token. Positions are 0-based indexes into the text (Java chars).
 * Stateless; safe from any thread.
 *
 * <p>Bounded: {@link #split} keeps no tokens (only the statements, at most {@link
 * #MAX_STATEMENTS}), and {@link #tokenize} refuses a text of more than {@link #MAX_TOKENS} tokens
 * (54000) before it holds more, so the work and memory of one query string grow with its size only
 * up to those limits.
 */
final class SqlLexer {
  private SqlLexer() {}

  /** Statements in one query string at most; more are refused (54000) before any runs. */
  static final int MAX_STATEMENTS = 1000;

  /** Tokens in one statement at most; more are refused (54000). */
  static final int MAX_TOKENS = 50_000;

  /** Where the scanner puts each token. */
  @FunctionalInterface
  private interface Sink {
    void add(Token token) throws PgException;
  }

  enum Kind {
    IDENT,
    QUOTED_IDENT,
    STRING,
    NUMBER,
    PARAM,
    OPERATOR,
    SEMICOLON
  }

  /**
   * A token.
   *
   * @param value identifiers lower-cased, strings and quoted identifiers unescaped, a parameter's
   *     number, the operator itself
   * @param start index of the first char in the text
   * @param end index after the last char
   */
  record Token(Kind kind, String value, int start, int end) {
    boolean isKeyword(String keyword) {
      return kind == Kind.IDENT && value.equals(keyword);
    }

    boolean isOperator(String op) {
      return kind == Kind.OPERATOR && value.equals(op);
    }
  }

  /** One statement of a query string. */
  record Statement(String text, int offset) {}

  /** The tokens of the text; at most {@link #MAX_TOKENS}. */
  static List<Token> tokenize(String sql) throws PgException {
    List<Token> list = new ArrayList<>();
    scan(
        sql,
        t -> {
          if (list.size() >= MAX_TOKENS) {
            throw new PgException(
                PgSqlState.PROGRAM_LIMIT_EXCEEDED,
                "statement has more than " + MAX_TOKENS + " tokens",
                t.start() + 1);
          }
          list.add(t);
        });
    return list;
  }

  private static void scan(String sql, Sink tokens) throws PgException {
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        while (i < n && sql.charAt(i) != '\n' && sql.charAt(i) != '\r') {
          i++;
        }
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        i = skipBlockComment(sql, i);
      } else if (c == '\'') {
        i = string(sql, i, i, false, tokens);
      } else if ((c == 'e' || c == 'E') && i + 1 < n && sql.charAt(i + 1) == '\'') {
        i = string(sql, i, i + 1, true, tokens);
      } else if (c == '"') {
        i = quotedIdentifier(sql, i, tokens);
      } else if (c == '$') {
        i = dollar(sql, i, tokens);
      } else if (isDigit(c) || (c == '.' && i + 1 < n && isDigit(sql.charAt(i + 1)))) {
        i = number(sql, i, tokens);
      } else if (isIdentStart(c)) {
        int start = i;
        while (i < n && isIdentPart(sql.charAt(i))) {
          i++;
        }
        tokens.add(
            new Token(Kind.IDENT, sql.substring(start, i).toLowerCase(Locale.ROOT), start, i));
      } else if (c == ';') {
        tokens.add(new Token(Kind.SEMICOLON, ";", i, i + 1));
        i++;
      } else if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
        tokens.add(new Token(Kind.OPERATOR, "::", i, i + 2));
        i += 2;
      } else {
        int len = Character.charCount(sql.codePointAt(i));
        tokens.add(new Token(Kind.OPERATOR, sql.substring(i, i + len), i, i + len));
        i += len;
      }
    }
  }

  /**
   * The statements of a query string, split at every {@code ;} outside quotes and comments; each is
   * the text from its first token to its last (comments inside kept, the {@code ;} dropped).
   * Statements without any token (empty, or only comments) are left out.
   */
  static List<Statement> split(String sql) throws PgException {
    List<Statement> statements = new ArrayList<>();
    int[] span = {-1, -1};
    scan(
        sql,
        t -> {
          if (t.kind() != Kind.SEMICOLON) {
            if (span[0] < 0) {
              span[0] = t.start();
            }
            span[1] = t.end();
          } else if (span[0] >= 0) {
            addStatement(sql, span, statements);
          }
        });
    if (span[0] >= 0) {
      addStatement(sql, span, statements);
    }
    return statements;
  }

  private static void addStatement(String sql, int[] span, List<Statement> statements)
      throws PgException {
    if (statements.size() >= MAX_STATEMENTS) {
      throw new PgException(
          PgSqlState.PROGRAM_LIMIT_EXCEEDED,
          "query string has more than " + MAX_STATEMENTS + " statements",
          span[0] + 1,
          "send the statements in several query strings",
          null);
    }
    statements.add(new Statement(sql.substring(span[0], span[1]), span[0]));
    span[0] = -1;
  }

  private static int skipBlockComment(String sql, int start) throws PgException {
    int depth = 0;
    int i = start;
    int n = sql.length();
    while (i < n) {
      if (sql.startsWith("/*", i)) {
        depth++;
        i += 2;
      } else if (sql.startsWith("*/", i)) {
        depth--;
        i += 2;
        if (depth == 0) {
          return i;
        }
      } else {
        i++;
      }
    }
    throw new PgException(PgSqlState.SYNTAX_ERROR, "unterminated /* comment", start + 1);
  }

  private static int string(String sql, int tokenStart, int quote, boolean escapes, Sink tokens)
      throws PgException {
    StringBuilder value = new StringBuilder();
    int n = sql.length();
    int i = quote + 1;
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\'') {
        if (i + 1 < n && sql.charAt(i + 1) == '\'') {
          value.append('\'');
          i += 2;
          continue;
        }
        tokens.add(new Token(Kind.STRING, value.toString(), tokenStart, i + 1));
        return i + 1;
      }
      if (escapes && c == '\\' && i + 1 < n) {
        i = escape(sql, i + 1, value);
        continue;
      }
      value.append(c);
      i++;
    }
    throw new PgException(
        PgSqlState.SYNTAX_ERROR,
        "unterminated quoted string at or near \"" + excerpt(sql, tokenStart) + "\"",
        tokenStart + 1);
  }

  /** Appends the escape at {@code i} (just after the backslash); returns the index after it. */
  private static int escape(String sql, int i, StringBuilder value) throws PgException {
    char c = sql.charAt(i);
    switch (c) {
      case 'b':
        value.append('\b');
        return i + 1;
      case 'f':
        value.append('\f');
        return i + 1;
      case 'n':
        value.append('\n');
        return i + 1;
      case 'r':
        value.append('\r');
        return i + 1;
      case 't':
        value.append('\t');
        return i + 1;
      case 'x':
        {
          int end = i + 1;
          while (end < sql.length() && end < i + 3 && Character.digit(sql.charAt(end), 16) >= 0) {
            end++;
          }
          if (end == i + 1) {
            value.append('x');
            return i + 1;
          }
          value.append((char) Integer.parseInt(sql.substring(i + 1, end), 16));
          return end;
        }
      case 'u':
      case 'U':
        {
          int digits = c == 'u' ? 4 : 8;
          int end = i + 1 + digits;
          if (end <= sql.length() && sql.substring(i + 1, end).chars().allMatch(SqlLexer::isHex)) {
            long codePoint = Long.parseLong(sql.substring(i + 1, end), 16);
            if (codePoint > Character.MAX_CODE_POINT) {
              throw new PgException(
                  PgSqlState.INVALID_ESCAPE_SEQUENCE,
                  "invalid Unicode escape value at or near \"\\" + sql.substring(i, end) + "\"",
                  i);
            }
            value.appendCodePoint((int) codePoint);
            return end;
          }
          value.append(c);
          return i + 1;
        }
      default:
        if (c >= '0' && c <= '7') {
          int end = i;
          while (end < sql.length()
              && end < i + 3
              && sql.charAt(end) >= '0'
              && sql.charAt(end) <= '7') {
            end++;
          }
          value.append((char) Integer.parseInt(sql.substring(i, end), 8));
          return end;
        }
        value.append(c);
        return i + 1;
    }
  }

  private static boolean isHex(int c) {
    return Character.digit(c, 16) >= 0;
  }

  private static int quotedIdentifier(String sql, int start, Sink tokens) throws PgException {
    StringBuilder value = new StringBuilder();
    int n = sql.length();
    int i = start + 1;
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '"') {
        if (i + 1 < n && sql.charAt(i + 1) == '"') {
          value.append('"');
          i += 2;
          continue;
        }
        if (value.length() == 0) {
          throw new PgException(
              PgSqlState.SYNTAX_ERROR,
              "zero-length delimited identifier at or near \"\"\"\"",
              start + 1);
        }
        tokens.add(new Token(Kind.QUOTED_IDENT, value.toString(), start, i + 1));
        return i + 1;
      }
      value.append(c);
      i++;
    }
    throw new PgException(
        PgSqlState.SYNTAX_ERROR,
        "unterminated quoted identifier at or near \"" + excerpt(sql, start) + "\"",
        start + 1);
  }

  private static int dollar(String sql, int start, Sink tokens) throws PgException {
    int n = sql.length();
    int i = start + 1;
    if (i < n && isDigit(sql.charAt(i))) {
      while (i < n && isDigit(sql.charAt(i))) {
        i++;
      }
      tokens.add(new Token(Kind.PARAM, sql.substring(start + 1, i), start, i));
      return i;
    }
    int tagEnd = i;
    if (tagEnd < n && isIdentStart(sql.charAt(tagEnd))) {
      while (tagEnd < n && isIdentPart(sql.charAt(tagEnd)) && sql.charAt(tagEnd) != '$') {
        tagEnd++;
      }
    }
    if (tagEnd < n && sql.charAt(tagEnd) == '$') {
      String delimiter = sql.substring(start, tagEnd + 1);
      int bodyStart = tagEnd + 1;
      int close = sql.indexOf(delimiter, bodyStart);
      if (close < 0) {
        throw new PgException(
            PgSqlState.SYNTAX_ERROR,
            "unterminated dollar-quoted string at or near \"" + excerpt(sql, start) + "\"",
            start + 1);
      }
      int end = close + delimiter.length();
      tokens.add(new Token(Kind.STRING, sql.substring(bodyStart, close), start, end));
      return end;
    }
    tokens.add(new Token(Kind.OPERATOR, "$", start, start + 1));
    return start + 1;
  }

  private static int number(String sql, int start, Sink tokens) throws PgException {
    int n = sql.length();
    int i = start;
    while (i < n && isDigit(sql.charAt(i))) {
      i++;
    }
    if (i < n && sql.charAt(i) == '.' && !(i + 1 < n && sql.charAt(i + 1) == '.')) {
      i++;
      while (i < n && isDigit(sql.charAt(i))) {
        i++;
      }
    }
    if (i < n && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
      int j = i + 1;
      if (j < n && (sql.charAt(j) == '+' || sql.charAt(j) == '-')) {
        j++;
      }
      if (j < n && isDigit(sql.charAt(j))) {
        while (j < n && isDigit(sql.charAt(j))) {
          j++;
        }
        i = j;
      }
    }
    tokens.add(new Token(Kind.NUMBER, sql.substring(start, i), start, i));
    return i;
  }

  private static String excerpt(String sql, int start) {
    int end = Math.min(sql.length(), start + 30);
    return sql.substring(start, end);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  static boolean isIdentStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
  }

  static boolean isIdentPart(char c) {
    return isIdentStart(c) || isDigit(c) || c == '$';
  }
}
