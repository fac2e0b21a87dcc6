package io.openrs.ltl.text;

import java.nio.charset.StandardCharsets;

/**
 * Position inside one line of LTL bytes, with the low-level tokens of the grammar: keywords,
 * blanks, hex strings, identifiers, quoted strings and integers. Every token either advances {@link
 * #pos} or throws {@link LtlParseException}; nothing here loops without consuming input.
 *
 * <p>Not thread-safe; owned by one {@link LtlParser}.
 */
final class Cursor {
  byte[] buf;
  int pos;
  int end;
  private int lineStart;
  private int lineNumber;
  private long lineOffset;
  private final NameCache names;
  private final StringBuilder scratch = new StringBuilder(64);

  Cursor(NameCache names) {
    this.names = names;
  }

  void reset(byte[] buf, int lineStart, int lineEnd, int lineNumber, long lineOffset) {
    this.buf = buf;
    this.pos = lineStart;
    this.end = lineEnd;
    this.lineStart = lineStart;
    this.lineNumber = lineNumber;
    this.lineOffset = lineOffset;
  }

  boolean atEnd() {
    return pos >= end;
  }

  int peek() {
    return pos < end ? buf[pos] & 0xff : -1;
  }

  // ---- errors

  LtlParseException error(String expected) {
    return errorAt(pos, expected);
  }

  LtlParseException errorAt(int at, String expected) {
    return new LtlParseException(lineNumber, column(at), lineOffset, describe(at), expected);
  }

  private int column(int at) {
    int col = 1;
    for (int i = lineStart; i < at && i < end; i++) {
      if ((buf[i] & 0xc0) != 0x80) {
        col++;
      }
    }
    return col;
  }

  private String describe(int at) {
    if (at >= end) {
      return "end of line";
    }
    int stop = at;
    while (stop < end && stop - at < 40 && buf[stop] != ' ' && buf[stop] != '\t') {
      stop++;
    }
    if (stop == at) {
      stop = at + 1;
    }
    return "'" + new String(buf, at, stop - at, StandardCharsets.UTF_8) + "'";
  }

  // ---- blanks and keywords

  /** One or more blanks (space or tab). */
  void blanks() throws LtlParseException {
    if (pos >= end || (buf[pos] != ' ' && buf[pos] != '\t')) {
      throw error("a blank");
    }
    skipBlanks();
  }

  void skipBlanks() {
    byte[] b = buf;
    int p = pos;
    int e = end;
    while (p < e && (b[p] == ' ' || b[p] == '\t')) {
      p++;
    }
    pos = p;
  }

