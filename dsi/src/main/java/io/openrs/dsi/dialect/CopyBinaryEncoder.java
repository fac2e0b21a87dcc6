package io.openrs.dsi.dialect;

import io.openrs.ltl.Value;
import io.openrs.ltl.packed.PackedRowReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Rows in PostgreSQL's binary {@code COPY} format for one table whose every column has a type it
 * knows ({@link #supports}); the stream's header and trailer are the {@link RowStream}'s. The
 * backend parses no text (numbers, timestamps): a binary {@code COPY} of the benchmark's purchase
 * rows took about two thirds of the text one's time in a server-side test.
 *
 * <pre>
 * row    := int16 field count | field*
 * field  := int32 length (-1 for NULL) | length bytes
 *   int2 / int4 / int8        big-endian two's complement, 2 / 4 / 8 bytes
 *   bool                      1 byte, 0 or 1
 *   text, varchar             the UTF-8 bytes
 *   bytea                     the bytes
 *   float4 / float8           IEEE 754 bits, big-endian
 *   uuid                      16 bytes, most significant first
 *   date                      int32 days since 2000-01-01
 *   timestamp                 int64 microseconds since 2000-01-01 00:00
 *   timestamptz               int64 microseconds since 2000-01-01 00:00 UTC
 *   numeric                   int16 ndigits | int16 weight | int16 sign (0, 0x4000 negative)
 *                             | int16 dscale | ndigits int16 base-10000 digits, most significant
 *                             first; value = sum(digit[i] * 10000^(weight - i))
 * </pre>
 *
 * A value whose kind does not fit its column exactly (text into an integer column, a timestamp
 * without zone into a {@code timestamptz} one, an integer out of the column's range) is not
 * converted: {@link RowStream.Unencodable} is thrown and the row is not written, and the caller
 * loads the table as text instead, where PostgreSQL converts as it does for every other statement.
 * The backend applies the column's type modifier as for text (rounding a numeric to its scale,
 * checking a varchar's length). Not thread-safe.
 */
final class CopyBinaryEncoder extends EncodedRows {

  /** The column types this encoder writes (PostgreSQL type names, domains resolved). */
  static final Set<String> TYPES =
      Set.of(
          "int2",
          "int4",
          "int8",
          "bool",
          "text",
          "varchar",
          "bytea",
          "float4",
          "float8",
          "uuid",
          "date",
          "timestamp",
          "timestamptz",
          "numeric");

  /** Days from 1970-01-01 to 2000-01-01, PostgreSQL's epoch. */
  private static final long PG_EPOCH_DAY = 10_957;

  private static final long MICROS_PER_DAY = 86_400_000_000L;
  private static final BigInteger TEN_THOUSAND = BigInteger.valueOf(10_000);

  private enum Kind {
    INT2,
    INT4,
    INT8,
    BOOL,
    TEXT,
    BYTEA,
    FLOAT4,
    FLOAT8,
    UUID,
    DATE,
    TIMESTAMP,
    TIMESTAMPTZ,
    NUMERIC
  }

  private final Kind[] kinds;
  private final String[] names;
  private final short[] groups = new short[8]; // numeric digits, least significant first

  /** True if every column of {@code t} has a type this encoder writes. */
  static boolean supports(TableMeta t) {
    return t.columns().stream().allMatch(c -> TYPES.contains(c.typeName()));
  }

  /**
   * @param columns the table's columns, in the order rows give them (every type in {@link #TYPES})
   */
  CopyBinaryEncoder(List<ColumnMeta> columns, int capacity) {
    super(Math.max(capacity, 64));
    kinds = new Kind[columns.size()];
    names = new String[columns.size()];
    for (int i = 0; i < kinds.length; i++) {
      String type = columns.get(i).typeName();
      if (!TYPES.contains(type)) {
        throw new IllegalArgumentException(
            "column " + columns.get(i).name() + " has type " + type + ", not written in binary");
      }
      kinds[i] =
          switch (type) {
            case "text", "varchar" -> Kind.TEXT;
            default -> Kind.valueOf(type.toUpperCase(Locale.ROOT));
          };
      names[i] = columns.get(i).name();
    }
  }

  @Override
  public void row(Value[] row) {
    int start = len;
    try {
      putShort(kinds.length);
      for (int k = 0; k < kinds.length; k++) {
        value(k, row[k]);
      }
    } catch (RuntimeException e) {
      throw refused(start, e);
    }
  }

  @Override
  public void row(PackedRowReader.Image image, int[] columns) {
    int start = len;
    try {
      putShort(kinds.length);
      for (int k = 0; k < kinds.length; k++) {
        value(k, image, columns[k]);
      }
    } catch (RuntimeException e) {
      throw refused(start, e);
    }
  }

  /** Takes back the row begun at {@code start}; what to throw for {@code e}. */
  private RuntimeException refused(int start, RuntimeException e) {
    len = start;
    return e instanceof ArithmeticException
        ? new RowStream.Unencodable(
            "a value is beyond its column's binary range: " + e.getMessage())
        : e;
  }

  private void value(int k, PackedRowReader.Image image, int i) {
    PackedRowReader.Type type = image.type(i);
    switch (type) {
      case NULL -> putInt(-1);
      case I16, I32, I64 -> integer(k, image.longValue(i), type);
      case TRUE, FALSE -> {
        expect(k, Kind.BOOL, image, i);
        putInt(1);
        put(type == PackedRowReader.Type.TRUE ? (byte) 1 : (byte) 0);
      }
      case TEXT -> {
        expect(k, Kind.TEXT, image, i);
        putBytes(image.bytes(), image.offset(i), image.length(i));
      }
      case DECIMAL -> {
        expect(k, Kind.NUMERIC, image, i);
        numeric(image.longValue(i), image.scale(i));
      }
      case DATE -> {
        expect(k, Kind.DATE, image, i);
        putInt(4);
        putInt(Math.toIntExact(image.longValue(i) - PG_EPOCH_DAY));
      }
      case TIMESTAMP -> {
        expect(k, Kind.TIMESTAMP, image, i);
        putInt(8);
        putLong(micros(image.longValue(i), image.micros(i)));
      }
      default -> value(k, image.value(i));
    }
  }

  private void value(int k, Value v) {
    if (v instanceof Value.Null) {
      putInt(-1);
    } else if (v instanceof Value.Int32 n) {
      integer(k, n.value(), v.getClass());
    } else if (v instanceof Value.Int64 n) {
      integer(k, n.value(), v.getClass());
    } else if (v instanceof Value.Int16 n) {
      integer(k, n.value(), v.getClass());
    } else if (v instanceof Value.Text t) {
      expect(k, Kind.TEXT, v);
      byte[] b = t.value().getBytes(StandardCharsets.UTF_8);
      putBytes(b, 0, b.length);
    } else if (v instanceof Value.Decimal d) {
      expect(k, Kind.NUMERIC, v);
      numeric(d.value());
    } else if (v instanceof Value.Timestamp t) {
      expect(k, Kind.TIMESTAMP, v);
      putInt(8);
      putLong(micros(t.value()));
    } else if (v instanceof Value.TimestampTz t) {
      expect(k, Kind.TIMESTAMPTZ, v);
      putInt(8);
      LocalDateTime utc =
          t.value().withOffsetSameInstant(java.time.ZoneOffset.UTC).toLocalDateTime();
      putLong(micros(utc));
    } else if (v instanceof Value.Date d) {
      expect(k, Kind.DATE, v);
      putInt(4);
      putInt(Math.toIntExact(d.value().toEpochDay() - PG_EPOCH_DAY));
    } else if (v instanceof Value.Bool b) {
      expect(k, Kind.BOOL, v);
      putInt(1);
      put(b.value() ? (byte) 1 : (byte) 0);
    } else if (v instanceof Value.Binary b) {
      expect(k, Kind.BYTEA, v);
      putBytes(b.value(), 0, b.value().length);
    } else if (v instanceof Value.Float64 f) {
      expect(k, Kind.FLOAT8, v);
      putInt(8);
      putLong(Double.doubleToRawLongBits(f.value()));
    } else if (v instanceof Value.Float32 f) {
      expect(k, Kind.FLOAT4, v);
      putInt(4);
      putInt(Float.floatToRawIntBits(f.value()));
    } else if (v instanceof Value.NonFinite n) {
      nonFinite(k, n);
    } else if (v instanceof Value.Native n && kinds[k] == Kind.TEXT) {
      byte[] b = n.text().getBytes(StandardCharsets.UTF_8);
      putBytes(b, 0, b.length);
    } else if (v instanceof Value.Uuid u) {
      expect(k, Kind.UUID, v);
      putInt(16);
      putLong(u.value().getMostSignificantBits());
      putLong(u.value().getLeastSignificantBits());
    } else {
      throw unencodable(k, v.getClass().getSimpleName());
    }
  }

  /**
   * NaN and ±infinity in PostgreSQL's binary forms: a numeric header with sign 0xC000 (NaN), 0xD000
   * (+infinity) or 0xF000 (-infinity) and no digits; a date of {@code Integer.MAX_VALUE} or {@code
   * MIN_VALUE}; a timestamp of {@code Long.MAX_VALUE} or {@code MIN_VALUE} microseconds.
   */
  private void nonFinite(int k, Value.NonFinite n) {
    boolean positive = n.bound() == Value.NonFinite.Bound.POSITIVE_INFINITY;
    switch (n.domain()) {
      case DEC -> {
        expect(k, Kind.NUMERIC, n);
        putInt(8);
        putShort(0);
        putShort(0);
        putShort(n.bound() == Value.NonFinite.Bound.NAN ? 0xC000 : positive ? 0xD000 : 0xF000);
        putShort(0);
      }
      case DATE -> {
        expect(k, Kind.DATE, n);
        putInt(4);
        putInt(positive ? Integer.MAX_VALUE : Integer.MIN_VALUE);
      }
      case TS -> {
        expect(k, Kind.TIMESTAMP, n);
        putInt(8);
        putLong(positive ? Long.MAX_VALUE : Long.MIN_VALUE);
      }
      case TSTZ -> {
        expect(k, Kind.TIMESTAMPTZ, n);
        putInt(8);
        putLong(positive ? Long.MAX_VALUE : Long.MIN_VALUE);
      }
    }
  }

  /**
   * An integer into column {@code k}; {@code kind} names the value's kind if the column takes no
   * integer (a {@link PackedRowReader.Type} or a {@link Value} class: nothing is made for it).
   */
  private void integer(int k, long n, Object kind) {
    switch (kinds[k]) {
      case INT2 -> {
        if (n < Short.MIN_VALUE || n > Short.MAX_VALUE) {
          throw unencodable(k, "integer " + n + " out of the range of int2");
        }
        putInt(2);
        putShort((int) n);
      }
      case INT4 -> {
        if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
          throw unencodable(k, "integer " + n + " out of the range of int4");
        }
        putInt(4);
        putInt((int) n);
      }
      case INT8 -> {
        putInt(8);
        putLong(n);
      }
      case NUMERIC -> numeric(n, 0);
      default ->
          throw unencodable(
              k, kind instanceof Class<?> c ? c.getSimpleName() : String.valueOf(kind));
    }
  }

  private static long micros(long epochDay, long microsOfDay) {
    return Math.addExact(Math.multiplyExact(epochDay - PG_EPOCH_DAY, MICROS_PER_DAY), microsOfDay);
  }

  private static long micros(LocalDateTime t) {
    LocalDate d = t.toLocalDate();
    return micros(d.toEpochDay(), t.toLocalTime().toNanoOfDay() / 1000);
  }

  /** {@code unscaled} * 10^-{@code scale}. */
  private void numeric(long unscaled, int scale) {
    // the fraction is padded to whole base-10000 digits: unscaled * 10^pad must fit a long
    int pad = scale >= 0 ? (4 - scale % 4) % 4 : 0;
    if (scale < 0 || unscaled == Long.MIN_VALUE || Math.abs(unscaled) > Long.MAX_VALUE / 1000) {
      numeric(BigDecimal.valueOf(unscaled, scale));
      return;
    }
    long v = Math.abs(unscaled);
    for (int p = 0; p < pad; p++) {
      v *= 10;
    }
    int n = 0;
    while (v != 0) {
      groups[n++] = (short) (v % 10_000);
      v /= 10_000;
    }
    putNumeric(n, (scale + pad) / 4, unscaled < 0, scale);
  }

  private void numeric(BigDecimal d) {
    int scale = d.scale();
    BigInteger unscaled = d.unscaledValue();
    if (scale < 0) {
      unscaled = unscaled.multiply(BigInteger.TEN.pow(-scale));
      scale = 0;
    }
    int pad = (4 - scale % 4) % 4;
    BigInteger v = unscaled.abs().multiply(BigInteger.TEN.pow(pad));
    int fracGroups = (scale + pad) / 4;
    // digits, least significant first, into a growing array
    short[] digits = new short[Math.max(8, v.bitLength() / 13 + 2)];
    int n = 0;
    while (v.signum() != 0) {
      BigInteger[] qr = v.divideAndRemainder(TEN_THOUSAND);
      if (n == digits.length) {
        digits = Arrays.copyOf(digits, n * 2);
      }
      digits[n++] = qr[1].shortValue();
      v = qr[0];
    }
    if (n > Short.MAX_VALUE || scale > 0x3FFF) {
      throw new RowStream.Unencodable("numeric " + d + " is beyond PostgreSQL's numeric");
    }
    putNumeric(digits, n, fracGroups, unscaled.signum() < 0, scale);
  }

  private void putNumeric(int n, int fracGroups, boolean negative, int dscale) {
    putNumeric(groups, n, fracGroups, negative, dscale);
  }

  /**
   * {@code digits[0..n)}, least significant first, the last {@code fracGroups} of them (from the
   * least significant) after the point.
   */
  private void putNumeric(short[] digits, int n, int fracGroups, boolean negative, int dscale) {
    int low = 0; // trailing zero digits are left out
    while (low < n && digits[low] == 0) {
      low++;
    }
    int count = n - low;
    int weight = n - fracGroups - 1;
    putInt(8 + 2 * count);
    putShort(count);
    putShort(count == 0 ? 0 : weight);
    putShort(negative && count > 0 ? 0x4000 : 0);
    putShort(dscale);
    for (int i = n - 1; i >= low; i--) {
      putShort(digits[i]);
    }
  }

  private void expect(int k, Kind kind, PackedRowReader.Image image, int i) {
    if (kinds[k] != kind) {
      throw unencodable(k, image.type(i).name());
    }
  }

  private void expect(int k, Kind kind, Value v) {
    if (kinds[k] != kind) {
      throw unencodable(k, v.getClass().getSimpleName());
    }
  }

  private RowStream.Unencodable unencodable(int k, String what) {
    return new RowStream.Unencodable(
        "column "
            + names[k]
            + " ("
            + kinds[k].name().toLowerCase(Locale.ROOT)
            + ") is not written in binary from a value of kind "
            + what);
  }

  private void putBytes(byte[] src, int offset, int length) {
    ensure(4 + length);
    putInt(length);
    System.arraycopy(src, offset, buf, len, length);
    len += length;
  }

  private void putShort(int v) {
    ensure(2);
    buf[len++] = (byte) (v >>> 8);
    buf[len++] = (byte) v;
  }

  /** A field length or any int32. */
  private void putInt(int v) {
    ensure(4);
    buf[len++] = (byte) (v >>> 24);
    buf[len++] = (byte) (v >>> 16);
    buf[len++] = (byte) (v >>> 8);
    buf[len++] = (byte) v;
  }

  private void putLong(long v) {
    ensure(8);
    for (int s = 56; s >= 0; s -= 8) {
      buf[len++] = (byte) (v >>> s);
    }
  }
}
