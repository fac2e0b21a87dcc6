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

  /**
   * A value beyond the finite numbers and instants that some sources store: {@code NaN} and {@code
   * ±Infinity} of an exact decimal (PostgreSQL {@code numeric}), {@code ±infinity} of a date or
   * timestamp (PostgreSQL {@code date}, {@code timestamp}, {@code timestamptz}). It is a value kind
   * of its own, not an in-band marker: no finite {@link Decimal}, {@link Date}, {@link Timestamp}
   * or {@link TimestampTz}, and no {@link Text}, equals it. Two non-finite values are equal when
   * domain and bound are ({@code dec NaN} equals {@code dec NaN}, as record equality says;
   * comparing them as SQL values is the replicate's business).
   *
   * @param domain the type it belongs to; {@link #typeName()} is that type's name
   * @param bound which one
   */
  record NonFinite(Domain domain, Bound bound) implements Value {
    public NonFinite {
      Objects.requireNonNull(domain, "domain");
      Objects.requireNonNull(bound, "bound");
      if (bound == Bound.NAN && domain != Domain.DEC) {
        throw new IllegalArgumentException("NaN is a decimal value, not a " + domain.typeName);
      }
    }

    /** The types that have non-finite values. */
    public enum Domain {
      DEC("dec"),
      DATE("date"),
      TS("ts"),
      TSTZ("tstz");

      private final String typeName;

      Domain(String typeName) {
        this.typeName = typeName;
      }

      /** The LTL type name ({@code dec}, {@code date}, {@code ts}, {@code tstz}). */
      public String typeName() {
        return typeName;
      }
    }

    /** Which non-finite value. */
    public enum Bound {
      /** Not a number (decimals only). */
      NAN,
      /** Greater than every finite value. */
      POSITIVE_INFINITY,
      /** Less than every finite value. */
      NEGATIVE_INFINITY
    }

    /**
     * The value as PostgreSQL writes it: {@code NaN}, {@code Infinity}, {@code -Infinity} for
     * decimals, {@code infinity}, {@code -infinity} for dates and timestamps.
     */
    public String sqlText() {
      return switch (bound) {
        case NAN -> "NaN";
        case POSITIVE_INFINITY -> domain == Domain.DEC ? "Infinity" : "infinity";
        case NEGATIVE_INFINITY -> domain == Domain.DEC ? "-Infinity" : "-infinity";
      };
    }

    @Override
    public String typeName() {
      return domain.typeName;
    }
  }

  /**
   * A value in its source database's own text form, for types LTL has no kind of its own for
   * (PostgreSQL arrays, ranges, bit strings, intervals, geometric, network and composite types,
   * enums, {@code hstore}, {@code timetz}, ...). An applier into the same kind of database takes
   * the text as a literal of that type, which is exact because it is the form the database itself
   * wrote; any other applier may take it only where its documented type mapping says so, and
   * otherwise stops with an error naming the column, type and value.
   *
   * <p>Equality is of all three components, exactly: a native value never equals a {@link Text} or
   * any other kind, even when its text spells the same thing.
   *
   * @param dialect the source database kind that wrote the text ({@code postgresql}): a lower-case
   *     word, {@code [a-z][a-z0-9_]*} (see {@link #isDialectName})
   * @param type the source's name of the column's type, as its catalog writes it (e.g. {@code
   *     _int4} for {@code integer[]}, {@code timetz}, {@code my_enum}); not empty
   * @param text the value as the source database writes it (may be empty)
   */
  record Native(String dialect, String type, String text) implements Value {
    public Native {
      Objects.requireNonNull(dialect, "dialect");
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(text, "text");
      if (dialect.isEmpty() || type.isEmpty()) {
        throw new IllegalArgumentException("a native value needs a dialect and a type");
      }
      if (!isDialectName(dialect)) {
        throw new IllegalArgumentException(
            "a native value's dialect is a lower-case word [a-z][a-z0-9_]*, got '" + dialect + "'");
      }
    }

    /** True if {@code s} is a valid {@link #dialect}: {@code [a-z][a-z0-9_]*}. */
    public static boolean isDialectName(String s) {
      if (s.isEmpty() || s.charAt(0) < 'a' || s.charAt(0) > 'z') {
        return false;
      }
      for (int i = 1; i < s.length(); i++) {
        char c = s.charAt(i);
        if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_')) {
          return false;
        }
      }
      return true;
    }

    @Override
    public String typeName() {
      return "native";
    }
  }

  private static void requireMicros(int nanos, Object value) {
    if (nanos % 1000 != 0) {
      throw new IllegalArgumentException(
          "LTL times carry microseconds at most, got " + value + " (" + nanos + " ns)");
    }
  }
}
