package io.openrs.dsi.dialect;

import io.openrs.ltl.Value;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Rows as MariaDB's {@code LOAD DATA} reads them ({@code FIELDS TERMINATED BY '\t' ESCAPED BY '\\'
 * LINES TERMINATED BY '\n'}, utf8mb4), produced row by row while the driver sends them: {@code \N}
 * for null; backslash, tab, newline, carriage return and NUL escaped; bytes (for columns loaded
 * through {@code UNHEX}) as hex; floats as their exact decimal value (a float's shortest decimal
 * form may round differently through a double); times with microseconds; timestamps with time zone
 * in UTC, as the session runs. Not thread-safe.
 */
final class LoadDataStream extends InputStream {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private final List<Value[]> rows;
  private final boolean[] hex;
  private final StringBuilder line = new StringBuilder(256);
  private final Utf8Buffer buf = new Utf8Buffer(64 * 1024);
  private int next;
  private int pos;

  LoadDataStream(List<Value[]> rows, boolean[] hex) {
    this.rows = rows;
    this.hex = hex;
  }

  @Override
  public int read() {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    if (len == 0) {
      return 0;
    }
    if (pos >= buf.length() && !fill()) {
      return -1;
    }
    int n = Math.min(len, buf.length() - pos);
    System.arraycopy(buf.array(), pos, b, off, n);
    pos += n;
    return n;
  }

  /** Encodes the next rows (about 64 KiB); false at the end. */
  private boolean fill() {
    if (next >= rows.size()) {
      return false;
    }
    line.setLength(0);
    while (next < rows.size() && line.length() < 64 * 1024) {
      Value[] row = rows.get(next++);
      for (int k = 0; k < row.length; k++) {
        if (k > 0) {
          line.append('\t');
        }
        append(line, row[k], hex[k]);
      }
      line.append('\n');
    }
    buf.encode(line);
    pos = 0;
    return true;
  }

  static void append(StringBuilder sb, Value v, boolean asHex) {
    if (v instanceof Value.Null) {
      sb.append("\\N");
    } else if (asHex) {
      byte[] bytes;
      if (v instanceof Value.Binary b) {
        for (int i = 0; i < b.length(); i++) {
          int x = b.byteAt(i) & 0xff;
          sb.append(HEX[x >> 4]).append(HEX[x & 15]);
        }
        return;
      }
      StringBuilder text = new StringBuilder();
      append(text, v, false);
      bytes = text.toString().getBytes(StandardCharsets.UTF_8);
      for (byte x : bytes) {
        sb.append(HEX[(x & 0xff) >> 4]).append(HEX[x & 15]);
      }
    } else if (v instanceof Value.Bool b) {
      sb.append(b.value() ? '1' : '0');
    } else if (v instanceof Value.Int16 n) {
      sb.append(n.value());
    } else if (v instanceof Value.Int32 n) {
      sb.append(n.value());
    } else if (v instanceof Value.Int64 n) {
      sb.append(n.value());
    } else if (v instanceof Value.Decimal d) {
      sb.append(d.value().toPlainString());
    } else if (v instanceof Value.Float32 f) {
      float x = f.value();
      if (Float.isNaN(x) || Float.isInfinite(x)) {
        sb.append(x); // refused by the server (a warning), as MariaDB stores neither
      } else {
        sb.append(new BigDecimal((double) x).toPlainString());
      }
    } else if (v instanceof Value.Float64 f) {
      sb.append(f.value());
    } else if (v instanceof Value.Text t) {
      escape(sb, t.value());
    } else if (v instanceof Value.Json j) {
      escape(sb, j.value());
    } else if (v instanceof Value.Binary b) {
      escape(sb, new String(b.value(), StandardCharsets.UTF_8));
    } else if (v instanceof Value.Date d) {
      date(sb, d.value());
    } else if (v instanceof Value.Time t) {
      time(sb, t.value());
    } else if (v instanceof Value.Timestamp t) {
      dateTime(sb, t.value());
    } else if (v instanceof Value.TimestampTz t) {
      dateTime(sb, LocalDateTime.ofInstant(t.value().toInstant(), ZoneOffset.UTC));
    } else if (v instanceof Value.Uuid u) {
      sb.append(u.value());
    } else if (v instanceof Value.Native || v instanceof Value.NonFinite) {
      // Whether the column takes it is decided with the column's type at hand: the statement path.
      throw new IllegalArgumentException(
          "value " + v + " is not loaded in bulk (the group is applied statement by statement)");
    } else {
      throw new IllegalArgumentException("value " + v + " cannot be loaded");
    }
  }

  private static void escape(StringBuilder sb, String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\':
          sb.append("\\\\");
          break;
        case '\t':
          sb.append("\\t");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\r':
          sb.append("\\r");
          break;
        case '\0':
          sb.append("\\0");
          break;
        default:
          sb.append(c);
      }
    }
  }

  private static void dateTime(StringBuilder sb, LocalDateTime t) {
    date(sb, t.toLocalDate());
    sb.append(' ');
    time(sb, t.toLocalTime());
  }

  private static void date(StringBuilder sb, LocalDate d) {
    pad(sb, d.getYear(), 4).append('-');
    pad(sb, d.getMonthValue(), 2).append('-');
    pad(sb, d.getDayOfMonth(), 2);
  }

  private static void time(StringBuilder sb, LocalTime t) {
    pad(sb, t.getHour(), 2).append(':');
    pad(sb, t.getMinute(), 2).append(':');
    pad(sb, t.getSecond(), 2).append('.');
    pad(sb, t.getNano() / 1000, 6);
  }

  private static StringBuilder pad(StringBuilder sb, int value, int width) {
    String s = Integer.toString(value);
    for (int i = s.length(); i < width; i++) {
      sb.append('0');
    }
    return sb.append(s);
  }
}
