package io.openrs.ltl.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import io.openrs.ltl.Value.NonFinite.Bound;
import io.openrs.ltl.Value.NonFinite.Domain;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The text syntax of non-finite values ({@code dec NaN}, {@code date -infinity}, ...) and native
 * values ({@code native postgresql '_int4' '{1,NULL,3}'}): exact round trips, and malformed ones
 * refused with line, column and what was expected.
 */
class NonFiniteAndNativeTextTest {
  private static final String PREFIX = "insert tran 0x01 oqid 0x01 s.t after (a=";

  private final LtlParser parser = new LtlParser();
  private final LtlWriter writer = new LtlWriter();

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
          dec NaN        | DEC  | NAN
          dec Infinity   | DEC  | POSITIVE_INFINITY
          dec -Infinity  | DEC  | NEGATIVE_INFINITY
          date infinity  | DATE | POSITIVE_INFINITY
          date -infinity | DATE | NEGATIVE_INFINITY
          ts infinity    | TS   | POSITIVE_INFINITY
          ts -infinity   | TS   | NEGATIVE_INFINITY
          tstz infinity  | TSTZ | POSITIVE_INFINITY
          tstz -infinity | TSTZ | NEGATIVE_INFINITY
          """)
  void nonFiniteValuesRoundTripExactly(String text, Domain domain, Bound bound) throws Exception {
    Value expected = new Value.NonFinite(domain, bound);
    assertThat(value(text)).isEqualTo(expected);
    assertThat(written(expected)).isEqualTo(text);
    assertThat(value(written(expected))).isEqualTo(expected);
    assertThat(((Value.NonFinite) expected).typeName()).isEqualTo(text.split(" ")[0]);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '~',
      textBlock =
          """
          native postgresql '_int4' '{1,NULL,3}'          | postgresql | _int4   | {1,NULL,3}
          native postgresql 'varbit' ''                   | postgresql | varbit  | ~~
          native postgresql '_text' '{"a b","it\\'s"}'    | postgresql | _text   | {"a b","it's"}
          native pg_16 'my \\"enum\\"' 'h\\u00e4ppy\\n'   | pg_16      | my "enum" | häppy\\n
          native mariadb 'set' 'a,b'                      | mariadb    | set     | a,b
          """)
  void nativeValuesRoundTripExactly(String text, String dialect, String type, String raw)
      throws Exception {
    Value.Native expected = new Value.Native(dialect, type, raw.replace("\\n", "\n"));
    assertThat(value(text)).isEqualTo(expected);
    String written = written(expected);
    assertThat(value(written)).isEqualTo(expected);
    assertThat(written).startsWith("native " + dialect + " '");
  }

  @Test
  void theWriterEscapesTypeAndTextAsItEscapesText() throws Exception {
    Value.Native v = new Value.Native("postgresql", "a'b\\c", "line1\nline2\t'q' \u0007 😀");
    assertThat(written(v))
        .isEqualTo("native postgresql 'a\\'b\\\\c' 'line1\\nline2\\t\\'q\\' \\u0007 😀'");
    assertThat(value(written(v))).isEqualTo(v);
  }

  @Test
  void noFiniteValueAndNoTextEqualsANonFiniteOrNativeValue() throws Exception {
    Value nan = value("dec NaN");
    Value inf = value("date infinity");
    Value arr = value("native postgresql '_int4' '{1,2}'");
    assertThat(nan)
        .isNotEqualTo(new Value.Text("NaN"))
        .isNotEqualTo(new Value.Float64(Double.NaN))
        .isNotEqualTo(new Value.Decimal(BigDecimal.ZERO));
    assertThat(inf)
        .isNotEqualTo(new Value.Date(LocalDate.MAX))
        .isNotEqualTo(new Value.Date(LocalDate.of(294276, 12, 31)))
        .isNotEqualTo(new Value.Text("infinity"))
        .isNotEqualTo(value("ts infinity"));
    assertThat(arr)
        .isNotEqualTo(new Value.Text("{1,2}"))
        .isNotEqualTo(new Value.Json("[1,2]"))
        .isNotEqualTo(new Value.Native("postgresql", "_int8", "{1,2}"))
        .isNotEqualTo(new Value.Native("mariadb", "_int4", "{1,2}"));
    // text that spells them stays text
    assertThat(value("'NaN'")).isEqualTo(new Value.Text("NaN"));
    assertThat(value("'native postgresql'")).isEqualTo(new Value.Text("native postgresql"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
          dec NaNx                               | NaNx     | NaN, Infinity or -Infinity
          dec nan                                | nan      | NaN, Infinity or -Infinity
          dec infinity                           | infinity | NaN, Infinity or -Infinity
          dec -Infinityy                         | -Infinityy | a decimal such as 12.50, -3 or 1E+6, or NaN
          date NaN                               | NaN      | NaN is a dec value only
          ts NaN                                 | NaN      | NaN is a dec value only
          tstz NaN                               | NaN      | NaN is a dec value only
          date Infinity                          | Infinity | written in lower case
          date -Infinity                         | -Infinity | written in lower case
          date infinityx                         | infinityx | a date YYYY-MM-DD, infinity or -infinity
          ts forever                             | forever  | a timestamp YYYY-MM-DDTHH:MM:SS[.ffffff], infinity or -infinity
          native 'x' 'y'                         | 'x' 'y'  | a dialect after native
          native PostgreSQL 'x' 'y'              | PostgreSQL | a dialect after native
          native postgreSQL 'x' 'y'              | SQL      | a dialect after native
          native postgresql-x 'x' 'y'            | -x       | a blank
          native                                 | <eol>    | a blank
          native postgresql                      | <eol>    | a blank
          native postgresql _int4 'y'            | _int4    | the native type in 'quotes'
          native postgresql '' 'y'               | '' 'y'   | a non-empty native type
          native postgresql '_int4 'y'           | y'       | a blank
          native postgresql '_int4               | '_int4   | a closing ' for the native type
          native postgresql '_int4' '{1,2        | '{1,2    | a closing ' for the native text
          native postgresql '_int4'              | <eol>    | a blank
          native postgresql '_int4' {1}          | {1}      | the native text in 'quotes'
          native postgresql '_i\\q' 'y'          | \\q      | one of the escapes
          native postgresql '_int4' 'bad \\x'    | \\x      | one of the escapes
          native postgresql '_int4' '\\ud800'    | \\ud800  | a Unicode scalar value
          """)
  void malformedValuesAreRefusedAtTheirColumn(String raw, String foundAt, String expected) {
    String line = PREFIX + raw.strip() + ")";
    int column =
        foundAt.equals("<eol>")
            ? PREFIX.length() + raw.strip().length() + 1
            : line.indexOf(foundAt, PREFIX.length()) + 1;
    assertThat(column).as("marker %s in %s", foundAt, line).isGreaterThan(PREFIX.length());
    assertThatThrownBy(() -> parser.parseAll("-- a comment\n" + line))
        .isInstanceOfSatisfying(
            LtlParseException.class,
            e -> {
              assertThat(e.line()).isEqualTo(2);
              assertThat(e.expected()).as(e.getMessage()).contains(expected);
              assertThat(e.column()).as(e.getMessage()).isEqualTo(column);
              assertThat(e.getMessage()).contains("line 2, column " + column);
            });
  }

  @Test
  void theValueExpectedMessageNamesNative() {
    assertThatThrownBy(() -> parser.parseAll(PREFIX + "nativ 'x')"))
        .isInstanceOfSatisfying(
            LtlParseException.class,
            e ->
                assertThat(e.expected())
                    .contains("native <dialect> '<type>' '<text>'")
                    .contains("i16 i32 i64 dec"));
  }

  @Test
  void aVersionOneSessionRefusesVersionTwoValuesAtTheirColumn() throws Exception {
    LtlParser v1 = new LtlParser().protocolVersion(LtlParser.PROTOCOL_VERSION_1);
    for (String v :
        List.of(
            "dec NaN",
            "dec -Infinity",
            "date infinity",
            "ts -infinity",
            "tstz infinity",
            "native postgresql '_int4' '{1}'")) {
      String line = PREFIX + v + ")";
      assertThatThrownBy(() -> v1.parseAll(line))
          .as(v)
          .isInstanceOfSatisfying(
              LtlParseException.class,
              e -> {
                String literal = v.startsWith("native") ? v : v.substring(v.indexOf(' ') + 1);
                assertThat(e.column()).isEqualTo(line.indexOf(literal, PREFIX.length()) + 1);
                assertThat(e.expected()).contains("a value of LTL protocol version 1");
                assertThat(e.expected()).contains("need version 2");
              });
    }
    // everything version 1 has still parses
    assertThat(v1.parseOne(PREFIX + "dec 1.50, b=date 2026-01-01, c=f64 NaN, d='NaN')"))
        .isInstanceOf(LtlCommand.Insert.class);
    assertThat(new LtlParser().protocolVersion(2).parseOne(PREFIX + "dec NaN)"))
        .isInstanceOf(LtlCommand.Insert.class);
    assertThatThrownBy(() -> new LtlParser().protocolVersion(3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1..2");
  }

  @Test
  void aNativeDialectIsALowerCaseWordInTheModelToo() {
    assertThatThrownBy(() -> new Value.Native("PostgreSQL", "x", "y"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lower-case word");
    assertThatThrownBy(() -> new Value.Native("postgresql", "", "y"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Value.NonFinite(Domain.DATE, Bound.NAN))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(Value.Native.isDialectName("pg_16")).isTrue();
    assertThat(Value.Native.isDialectName("_pg")).isFalse();
    assertThat(Value.Native.isDialectName("9pg")).isFalse();
  }

  private Value value(String text) throws LtlParseException {
    LtlCommand.Insert insert = (LtlCommand.Insert) parser.parseOne(PREFIX + text + ")");
    return insert.after().get(0).value();
  }

  private String written(Value v) {
    String line =
        writer.toText(
            new LtlCommand.Insert(
                TranId.of(new byte[] {1}),
                Oqid.of(new byte[] {1}),
                new TableName("s", "t"),
                false,
                List.of(new Column("a", v))));
    assertThat(line).startsWith(PREFIX).endsWith(")");
    return line.substring(PREFIX.length(), line.length() - 1);
  }
}
