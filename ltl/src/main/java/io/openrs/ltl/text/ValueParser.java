package io.openrs.ltl.text;

import io.openrs.ltl.HexBytes;
import io.openrs.ltl.Value;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * Typed values of the LTL text syntax: {@code null}, {@code true}, {@code false}, {@code
 * unchanged}, {@code 'text'}, {@code x'hex'}, {@code <type> <literal>} for {@code i16 i32 i64 dec
 * f32 f64 date time ts tstz uuid json}, and {@code native <dialect> '<type>' '<text>'}.
 *
 * <p>Non-finite values are literals of their type, case-sensitive: {@code dec NaN}, {@code dec
 * Infinity}, {@code dec -Infinity} (as PostgreSQL spells a numeric's), and {@code infinity}, {@code
 * -infinity} after {@code date}, {@code ts} and {@code tstz}. They become {@link Value.NonFinite},
 * never a finite value. A native value's dialect is a lower-case word {@code [a-z][a-z0-9_]*}; its
 * type (not empty) and text are quoted like text, with the same escapes and the same bound (the
 * line).
 *
 * <p>Not thread-safe; owned by one {@link LtlParser}.
 */
final class ValueParser {
  /** PostgreSQL's numeric holds up to 131072 digits before and 16383 after the point. */
  static final int MAX_DECIMAL_DIGITS = 147_455;

  private static final int MAX_FLOAT_CHARS = 1_100;
  private static final String VALUE_EXPECTED =
      "a value (null, true, false, unchanged, 'text', x'hex', one of i16 i32 i64 dec f32 f64"
          + " date time ts tstz uuid json followed by a literal, or native <dialect> '<type>'"
          + " '<text>')";

  private final Cursor c;

  /** The protocol version whose values are read ({@link LtlParser#protocolVersion}). */
  int protocolVersion = LtlParser.NEWEST_PROTOCOL_VERSION;

  ValueParser(Cursor cursor) {
    this.c = cursor;
  }

  Value value() throws LtlParseException {
    int b = c.peek();
    if (b == '\'') {
      return new Value.Text(c.quoted('\'', "text"));
    }
    if (b == 'x' && c.pos + 1 < c.end && c.buf[c.pos + 1] == '\'') {
      return binary();
    }
    int start = c.pos;
    int i = start;
    while (i < c.end && Cursor.isWordByte(c.buf[i])) {
      i++;
    }
    int len = i - start;
    byte[] buf = c.buf;
    if (len >= 2 && len <= 9) {
      switch (buf[start]) {
        case 'n' -> {
          if (is(start, len, "null")) {
            c.pos = i;
            return Value.NULL;
          }
          if (is(start, len, "native")) {
            c.pos = i;
            requireVersion2(start, "native");
            return nativeValue();
          }
        }
        case 't' -> {
          if (is(start, len, "true")) {
            c.pos = i;
            return Value.Bool.TRUE;
          }
          if (is(start, len, "time")) {
            return typed(i, T_TIME);
          }
          if (is(start, len, "ts")) {
            return typed(i, T_TS);
          }
          if (is(start, len, "tstz")) {
            return typed(i, T_TSTZ);
          }
        }
        case 'f' -> {
          if (is(start, len, "false")) {
            c.pos = i;
            return Value.Bool.FALSE;
          }
          if (is(start, len, "f32")) {
            return typed(i, T_F32);
          }
          if (is(start, len, "f64")) {
            return typed(i, T_F64);
          }
        }
        case 'i' -> {
          if (is(start, len, "i32")) {
            return typed(i, T_I32);
          }
          if (is(start, len, "i64")) {
            return typed(i, T_I64);
          }
          if (is(start, len, "i16")) {
            return typed(i, T_I16);
          }
        }
        case 'd' -> {
          if (is(start, len, "dec")) {
            return typed(i, T_DEC);
          }
          if (is(start, len, "date")) {
            return typed(i, T_DATE);
          }
        }
        case 'u' -> {
          if (is(start, len, "unchanged")) {
            c.pos = i;
            return Value.UNCHANGED;
          }
          if (is(start, len, "uuid")) {
            return typed(i, T_UUID);
          }
        }
        case 'j' -> {
          if (is(start, len, "json")) {
            return typed(i, T_JSON);
          }
        }
        default -> {}
      }
    }
    throw c.error(VALUE_EXPECTED);
  }

