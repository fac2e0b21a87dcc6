package io.openrs.pgwire;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.UUID;

/**
 * Values on the wire: the text and binary forms of the {@link PgType}s going out, as PostgreSQL
 * writes them ({@code int4out}, {@code float8out}, {@code numeric_send}, {@code timestamptz_out} in
 * DateStyle ISO ...), and the binary forms of Bind parameters coming in, turned into the text that
 * is substituted into the command. Stateless; safe from any thread.
 */
final class PgValues {
  private PgValues() {}

  /** Microseconds from 1970-01-01 to PostgreSQL's epoch 2000-01-01 (UTC). */
  static final long PG_EPOCH_MICROS = 946_684_800_000_000L;

  /** Days from 1970-01-01 to 2000-01-01. */
  static final int PG_EPOCH_DAYS = 10_957;

  /** How a session wants text values: its TimeZone and extra_float_digits. */
  record TextStyle(ZoneId zone, int extraFloatDigits) {
    static final TextStyle DEFAULT = new TextStyle(ZoneOffset.UTC, 1);
  }

  // ---- values going out --------------------------------------------------------------------

  /** The value in text format, UTF-8; null for SQL NULL. */
  static byte[] text(PgType type, Object value, TextStyle style) {
    if (value == null) {
      return null;
    }
    return textString(type, value, style).getBytes(StandardCharsets.UTF_8);
  }

  static String textString(PgType type, Object value, TextStyle style) {
    switch (type) {
      case TEXT:
        if (value instanceof byte[]) {
          throw mismatch(type, value);
        }
        return value.toString();
      case INT4:
        return Long.toString(integral(type, value, Integer.MIN_VALUE, Integer.MAX_VALUE));
      case INT8:
        return Long.toString(integral(type, value, Long.MIN_VALUE, Long.MAX_VALUE));
      case FLOAT8:
        return floatText(toDouble(type, value), style.extraFloatDigits());
      case NUMERIC:
        if (isNaN(value)) {
          return "NaN";
        }
        return toBigDecimal(type, value).toPlainString();
      case BOOL:
        if (value instanceof Boolean) {
          return ((Boolean) value) ? "t" : "f";
        }
        throw mismatch(type, value);
      case TIMESTAMPTZ:
        return timestampText(toInstant(type, value), style.zone());
      case BYTEA:
        if (value instanceof byte[]) {
          return "\\x" + HexFormat.of().formatHex((byte[]) value);
        }
        throw mismatch(type, value);
      default:
        throw new IllegalArgumentException("unknown type " + type);
    }
  }

  /** The value in binary format; null for SQL NULL. */
  static byte[] binary(PgType type, Object value) {
    if (value == null) {
      return null;
    }
    switch (type) {
      case TEXT:
        return textString(type, value, TextStyle.DEFAULT).getBytes(StandardCharsets.UTF_8);
      case INT4:
        return ByteBuffer.allocate(4)
            .putInt((int) integral(type, value, Integer.MIN_VALUE, Integer.MAX_VALUE))
            .array();
      case INT8:
        return ByteBuffer.allocate(8)
            .putLong(integral(type, value, Long.MIN_VALUE, Long.MAX_VALUE))
            .array();
      case FLOAT8:
        return ByteBuffer.allocate(8).putDouble(toDouble(type, value)).array();
      case NUMERIC:
        if (isNaN(value)) {
          return new byte[] {0, 0, 0, 0, (byte) 0xC0, 0, 0, 0};
        }
        return numericBinary(toBigDecimal(type, value));
      case BOOL:
        if (value instanceof Boolean) {
          return new byte[] {(byte) (((Boolean) value) ? 1 : 0)};
        }
        throw mismatch(type, value);
      case TIMESTAMPTZ:
        {
          Instant instant = toInstant(type, value);
          long micros =
              Math.addExact(
                  Math.multiplyExact(instant.getEpochSecond(), 1_000_000L),
                  instant.getNano() / 1000);
          return ByteBuffer.allocate(8).putLong(micros - PG_EPOCH_MICROS).array();
        }
      case BYTEA:
        if (value instanceof byte[]) {
          return ((byte[]) value).clone();
        }
        throw mismatch(type, value);
      default:
        throw new IllegalArgumentException("unknown type " + type);
    }
  }

