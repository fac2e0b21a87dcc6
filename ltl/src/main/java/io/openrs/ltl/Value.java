package io.openrs.ltl;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;

/**
 * A typed column value. Every LTL value says its type, so the server can check it against the
 * replication definition without a catalog.
 *
 * <p>Times carry at most microsecond precision (the constructors refuse nanoseconds). Text is a
 * well-formed Unicode string (no lone surrogates; writers refuse one with an error naming it).
 */
public sealed interface Value {

  /** SQL NULL. */
  Null NULL = new Null();

  /** The source did not provide this value (PostgreSQL's unchanged TOASTed column): keep it. */
  Unchanged UNCHANGED = new Unchanged();

  /** Short name of the type as written in LTL ({@code i32}, {@code text}, ...). */
  String typeName();

  /** SQL NULL. */
  record Null() implements Value {
    @Override
    public String typeName() {
      return "null";
    }
  }

  /** Value not provided by the source; an applier leaves the column as it is. */
  record Unchanged() implements Value {
    @Override
    public String typeName() {
      return "unchanged";
    }
  }

  record Bool(boolean value) implements Value {
    public static final Bool TRUE = new Bool(true);
    public static final Bool FALSE = new Bool(false);

    public static Bool of(boolean value) {
      return value ? TRUE : FALSE;
    }

    @Override
    public String typeName() {
      return "bool";
    }
  }

  record Int16(short value) implements Value {
    @Override
    public String typeName() {
      return "i16";
    }
  }

  record Int32(int value) implements Value {
    @Override
    public String typeName() {
      return "i32";
    }
  }

  record Int64(long value) implements Value {
    @Override
    public String typeName() {
      return "i64";
    }
  }

  /** An exact decimal of any precision and scale (the scale is kept: 1.50 is not 1.5). */
  record Decimal(BigDecimal value) implements Value {
    public Decimal {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String typeName() {
      return "dec";
    }
  }

  /** A 32-bit IEEE float; equality is {@link Float#compare} (NaN equals NaN, -0.0 is not 0.0). */
  record Float32(float value) implements Value {
    @Override
    public String typeName() {
      return "f32";
    }
  }

  /** A 64-bit IEEE double; equality is {@link Double#compare}. */
  record Float64(double value) implements Value {
    @Override
    public String typeName() {
      return "f64";
    }
  }

  record Text(String value) implements Value {
    public Text {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String typeName() {
      return "text";
    }
  }

  /** Binary data; the array is copied in and out, never shared. */
  record Binary(byte[] value) implements Value {
    public Binary {
      value = value.clone();
    }

    @Override
    public byte[] value() {
      return value.clone();
    }

    /** Length in bytes, without copying. */
    public int length() {
      return value.length;
    }

    /** The byte at {@code index}, without copying. */
    public byte byteAt(int index) {
      return value[index];
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Binary other && Arrays.equals(value, other.value);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(value);
    }

    @Override
    public String toString() {
      return "Binary[" + HexBytes.format(value) + "]";
    }

    @Override
    public String typeName() {
      return "binary";
    }
  }

  record Date(LocalDate value) implements Value {
    public Date {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String typeName() {
      return "date";
    }
  }

  record Time(LocalTime value) implements Value {
    public Time {
      requireMicros(value.getNano(), value);
    }

    @Override
    public String typeName() {
      return "time";
    }
  }

  /** Timestamp without time zone. */
  record Timestamp(LocalDateTime value) implements Value {
    public Timestamp {
      requireMicros(value.getNano(), value);
    }

    @Override
    public String typeName() {
      return "ts";
    }
  }

  /** Timestamp with time zone; the offset is kept as the source gave it. */
  record TimestampTz(OffsetDateTime value) implements Value {
    public TimestampTz {
      requireMicros(value.getNano(), value);
    }

    @Override
    public String typeName() {
      return "tstz";
    }
  }

  record Uuid(UUID value) implements Value {
    public Uuid {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String typeName() {
      return "uuid";
    }
  }

  /** JSON document as text (not validated here; the replicate database checks it). */
  record Json(String value) implements Value {
    public Json {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String typeName() {
      return "json";
    }
  }

  private static void requireMicros(int nanos, Object value) {
    if (nanos % 1000 != 0) {
      throw new IllegalArgumentException(
          "LTL times carry microseconds at most, got " + value + " (" + nanos + " ns)");
    }
  }
}
