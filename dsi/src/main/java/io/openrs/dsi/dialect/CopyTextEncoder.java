package io.openrs.dsi.dialect;

import io.openrs.ltl.Value;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;

/**
 * Rows in PostgreSQL's {@code COPY} text format, encoded straight into a reusable byte buffer: the
 * same text as {@link PostgresDialect#appendCopyValue}, without a {@code String} per value for the
 * common kinds (integers, text, timestamps, null). HVAR loads every net row through it. Not
 * thread-safe.
 */
final class CopyTextEncoder implements RowStream.Encoder {
  private final StringBuilder scratch = new StringBuilder(64);
  private byte[] buf;
  private int len;

  CopyTextEncoder(int capacity) {
    buf = new byte[capacity];
  }

  @Override
  public byte[] array() {
    return buf;
  }

  @Override
  public int length() {
    return len;
  }

  void reset() {
    len = 0;
  }

  @Override
  public void truncate(int length) {
    if (length < 0 || length > len) {
      throw new IllegalArgumentException("truncate to " + length + " of " + len + " bytes");
    }
    len = length;
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

  private void put(byte b) {
    ensure(1);
    buf[len++] = b;
  }

  private void ensure(int more) {
    if (len + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
    }
  }
}