  private static long integral(PgType type, Object value, long min, long max) {
    long v;
    if (value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte) {
      v = ((Number) value).longValue();
    } else if (value instanceof BigInteger) {
      BigInteger b = (BigInteger) value;
      if (b.bitLength() > 63) {
        throw outOfRange(type, value);
      }
      v = b.longValue();
    } else if (value instanceof BigDecimal) {
      try {
        v = ((BigDecimal) value).longValueExact();
      } catch (ArithmeticException e) {
        throw outOfRange(type, value);
      }
    } else {
      throw mismatch(type, value);
    }
    if (v < min || v > max) {
      throw outOfRange(type, value);
    }
    return v;
  }

  private static double toDouble(PgType type, Object value) {
    if (value instanceof Number) {
      return ((Number) value).doubleValue();
    }
    throw mismatch(type, value);
  }

  private static boolean isNaN(Object value) {
    return (value instanceof Double && ((Double) value).isNaN())
        || (value instanceof Float && ((Float) value).isNaN());
  }

  private static BigDecimal toBigDecimal(PgType type, Object value) {
    if (value instanceof BigDecimal) {
      return (BigDecimal) value;
    }
    if (value instanceof BigInteger) {
      return new BigDecimal((BigInteger) value);
    }
    if (value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte) {
      return BigDecimal.valueOf(((Number) value).longValue());
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (Double.isInfinite(d)) {
        throw mismatch(type, value);
      }
      return BigDecimal.valueOf(d);
    }
    throw mismatch(type, value);
  }

  private static Instant toInstant(PgType type, Object value) {
    if (value instanceof Instant) {
      return (Instant) value;
    }
    if (value instanceof OffsetDateTime) {
      return ((OffsetDateTime) value).toInstant();
    }
    if (value instanceof ZonedDateTime) {
      return ((ZonedDateTime) value).toInstant();
    }
    throw mismatch(type, value);
  }

  private static IllegalArgumentException mismatch(PgType type, Object value) {
    return new IllegalArgumentException(
        "a " + value.getClass().getName() + " cannot be sent as " + type.typeName());
  }

  private static IllegalArgumentException outOfRange(PgType type, Object value) {
    return new IllegalArgumentException(
        "value " + value + " is out of range for " + type.typeName());
  }

