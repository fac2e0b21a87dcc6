package io.openrs.repserver.admin.rcl;

import io.openrs.repserver.admin.rcl.RclLexer.Kind;
import io.openrs.repserver.admin.rcl.RclLexer.Token;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The parser's view of the tokens: a position, look-ahead, the accept/expect steps of recursive
 * descent and the errors they raise. Errors name what was expected, what was found and where, quote
 * the clause before the offending word ({@code after '...'}) and suggest the nearest keyword for a
 * misspelt one. Not thread-safe; one per {@link RclParser#parse(String)} call.
 */
final class RclCursor {

  /** Errors show at most this many characters of the command before the offending word. */
  private static final int CONTEXT_CHARS = 40;

  private final List<Token> tokens;
  private final String blanked;
  private int pos;

  RclCursor(RclLexer.Result lexed) {
    this.tokens = lexed.tokens();
    this.blanked = lexed.blanked();
  }

  /** Index of the current token; pass it as {@code context} to quote a clause from there. */
  int index() {
    return pos;
  }

  /**
   * The command text from token {@code from} to the last consumed token, comments replaced by
   * spaces, whitespace kept.
   */
  String textFrom(int from) {
    return blanked.substring(tokens.get(from).start(), tokens.get(pos - 1).end());
  }

  /** The token at an index already passed or current. */
  Token token(int index) {
    return tokens.get(index);
  }

  /** An identifier (folded) or a quoted identifier (kept). */
  String name(String what, int context) throws RclSyntaxException {
    Token t = peek();
    if (t.kind() == Kind.IDENT || t.kind() == Kind.QUOTED_IDENT) {
      next();
      return t.text();
    }
    throw error(what, context, List.of());
  }

  /** A name in lower case even when quoted: module names are keywords, {@code "all"} is quoted. */
  String lowerWord(String what, int context) throws RclSyntaxException {
    return name(what, context).toLowerCase(Locale.ROOT);
  }

  boolean atValue() {
    return isValue(peek());
  }

  static boolean isValue(Token t) {
    return t.kind() == Kind.STRING
        || t.kind() == Kind.IDENT
        || t.kind() == Kind.NUMBER
        || t.kind() == Kind.QUOTED_IDENT;
  }

  /** A value kept as written: string without quotes, bare word with its case, number as typed. */
  String value(String what, int context) throws RclSyntaxException {
    Token t = peek();
    if (!isValue(t)) {
      throw error(what, context, List.of());
    }
    next();
    return t.kind() == Kind.IDENT ? t.raw() : t.text();
  }

  int integer(String what, long min, long max, int context) throws RclSyntaxException {
    Token t = peek();
    if (t.kind() == Kind.NUMBER && t.text().matches("-?[0-9]{1,18}")) {
      long v = Long.parseLong(t.text());
      if (v >= min && v <= max) {
        next();
        return (int) v;
      }
    }
    throw error(
        max == Integer.MAX_VALUE ? what + " (" + min + " or more)" : what, context, List.of());
  }

  /** A whole number {@code >= min} that may exceed an int (exceptions-log ids). */
  long longInteger(String what, long min, int context) throws RclSyntaxException {
    Token t = peek();
    if (t.kind() == Kind.NUMBER && t.text().matches("-?[0-9]{1,18}")) {
      long v = Long.parseLong(t.text());
      if (v >= min) {
        next();
        return v;
      }
    }
    throw error(what + " (" + min + " or more)", context, List.of());
  }

  // ------------------------------------------------------------- token helpers

  Token peek() {
    return peek(0);
  }

  Token peek(int ahead) {
    return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
  }

  Token next() {
    Token t = peek();
    if (t.kind() != Kind.END) {
      pos++;
    }
    return t;
  }

  boolean atKeyword(String keyword) {
    return peek().isKeyword(keyword);
  }

  boolean acceptKeyword(String keyword) {
    if (atKeyword(keyword)) {
      next();
      return true;
    }
    return false;
  }

  void expectKeyword(String keyword, int context) throws RclSyntaxException {
    if (!acceptKeyword(keyword)) {
      throw error("'" + keyword + "'", context, List.of(keyword));
    }
  }

  boolean atSymbol(char c) {
    return peek().isSymbol(c);
  }

  boolean acceptSymbol(char c) {
    if (atSymbol(c)) {
      next();
      return true;
    }
    return false;
  }

  void expectSymbol(char c, String what, int context) throws RclSyntaxException {
    if (!acceptSymbol(c)) {
      throw error(what, context, List.of());
    }
  }

  // -------------------------------------------------------------------- errors

  RclSyntaxException expectedKeywords(List<String> keywords, int context) {
    String expected;
    if (keywords.size() == 1) {
      expected = "'" + keywords.get(0) + "'";
    } else if (keywords.size() == 2) {
      expected = "'" + keywords.get(0) + "' or '" + keywords.get(1) + "'";
    } else {
      String quoted = keywords.stream().map(k -> "'" + k + "'").collect(Collectors.joining(", "));
      int lastComma = quoted.lastIndexOf(", ");
      expected =
          "one of " + quoted.substring(0, lastComma) + " or " + quoted.substring(lastComma + 2);
    }
    return error(expected, context, keywords);
  }

  /**
   * An error at the current token.
   *
   * @param context index of the first token of the clause to quote before the offending word
   *     ({@code after '...'}); negative for none
   * @param candidates keywords that would have fitted, for a "did you mean" on a misspelt one
   */
  RclSyntaxException error(String expected, int context, List<String> candidates) {
    Token at = peek();
    String found = at.kind() == Kind.END ? RclSyntaxException.END_OF_COMMAND : at.raw();
    StringBuilder message = new StringBuilder("expected ").append(expected);
    String after = context(context);
    if (!after.isEmpty()) {
      message.append(" after '").append(after).append('\'');
    }
    message.append(", found ").append(quoteFound(at));
    if (at.kind() == Kind.IDENT && candidates.size() > 1) {
      Suggestions.closest(at.text(), candidates)
          .ifPresent(s -> message.append("; did you mean '").append(s).append("'?"));
    }
    return new RclSyntaxException(at.position(), expected, found, message.toString());
  }

  static String quoteFound(Token t) {
    return switch (t.kind()) {
      case END -> RclSyntaxException.END_OF_COMMAND;
      case STRING -> t.raw();
      default -> "'" + t.raw() + "'";
    };
  }

  /** The command text from token {@code from} up to the current token, shortened from the left. */
  String context(int from) {
    if (from < 0 || from >= pos) {
      return "";
    }
    String text =
        blanked
            .substring(tokens.get(from).start(), tokens.get(pos - 1).end())
            .replaceAll("\\s+", " ");
    if (text.length() > CONTEXT_CHARS) {
      text = "..." + text.substring(text.length() - (CONTEXT_CHARS - 3));
    }
    return text;
  }
}
