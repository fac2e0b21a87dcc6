package io.openrs.repagent;

import io.debezium.connector.postgresql.PostgresValueConverter;
import io.debezium.connector.postgresql.UnchangedToastedReplicationMessageColumn;
import io.debezium.data.SpecialValueDecimal;
import io.debezium.spi.converter.CustomConverter;
import io.debezium.spi.converter.RelationalColumn;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.Array;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.postgresql.util.PGobject;

/**
 * A Debezium custom converter for PostgreSQL columns that hands the agent each value exactly, as a
 * tagged string the agent decodes ({@link ValueConverter}), instead of Debezium's own Connect
 * types, which lose values: {@code numeric} NaN and ±Infinity become NULL and trailing zeros of an
 * unconstrained {@code numeric} are stripped, ±infinity dates and timestamps become far dates,
 * timestamps past year 294247 overflow, arrays become lists, bit strings bytes, composite values
 * bytes, and an unchanged TOASTed value becomes an in-band placeholder string that user data can
 * equal.
 *
 * <p>It sees the value as Debezium's PostgreSQL decoder resolved it from the text {@code pgoutput}
 * sent (or, in a snapshot, as JDBC read it), before any Connect conversion, and it recognises
 * Debezium's markers for "unchanged TOASTed value" and ±infinity by identity: they are objects of
 * their own, so no stored value can be taken for one. Registered for every column type but the
 * fixed-width ones Debezium already carries exactly ({@link #LEFT_TO_DEBEZIUM}), which can never be
 * TOASTed.
 *
 * <pre>
 * Tagged string (the Connect value of a converted column; Connect NULL is SQL NULL)
 * +-----+--------------------------------------------------------------+
 * | tag | rest                                                         |
 * +-----+--------------------------------------------------------------+
 *   u    (none)             unchanged TOASTed value: the source did not send it
 *   t    text               text, varchar, char, citext, name
 *   j    text               json, jsonb
 *   d    BigDecimal text    numeric, money (exact scale, may use an exponent: 1.5E+3)
 *   !    domain bound       non-finite: domain c dec | a date | s ts | z tstz,
 *                           bound N NaN | + infinity | - infinity
 *   a    epoch day          date
 *   s    sec,nanos          timestamp without time zone: epoch seconds of the local
 *                           date-time read as UTC, nano of second
 *   z    sec,nanos          timestamp with time zone, as an instant
 *   m    micros of day      time without time zone within a day
 *   b    0 | 1              boolean (a domain over boolean)
 *   i    integer text       int2, int4, int8 (a domain over one)
 *   f    float text         float4 (a domain over one); Float.toString, exact
 *   F    double text        float8 (a domain over one); Double.toString, exact
 *   n    text               anything else, as PostgreSQL writes it (arrays, ranges, bit
 *                           strings, intervals, geometric, network, enum, composite,
 *                           hstore, xml, timetz, time 24:00:00, ...)
 * Binary columns (bytea) are Connect BYTES instead: first byte 0 then the value, or the
 * single byte 1 for an unchanged TOASTed value.
 * </pre>
 *
 * The column's type name travels as the schema parameter {@link #TYPE_PARAMETER}.
 *
 * <p>Stateless; Debezium calls it from its connector thread.
 */
