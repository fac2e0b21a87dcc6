package io.openrs.repserver.admin.rcl;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Splits a command into tokens. Whitespace (including Unicode spaces such as the no-break space
 * that documents paste) and comments ({@code -- to end of line}, {@code /* ... *}{@code /})
 * separate tokens and are dropped.
 *
 * <ul>
 *   <li>{@link Kind#IDENT}: {@code [A-Za-z_][A-Za-z0-9_$]*}, text folded to lower case;
 *   <li>{@link Kind#QUOTED_IDENT}: {@code "Any Text"}, {@code ""} for a quote, kept exactly, not
 *       empty;
 *   <li>{@link Kind#STRING}: {@code 'any text'}, {@code ''} for a quote;
 *   <li>{@link Kind#NUMBER}: {@code -?[0-9]+(.[0-9]+)*} with any identifier characters that
 *       directly follow ({@code 64k}), as written;
 *   <li>{@link Kind#SYMBOL}: any other single character ({@code , ( ) . = * ;} and whatever a where
 *       clause uses); the parser rejects those it does not expect.
 * </ul>
 *
 * A final {@link Kind#END} token sits just after the last token.
 */
final class RclLexer {

  enum Kind {
    IDENT,
    QUOTED_IDENT,
    STRING,
    NUMBER,
    SYMBOL,
    END
  }

  /**
   * @param text the token's value: identifier folded, quotes removed and unescaped
   * @param raw the token as written
   * @param start 0-based offset of the first character
   * @param end 0-based offset after the last character
   */
  record Token(Kind kind, String text, String raw, int start, int end) {
    boolean isKeyword(String keyword) {
      return kind == Kind.IDENT && text.equals(keyword);
    }

    boolean isSymbol(char c) {
      return kind == Kind.SYMBOL && text.length() == 1 && text.charAt(0) == c;
    }

    /** 1-based position, as errors report it. */
    int position() {
      return start + 1;
    }
  }

  /**
   * @param tokens the tokens, ending with {@link Kind#END}
   * @param blanked the command text with every comment replaced by spaces (same length)
   */
  record Result(List<Token> tokens, String blanked) {}

  private static final int EXCERPT_CHARS = 20;

  private final String text;
  private final char[] blanked;
  private final List<Token> tokens = new ArrayList<>();
  private int i;

  private RclLexer(String text) {
    this.text = text;
    this.blanked = text.toCharArray();
  }

  static Result tokenize(String text) throws RclSyntaxException {
    return new RclLexer(text).run();
  }

  private Result run() throws RclSyntaxException {
    int n = text.length();
    int lastEnd = 0;
    while (i < n) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
        i++;
      } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
        int start = i;
        while (i < n && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
          i++;
        }
        Arrays.fill(blanked, start, i, ' ');
      } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
        int close = text.indexOf("*/", i + 2);
        if (close < 0) {
          throw unterminated(i, "comment", "*/", "");
        }
        Arrays.fill(blanked, i, close + 2, ' ');
        i = close + 2;
      } else {
        int start = i;
        tokens.add(token(c));
        lastEnd = i;
        assert i > start;
      }
    }
    tokens.add(new Token(Kind.END, "", "", lastEnd, lastEnd));
    return new Result(List.copyOf(tokens), new String(blanked));
  }

  private Token token(char c) throws RclSyntaxException {
    int start = i;
    int n = text.length();
    if (isIdentStart(c)) {
      i++;
      while (i < n && isIdentPart(text.charAt(i))) {
        i++;
      }
      String raw = text.substring(start, i);
      return new Token(Kind.IDENT, raw.toLowerCase(Locale.ROOT), raw, start, i);
    }
    if (c == '"' || c == '\'') {
      String value = quoted(c);
      String raw = text.substring(start, i);
      if (c == '\'') {
        return new Token(Kind.STRING, value, raw, start, i);
      }
      if (value.isEmpty()) {
        throw new RclSyntaxException(
            start + 1,
            "a name between the double quotes",
            raw,
            "expected a name between the double quotes, found '\"\"'");
      }
      return new Token(Kind.QUOTED_IDENT, value, raw, start, i);
    }
    if (isDigit(c) || (c == '-' && i + 1 < n && isDigit(text.charAt(i + 1)))) {
      i++;
      while (i < n && isDigit(text.charAt(i))) {
        i++;
      }
      while (i + 1 < n && text.charAt(i) == '.' && isDigit(text.charAt(i + 1))) {
        i += 2;
        while (i < n && isDigit(text.charAt(i))) {
          i++;
        }
      }
      while (i < n && isIdentPart(text.charAt(i))) {
        i++;
      }
      String raw = text.substring(start, i);
      return new Token(Kind.NUMBER, raw, raw, start, i);
    }
    int cp = text.codePointAt(i);
    i += Character.charCount(cp);
    String raw = text.substring(start, i);
    return new Token(Kind.SYMBOL, raw, raw, start, i);
  }

  /** Reads a quoted token starting at {@code i}; leaves {@code i} after the closing quote. */
  private String quoted(char quote) throws RclSyntaxException {
    int start = i;
    int n = text.length();
    StringBuilder value = new StringBuilder();
    i++;
    while (true) {
      if (i >= n) {
        String what = quote == '\'' ? "string literal" : "quoted name";
        String escape = quote == '\'' ? "''" : "\"\"";
        throw unterminated(
            start,
            what,
            String.valueOf(quote),
            " (write " + escape + " for a " + quote + " inside a " + what + ")");
      }
      char ch = text.charAt(i);
      if (ch == quote) {
        if (i + 1 < n && text.charAt(i + 1) == quote) {
          value.append(quote);
          i += 2;
          continue;
        }
        i++;
        return value.toString();
      }
      value.append(ch);
      i++;
    }
  }

  private RclSyntaxException unterminated(int start, String what, String closing, String hint) {
    String excerpt = text.substring(start);
    if (excerpt.length() > EXCERPT_CHARS) {
      excerpt = excerpt.substring(0, EXCERPT_CHARS) + "...";
    }
    excerpt = excerpt.replaceAll("\\s+", " ");
    return new RclSyntaxException(
        start + 1,
        "a closing " + closing,
        excerpt,
        "unterminated "
            + what
            + " "
            + excerpt
            + ": expected a closing "
            + closing
            + " before end of command"
            + hint);
  }

  private static boolean isIdentStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }

  private static boolean isIdentPart(char c) {
    return isIdentStart(c) || isDigit(c) || c == '$';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