  private static final int T_I16 = 1;
  private static final int T_I32 = 2;
  private static final int T_I64 = 3;
  private static final int T_DEC = 4;
  private static final int T_F32 = 5;
  private static final int T_F64 = 6;
  private static final int T_DATE = 7;
  private static final int T_TIME = 8;
  private static final int T_TS = 9;
  private static final int T_TSTZ = 10;
  private static final int T_UUID = 11;
  private static final int T_JSON = 12;

  private boolean is(int start, int len, String word) {
    if (len != word.length()) {
      return false;
    }
    for (int k = 0; k < len; k++) {
      if (c.buf[start + k] != word.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  private Value typed(int afterWord, int type) throws LtlParseException {
    c.pos = afterWord;
    c.blanks();
    return switch (type) {
      case T_I16 -> new Value.Int16((short) c.integer(Short.MIN_VALUE, Short.MAX_VALUE, "an i16"));
      case T_I32 ->
          new Value.Int32((int) c.integer(Integer.MIN_VALUE, Integer.MAX_VALUE, "an i32"));
      case T_I64 -> new Value.Int64(c.integer(Long.MIN_VALUE, Long.MAX_VALUE, "an i64"));
      case T_DEC -> decimalOrNonFinite();
      case T_F32 -> new Value.Float32(Float.parseFloat(floatText("an f32")));
      case T_F64 -> new Value.Float64(Double.parseDouble(floatText("an f64")));
      case T_DATE -> {
        Value.NonFinite v = infinity(Value.NonFinite.Domain.DATE, DATE_EXPECTED);
        yield v != null ? v : new Value.Date(date());
      }
      case T_TIME -> new Value.Time(time());
      case T_TS -> {
        Value.NonFinite v = infinity(Value.NonFinite.Domain.TS, TS_EXPECTED);
        yield v != null ? v : new Value.Timestamp(timestamp());
      }
      case T_TSTZ -> {
        Value.NonFinite v = infinity(Value.NonFinite.Domain.TSTZ, TSTZ_EXPECTED);
        yield v != null ? v : new Value.TimestampTz(timestampTz());
      }
      case T_UUID -> new Value.Uuid(uuid());
      case T_JSON -> new Value.Json(c.quoted('\'', "json text"));
      default -> throw new IllegalStateException("unknown value type " + type);
    };
  }

  // ---- non-finite values

  private static final byte[] INFINITY_LOWER = "infinity".getBytes(StandardCharsets.US_ASCII);

  /** The infinities of each domain, by domain ordinal: [0] +infinity, [1] -infinity. */
  private static final Value.NonFinite[][] INFINITIES = infinities();

  private static final Value.NonFinite DEC_NAN =
      new Value.NonFinite(Value.NonFinite.Domain.DEC, Value.NonFinite.Bound.NAN);
  private static final Value.NonFinite DEC_INFINITY =
      INFINITIES[Value.NonFinite.Domain.DEC.ordinal()][0];
  private static final Value.NonFinite DEC_NEGATIVE_INFINITY =
      INFINITIES[Value.NonFinite.Domain.DEC.ordinal()][1];

  private static Value.NonFinite[][] infinities() {
    Value.NonFinite.Domain[] domains = Value.NonFinite.Domain.values();
    Value.NonFinite[][] all = new Value.NonFinite[domains.length][];
    for (Value.NonFinite.Domain d : domains) {
      all[d.ordinal()] =
          new Value.NonFinite[] {
            new Value.NonFinite(d, Value.NonFinite.Bound.POSITIVE_INFINITY),
            new Value.NonFinite(d, Value.NonFinite.Bound.NEGATIVE_INFINITY)
          };
    }
    return all;
  }

  private static final String DECIMAL_EXPECTED =
      "a decimal such as 12.50, -3 or 1E+6, or NaN, Infinity or -Infinity";
  private static final String DATE_EXPECTED = "a date YYYY-MM-DD, infinity or -infinity";
  private static final String TS_EXPECTED =
      "a timestamp YYYY-MM-DDTHH:MM:SS[.ffffff], infinity or -infinity";
  private static final String TSTZ_EXPECTED =
      "a timestamp with offset YYYY-MM-DDTHH:MM:SS[.ffffff]+HH:MM, infinity or -infinity";

  /** {@code NaN}, {@code Infinity}, {@code -Infinity}, or a finite decimal. */
  private Value decimalOrNonFinite() throws LtlParseException {
    int start = c.pos;
    if (c.tryKeyword(NAN)) {
      return version2(start, DEC_NAN);
    }
    if (c.tryKeyword(INFINITY)) {
      return version2(start, DEC_INFINITY);
    }
    if (c.peek() == '-') {
      c.pos++;
      if (c.tryKeyword(INFINITY)) {
        return version2(start, DEC_NEGATIVE_INFINITY);
      }
      c.pos = start;
    }
    if (c.pos < c.end && isLetter(c.buf[c.pos])) {
      throw c.error(DECIMAL_EXPECTED);
    }
    return new Value.Decimal(decimal());
  }

  /**
   * {@code infinity} or {@code -infinity} of {@code domain}, or null (nothing consumed) when the
   * text starts as a finite literal would; a word there is refused naming what was {@code
   * expected}.
   */
  private Value.NonFinite infinity(Value.NonFinite.Domain domain, String expected)
      throws LtlParseException {
    int start = c.pos;
    if (c.tryKeyword(INFINITY_LOWER)) {
      return version2(start, INFINITIES[domain.ordinal()][0]);
    }
    boolean minus = c.peek() == '-';
    if (minus) {
      c.pos++;
      if (c.tryKeyword(INFINITY_LOWER)) {
        return version2(start, INFINITIES[domain.ordinal()][1]);
      }
    }
    int wordAt = c.pos;
    c.pos = start;
    if (wordAt < c.end && isLetter(c.buf[wordAt])) {
      String hint = "";
      if (!minus && c.tryKeyword(NAN)) {
        c.pos = start;
        hint = " (NaN is a dec value only)";
      } else if (isInfinityInAnyCase(wordAt)) {
        hint = " (written in lower case)";
      }
      throw c.error(expected + hint);
    }
    return null;
  }

  private boolean isInfinityInAnyCase(int at) {
    int n = INFINITY_LOWER.length;
    if (c.end - at < n || (at + n < c.end && Cursor.isWordByte(c.buf[at + n]))) {
      return false;
    }
    for (int k = 0; k < n; k++) {
      if ((c.buf[at + k] | 0x20) != INFINITY_LOWER[k]) {
        return false;
      }
    }
    return true;
  }

  /** {@code v}, read at {@code at}, if the session speaks version 2; else an error there. */
  private Value.NonFinite version2(int at, Value.NonFinite v) throws LtlParseException {
    requireVersion2(at, "non-finite");
    return v;
  }

  private void requireVersion2(int at, String kind) throws LtlParseException {
    if (protocolVersion < LtlParser.PROTOCOL_VERSION_2) {
      throw c.errorAt(
          at,
          "a value of LTL protocol version "
              + protocolVersion
              + ", this session's ("
              + kind
              + " values need version 2)");
    }
  }

  private static boolean isLetter(byte b) {
    return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z';
  }

  // ---- native values

  private String lastDialect = "postgresql";

  /** {@code <dialect> '<type>' '<text>'} after the word {@code native}. */
  private Value nativeValue() throws LtlParseException {
    c.blanks();
    int start = c.pos;
    int i = start;
    byte[] b = c.buf;
    if (i < c.end && b[i] >= 'a' && b[i] <= 'z') {
      i++;
      while (i < c.end
          && (b[i] >= 'a' && b[i] <= 'z' || b[i] >= '0' && b[i] <= '9' || b[i] == '_')) {
        i++;
      }
    }
    if (i == start || i < c.end && Cursor.isWordByte(b[i])) {
      throw c.errorAt(
          i, "a dialect after native: a lower-case word [a-z][a-z0-9_]* such as postgresql");
    }
    String dialect = dialect(start, i - start);
    c.pos = i;
    c.blanks();
    int typeAt = c.pos;
    String type = c.quoted('\'', "the native type");
    if (type.isEmpty()) {
      throw c.errorAt(typeAt, "a non-empty native type such as '_int4'");
    }
    c.blanks();
    return new Value.Native(dialect, type, c.quoted('\'', "the native text"));
  }

  /** The dialect spelled by {@code buf[start, start+len)}: the last one's instance when equal. */
  private String dialect(int start, int len) {
    String last = lastDialect;
    if (last.length() == len) {
      int k = 0;
      while (k < len && c.buf[start + k] == last.charAt(k)) {
        k++;
      }
      if (k == len) {
        return last;
      }
    }
    lastDialect = new String(c.buf, start, len, StandardCharsets.US_ASCII);
    return lastDialect;
  }

  // ---- binary

  private Value binary() throws LtlParseException {
    int start = c.pos + 2;
    int i = start;
    while (i < c.end && HexBytes.digit(c.buf[i]) >= 0) {
      i++;
    }
    if (i >= c.end || c.buf[i] != '\'') {
      throw c.errorAt(i, "hex digits and a closing ' for binary x'...'");
    }
    if ((i - start) % 2 != 0) {
      throw c.errorAt(start, "an even number of hex digits in binary x'...'");
    }
    byte[] bytes = HexBytes.decode(c.buf, start, i - start);
    c.pos = i + 1;
    return new Value.Binary(bytes);
  }

  // ---- numbers

  /** {@code [-]digits[.digits][(E|e)[+|-]digits]}, exact. */
  BigDecimal decimal() throws LtlParseException {
    int start = c.pos;
    byte[] b = c.buf;
    int i = start;
    if (i < c.end && b[i] == '-') {
      i++;
    }
    int intStart = i;
    long unscaled = 0;
    while (i < c.end && b[i] >= '0' && b[i] <= '9') {
      unscaled = unscaled * 10 + (b[i] - '0');
      i++;
    }
    int intDigits = i - intStart;
    int fracDigits = 0;
    if (intDigits == 0) {
      throw c.errorAt(start, DECIMAL_EXPECTED);
    }
    if (i < c.end && b[i] == '.') {
      i++;
      int fracStart = i;
      while (i < c.end && b[i] >= '0' && b[i] <= '9') {
        unscaled = unscaled * 10 + (b[i] - '0');
        i++;
      }
      fracDigits = i - fracStart;
      if (fracDigits == 0) {
        throw c.errorAt(i, "digits after the decimal point");
      }
    }
    boolean exponent = false;
    int expAt = -1;
    if (i < c.end && (b[i] == 'E' || b[i] == 'e')) {
      exponent = true;
      expAt = i;
      i++;
      if (i < c.end && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      int expStart = i;
      while (i < c.end && b[i] >= '0' && b[i] <= '9') {
        i++;
      }
      if (i == expStart || i - expStart > 10) {
        throw c.errorAt(expStart, "an exponent of 1 to 10 digits");
      }
    }
    if (i < c.end && Cursor.isWordByte(b[i])) {
      throw c.errorAt(i, "the end of the decimal");
    }
    int digits = intDigits + fracDigits;
    if (digits > MAX_DECIMAL_DIGITS) {
      throw c.errorAt(start, "a decimal of at most " + MAX_DECIMAL_DIGITS + " digits");
    }
    c.pos = i;
    if (!exponent && digits <= 18) {
      return BigDecimal.valueOf(b[start] == '-' ? -unscaled : unscaled, fracDigits);
    }
    return slowDecimal(start, intDigits, fracDigits, exponent ? expAt : -1, i);
  }

  /** Exact decimal from validated text: unscaled digits as BigInteger, scale from the exponent. */
  private BigDecimal slowDecimal(int start, int intDigits, int fracDigits, int expAt, int stop)
      throws LtlParseException {
    byte[] b = c.buf;
    boolean negative = b[start] == '-';
    int intStart = negative ? start + 1 : start;
    StringBuilder digits = new StringBuilder(intDigits + fracDigits + 1);
    if (negative) {
      digits.append('-');
    }
    for (int k = intStart; k < intStart + intDigits; k++) {
      digits.append((char) b[k]);
    }
    for (int k = intStart + intDigits + 1; k < intStart + intDigits + 1 + fracDigits; k++) {
      digits.append((char) b[k]);
    }
    long scale = fracDigits;
    if (expAt >= 0) {
      int k = expAt + 1;
      boolean expNegative = b[k] == '-';
      if (b[k] == '+' || b[k] == '-') {
        k++;
      }
      long exp = 0;
      for (; k < stop; k++) {
        exp = exp * 10 + (b[k] - '0');
      }
      scale -= expNegative ? -exp : exp;
    }
    if (scale < Integer.MIN_VALUE || scale > Integer.MAX_VALUE) {
      throw c.errorAt(start, "a decimal whose scale fits 32 bits (scale " + scale + ")");
    }
    return new BigDecimal(new java.math.BigInteger(digits.toString()), (int) scale);
  }

  /** Validates a float literal and returns its text for {@code parseFloat/parseDouble}. */
  private String floatText(String what) throws LtlParseException {
    int start = c.pos;
    byte[] b = c.buf;
    if (c.tryKeyword(NAN)) {
      return "NaN";
    }
    int i = start;
    if (i < c.end && b[i] == '-') {
      i++;
    }
    c.pos = i;
    if (c.tryKeyword(INFINITY)) {
      return b[start] == '-' ? "-Infinity" : "Infinity";
    }
    int intStart = i;
    while (i < c.end && b[i] >= '0' && b[i] <= '9') {
      i++;
    }
    boolean ok = i > intStart;
    if (ok && i < c.end && b[i] == '.') {
      int fracStart = ++i;
      while (i < c.end && b[i] >= '0' && b[i] <= '9') {
        i++;
      }
      ok = i > fracStart;
    }
    if (ok && i < c.end && (b[i] == 'E' || b[i] == 'e')) {
      i++;
      if (i < c.end && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      int expStart = i;
      while (i < c.end && b[i] >= '0' && b[i] <= '9') {
        i++;
      }
      ok = i > expStart && i - expStart <= 10;
    }
    if (!ok || (i < c.end && Cursor.isWordByte(b[i])) || i - start > MAX_FLOAT_CHARS) {
      throw c.errorAt(start, what + " such as 1.5, -2.5E-7, NaN, Infinity or -Infinity");
    }
    c.pos = i;
    return new String(b, start, i - start, StandardCharsets.ISO_8859_1);
  }

  private static final byte[] NAN = "NaN".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] INFINITY = "Infinity".getBytes(StandardCharsets.US_ASCII);

  // ---- dates and times

  /** {@code YYYY-MM-DD}, or a signed year of 4 to 9 digits ({@code +10000-01-01}). */
  LocalDate date() throws LtlParseException {
    int start = c.pos;
    int year;
    byte first = c.pos < c.end ? c.buf[c.pos] : 0;
    if (first == '+' || first == '-') {
      c.pos++;
      int ys = c.pos;
      long y = 0;
      while (c.pos < c.end && c.buf[c.pos] >= '0' && c.buf[c.pos] <= '9' && c.pos - ys < 9) {
        y = y * 10 + (c.buf[c.pos] - '0');
        c.pos++;
      }
      if (c.pos - ys < 4) {
        throw c.errorAt(start, "a date YYYY-MM-DD (signed years have 4 to 9 digits)");
      }
      year = (int) (first == '-' ? -y : y);
    } else {
      year = c.fixedDigits(4, "the year of a date YYYY-MM-DD");
    }
    c.expect('-');
    int month = c.fixedDigits(2, "the month of a date YYYY-MM-DD");
    c.expect('-');
    int day = c.fixedDigits(2, "the day of a date YYYY-MM-DD");
    try {
      return LocalDate.of(year, month, day);
    } catch (DateTimeException e) {
      throw c.errorAt(start, "a valid date (" + e.getMessage() + ")");
    }
  }

  /** {@code HH:MM:SS[.f]} with 1 to 6 fraction digits. */
  LocalTime time() throws LtlParseException {
    int start = c.pos;
    int h = c.fixedDigits(2, "the hour of a time HH:MM:SS[.ffffff]");
    c.expect(':');
    int m = c.fixedDigits(2, "the minute of a time HH:MM:SS[.ffffff]");
    c.expect(':');
    int s = c.fixedDigits(2, "the second of a time HH:MM:SS[.ffffff]");
    int micros = 0;
    if (c.pos < c.end && c.buf[c.pos] == '.') {
      c.pos++;
      int fs = c.pos;
      while (c.pos < c.end && c.buf[c.pos] >= '0' && c.buf[c.pos] <= '9' && c.pos - fs < 6) {
        micros = micros * 10 + (c.buf[c.pos] - '0');
        c.pos++;
      }
      int n = c.pos - fs;
      if (n == 0 || (c.pos < c.end && c.buf[c.pos] >= '0' && c.buf[c.pos] <= '9')) {
        throw c.errorAt(fs, "1 to 6 fraction digits (microseconds)");
      }
      for (int k = n; k < 6; k++) {
        micros *= 10;
      }
    }
    try {
      return LocalTime.of(h, m, s, micros * 1000);
    } catch (DateTimeException e) {
      throw c.errorAt(start, "a valid time (" + e.getMessage() + ")");
    }
  }

  LocalDateTime timestamp() throws LtlParseException {
    LocalDate d = date();
    c.expect('T');
    LocalTime t = time();
    return LocalDateTime.of(d, t);
  }

  /** A timestamp followed by {@code Z} or an offset {@code +HH:MM[:SS]}. */
  OffsetDateTime timestampTz() throws LtlParseException {
    LocalDateTime ts = timestamp();
    int at = c.pos;
    int sign = c.peek();
    if (sign == 'Z') {
      c.pos++;
      return OffsetDateTime.of(ts, ZoneOffset.UTC);
    }
    if (sign != '+' && sign != '-') {
      throw c.error("a time zone offset: Z or +HH:MM");
    }
    c.pos++;
    int oh = c.fixedDigits(2, "the hours of an offset +HH:MM");
    c.expect(':');
    int om = c.fixedDigits(2, "the minutes of an offset +HH:MM");
    int os = 0;
    if (c.peek() == ':') {
      c.pos++;
      os = c.fixedDigits(2, "the seconds of an offset +HH:MM:SS");
    }
    try {
      ZoneOffset offset =
          sign == '-'
              ? ZoneOffset.ofHoursMinutesSeconds(-oh, -om, -os)
              : ZoneOffset.ofHoursMinutesSeconds(oh, om, os);
      return OffsetDateTime.of(ts, offset);
    } catch (DateTimeException e) {
      throw c.errorAt(at, "a valid offset (" + e.getMessage() + ")");
    }
  }

  // ---- uuid

  private static final int[] UUID_GROUPS = {8, 4, 4, 4, 12};

  UUID uuid() throws LtlParseException {
    int start = c.pos;
    long msb = 0;
    long lsb = 0;
    int nibble = 0;
    for (int g = 0; g < UUID_GROUPS.length; g++) {
      if (g > 0) {
        c.expect('-');
      }
      for (int k = 0; k < UUID_GROUPS[g]; k++) {
        int d = c.pos < c.end ? HexBytes.digit(c.buf[c.pos]) : -1;
        if (d < 0) {
          throw c.errorAt(start, "a UUID xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx");
        }
        if (nibble < 16) {
          msb = (msb << 4) | d;
        } else {
          lsb = (lsb << 4) | d;
        }
        nibble++;
        c.pos++;
      }
    }
    if (c.pos < c.end && Cursor.isWordByte(c.buf[c.pos])) {
      throw c.errorAt(start, "a UUID xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx");
    }
    return new UUID(msb, lsb);
  }
}
