package io.openrs.repagent;

import io.openrs.ltl.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Turns a Kafka Connect value as Debezium's connectors produce it (with {@code
 * decimal.handling.mode=precise}, {@code time.precision.mode=adaptive_time_microseconds}, {@code
 * binary.handling.mode=bytes}) into a typed LTL {@link Value}, exactly: decimals keep their scale,
 * times their microseconds, binary its bytes. PostgreSQL columns other than the fixed-width ones
 * arrive as {@link PostgresColumnValues}' tagged values, whose "unchanged TOASTed value" tag
 * becomes {@link Value#UNCHANGED} (a flag, never a string that user data could equal). The mapping
 * per type is the table in {@code docs/repagent.md}.
 *
 * <p>Stateless; thread-safe.
 */
public final class ValueConverter {

  /** Converts {@code value} of schema {@code schema}. */
  public Value convert(Schema schema, Object value) {
    if (value == null) {
      return Value.NULL;
    }
    Logical kind = schema.name() == null ? null : Logical.of(schema.name());
    if (kind != null) {
      return logical(kind, schema, value);
    }
    return plain(schema, value);
  }

  /** Converts values of one schema, which it resolved once (same results as {@link #convert}). */
  @FunctionalInterface
  interface Converter {
    Value convert(Object value);
  }

  /** A {@link Converter} for values of {@code schema}. */
  Converter converterFor(Schema schema) {
    Logical kind = schema.name() == null ? null : Logical.of(schema.name());
    if (kind == Logical.POSTGRES_VALUE) {
      String type = PostgresTagged.typeOf(schema);
      return v -> v == null ? Value.NULL : PostgresTagged.decode(type, (String) v);
    }
    if (kind != null) {
      return v -> v == null ? Value.NULL : logical(kind, schema, v);
    }
    return v -> v == null ? Value.NULL : plain(schema, v);
  }

  /** The logical types Debezium's connectors produce that map to their own LTL kinds. */
  enum Logical {
    DECIMAL,
    VARIABLE_SCALE_DECIMAL,
    DATE,
    CONNECT_DATE,
    TIME,
    MICRO_TIME,
    NANO_TIME,
    TIMESTAMP,
    MICRO_TIMESTAMP,
    NANO_TIMESTAMP,
    CONNECT_TIMESTAMP,
    ZONED_TIMESTAMP,
    UUID,
    JSON,
    BITS,
    YEAR,
    POSTGRES_VALUE,
    POSTGRES_BYTES;

    static Logical of(String name) {
      switch (name) {
        case "org.apache.kafka.connect.data.Decimal":
          return DECIMAL;
        case "io.debezium.data.VariableScaleDecimal":
          return VARIABLE_SCALE_DECIMAL;
        case "io.debezium.time.Date":
          return DATE;
        case "org.apache.kafka.connect.data.Date":
          return CONNECT_DATE;
        case "io.debezium.time.Time":
          return TIME;
        case "io.debezium.time.MicroTime":
          return MICRO_TIME;
        case "io.debezium.time.NanoTime":
          return NANO_TIME;
        case "io.debezium.time.Timestamp":
          return TIMESTAMP;
        case "io.debezium.time.MicroTimestamp":
          return MICRO_TIMESTAMP;
        case "io.debezium.time.NanoTimestamp":
          return NANO_TIMESTAMP;
        case "org.apache.kafka.connect.data.Timestamp":
          return CONNECT_TIMESTAMP;
        case "io.debezium.time.ZonedTimestamp":
          return ZONED_TIMESTAMP;
        case "io.debezium.data.Uuid":
          return UUID;
        case "io.debezium.data.Json":
          return JSON;
        case "io.debezium.data.Bits":
          return BITS;
        case "io.debezium.time.Year":
          return YEAR;
        case PostgresColumnValues.TAGGED_SCHEMA:
          return POSTGRES_VALUE;
        case PostgresColumnValues.TAGGED_BYTES_SCHEMA:
          return POSTGRES_BYTES;
        default:
          return null;
      }
    }
  }

  /** A value of a schema without a logical type of its own. */
  private Value plain(Schema schema, Object value) {
    switch (schema.type()) {
      case INT8:
        return new Value.Int16(((Number) value).shortValue());
      case INT16:
        return new Value.Int16(((Number) value).shortValue());
      case INT32:
        return new Value.Int32(((Number) value).intValue());
      case INT64:
        return new Value.Int64(((Number) value).longValue());
      case FLOAT32:
        return new Value.Float32(((Number) value).floatValue());
      case FLOAT64:
        return new Value.Float64(((Number) value).doubleValue());
      case BOOLEAN:
        return Value.Bool.of((Boolean) value);
      case STRING:
        return new Value.Text((String) value);
      case BYTES:
        return new Value.Binary(bytes(value));
      case ARRAY:
        return new Value.Json(json(schema, value));
      case MAP:
      case STRUCT:
        return new Value.Json(json(schema, value));
      default:
        throw new IllegalArgumentException("no LTL value for Connect type " + schema.type());
    }
  }

  private static Value logical(Logical kind, Schema schema, Object value) {
    switch (kind) {
      case POSTGRES_VALUE:
        return PostgresTagged.decode(PostgresTagged.typeOf(schema), (String) value);
      case POSTGRES_BYTES:
        return PostgresTagged.decodeBytes(bytes(value));
      case DECIMAL:
        return new Value.Decimal((BigDecimal) value);
      case VARIABLE_SCALE_DECIMAL:
        {
          Struct s = (Struct) value;
          byte[] unscaled = bytes(s.get("value"));
          return new Value.Decimal(new BigDecimal(new BigInteger(unscaled), s.getInt32("scale")));
        }
      case DATE:
        return new Value.Date(LocalDate.ofEpochDay(((Number) value).longValue()));
      case CONNECT_DATE:
        return new Value.Date(
            LocalDate.ofEpochDay(Math.floorDiv(((java.util.Date) value).getTime(), 86_400_000L)));
      case TIME:
        return time(((Number) value).longValue() * 1000L);
      case MICRO_TIME:
        return time(((Number) value).longValue());
      case NANO_TIME:
        {
          long nanos = ((Number) value).longValue();
          if (nanos % 1000 != 0) {
            return new Value.Text(LocalTime.ofNanoOfDay(nanos).toString());
          }
          return time(nanos / 1000);
        }
      case TIMESTAMP:
        return new Value.Timestamp(localDateTime(((Number) value).longValue() * 1000L));
      case MICRO_TIMESTAMP:
        return new Value.Timestamp(localDateTime(((Number) value).longValue()));
      case NANO_TIMESTAMP:
        {
          long nanos = ((Number) value).longValue();
          return new Value.Timestamp(localDateTime(Math.floorDiv(nanos, 1000L)));
        }
      case CONNECT_TIMESTAMP:
        return new Value.Timestamp(
            localDateTime(Math.multiplyExact(((java.util.Date) value).getTime(), 1000L)));
      case ZONED_TIMESTAMP:
        try {
          return new Value.TimestampTz(OffsetDateTime.parse((String) value));
        } catch (DateTimeParseException e) {
          return new Value.Text((String) value);
        }
      case UUID:
        return new Value.Uuid(java.util.UUID.fromString((String) value));
      case JSON:
        return new Value.Json((String) value);
      case BITS:
        return new Value.Binary(mostSignificantFirst(bytes(value)));
      case YEAR:
        return new Value.Int32(year(((Number) value).intValue()));
      default:
        throw new IllegalStateException("no conversion for " + kind);
    }
  }

  /**
   * A MySQL/MariaDB {@code YEAR}. The binlog stores it as one byte, years since 1900, with 0 for
   * the year {@code 0000}, and Debezium reads that byte as 1900 + byte: so 1900, which no {@code
   * YEAR} column can hold (1901..2155 and 0000), is {@code 0000}.
   */
  static int year(int debeziumYear) {
    return debeziumYear == 1900 ? 0 : debeziumYear;
  }

  /** A time of day from microseconds since midnight; outside a day (MySQL TIME) it is text. */
  private static Value time(long micros) {
    if (micros >= 0 && micros < 86_400_000_000L) {
      return new Value.Time(LocalTime.ofNanoOfDay(micros * 1000L));
    }
    long abs = Math.abs(micros);
    long h = abs / 3_600_000_000L;
    long m = abs / 60_000_000L % 60;
    long s = abs / 1_000_000L % 60;
    long f = abs % 1_000_000L;
    return new Value.Text(
        String.format("%s%02d:%02d:%02d.%06d", micros < 0 ? "-" : "", h, m, s, f));
  }

  private static LocalDateTime localDateTime(long micros) {
    long seconds = Math.floorDiv(micros, 1_000_000L);
    long nanos = Math.floorMod(micros, 1_000_000L) * 1000L;
    return LocalDateTime.ofInstant(Instant.ofEpochSecond(seconds, nanos), ZoneOffset.UTC);
  }

  /**
   * A bit string's bytes most significant first, as MariaDB shows and stores them: Debezium's
   * {@code io.debezium.data.Bits} holds them least significant first.
   */
  private static byte[] mostSignificantFirst(byte[] littleEndian) {
    byte[] out = new byte[littleEndian.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = littleEndian[littleEndian.length - 1 - i];
    }
    return out;
  }

  static byte[] bytes(Object value) {
    if (value instanceof byte[] b) {
      return b;
    }
    ByteBuffer bb = ((ByteBuffer) value).duplicate();
    byte[] b = new byte[bb.remaining()];
    bb.get(b);
    return b;
  }

  /** A JSON rendering of arrays, maps and structs (LTL has no such types). */
  private String json(Schema schema, Object value) {
    StringBuilder b = new StringBuilder();
    appendJson(schema, value, b);
    return b.toString();
  }

  private void appendJson(Schema schema, Object value, StringBuilder b) {
    if (value == null) {
      b.append("null");
      return;
    }
    switch (schema.type()) {
      case ARRAY:
        {
          b.append('[');
          Iterator<?> it = ((Collection<?>) value).iterator();
          while (it.hasNext()) {
            appendJson(schema.valueSchema(), it.next(), b);
            if (it.hasNext()) {
              b.append(',');
            }
          }
          b.append(']');
          return;
        }
      case MAP:
        {
          b.append('{');
          Iterator<? extends Map.Entry<?, ?>> it = ((Map<?, ?>) value).entrySet().iterator();
          while (it.hasNext()) {
            Map.Entry<?, ?> e = it.next();
            quote(String.valueOf(e.getKey()), b);
            b.append(':');
            appendJson(schema.valueSchema(), e.getValue(), b);
            if (it.hasNext()) {
              b.append(',');
            }
          }
          b.append('}');
          return;
        }
      case STRUCT:
        {
          b.append('{');
          Struct s = (Struct) value;
          boolean first = true;
          for (Field f : schema.fields()) {
            if (!first) {
              b.append(',');
            }
            first = false;
            quote(f.name(), b);
            b.append(':');
            appendJson(f.schema(), s.get(f), b);
          }
          b.append('}');
          return;
        }
      default:
        break;
    }
    Value v = convert(schema, value);
    if (v instanceof Value.Int16
        || v instanceof Value.Int32
        || v instanceof Value.Int64
        || v instanceof Value.Bool) {
      b.append(scalar(v));
    } else if (v instanceof Value.Decimal d) {
      b.append(d.value().toPlainString());
    } else if (v instanceof Value.Float64 f && Double.isFinite(f.value())) {
      b.append(f.value());
    } else if (v instanceof Value.Float32 f && Float.isFinite(f.value())) {
      b.append(f.value());
    } else if (v instanceof Value.Json j) {
      b.append(j.value());
    } else if (v instanceof Value.Binary bin) {
      StringBuilder hex = new StringBuilder("\\x");
      for (byte x : bin.value()) {
        hex.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
      }
      quote(hex.toString(), b);
    } else {
      quote(scalar(v), b);
    }
  }

  private static String scalar(Value v) {
    if (v instanceof Value.Int16 i) {
      return Short.toString(i.value());
    } else if (v instanceof Value.Int32 i) {
      return Integer.toString(i.value());
    } else if (v instanceof Value.Int64 i) {
      return Long.toString(i.value());
    } else if (v instanceof Value.Bool x) {
      return Boolean.toString(x.value());
    } else if (v instanceof Value.Text t) {
      return t.value();
    } else if (v instanceof Value.Date d) {
      return d.value().toString();
    } else if (v instanceof Value.Time t) {
      return t.value().toString();
    } else if (v instanceof Value.Timestamp t) {
      return t.value().toString();
    } else if (v instanceof Value.TimestampTz t) {
      return t.value().toString();
    } else if (v instanceof Value.Uuid u) {
      return u.value().toString();
    } else if (v instanceof Value.Float32 f) {
      return Float.toString(f.value());
    } else if (v instanceof Value.Float64 f) {
      return Double.toString(f.value());
    }
    return v.toString();
  }

  private static void quote(String s, StringBuilder b) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          b.append("\\\"");
          break;
        case '\\':
          b.append("\\\\");
          break;
        case '\n':
          b.append("\\n");
          break;
        case '\r':
          b.append("\\r");
          break;
        case '\t':
          b.append("\\t");
          break;
        default:
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
      }
    }
    b.append('"');
  }
}