  /** Consumes {@code kw} when it stands at {@link #pos} as a whole word. */
  boolean tryKeyword(byte[] kw) {
    int n = kw.length;
    if (end - pos < n) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (buf[pos + i] != kw[i]) {
        return false;
      }
    }
    if (pos + n < end && isWordByte(buf[pos + n])) {
      return false;
    }
    pos += n;
    return true;
  }

  void keyword(byte[] kw) throws LtlParseException {
    if (!tryKeyword(kw)) {
      throw error("'" + new String(kw, StandardCharsets.US_ASCII) + "'");
    }
  }

  /** Blanks, then keyword {@code kw}, then blanks. */
  void blanksKeywordBlanks(byte[] kw) throws LtlParseException {
    blanks();
    keyword(kw);
    blanks();
  }

  /** Consumes {@code c} or fails with "expected 'c'". */
  void expect(char c) throws LtlParseException {
    if (pos >= end || buf[pos] != c) {
      throw error("'" + c + "'");
    }
    pos++;
  }

  /** Byte classes: bit 0 = word byte {@code [A-Za-z0-9_$]}, bit 1 = needs care inside quotes. */
  private static final byte[] CLASS = new byte[256];

  private static final int WORD = 1;
  private static final int QUOTE_SPECIAL = 2;

  static {
    for (int b = 0; b < 256; b++) {
      boolean word =
          b >= 'a' && b <= 'z'
              || b >= 'A' && b <= 'Z'
              || b >= '0' && b <= '9'
              || b == '_'
              || b == '$';
      boolean special = b < 0x20 || b == 0x7f || b >= 0x80 || b == '\\' || b == '\'' || b == '"';
      CLASS[b] = (byte) ((word ? WORD : 0) | (special ? QUOTE_SPECIAL : 0));
    }
  }

  static boolean isWordByte(byte b) {
    return (CLASS[b & 0xff] & WORD) != 0;
  }

  // ---- hex

  /** {@code 0x} followed by an even number (2..2*maxBytes) of hex digits; returns digit count. */
  int hexDigits(int maxBytes, String what) throws LtlParseException {
    if (end - pos < 2 || buf[pos] != '0' || buf[pos + 1] != 'x') {
      throw error(what + " written 0x<hex digits>");
    }
    int start = pos + 2;
    int i = start;
    while (i < end && io.openrs.ltl.HexBytes.digit(buf[i]) >= 0) {
      i++;
    }
    int digits = i - start;
    if (i < end && isWordByte(buf[i])) {
      throw errorAt(i, "a hex digit in " + what);
    }
    if (digits == 0 || digits % 2 != 0 || digits > 2 * maxBytes) {
      throw errorAt(start, what + " of 1.." + maxBytes + " bytes (an even number of hex digits)");
    }
    pos = i;
    return digits;
  }

  // ---- identifiers

  /** A bare identifier {@code [A-Za-z_][A-Za-z0-9_$]*} or a double-quoted one. */
  String identifier(String what) throws LtlParseException {
    if (pos < end && buf[pos] == '"') {
      String s = quoted('"', what);
      if (s.isEmpty()) {
        throw errorAt(pos - 2, "a non-empty " + what);
      }
      return s;
    }
    int start = pos;
    if (pos >= end || !isIdentifierStart(buf[pos])) {
      throw error(what);
    }
    int hash = 31 + buf[pos++];
    while (pos < end && isWordByte(buf[pos])) {
      hash = 31 * hash + buf[pos++];
    }
    return names.name(buf, start, pos - start, hash);
  }

  /**
   * Consumes {@code name} when the bytes at {@link #pos} spell it as a whole bare identifier. Only
   * for names that satisfy {@link #isBareIdentifier}.
   */
  boolean tryBareName(String name) {
    int n = name.length();
    int p = pos;
    byte[] b = buf;
    if (end - p < n) {
      return false;
    }
    for (int k = 0; k < n; k++) {
      if (b[p + k] != (byte) name.charAt(k)) {
        return false;
      }
    }
    if (p + n < end && isWordByte(b[p + n])) {
      return false;
    }
    pos = p + n;
    return true;
  }

  /** True when {@code s} is written without quotes: {@code [A-Za-z_][A-Za-z0-9_$]*}. */
  static boolean isBareIdentifier(String s) {
    if (s.isEmpty() || s.charAt(0) >= 0x80 || !isIdentifierStart((byte) s.charAt(0))) {
      return false;
    }
    for (int i = 1; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch >= 0x80 || !isWordByte((byte) ch)) {
        return false;
      }
    }
    return true;
  }

  static boolean isIdentifierStart(byte b) {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '_';
  }

  // ---- quoted strings

  /**
   * A string between {@code quote} characters with backslash escapes ({@code \\ \' \" \n \r \t
   * \\uXXXX \\UXXXXXXXX}); raw bytes must be well-formed UTF-8 without control characters.
   */
  String quoted(char quote, String what) throws LtlParseException {
    if (pos >= end || buf[pos] != quote) {
      throw error(what + " in " + quote + "quotes" + quote);
    }
    int start = ++pos;
    boolean ascii = true;
    int i = start;
    while (true) {
      while (i < end && (CLASS[buf[i] & 0xff] & QUOTE_SPECIAL) == 0) {
        i++;
      }
      if (i >= end) {
        throw errorAt(start - 1, "a closing " + quote + " for " + what);
      }
      byte b = buf[i];
      if (b == quote) {
        break;
      }
      if (b == '\\') {
        return quotedSlow(quote, what, start);
      }
      if (b >= 0 && b < 0x20 || b == 0x7f) {
        throw errorAt(i, "no raw control character in " + what + " (write it as \\u00XX)");
      }
      if (b < 0) {
        ascii = false;
      }
      i++;
    }
    pos = i + 1;
    if (ascii) {
      return new String(buf, start, i - start, StandardCharsets.ISO_8859_1);
    }
    int bad = Utf8.firstInvalid(buf, start, i);
    if (bad >= 0) {
      throw errorAt(bad, "well-formed UTF-8 in " + what);
    }
    return new String(buf, start, i - start, StandardCharsets.UTF_8);
  }

  private String quotedSlow(char quote, String what, int start) throws LtlParseException {
    StringBuilder sb = scratch;
    sb.setLength(0);
    int i = start;
    while (true) {
      if (i >= end) {
        throw errorAt(start - 1, "a closing " + quote + " for " + what);
      }
      byte b = buf[i];
      if (b == quote) {
        break;
      }
      if (b == '\\') {
        i = escape(i, sb, quote, what);
      } else if (b >= 0 && b < 0x20 || b == 0x7f) {
        throw errorAt(i, "no raw control character in " + what + " (write it as \\u00XX)");
      } else if (b >= 0) {
        sb.append((char) b);
        i++;
      } else {
        int runEnd = i;
        while (runEnd < end && buf[runEnd] < 0) {
          runEnd++;
        }
        int bad = Utf8.firstInvalid(buf, i, runEnd);
        if (bad >= 0) {
          throw errorAt(bad, "well-formed UTF-8 in " + what);
        }
        sb.append(new String(buf, i, runEnd - i, StandardCharsets.UTF_8));
        i = runEnd;
      }
    }
    pos = i + 1;
    return sb.toString();
  }

  /** Decodes the escape at {@code i} (a backslash) into {@code sb}; returns the next index. */
  private int escape(int i, StringBuilder sb, char quote, String what) throws LtlParseException {
    if (i + 1 >= end) {
      throw errorAt(i, "an escape after \\ in " + what);
    }
    byte e = buf[i + 1];
    switch (e) {
      case '\\' -> sb.append('\\');
      case '\'' -> sb.append('\'');
      case '"' -> sb.append('"');
      case 'n' -> sb.append('\n');
      case 'r' -> sb.append('\r');
      case 't' -> sb.append('\t');
      case 'u', 'U' -> {
        int digits = e == 'u' ? 4 : 8;
        if (i + 2 + digits > end) {
          throw errorAt(i, digits + " hex digits after \\" + (char) e);
        }
        int cp = 0;
        for (int k = 0; k < digits; k++) {
          int d = io.openrs.ltl.HexBytes.digit(buf[i + 2 + k]);
          if (d < 0) {
            throw errorAt(i + 2 + k, digits + " hex digits after \\" + (char) e);
          }
          cp = (cp << 4) | d;
        }
        if (cp < 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
          throw errorAt(i, "a Unicode scalar value (not a surrogate, at most 10FFFF)");
        }
        sb.appendCodePoint(cp);
        return i + 2 + digits;
      }
      default ->
          throw errorAt(i, "one of the escapes \\\\ \\' \\\" \\n \\r \\t \\uXXXX \\UXXXXXXXX");
    }
    return i + 2;
  }

  // ---- integers

  /** An optionally negative decimal integer within [min, max]. */
  long integer(long min, long max, String what) throws LtlParseException {
    int start = pos;
    int i = pos;
    boolean negative = false;
    if (i < end && buf[i] == '-') {
      negative = true;
      i++;
    }
    int digitsStart = i;
    long value = 0;
    boolean overflow = false;
    while (i < end && buf[i] >= '0' && buf[i] <= '9') {
      int d = buf[i] - '0';
      if (value < (Long.MIN_VALUE + d) / 10) {
        overflow = true;
      } else {
        value = value * 10 - d;
      }
      i++;
    }
    if (i == digitsStart || (i < end && isWordByte(buf[i])) || (i < end && buf[i] == '.')) {
      throw errorAt(start, what + " (an integer " + min + ".." + max + ")");
    }
    if (!negative) {
      if (value == Long.MIN_VALUE) {
        overflow = true;
      }
      value = -value;
    }
    if (overflow || value < min || value > max) {
      throw errorAt(start, what + " in range " + min + ".." + max);
    }
    pos = i;
    return value;
  }

  /** Exactly {@code n} decimal digits as an int. */
  int fixedDigits(int n, String what) throws LtlParseException {
    if (end - pos < n) {
      throw error(n + " digits of " + what);
    }
    int v = 0;
    for (int k = 0; k < n; k++) {
      int d = buf[pos + k] - '0';
      if (d < 0 || d > 9) {
        throw errorAt(pos + k, n + " digits of " + what);
      }
      v = v * 10 + d;
    }
    pos += n;
    return v;
  }
}
