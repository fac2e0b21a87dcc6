package io.openrs.repagent;

import io.openrs.ltl.Value;
import io.openrs.ltl.Value.NonFinite.Bound;
import io.openrs.ltl.Value.NonFinite.Domain;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import org.apache.kafka.connect.data.Schema;

/**
 * Decodes {@link PostgresColumnValues}' tagged values (the layout is drawn there) into LTL values.
 * Stateless.
 */
final class PostgresTagged {
  private static final String DIALECT = "postgresql";

  private PostgresTagged() {}

  /** The PostgreSQL type name a tagged schema carries. */
  static String typeOf(Schema schema) {
    String t =
        schema.parameters() == null
            ? null
            : schema.parameters().get(PostgresColumnValues.TYPE_PARAMETER);
    return t == null ? "unknown" : t;
  }

  /** The LTL value of a tagged binary value. */
  static Value decodeBytes(byte[] tagged) {
    if (tagged.length == 1 && tagged[0] == 1) {
      return Value.UNCHANGED;
    }
    if (tagged.length == 0 || tagged[0] != 0) {
      throw new IllegalArgumentException(
          "a tagged bytea value starts with " + (tagged.length == 0 ? "nothing" : tagged[0]));
    }
    return new Value.Binary(Arrays.copyOfRange(tagged, 1, tagged.length));
  }

  /** The LTL value of tagged string {@code s} of a column of PostgreSQL type {@code type}. */
  static Value decode(String type, String s) {
    if (s.isEmpty()) {
      throw new IllegalArgumentException("an empty tagged value of type " + type);
    }
    String rest = s.substring(1);
    switch (s.charAt(0)) {
      case 'u':
        return Value.UNCHANGED;
      case 't':
        return new Value.Text(rest);
      case 'j':
        return new Value.Json(rest);
      case 'd':
        return new Value.Decimal(new BigDecimal(rest));
      case '!':
        return nonFinite(rest);
      case 'a':
        return new Value.Date(LocalDate.ofEpochDay(Long.parseLong(rest)));
      case 's':
        return new Value.Timestamp(LocalDateTime.ofInstant(instant(rest), ZoneOffset.UTC));
      case 'z':
        return new Value.TimestampTz(OffsetDateTime.ofInstant(instant(rest), ZoneOffset.UTC));
      case 'm':
        return new Value.Time(LocalTime.ofNanoOfDay(Long.parseLong(rest) * 1000L));
      case 'b':
        return Value.Bool.of(rest.equals("1"));
      case 'i':
        return integer(Long.parseLong(rest));
      case 'f':
        return new Value.Float32(Float.parseFloat(rest));
      case 'F':
        return new Value.Float64(Double.parseDouble(rest));
      case 'n':
        return new Value.Native(DIALECT, type, rest);
      default:
        throw new IllegalArgumentException(
            "a tagged value of type " + type + " has the unknown tag '" + s.charAt(0) + "'");
    }
  }

  private static Value integer(long v) {
    if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
      return new Value.Int16((short) v);
    }
    if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
      return new Value.Int32((int) v);
    }
    return new Value.Int64(v);
  }

  private static Instant instant(String secondsComma) {
    int comma = secondsComma.indexOf(',');
    return Instant.ofEpochSecond(
        Long.parseLong(secondsComma.substring(0, comma)),
        Long.parseLong(secondsComma.substring(comma + 1)));
  }

  private static Value nonFinite(String two) {
    Domain domain =
        switch (two.charAt(0)) {
          case 'c' -> Domain.DEC;
          case 'a' -> Domain.DATE;
          case 's' -> Domain.TS;
          case 'z' -> Domain.TSTZ;
          default -> throw new IllegalArgumentException("non-finite domain '" + two + "'");
        };
    Bound bound =
        switch (two.charAt(1)) {
          case 'N' -> Bound.NAN;
          case '+' -> Bound.POSITIVE_INFINITY;
          case '-' -> Bound.NEGATIVE_INFINITY;
          default -> throw new IllegalArgumentException("non-finite bound '" + two + "'");
        };
    return new Value.NonFinite(domain, bound);
  }
}