  /**
   * A double as PostgreSQL's {@code float8out} writes it: with {@code extra_float_digits} > 0 the
   * shortest text that reads back exactly, else {@code 15 + extra_float_digits} significant digits;
   * exponent form ({@code 1e+16}, {@code 1.5e-05}) when the decimal exponent is below -4 or at
   * least the precision (15 for the shortest form, as PostgreSQL's ryu output does).
   */
  static String floatText(double d, int extraFloatDigits) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    if (d == 0) {
      return (1 / d < 0) ? "-0" : "0";
    }
    BigDecimal exact = new BigDecimal(Double.toString(d));
    int precision = 17;
    if (extraFloatDigits <= 0) {
      precision = Math.max(1, 15 + extraFloatDigits);
      exact = new BigDecimal(d).round(new MathContext(precision, RoundingMode.HALF_EVEN));
    } else {
      precision = 15;
    }
    BigDecimal stripped = exact.stripTrailingZeros();
    String digits = stripped.unscaledValue().abs().toString();
    int exponent = digits.length() - 1 - stripped.scale();
    String sign = stripped.signum() < 0 ? "-" : "";
    if (exponent < -4 || exponent >= precision) {
      StringBuilder sb = new StringBuilder(sign).append(digits.charAt(0));
      if (digits.length() > 1) {
        sb.append('.').append(digits, 1, digits.length());
      }
      sb.append('e').append(exponent < 0 ? '-' : '+');
      int abs = Math.abs(exponent);
      if (abs < 10) {
        sb.append('0');
      }
      return sb.append(abs).toString();
    }
    return stripped.toPlainString();
  }

  /**
   * An instant as {@code timestamptz_out} writes it in DateStyle ISO: {@code 2024-03-01
   * 12:34:56.789+01} (fraction to microseconds without trailing zeros; offset as {@code +HH},
   * {@code +HH:MM} or {@code +HH:MM:SS}).
   */
  static String timestampText(Instant instant, ZoneId zone) {
    ZonedDateTime t = instant.truncatedTo(ChronoUnit.MICROS).atZone(zone);
    StringBuilder sb = new StringBuilder(32);
    int year = t.getYear();
    boolean bc = year <= 0;
    appendPadded(sb, bc ? 1 - year : year, 4);
    sb.append('-');
    appendPadded(sb, t.getMonthValue(), 2);
    sb.append('-');
    appendPadded(sb, t.getDayOfMonth(), 2);
    sb.append(' ');
    appendTime(sb, t.toLocalTime());
    int offset = t.getOffset().getTotalSeconds();
    sb.append(offset < 0 ? '-' : '+');
    offset = Math.abs(offset);
    appendPadded(sb, offset / 3600, 2);
    if (offset % 3600 != 0) {
      sb.append(':');
      appendPadded(sb, (offset / 60) % 60, 2);
      if (offset % 60 != 0) {
        sb.append(':');
        appendPadded(sb, offset % 60, 2);
      }
    }
    if (bc) {
      sb.append(" BC");
    }
    return sb.toString();
  }

  private static void appendTime(StringBuilder sb, LocalTime time) {
    appendPadded(sb, time.getHour(), 2);
    sb.append(':');
    appendPadded(sb, time.getMinute(), 2);
    sb.append(':');
    appendPadded(sb, time.getSecond(), 2);
    int micros = time.getNano() / 1000;
    if (micros != 0) {
      String fraction = String.format("%06d", micros);
      int end = fraction.length();
      while (fraction.charAt(end - 1) == '0') {
        end--;
      }
      sb.append('.').append(fraction, 0, end);
    }
  }

  private static void appendPadded(StringBuilder sb, int value, int width) {
    String s = Integer.toString(value);
    for (int i = s.length(); i < width; i++) {
      sb.append('0');
    }
    sb.append(s);
  }

  /**
   * PostgreSQL's binary numeric ({@code numeric_send}): ndigits, weight, sign, dscale (int16 each),
   * then ndigits base-10000 digits (int16), most significant first; weight is the power of 10000 of
   * the first digit; trailing and leading zero digits are left out.
   */
  static byte[] numericBinary(BigDecimal value) {
    BigDecimal abs = value.abs();
    int dscale = Math.max(0, value.scale());
    String plain = abs.toPlainString();
    int dot = plain.indexOf('.');
    String intPart = dot < 0 ? plain : plain.substring(0, dot);
    String fracPart = dot < 0 ? "" : plain.substring(dot + 1);
    if (intPart.equals("0")) {
      intPart = "";
    }
    int intGroups = (intPart.length() + 3) / 4;
    intPart = "0".repeat(intGroups * 4 - intPart.length()) + intPart;
    int fracGroups = (fracPart.length() + 3) / 4;
    fracPart = fracPart + "0".repeat(fracGroups * 4 - fracPart.length());
    String all = intPart + fracPart;
    short[] digits = new short[intGroups + fracGroups];
    for (int i = 0; i < digits.length; i++) {
      digits[i] = Short.parseShort(all.substring(i * 4, i * 4 + 4));
    }
    int weight = intGroups - 1;
    int first = 0;
    while (first < digits.length && digits[first] == 0) {
      first++;
      weight--;
    }
    int last = digits.length;
    while (last > first && digits[last - 1] == 0) {
      last--;
    }
    int ndigits = last - first;
    if (ndigits == 0) {
      weight = 0;
    }
    ByteBuffer buf = ByteBuffer.allocate(8 + 2 * ndigits);
    buf.putShort((short) ndigits);
    buf.putShort((short) weight);
    buf.putShort((short) (value.signum() < 0 ? 0x4000 : 0x0000));
    buf.putShort((short) dscale);
    for (int i = first; i < last; i++) {
      buf.putShort(digits[i]);
    }
    return buf.array();
  }

  /** The text form of a binary numeric, as {@code numeric_out} writes it. */
  static String numericFromBinary(byte[] bytes) throws PgException {
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    if (bytes.length < 8) {
      throw badBinary("numeric", "fewer than 8 bytes");
    }
    int ndigits = buf.getShort() & 0xFFFF;
    int weight = buf.getShort();
    int sign = buf.getShort() & 0xFFFF;
    int dscale = buf.getShort() & 0xFFFF;
    if (bytes.length != 8 + 2 * ndigits) {
      throw badBinary("numeric", "length " + bytes.length + " for " + ndigits + " digits");
    }
    switch (sign) {
      case 0xC000:
        return "NaN";
      case 0xD000:
        return "Infinity";
      case 0xF000:
        return "-Infinity";
      case 0x0000:
      case 0x4000:
        break;
      default:
        throw badBinary("numeric", "sign 0x" + Integer.toHexString(sign));
    }
    BigInteger unscaled = BigInteger.ZERO;
    BigInteger tenThousand = BigInteger.valueOf(10000);
    for (int i = 0; i < ndigits; i++) {
      int d = buf.getShort();
      if (d < 0 || d > 9999) {
        throw badBinary("numeric", "digit " + d);
      }
      unscaled = unscaled.multiply(tenThousand).add(BigInteger.valueOf(d));
    }
    BigDecimal value = new BigDecimal(unscaled, 4 * (ndigits - 1 - weight));
    value = value.setScale(dscale, RoundingMode.DOWN);
    if (sign == 0x4000) {
      value = value.negate();
    }
    return value.toPlainString();
  }

  // ---- parameters coming in ----------------------------------------------------------------

  /** OIDs of parameter types whose binary form {@link #parameterText} reads. */
  static final int OID_BOOL = 16;

  static final int OID_BYTEA = 17;
  static final int OID_NAME = 19;
  static final int OID_INT8 = 20;
  static final int OID_INT2 = 21;
  static final int OID_INT4 = 23;
  static final int OID_TEXT = 25;
  static final int OID_OID = 26;
  static final int OID_JSON = 114;
  static final int OID_FLOAT4 = 700;
  static final int OID_FLOAT8 = 701;
  static final int OID_UNKNOWN = 705;
  static final int OID_BPCHAR = 1042;
  static final int OID_VARCHAR = 1043;
  static final int OID_DATE = 1082;
  static final int OID_TIME = 1083;
  static final int OID_TIMESTAMP = 1114;
  static final int OID_TIMESTAMPTZ = 1184;
  static final int OID_NUMERIC = 1700;
  static final int OID_UUID = 2950;

  /**
   * A Bind parameter value as the text substituted into the command.
   *
   * @param oid the parameter's type from Parse (0 = unspecified)
   * @param binary whether the client sent it in binary format
   */
  static String parameterText(int parameter, int oid, boolean binary, byte[] value)
      throws PgException {
    if (!binary) {
      return utf8(value, parameter);
    }
    ByteBuffer buf = ByteBuffer.wrap(value);
    switch (oid) {
      case OID_UNSPECIFIED:
      case OID_TEXT:
      case OID_VARCHAR:
      case OID_BPCHAR:
      case OID_NAME:
      case OID_UNKNOWN:
      case OID_JSON:
        return utf8(value, parameter);
      case OID_BOOL:
        expectLength(parameter, "bool", value, 1);
        return value[0] != 0 ? "true" : "false";
      case OID_INT2:
        expectLength(parameter, "int2", value, 2);
        return Short.toString(buf.getShort());
      case OID_INT4:
        expectLength(parameter, "int4", value, 4);
        return Integer.toString(buf.getInt());
      case OID_OID:
        expectLength(parameter, "oid", value, 4);
        return Long.toString(buf.getInt() & 0xFFFFFFFFL);
      case OID_INT8:
        expectLength(parameter, "int8", value, 8);
        return Long.toString(buf.getLong());
      case OID_FLOAT4:
        expectLength(parameter, "float4", value, 4);
        return floatText(Double.parseDouble(Float.toString(buf.getFloat())), 1);
      case OID_FLOAT8:
        expectLength(parameter, "float8", value, 8);
        return floatText(buf.getDouble(), 1);
      case OID_NUMERIC:
        return numericFromBinary(value);
      case OID_BYTEA:
        return "\\x" + HexFormat.of().formatHex(value);
      case OID_UUID:
        expectLength(parameter, "uuid", value, 16);
        return new UUID(buf.getLong(), buf.getLong()).toString();
      case OID_DATE:
        {
          expectLength(parameter, "date", value, 4);
          int days = buf.getInt();
          if (days == Integer.MAX_VALUE) {
            return "infinity";
          }
          if (days == Integer.MIN_VALUE) {
            return "-infinity";
          }
          return LocalDate.ofEpochDay((long) days + PG_EPOCH_DAYS).toString();
        }
      case OID_TIME:
        {
          expectLength(parameter, "time", value, 8);
          StringBuilder sb = new StringBuilder();
          appendTime(sb, LocalTime.ofNanoOfDay(buf.getLong() * 1000));
          return sb.toString();
        }
      case OID_TIMESTAMP:
      case OID_TIMESTAMPTZ:
        {
          expectLength(parameter, "timestamp", value, 8);
          long micros = buf.getLong();
          if (micros == Long.MAX_VALUE) {
            return "infinity";
          }
          if (micros == Long.MIN_VALUE) {
            return "-infinity";
          }
          Instant instant =
              Instant.EPOCH.plus(Math.addExact(micros, PG_EPOCH_MICROS), ChronoUnit.MICROS);
          if (oid == OID_TIMESTAMPTZ) {
            return timestampText(instant, ZoneOffset.UTC);
          }
          LocalDateTime local = LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
          StringBuilder sb = new StringBuilder();
          sb.append(local.toLocalDate()).append(' ');
          appendTime(sb, local.toLocalTime());
          return sb.toString();
        }
      default:
        throw new PgException(
            PgSqlState.FEATURE_NOT_SUPPORTED,
            "binary format is not supported for parameter $" + parameter + " of type OID " + oid,
            0,
            "send the parameter in text format",
            null);
    }
  }

  static final int OID_UNSPECIFIED = 0;

  private static void expectLength(int parameter, String type, byte[] value, int length)
      throws PgException {
    if (value.length != length) {
      throw new PgException(
          "22P03",
          "incorrect binary data format in bind parameter "
              + parameter
              + ": "
              + type
              + " needs "
              + length
              + " bytes, got "
              + value.length);
    }
  }

  private static PgException badBinary(String type, String what) {
    return new PgException("22P03", "invalid binary " + type + " value: " + what);
  }

  /** Strict UTF-8 decoding of a text-format parameter. */
  static String utf8(byte[] value, int parameter) throws PgException {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(value))
          .toString();
    } catch (CharacterCodingException e) {
      throw new PgException(
          PgSqlState.CHARACTER_NOT_IN_REPERTOIRE,
          "invalid byte sequence for encoding \"UTF8\" in bind parameter " + parameter);
    }
  }
}