public final class PostgresColumnValues
    implements CustomConverter<SchemaBuilder, RelationalColumn> {

  /** The Connect schema name of a tagged string. */
  public static final String TAGGED_SCHEMA = "io.openrs.repagent.PostgresValue";

  /** The Connect schema name of a tagged binary value. */
  public static final String TAGGED_BYTES_SCHEMA = "io.openrs.repagent.PostgresBytes";

  /** The schema parameter that holds the column's PostgreSQL type name. */
  public static final String TYPE_PARAMETER = "openrs.type";

  /** The name this converter is registered under in the connector's properties. */
  static final String NAME = "openrs";

  /** Fixed-width types that Debezium carries exactly and PostgreSQL never TOASTs. */
  static final Set<String> LEFT_TO_DEBEZIUM =
      Set.of(
          "bool",
          "boolean",
          "int2",
          "smallint",
          "int4",
          "integer",
          "int",
          "int8",
          "bigint",
          "serial",
          "serial2",
          "serial4",
          "serial8",
          "smallserial",
          "bigserial",
          "float4",
          "real",
          "float8",
          "double precision",
          "oid",
          "uuid",
          "money");

  /**
   * The property naming tables ({@code schema.table}, comma-separated) whose columns keep
   * Debezium's own values: tables Debezium itself reads, such as materialization's signal table.
   */
  static final String SKIP_TABLES = "skip.tables";

  private Set<String> skipTables = Set.of();

  @Override
  public void configure(Properties props) {
    String skip = props.getProperty(SKIP_TABLES, "");
    skipTables =
        java.util.Arrays.stream(skip.split(","))
            .map(String::strip)
            .filter(t -> !t.isEmpty())
            .collect(java.util.stream.Collectors.toUnmodifiableSet());
  }

  /** Whether {@code dataCollection} ({@code [catalog.]schema.table}) is a skipped table. */
  private boolean skipped(String dataCollection) {
    if (dataCollection == null) {
      return false;
    }
    for (String t : skipTables) {
      if (dataCollection.equals(t) || dataCollection.endsWith("." + t)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void converterFor(
      RelationalColumn column, ConverterRegistration<SchemaBuilder> registration) {
    String type = column.typeName() == null ? "" : column.typeName().toLowerCase(Locale.ROOT);
    if (skipped(column.dataCollection())) {
      return; // Debezium reads this table itself (signals): its values stay Debezium's
    }
    if (LEFT_TO_DEBEZIUM.contains(type) || (type.equals("bit") && column.length().orElse(1) == 1)) {
      return; // bit(1) is a boolean for Debezium, exactly
    }
    if (type.equals("bytea")) {
      registration.register(
          SchemaBuilder.bytes()
              .optional()
              .name(TAGGED_BYTES_SCHEMA)
              .parameter(TYPE_PARAMETER, type),
          PostgresColumnValues::taggedBytes);
      return;
    }
    registration.register(
        SchemaBuilder.string().optional().name(TAGGED_SCHEMA).parameter(TYPE_PARAMETER, type),
        value -> tagged(type, value));
  }

  /** The tagged bytes of a bytea value. */
  static Object taggedBytes(Object value) {
    if (value == null) {
      return null;
    }
    if (UnchangedToastedReplicationMessageColumn.isUnchangedToastedValue(value)) {
      return new byte[] {1};
    }
    byte[] b;
    if (value instanceof byte[] bytes) {
      b = bytes;
    } else if (value instanceof ByteBuffer bb) {
      b = ValueConverter.bytes(bb);
    } else if (value instanceof PGobject o && o.getValue() != null) {
      return taggedBytes(hexBytes(o.getValue()));
    } else if (value instanceof String s) {
      return taggedBytes(hexBytes(s));
    } else {
      throw new IllegalArgumentException(
          "a bytea value of class " + value.getClass().getName() + " cannot be read");
    }
    byte[] out = new byte[b.length + 1];
    System.arraycopy(b, 0, out, 1, b.length);
    return out;
  }

  /** The tagged string of a value of PostgreSQL type {@code type} as Debezium resolved it. */
  static String tagged(String type, Object value) {
    if (value == null) {
      return null;
    }
    if (UnchangedToastedReplicationMessageColumn.isUnchangedToastedValue(value)) {
      return "u";
    }
    if (value instanceof String s) {
      return string(type, s);
    }
    if (value instanceof SpecialValueDecimal d) {
      return d.getDecimalValue().map(x -> "d" + x).orElseGet(() -> nonFiniteDecimal(d));
    }
    if (value instanceof BigDecimal d) {
      return "d" + d;
    }
    if (value instanceof LocalDate d) {
      return date(d);
    }
    if (value instanceof Instant i) {
      return timestamp(i);
    }
    if (value instanceof OffsetDateTime t) {
      return timestampTz(t);
    }
    if (value instanceof java.sql.Timestamp ts) {
      return jdbcTimestamp(type, ts);
    }
    if (value instanceof java.sql.Date d) {
      return jdbcDate(d);
    }
    if (value instanceof LocalDateTime t) {
      return timestamp(t.toInstant(ZoneOffset.UTC));
    }
    if (value instanceof OffsetTime t) {
      // Debezium 3.5 hands timetz over already moved to UTC: the source's offset is gone
      // (docs/repagent.md, Types).
      int offset = t.getOffset().getTotalSeconds();
      return "n" + t.toLocalTime() + (offset == 0 ? "+00" : t.getOffset().getId());
    }
    if (value instanceof LocalTime t) {
      return "m" + t.toNanoOfDay() / 1000;
    }
    if (value instanceof Boolean b) {
      return b ? "b1" : "b0";
    }
    if (value instanceof Short || value instanceof Integer || value instanceof Long) {
      return "i" + value;
    }
    if (value instanceof Float f) {
      return "f" + f;
    }
    if (value instanceof Double d) {
      return "F" + d;
    }
    if (value instanceof Array a) {
      // PgArray built from the text pgoutput sent: toString() is that text
      return "n" + a;
    }
    if (value instanceof PGobject o) {
      return o.getValue() == null ? null : "n" + o.getValue();
    }
    if (value instanceof java.util.Map<?, ?> m) {
      // hstore read by JDBC (a snapshot): the driver's own writer gives PostgreSQL's text form
      return "n" + org.postgresql.util.HStoreConverter.toString(m);
    }
    if (value instanceof byte[] b) {
      return "n" + new String(b, java.nio.charset.StandardCharsets.UTF_8);
    }
    return "n" + value;
  }

  private static String string(String type, String s) {
    switch (type) {
      case "text":
      case "varchar":
      case "character varying":
      case "bpchar":
      case "char":
      case "character":
      case "name":
      case "citext":
        return "t" + s;
      case "json":
      case "jsonb":
        return "j" + s;
      case "numeric":
      case "decimal":
        return numericText(s);
      case "time":
      case "time without time zone":
        return timeText(s);
      default:
        return "n" + s;
    }
  }

  /** A numeric read as text (a snapshot of a domain over numeric, say). */
  private static String numericText(String s) {
    switch (s) {
      case "NaN":
        return "!cN";
      case "Infinity":
        return "!c+";
      case "-Infinity":
        return "!c-";
      default:
        return "d" + new BigDecimal(s);
    }
  }

  /** A time of day as PostgreSQL writes it: within a day a time, 24:00:00 as PostgreSQL's text. */
  private static String timeText(String s) {
    if (s.startsWith("24:")) {
      return "n" + s;
    }
    return "m" + LocalTime.parse(s).toNanoOfDay() / 1000;
  }

  private static String nonFiniteDecimal(SpecialValueDecimal d) {
    double x = d.toDouble();
    if (Double.isNaN(x)) {
      return "!cN";
    }
    return x > 0 ? "!c+" : "!c-";
  }

  private static String date(LocalDate d) {
    if (d == PostgresValueConverter.POSITIVE_INFINITY_LOCAL_DATE) {
      return "!a+";
    }
    if (d == PostgresValueConverter.NEGATIVE_INFINITY_LOCAL_DATE) {
      return "!a-";
    }
    return "a" + d.toEpochDay();
  }

  private static String timestamp(Instant i) {
    if (i == PostgresValueConverter.POSITIVE_INFINITY_INSTANT) {
      return "!s+";
    }
    if (i == PostgresValueConverter.NEGATIVE_INFINITY_INSTANT) {
      return "!s-";
    }
    return "s" + i.getEpochSecond() + "," + i.getNano();
  }

  private static String timestampTz(OffsetDateTime t) {
    if (t == PostgresValueConverter.POSITIVE_INFINITY_OFFSET_DATE_TIME) {
      return "!z+";
    }
    if (t == PostgresValueConverter.NEGATIVE_INFINITY_OFFSET_DATE_TIME) {
      return "!z-";
    }
    Instant i = t.toInstant();
    return "z" + i.getEpochSecond() + "," + i.getNano();
  }

  /**
   * A snapshot's JDBC timestamp. pgjdbc reads {@code infinity} as a timestamp at {@code
   * PGStatement.DATE_POSITIVE_INFINITY} milliseconds, far outside PostgreSQL's range, so no stored
   * value equals it.
   */
  private static String jdbcTimestamp(String type, java.sql.Timestamp ts) {
    boolean tz = type.equals("timestamptz") || type.equals("timestamp with time zone");
    char domain = tz ? 'z' : 's';
    if (ts.getTime() == org.postgresql.PGStatement.DATE_POSITIVE_INFINITY) {
      return "!" + domain + "+";
    }
    if (ts.getTime() == org.postgresql.PGStatement.DATE_NEGATIVE_INFINITY) {
      return "!" + domain + "-";
    }
    Instant i = tz ? ts.toInstant() : ts.toLocalDateTime().toInstant(ZoneOffset.UTC);
    return domain + Long.toString(i.getEpochSecond()) + "," + i.getNano();
  }

  private static String jdbcDate(java.sql.Date d) {
    if (d.getTime() == org.postgresql.PGStatement.DATE_POSITIVE_INFINITY) {
      return "!a+";
    }
    if (d.getTime() == org.postgresql.PGStatement.DATE_NEGATIVE_INFINITY) {
      return "!a-";
    }
    return "a" + d.toLocalDate().toEpochDay();
  }

  private static byte[] hexBytes(String s) {
    String hex = s.startsWith("\\x") ? s.substring(2) : s;
    byte[] out = new byte[hex.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return out;
  }
}
