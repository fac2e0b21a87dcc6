package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.ltl.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class ValueConverterTest {

  private final ValueConverter converter = new ValueConverter();

  /**
   * Converts through both paths, {@link ValueConverter#convert} and the per-schema converter row
   * images use, which must agree.
   */
  private final Conversions c = new Conversions();

  private final class Conversions {
    Value convert(Schema schema, Object value) {
      Value direct = converter.convert(schema, value);
      assertThat(converter.converterFor(schema).convert(value))
          .as("the per-schema converter of %s", schema)
          .isEqualTo(direct);
      return direct;
    }
  }

  private static Schema named(Schema.Type type, String name) {
    return SchemaBuilder.type(type).name(name).optional().build();
  }

  @Test
  void decimalsKeepTheirScale() {
    assertThat(c.convert(Decimal.schema(2), new BigDecimal("1.50")))
        .isEqualTo(new Value.Decimal(new BigDecimal("1.50")));
    Schema vsd =
        SchemaBuilder.struct()
            .name("io.debezium.data.VariableScaleDecimal")
            .field("scale", Schema.INT32_SCHEMA)
            .field("value", Schema.BYTES_SCHEMA)
            .build();
    Struct v =
        new Struct(vsd).put("scale", 3).put("value", BigInteger.valueOf(-12345).toByteArray());
    assertThat(c.convert(vsd, v)).isEqualTo(new Value.Decimal(new BigDecimal("-12.345")));
  }

  /** The binlog's YEAR 0000 reaches the agent as 1900 (Debezium adds 1900 to the stored byte). */
  @Test
  void yearZeroStaysZero() {
    Schema year = named(Schema.Type.INT32, "io.debezium.time.Year");
    assertThat(c.convert(year, 1900)).isEqualTo(new Value.Int32(0));
    assertThat(c.convert(year, 1901)).isEqualTo(new Value.Int32(1901));
    assertThat(c.convert(year, 2155)).isEqualTo(new Value.Int32(2155));
  }

  @Test
  void timesKeepMicroseconds() {
    assertThat(c.convert(named(Schema.Type.INT64, "io.debezium.time.MicroTime"), 86_399_999_999L))
        .isEqualTo(new Value.Time(LocalTime.parse("23:59:59.999999")));
    assertThat(c.convert(named(Schema.Type.INT64, "io.debezium.time.MicroTimestamp"), -1L))
        .isEqualTo(new Value.Timestamp(LocalDateTime.parse("1969-12-31T23:59:59.999999")));
    assertThat(c.convert(named(Schema.Type.INT32, "io.debezium.time.Date"), -1))
        .isEqualTo(new Value.Date(LocalDate.parse("1969-12-31")));
    // MySQL TIME beyond a day (838:59:59) is text: LTL times are times of day.
    assertThat(
            c.convert(named(Schema.Type.INT64, "io.debezium.time.MicroTime"), -3_020_399_000_000L))
        .isEqualTo(new Value.Text("-838:59:59.000000"));
  }

  @Test
  void onlyTheUnchangedTagIsUnchangedAndNoStringIs() {
    Schema tagged =
        SchemaBuilder.string()
            .optional()
            .name(PostgresColumnValues.TAGGED_SCHEMA)
            .parameter(PostgresColumnValues.TYPE_PARAMETER, "text")
            .build();
    assertThat(c.convert(tagged, "u")).isEqualTo(Value.UNCHANGED);
    assertThat(c.convert(tagged, "tu")).isEqualTo(new Value.Text("u"));
    assertThat(c.convert(tagged, "t__openrs_unchanged_toast_value__"))
        .isEqualTo(new Value.Text("__openrs_unchanged_toast_value__"));
    assertThat(c.convert(Schema.OPTIONAL_STRING_SCHEMA, "__openrs_unchanged_toast_value__"))
        .isEqualTo(new Value.Text("__openrs_unchanged_toast_value__"));
    Schema bytes =
        SchemaBuilder.bytes().optional().name(PostgresColumnValues.TAGGED_BYTES_SCHEMA).build();
    assertThat(c.convert(bytes, new byte[] {1})).isEqualTo(Value.UNCHANGED);
    assertThat(c.convert(bytes, new byte[] {0, 1})).isEqualTo(new Value.Binary(new byte[] {1}));
    assertThat(c.convert(bytes, new byte[] {0})).isEqualTo(new Value.Binary(new byte[0]));
  }

  @Test
  void postgresValuesKeepWhatDebeziumWouldLose() {
    Schema numeric =
        SchemaBuilder.string()
            .optional()
            .name(PostgresColumnValues.TAGGED_SCHEMA)
            .parameter(PostgresColumnValues.TYPE_PARAMETER, "numeric")
            .build();
    assertThat(
            c.convert(
                numeric,
                PostgresColumnValues.tagged(
                    "numeric",
                    new io.debezium.data.SpecialValueDecimal(new java.math.BigDecimal("1.500")))))
        .isEqualTo(new Value.Decimal(new java.math.BigDecimal("1.500")));
    assertThat(
            c.convert(
                numeric,
                PostgresColumnValues.tagged(
                    "numeric", io.debezium.data.SpecialValueDecimal.NOT_A_NUMBER)))
        .isEqualTo(new Value.NonFinite(Value.NonFinite.Domain.DEC, Value.NonFinite.Bound.NAN));
    assertThat(
            c.convert(
                numeric,
                PostgresColumnValues.tagged(
                    "numeric", io.debezium.data.SpecialValueDecimal.NEGATIVE_INF)))
        .isEqualTo(
            new Value.NonFinite(
                Value.NonFinite.Domain.DEC, Value.NonFinite.Bound.NEGATIVE_INFINITY));
    // Debezium's infinity markers are told from real values by identity, not by value.
    assertThat(
            PostgresColumnValues.tagged(
                "timestamp",
                io.debezium.connector.postgresql.PostgresValueConverter.POSITIVE_INFINITY_INSTANT))
        .isEqualTo("!s+");
    java.time.Instant sameInstant =
        java.time.Instant.ofEpochSecond(
            io.debezium.connector.postgresql.PostgresValueConverter.POSITIVE_INFINITY_INSTANT
                .getEpochSecond(),
            io.debezium.connector.postgresql.PostgresValueConverter.POSITIVE_INFINITY_INSTANT
                .getNano());
    assertThat(PostgresColumnValues.tagged("timestamp", sameInstant)).startsWith("s");
    assertThat(
            PostgresColumnValues.tagged(
                "date",
                io.debezium.connector.postgresql.PostgresValueConverter
                    .NEGATIVE_INFINITY_LOCAL_DATE))
        .isEqualTo("!a-");
  }

  @Test
  void primitivesAndNull() {
    assertThat(c.convert(Schema.OPTIONAL_INT8_SCHEMA, (byte) -128))
        .isEqualTo(new Value.Int16((short) -128));
    assertThat(c.convert(Schema.OPTIONAL_INT64_SCHEMA, null)).isEqualTo(Value.NULL);
    assertThat(c.convert(Schema.OPTIONAL_BYTES_SCHEMA, new byte[] {1, 2}))
        .isEqualTo(new Value.Binary(new byte[] {1, 2}));
    Schema arr = SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA).optional().build();
    assertThat(c.convert(arr, java.util.Arrays.asList("a\"b", null)))
        .isEqualTo(new Value.Json("[\"a\\\"b\",null]"));
  }

  /** An hstore read by JDBC (a snapshot) is a map: it travels as PostgreSQL's text of it. */
  @Test
  void anHstoreReadAsAMapTravelsAsPostgresText() {
    java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
    m.put("a \"b\"", "1\\2");
    m.put("n", null);
    String tagged = PostgresColumnValues.tagged("hstore", m);
    assertThat(tagged).isEqualTo("n\"a \\\"b\\\"\"=>\"1\\\\2\", \"n\"=>NULL");
  }
}
