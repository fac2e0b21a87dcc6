package io.openrs.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Values in PostgreSQL's text and binary forms. */
class PgValuesTest {
  private static String text(PgType type, Object value) {
    return new String(
        PgValues.text(type, value, PgValues.TextStyle.DEFAULT), StandardCharsets.UTF_8);
  }

  @Test
  void floatsAsFloat8outWritesThem() {
    assertThat(PgValues.floatText(1.5, 1)).isEqualTo("1.5");
    assertThat(PgValues.floatText(100, 1)).isEqualTo("100");
    assertThat(PgValues.floatText(1e15, 1)).isEqualTo("1e+15");
    assertThat(PgValues.floatText(123456789012345.0, 1)).isEqualTo("123456789012345");
    assertThat(PgValues.floatText(0.0001, 1)).isEqualTo("0.0001");
    assertThat(PgValues.floatText(0.00001234, 1)).isEqualTo("1.234e-05");
    assertThat(PgValues.floatText(-2.5e-300, 1)).isEqualTo("-2.5e-300");
    assertThat(PgValues.floatText(0.1 + 0.2, 1)).isEqualTo("0.30000000000000004");
    assertThat(PgValues.floatText(0.1 + 0.2, 0)).isEqualTo("0.3");
    assertThat(PgValues.floatText(Math.PI, -10)).isEqualTo("3.1416");
    assertThat(PgValues.floatText(-0.0, 1)).isEqualTo("-0");
    assertThat(PgValues.floatText(Double.NaN, 1)).isEqualTo("NaN");
    assertThat(PgValues.floatText(Double.NEGATIVE_INFINITY, 1)).isEqualTo("-Infinity");
  }

  @Test
  void theShortestFormReadsBackExactly() {
    Random random = new Random(42);
    for (int i = 0; i < 10_000; i++) {
      double d = Double.longBitsToDouble(random.nextLong());
      if (Double.isNaN(d)) {
        continue;
      }
      String text = PgValues.floatText(d, 1);
      assertThat(Double.parseDouble(text)).as("seed 42, %s", text).isEqualTo(d);
    }
  }

  @Test
  void timestampsAsTimestamptzOutWritesThemInIsoStyle() {
    Instant t = Instant.parse("2024-03-01T12:34:56.789Z");
    assertThat(PgValues.timestampText(t, ZoneOffset.UTC)).isEqualTo("2024-03-01 12:34:56.789+00");
    assertThat(PgValues.timestampText(t, ZoneId.of("Asia/Kolkata")))
        .isEqualTo("2024-03-01 18:04:56.789+05:30");
    assertThat(PgValues.timestampText(Instant.parse("2024-03-01T12:00:00Z"), ZoneOffset.UTC))
        .isEqualTo("2024-03-01 12:00:00+00");
    assertThat(PgValues.timestampText(Instant.parse("2024-03-01T12:00:00.000001Z"), ZoneOffset.UTC))
        .isEqualTo("2024-03-01 12:00:00.000001+00");
    assertThat(text(PgType.TIMESTAMPTZ, OffsetDateTime.parse("2024-03-01T12:00:00-02:00")))
        .isEqualTo("2024-03-01 14:00:00+00");
  }

  @Test
  void otherTypesInText() {
    assertThat(text(PgType.BOOL, false)).isEqualTo("f");
    assertThat(text(PgType.BYTEA, new byte[] {0, 10, (byte) 255})).isEqualTo("\\x000aff");
    assertThat(text(PgType.INT8, 7)).isEqualTo("7");
    assertThat(text(PgType.NUMERIC, new BigDecimal("1E+3"))).isEqualTo("1000");
    assertThat(text(PgType.TEXT, 5)).isEqualTo("5");
    assertThat(PgValues.text(PgType.INT4, null, PgValues.TextStyle.DEFAULT)).isNull();
  }

  @Test
  void aValueThatDoesNotFitItsColumnIsRefused() {
    assertThatThrownBy(() -> text(PgType.INT4, 1L << 40))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("out of range for int4");
    assertThatThrownBy(() -> text(PgType.INT4, "12"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.String cannot be sent as int4");
    assertThatThrownBy(() -> PgValues.binary(PgType.BOOL, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void numericBinaryRoundTrips() throws Exception {
    for (String s :
        new String[] {
          "0",
          "1",
          "-1",
          "10000",
          "12345.6789",
          "-0.0001",
          "0.00000001",
          "123456789012345678901234.5",
          "1E+12",
          "100.100",
          "-99999999.99990000"
        }) {
      BigDecimal value = new BigDecimal(s);
      assertThat(new BigDecimal(PgValues.numericFromBinary(PgValues.numericBinary(value))))
          .as(s)
          .isEqualTo(value.scale() < 0 ? value.setScale(0) : value);
    }
    // 12345.6789 is ndigits 2, weight 1, sign +, dscale 4, digits 1 2345 6789
    ByteBuffer b = ByteBuffer.wrap(PgValues.numericBinary(new BigDecimal("12345.6789")));
    assertThat(new short[] {b.getShort(), b.getShort(), b.getShort(), b.getShort()})
        .containsExactly(3, 1, 0, 4);
    assertThat(new short[] {b.getShort(), b.getShort(), b.getShort()})
        .containsExactly(1, 2345, 6789);
  }

  @Test
  void binaryParametersBecomeText() throws Exception {
    assertThat(PgValues.parameterText(1, 23, true, ByteBuffer.allocate(4).putInt(-5).array()))
        .isEqualTo("-5");
    assertThat(PgValues.parameterText(1, 16, true, new byte[] {1})).isEqualTo("true");
    assertThat(PgValues.parameterText(1, 17, true, new byte[] {1, 2})).isEqualTo("\\x0102");
    assertThat(PgValues.parameterText(1, 1082, true, ByteBuffer.allocate(4).putInt(1).array()))
        .isEqualTo("2000-01-02");
    assertThat(
            PgValues.parameterText(
                1, 1114, true, ByteBuffer.allocate(8).putLong(1_500_000L).array()))
        .isEqualTo("2000-01-01 00:00:01.5");
    assertThat(PgValues.parameterText(1, 0, false, "é".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("é");
    assertThatThrownBy(() -> PgValues.parameterText(2, 23, true, new byte[3]))
        .isInstanceOfSatisfying(
            PgException.class, e -> assertThat(e.sqlState()).isEqualTo("22P03"));
    assertThatThrownBy(() -> PgValues.parameterText(2, 600, true, new byte[16]))
        .isInstanceOfSatisfying(
            PgException.class, e -> assertThat(e.sqlState()).isEqualTo("0A000"));
    assertThatThrownBy(() -> PgValues.parameterText(3, 25, false, new byte[] {(byte) 0xC3}))
        .isInstanceOfSatisfying(
            PgException.class, e -> assertThat(e.sqlState()).isEqualTo("22021"));
  }
}
