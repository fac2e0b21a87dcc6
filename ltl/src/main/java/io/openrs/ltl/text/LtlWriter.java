package io.openrs.ltl.text;

import io.openrs.ltl.ByteBuilder;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Writes commands as LTL text, one line each (ending in {@code \n}), in the canonical form the
 * {@link LtlParser} reads back to an equal command. Identifiers are written bare when they match
 * {@code [A-Za-z_][A-Za-z0-9_$]*}, double-quoted otherwise; text is single-quoted with control
 * characters, quotes and backslashes escaped and everything else as UTF-8.
 *
 * <p>Stateless apart from a scratch buffer; not thread-safe.
 */
public final class LtlWriter {
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private final ByteBuilder scratch = new ByteBuilder(512);

  /** The command as one line of text, without the line end. */
  public String toText(LtlCommand command) {
    scratch.reset();
    write(command, scratch);
    return new String(scratch.array(), 0, scratch.size() - 1, StandardCharsets.UTF_8);
  }

  /**
   * Appends the command and a {@code \n} to {@code out}.
   *
   * @throws IllegalArgumentException when a string holds a lone surrogate (not Unicode)
   */
  public void write(LtlCommand command, ByteBuilder out) {
    if (command instanceof LtlCommand.Insert c) {
      header("insert", c.tran(), c.oqid(), out);
      out.append(' ');
      table(c.table(), out);
      out.appendAscii(c.snapshot() ? " snapshot after " : " after ");
      image(c.after(), out);
    } else if (command instanceof LtlCommand.Update c) {
      header("update", c.tran(), c.oqid(), out);
      out.append(' ');
      table(c.table(), out);
      out.appendAscii(" before ");
      image(c.before(), out);
      out.appendAscii(" after ");
      image(c.after(), out);
    } else if (command instanceof LtlCommand.Delete c) {
      header("delete", c.tran(), c.oqid(), out);
      out.append(' ');
      table(c.table(), out);
      out.appendAscii(" before ");
      image(c.before(), out);
    } else if (command instanceof LtlCommand.Begin c) {
      header("begin", c.tran(), c.oqid(), out);
      time(c.time(), out);
      if (c.user().isPresent()) {
        out.appendAscii(" user ");
        quoted(c.user().get(), '\'', out);
      }
    } else if (command instanceof LtlCommand.Commit c) {
      header("commit", c.tran(), c.oqid(), out);
      time(c.time(), out);
    } else if (command instanceof LtlCommand.Rollback c) {
      header("rollback", c.tran(), c.oqid(), out);
    } else if (command instanceof LtlCommand.Truncate c) {
      header("truncate", c.tran(), c.oqid(), out);
      out.append(' ');
      table(c.table(), out);
    } else if (command instanceof LtlCommand.Ddl c) {
      header("ddl", c.tran(), c.oqid(), out);
      if (c.schema().isPresent()) {
        out.appendAscii(" schema ");
        identifier(c.schema().get(), out);
      }
      out.append(' ');
      quoted(c.statement(), '\'', out);
    } else if (command instanceof LtlCommand.Ticket c) {
      header("ticket", c.tran(), c.oqid(), out);
      time(c.time(), out);
      out.appendAscii(" headers (");
      List<String> headers = c.headers();
      for (int i = 0; i < headers.size(); i++) {
        if (i > 0) {
          out.appendAscii(", ");
        }
        quoted(headers.get(i), '\'', out);
      }
      out.append(')');
    } else if (command instanceof LtlCommand.Connect c) {
      out.appendAscii("connect source ");
      identifier(c.originServer(), out);
      out.append('.');
      identifier(c.originDatabase(), out);
      out.appendAscii(" versions ")
          .appendDecimal(c.minVersion())
          .append('-')
          .appendDecimal(c.maxVersion());
      out.appendAscii(" user ");
      quoted(c.user(), '\'', out);
      if (c.password().isPresent()) {
        out.appendAscii(" password ");
        quoted(c.password().get(), '\'', out);
      }
      if (c.agent().isPresent()) {
        out.appendAscii(" agent ");
        quoted(c.agent().get(), '\'', out);
      }
      if (!c.compression().isEmpty()) {
        out.appendAscii(" compression ");
        quoted(String.join(",", c.compression()), '\'', out);
      }
    } else if (command instanceof LtlCommand.Connected c) {
      out.appendAscii("connected version ").appendDecimal(c.version());
    } else if (command instanceof LtlCommand.GetTruncation) {
      out.appendAscii("get truncation");
    } else if (command instanceof LtlCommand.Truncation c) {
      out.appendAscii("truncation ");
      if (c.oqid().isPresent()) {
        oqid(c.oqid().get(), out);
      } else {
        out.appendAscii("none");
      }
    } else {
      throw new IllegalStateException("unknown " + command);
    }
    out.append('\n');
  }

  private static void header(String verb, TranId tran, Oqid oqid, ByteBuilder out) {
    out.appendAscii(verb).appendAscii(" tran 0x");
    out.ensureSpare(tran.length() * 2);
    for (int i = 0; i < tran.length(); i++) {
      hexByte(tran.byteAt(i), out);
    }
    out.appendAscii(" oqid ");
    oqid(oqid, out);
  }

