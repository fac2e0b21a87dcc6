package io.openrs.dsi.dialect;

import io.openrs.ltl.Value;
import io.openrs.ltl.packed.PackedRowReader;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

/**
 * Rows in PostgreSQL's {@code COPY} text format, encoded straight into a reusable byte buffer: the
 * same text as {@link PostgresDialect#appendCopyValue}, without a {@code String} per value for the
 * common kinds (integers, text, timestamps, null). HVAR loads every net row through it. Not
 * thread-safe.
 */
final class CopyTextEncoder extends EncodedRows {
  private static final long[] TEN_POWERS = new long[19]; // 10^0 .. 10^18

  static {
    TEN_POWERS[0] = 1;
    for (int i = 1; i < TEN_POWERS.length; i++) {
      TEN_POWERS[i] = TEN_POWERS[i - 1] * 10;
    }
  }

  private final StringBuilder scratch = new StringBuilder(64);

  CopyTextEncoder(int capacity) {
    super(capacity);
  }

  /** One row: values separated by tabs, then a newline. */
  @Override
  public void row(Value[] row) {
    for (int k = 0; k < row.length; k++) {
      if (k > 0) {
        put((byte) '\t');
      }
      value(row[k]);
    }
    put((byte) '\n');
  }

  /**
   * One row read in place, encoded from the packed bytes for the common kinds (integers, text,
   * small decimals, dates and timestamps of our era, booleans, null); the same bytes as {@link
   * #row(Value[])} with the image's values.
   */
  @Override
  public void row(PackedRowReader.Image image, int[] columns) {
    for (int k = 0; k < columns.length; k++) {
      if (k > 0) {
        put((byte) '\t');
      }
      value(image, columns[k]);
    }
    put((byte) '\n');
  }

  private void value(PackedRowReader.Image image, int i) {
    switch (image.type(i)) {
      case NULL -> {
        ensure(2);
        buf[len++] = '\\';
        buf[len++] = 'N';
      }
      case I16, I32, I64 -> putLong(image.longValue(i));
      case TEXT -> putEscaped(image.bytes(), image.offset(i), image.length(i));
      case TRUE -> put((byte) 't');
      case FALSE -> put((byte) 'f');
      case DECIMAL -> {
        if (!putDecimal(image.longValue(i), image.scale(i))) {
          value(image.value(i));
        }
      }
      case DATE, TIMESTAMP -> {
        LocalDate d = LocalDate.ofEpochDay(image.longValue(i));
        if (d.getYear() <= 0) {
          value(image.value(i));
        } else {
          putDate(d);
          if (image.type(i) == PackedRowReader.Type.TIMESTAMP) {
            put((byte) ' ');
            putTime(image.micros(i));
          }
        }
      }
      default -> value(image.value(i));
    }
  }

  /**
   * {@code unscaled} * 10^-{@code scale} as {@link java.math.BigDecimal#toString()} writes it, when
   * that is plain notation (scale 0 or more, adjusted exponent -6 or more).
   *
   * @return false if it is not (nothing written)
   */
  private boolean putDecimal(long unscaled, int scale) {
    if (scale < 0 || unscaled == Long.MIN_VALUE) {
      return false;
    }
    long abs = Math.abs(unscaled);
    int digits = 1;
    while (digits < 19 && abs >= TEN_POWERS[digits]) {
      digits++;
    }
    if ((long) digits - 1 - scale < -6) {
      return false;
    }
    if (scale == 0) {
      putLong(unscaled);
      return true;
    }
    ensure(digits + scale + 4);
    if (unscaled < 0) {
      buf[len++] = '-';
    }
    int intDigits = digits - scale; // digits before the point; 0 or less: "0." and zeros
    int total = intDigits > 0 ? digits + 1 : 2 - intDigits + digits;
    int at = len + total - 1;
    long v = abs;
    for (int k = 0; k < scale; k++) { // from the last digit back
      buf[at--] = (byte) ('0' + v % 10);
      v /= 10;
    }
    buf[at--] = '.';
    if (intDigits > 0) {
      while (at >= len) {
        buf[at--] = (byte) ('0' + v % 10);
        v /= 10;
      }
    } else {
      buf[at--] = '0';
    }
    len += total;
    return true;
  }

  private void putTime(long microsOfDay) {
    ensure(16);
    long seconds = microsOfDay / 1_000_000;
    int micros = (int) (microsOfDay % 1_000_000);
    digits((int) (seconds / 3600), 2);
    buf[len++] = ':';
    digits((int) (seconds / 60 % 60), 2);
    buf[len++] = ':';
    digits((int) (seconds % 60), 2);
    if (micros != 0) {
      buf[len++] = '.';
      digits(micros, 6);
    }
  }

  /** UTF-8 text (well-formed) with COPY's escapes (backslash, newline, carriage return, tab). */
  private void putEscaped(byte[] src, int offset, int length) {
    ensure(length * 2 + 2);
    int run = offset; // bytes from here on are copied as they are
    int stop = offset + length;
    for (int i = offset; i < stop; i++) {
      byte c = src[i];
      byte escaped;
      if (c == '\\') {
        escaped = '\\';
      } else if (c > '\r' || c < '\t') {
        continue;
      } else if (c == '\n') {
        escaped = 'n';
      } else if (c == '\r') {
        escaped = 'r';
      } else if (c == '\t') {
        escaped = 't';
      } else {
        continue;
      }
      System.arraycopy(src, run, buf, len, i - run);
      len += i - run;
      buf[len++] = '\\';
      buf[len++] = escaped;
      run = i + 1;
    }
    System.arraycopy(src, run, buf, len, stop - run);
    len += stop - run;
  }