  private static void oqid(Oqid oqid, ByteBuilder out) {
    out.appendAscii("0x");
    out.ensureSpare(oqid.length() * 2);
    for (int i = 0; i < oqid.length(); i++) {
      hexByte(oqid.byteAt(i), out);
    }
  }

  private static void hexByte(byte b, ByteBuilder out) {
    out.append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
  }

  private static void time(Instant time, ByteBuilder out) {
    out.appendAscii(" time ");
    var utc = time.atOffset(ZoneOffset.UTC);
    date(utc.toLocalDate(), out);
    out.append('T');
    time(utc.toLocalTime(), out);
    out.append('Z');
  }

  private static void table(TableName table, ByteBuilder out) {
    identifier(table.schema(), out);
    out.append('.');
    identifier(table.table(), out);
  }

  private static void image(List<Column> columns, ByteBuilder out) {
    out.append('(');
    for (int i = 0, n = columns.size(); i < n; i++) {
      if (i > 0) {
        out.appendAscii(", ");
      }
      Column col = columns.get(i);
      identifier(col.name(), out);
      out.append('=');
      value(col.value(), out);
    }
    out.append(')');
  }

  /** Writes one value in its LTL text form. */
  static void value(Value value, ByteBuilder out) {
    if (value instanceof Value.Null) {
      out.appendAscii("null");
    } else if (value instanceof Value.Unchanged) {
      out.appendAscii("unchanged");
    } else if (value instanceof Value.Bool v) {
      out.appendAscii(v.value() ? "true" : "false");
    } else if (value instanceof Value.Int16 v) {
      out.appendAscii("i16 ").appendDecimal(v.value());
    } else if (value instanceof Value.Int32 v) {
      out.appendAscii("i32 ").appendDecimal(v.value());
    } else if (value instanceof Value.Int64 v) {
      out.appendAscii("i64 ").appendDecimal(v.value());
    } else if (value instanceof Value.Decimal v) {
      out.appendAscii("dec ").appendAscii(decimal(v.value()));
    } else if (value instanceof Value.Float32 v) {
      out.appendAscii("f32 ").appendAscii(Float.toString(v.value()));
    } else if (value instanceof Value.Float64 v) {
      out.appendAscii("f64 ").appendAscii(Double.toString(v.value()));
    } else if (value instanceof Value.Text v) {
      quoted(v.value(), '\'', out);
    } else if (value instanceof Value.Binary v) {
      out.appendAscii("x'");
      out.ensureSpare(v.length() * 2);
      for (int i = 0; i < v.length(); i++) {
        hexByte(v.byteAt(i), out);
      }
      out.append('\'');
    } else if (value instanceof Value.Date v) {
      out.appendAscii("date ");
      date(v.value(), out);
    } else if (value instanceof Value.Time v) {
      out.appendAscii("time ");
      time(v.value(), out);
    } else if (value instanceof Value.Timestamp v) {
      out.appendAscii("ts ");
      date(v.value().toLocalDate(), out);
      out.append('T');
      time(v.value().toLocalTime(), out);
    } else if (value instanceof Value.TimestampTz v) {
      out.appendAscii("tstz ");
      date(v.value().toLocalDate(), out);
      out.append('T');
      time(v.value().toLocalTime(), out);
      offset(v.value().getOffset(), out);
    } else if (value instanceof Value.Uuid v) {
      out.appendAscii("uuid ").appendAscii(v.value().toString());
    } else if (value instanceof Value.Json v) {
      out.appendAscii("json ");
      quoted(v.value(), '\'', out);
    } else if (value instanceof Value.NonFinite v) {
      out.appendAscii(v.typeName()).append(' ').appendAscii(nonFinite(v));
    } else if (value instanceof Value.Native v) {
      out.appendAscii("native ").appendAscii(v.dialect()).append(' ');
      quoted(v.type(), '\'', out);
      out.append(' ');
      quoted(v.text(), '\'', out);
    } else {
      throw new IllegalStateException("unknown " + value);
    }
  }

  /**
   * The literal of a non-finite value: {@code NaN}, {@code Infinity}, {@code -Infinity} after
   * {@code dec}; {@code infinity}, {@code -infinity} after {@code date}, {@code ts}, {@code tstz}.
   */
  private static String nonFinite(Value.NonFinite v) {
    boolean dec = v.domain() == Value.NonFinite.Domain.DEC;
    return switch (v.bound()) {
      case NAN -> "NaN";
      case POSITIVE_INFINITY -> dec ? "Infinity" : "infinity";
      case NEGATIVE_INFINITY -> dec ? "-Infinity" : "-infinity";
    };
  }

  /** Scales up to this are written as plain digits; others as unscaled digits and exponent. */
  static final int MAX_PLAIN_SCALE = 1000;

  /**
   * Plain digits when 0 <= scale <= {@value #MAX_PLAIN_SCALE} (trailing zeros kept, so the scale
   * survives); otherwise the unscaled digits and an exponent, which also keeps the scale exactly.
   */
  static String decimal(BigDecimal d) {
    int scale = d.scale();
    if (scale >= 0 && scale <= MAX_PLAIN_SCALE) {
      return d.toPlainString();
    }
    long exponent = -(long) scale;
    return d.unscaledValue().toString() + (exponent >= 0 ? "E+" : "E") + exponent;
  }

  private static void date(LocalDate d, ByteBuilder out) {
    int year = d.getYear();
    if (year < 0) {
      out.append('-');
      padYear(-year, out);
    } else if (year > 9999) {
      out.append('+').appendDecimal(year);
    } else {
      out.appendPadded(year, 4);
    }
    out.append('-')
        .appendPadded(d.getMonthValue(), 2)
        .append('-')
        .appendPadded(d.getDayOfMonth(), 2);
  }

  private static void padYear(int absYear, ByteBuilder out) {
    if (absYear > 9999) {
      out.appendDecimal(absYear);
    } else {
      out.appendPadded(absYear, 4);
    }
  }

  private static void time(LocalTime t, ByteBuilder out) {
    out.appendPadded(t.getHour(), 2)
        .append(':')
        .appendPadded(t.getMinute(), 2)
        .append(':')
        .appendPadded(t.getSecond(), 2);
    int micros = t.getNano() / 1000;
    if (micros != 0) {
      out.append('.').appendPadded(micros, 6);
    }
  }

  private static void offset(ZoneOffset offset, ByteBuilder out) {
    int total = offset.getTotalSeconds();
    if (total == 0) {
      out.append('Z');
      return;
    }
    out.append(total < 0 ? '-' : '+');
    int abs = Math.abs(total);
    out.appendPadded(abs / 3600, 2).append(':').appendPadded((abs / 60) % 60, 2);
    if (abs % 60 != 0) {
      out.append(':').appendPadded(abs % 60, 2);
    }
  }

  private static void identifier(String name, ByteBuilder out) {
    if (isBare(name)) {
      out.appendAscii(name);
    } else {
      quoted(name, '"', out);
    }
  }

  private static boolean isBare(String name) {
    if (name.isEmpty()) {
      return false;
    }
    char first = name.charAt(0);
    if (!(first >= 'a' && first <= 'z' || first >= 'A' && first <= 'Z' || first == '_')) {
      return false;
    }
    for (int i = 1; i < name.length(); i++) {
      char ch = name.charAt(i);
      if (!(ch >= 'a' && ch <= 'z'
          || ch >= 'A' && ch <= 'Z'
          || ch >= '0' && ch <= '9'
          || ch == '_'
          || ch == '$')) {
        return false;
      }
    }
    return true;
  }

  /** {@code s} between {@code quote}s, escaped. */
  static void quoted(String s, char quote, ByteBuilder out) {
    int n = s.length();
    out.ensureSpare(n + 2);
    out.append(quote);
    for (int i = 0; i < n; i++) {
      char ch = s.charAt(i);
      if (ch < 0x80) {
        if (ch >= 0x20 && ch != 0x7f && ch != '\\' && ch != quote) {
          out.append((byte) ch);
        } else {
          escape(ch, out);
        }
      } else if (ch < 0x800) {
        if (ch < 0xa0) {
          escape(ch, out);
        } else {
          out.append((byte) (0xc0 | (ch >> 6))).append((byte) (0x80 | (ch & 0x3f)));
        }
      } else if (Character.isSurrogate(ch)) {
        if (Character.isHighSurrogate(ch)
            && i + 1 < n
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          int cp = Character.toCodePoint(ch, s.charAt(++i));
          out.append((byte) (0xf0 | (cp >> 18)))
              .append((byte) (0x80 | ((cp >> 12) & 0x3f)))
              .append((byte) (0x80 | ((cp >> 6) & 0x3f)))
              .append((byte) (0x80 | (cp & 0x3f)));
        } else {
          throw new IllegalArgumentException(
              "lone surrogate U+"
                  + Integer.toHexString(ch).toUpperCase(java.util.Locale.ROOT)
                  + " at index "
                  + i
                  + " is not Unicode text");
        }
      } else {
        out.append((byte) (0xe0 | (ch >> 12)))
            .append((byte) (0x80 | ((ch >> 6) & 0x3f)))
            .append((byte) (0x80 | (ch & 0x3f)));
      }
    }
    out.append(quote);
  }

  private static void escape(char ch, ByteBuilder out) {
    switch (ch) {
      case '\\' -> out.append('\\').append('\\');
      case '\'' -> out.append('\\').append('\'');
      case '"' -> out.append('\\').append('"');
      case '\n' -> out.append('\\').append('n');
      case '\r' -> out.append('\\').append('r');
      case '\t' -> out.append('\\').append('t');
      default -> {
        out.append('\\').append('u');
        out.append(HEX[(ch >> 12) & 0xf]).append(HEX[(ch >> 8) & 0xf]);
        out.append(HEX[(ch >> 4) & 0xf]).append(HEX[ch & 0xf]);
      }
    }
  }
}