  void value(Value v) {
    if (v instanceof Value.Null) {
      ensure(2);
      buf[len++] = '\\';
      buf[len++] = 'N';
    } else if (v instanceof Value.Int32 n) {
      putLong(n.value());
    } else if (v instanceof Value.Int64 n) {
      putLong(n.value());
    } else if (v instanceof Value.Text t) {
      putEscaped(t.value());
    } else if (v instanceof Value.Timestamp t && t.value().getYear() > 0) {
      putDateTime(t.value());
    } else if (v instanceof Value.Date d && d.value().getYear() > 0) {
      putDate(d.value());
    } else if (v instanceof Value.Int16 n) {
      putLong(n.value());
    } else if (v instanceof Value.Bool b) {
      put((byte) (b.value() ? 't' : 'f'));
    } else if (v instanceof Value.Decimal d) {
      putAscii(d.value().toString());
    } else {
      scratch.setLength(0);
      PostgresDialect.appendCopyValue(scratch, v);
      putChars(scratch);
    }
  }

  private void putDateTime(LocalDateTime t) {
    putDate(t.toLocalDate());
    put((byte) ' ');
    LocalTime tm = t.toLocalTime();
    ensure(16);
    digits(tm.getHour(), 2);
    buf[len++] = ':';
    digits(tm.getMinute(), 2);
    buf[len++] = ':';
    digits(tm.getSecond(), 2);
    int micros = tm.getNano() / 1000;
    if (micros != 0) {
      buf[len++] = '.';
      digits(micros, 6);
    }
  }

  private void putDate(LocalDate d) {
    ensure(16);
    int year = d.getYear();
    if (year >= 10_000) {
      putLong(year);
    } else {
      digits(year, 4);
    }
    ensure(8);
    buf[len++] = '-';
    digits(d.getMonthValue(), 2);
    buf[len++] = '-';
    digits(d.getDayOfMonth(), 2);
  }

  /** {@code value} zero-padded to {@code width} digits (value below 10^width). */
  private void digits(int value, int width) {
    for (int i = width - 1; i >= 0; i--) {
      buf[len + i] = (byte) ('0' + value % 10);
      value /= 10;
    }
    len += width;
  }

  private void putLong(long v) {
    if (v == Long.MIN_VALUE) {
      putAscii(Long.toString(v));
      return;
    }
    ensure(20);
    if (v < 0) {
      buf[len++] = '-';
      v = -v;
    }
    int start = len;
    do {
      buf[len++] = (byte) ('0' + v % 10);
      v /= 10;
    } while (v != 0);
    for (int i = start, j = len - 1; i < j; i++, j--) {
      byte x = buf[i];
      buf[i] = buf[j];
      buf[j] = x;
    }
  }

  private void putAscii(String s) {
    ensure(s.length());
    for (int i = 0; i < s.length(); i++) {
      buf[len++] = (byte) s.charAt(i);
    }
  }

  /** Text with COPY's escapes (backslash, newline, carriage return, tab), in UTF-8. */
  private void putEscaped(String s) {
    int n = s.length();
    ensure(n * 3 + 2);
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        switch (c) {
          case '\\':
            buf[len++] = '\\';
            buf[len++] = '\\';
            break;
          case '\n':
            buf[len++] = '\\';
            buf[len++] = 'n';
            break;
          case '\r':
            buf[len++] = '\\';
            buf[len++] = 'r';
            break;
          case '\t':
            buf[len++] = '\\';
            buf[len++] = 't';
            break;
          default:
            buf[len++] = (byte) c;
        }
      } else {
        i = utf8(s, i, c);
      }
    }
  }

  /** Characters already escaped, in UTF-8. */
  private void putChars(CharSequence s) {
    int n = s.length();
    ensure(n * 3);
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        buf[len++] = (byte) c;
      } else {
        i = utf8(s, i, c);
      }
    }
  }

  /** Encodes the non-ASCII character at {@code i}; returns the index of its last char. */
  private int utf8(CharSequence s, int i, char c) {
    if (c < 0x800) {
      buf[len++] = (byte) (0xc0 | (c >> 6));
      buf[len++] = (byte) (0x80 | (c & 0x3f));
    } else if (Character.isHighSurrogate(c)
        && i + 1 < s.length()
        && Character.isLowSurrogate(s.charAt(i + 1))) {
      int cp = Character.toCodePoint(c, s.charAt(++i));
      ensure(4);
      buf[len++] = (byte) (0xf0 | (cp >> 18));
      buf[len++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
      buf[len++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
      buf[len++] = (byte) (0x80 | (cp & 0x3f));
    } else if (Character.isSurrogate(c)) {
      buf[len++] = '?';
    } else {
      buf[len++] = (byte) (0xe0 | (c >> 12));
      buf[len++] = (byte) (0x80 | ((c >> 6) & 0x3f));
      buf[len++] = (byte) (0x80 | (c & 0x3f));
    }
    return i;
  }
}
