package io.openrs.ltl.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Value;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Malformed commands: each is refused with the line, column, found text and expectation. */
class LtlParserErrorTest {
  private static final String OK_INSERT =
      "insert tran 0x01 oqid 0x0001 public.t after (id=i32 1, name='a')";

  private final LtlParser parser = new LtlParser();

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
          INSERT tran 0x01 oqid 0x01 s.t after (a=i32 1) | INSERT | a command
          insert tran 0x01 oqdi 0x01 s.t after (a=i32 1) | oqdi | 'oqid'
          insert tran 01 oqid 0x01 s.t after (a=i32 1) | 01 oqid | a transaction id written 0x
          insert tran 0x0 oqid 0x01 s.t after (a=i32 1) | 0 oqid | even number of hex digits
          insert tran 0x01 oqid 0x01g s.t after (a=i32 1) | g s.t | a hex digit
          insert tran 0x01 oqid 0x01 t after (a=i32 1) | " after" | '.'
          insert tran 0x01 oqid 0x01 s.t after (a=i32 1 | <eol> | ',' or ')'
          insert tran 0x01 oqid 0x01 s.t after (a=i32 1) extra | extra | end of line
          insert tran 0x01 oqid 0x01 s.t after () | ) | a column name
          insert tran 0x01 oqid 0x01 s.t after (a=i16 40000) | 40000 | range -32768..32767
          insert tran 0x01 oqid 0x01 s.t after (a=i32 1.5) | 1.5 | an integer
          insert tran 0x01 oqid 0x01 s.t after (a=i64 99999999999999999999) | 99999 | range
          insert tran 0x01 oqid 0x01 s.t after (a=int 1) | int | a value
          insert tran 0x01 oqid 0x01 s.t after (a=dec 1.) | ) | digits after the decimal point
          insert tran 0x01 oqid 0x01 s.t after (a=dec 1E99999999999) | 99999999999 | exponent of 1 to 10 digits
          insert tran 0x01 oqid 0x01 s.t after (a=f64 1e) | 1e | an f64
          insert tran 0x01 oqid 0x01 s.t after (a=date 2026-02-30) | 2026-02-30 | a valid date
          insert tran 0x01 oqid 0x01 s.t after (a=time 24:00:00) | 24:00:00 | a valid time
          insert tran 0x01 oqid 0x01 s.t after (a=time 10:00:00.1234567) | 1234567 | 1 to 6 fraction digits
          insert tran 0x01 oqid 0x01 s.t after (a=tstz 2026-01-01T00:00:00) | ) | Z or +HH:MM
          insert tran 0x01 oqid 0x01 s.t after (a=tstz 2026-01-01T00:00:00+19:00) | +19:00 | a valid offset
          insert tran 0x01 oqid 0x01 s.t after (a=uuid 123e4567-e89b-12d3-a456-42661417400) | 123e4567 | a UUID
          insert tran 0x01 oqid 0x01 s.t after (a=x'abc') | abc | even number of hex digits
          insert tran 0x01 oqid 0x01 s.t after (a='unterminated) | 'unterminated | a closing '
          insert tran 0x01 oqid 0x01 s.t after (a='bad \\q escape') | \\q | one of the escapes
          insert tran 0x01 oqid 0x01 s.t after (a='\\ud800') | \\ud800 | a Unicode scalar value
          insert tran 0x01 oqid 0x01 s.t after (a=i32 1, a=i32 2) | <eol> | each column once
          update tran 0x01 oqid 0x01 s.t after (a=i32 1) | after | 'before'
          begin tran 0x01 oqid 0x01 | <eol> | a blank
          begin tran 0x01 oqid 0x01 time 2026-11-21T10:00:00.0000001Z | 0000001Z | 1 to 6 fraction digits
          connect source a.b versions 2-1 user 'u' password 'p' | 1 user | a highest version >= the lowest
          connect source a versions 1-1 user 'u' password 'p' | " versions" | '.'
          connect source a.b versions 1-4 user 'u' password 'p' compression 'lz4,,zstd' | 'lz4 | comma-separated compression method names
          connect source a.b versions 1-4 user 'u' password 'p' compression 'a,b,c,d,e,f,g,h,i' | 'a | at most 8
          get truncations | truncations | 'truncation'
          truncation 0x | <eol> | an OQID or none
          ddl tran 0x01 oqid 0x01 schema 'x' | 'x' | a schema name
          ticket tran 0x01 oqid 0x01 time 2026-11-21T10:00:00Z headers ('a' 'b') | 'b' | ',' or ')'
          """)
  void malformedLinesAreRefusedPrecisely(String rawLine, String foundAt, String expected) {
    String line = rawLine.strip();
    int column = foundAt.equals("<eol>") ? line.length() + 1 : line.indexOf(foundAt) + 1;
    assertThat(column).as("marker %s in %s", foundAt, line).isPositive();
    assertThatThrownBy(() -> parser.parseAll(line))
        .isInstanceOfSatisfying(
            LtlParseException.class,
            e -> {
              assertThat(e.line()).isEqualTo(1);
              assertThat(e.expected()).contains(expected);
              assertThat(e.column()).as(e.getMessage()).isEqualTo(column);
              assertThat(e.getMessage()).contains("line 1, column " + column);
            });
  }

  @Test
  void commandsBeforeTheBadLineAreHandedOnAndNothingAfterIt() {
    String batch =
        OK_INSERT
            + "\n"
            + OK_INSERT.replace("0x0001", "0x0002")
            + "\n"
            + "insert tran 0x01 oqid 0x0003 public.t after (id=i32 x)\n"
            + OK_INSERT
            + "\n";
    List<LtlCommand> seen = new ArrayList<>();
    byte[] bytes = batch.getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> parser.parse(bytes, 0, bytes.length, seen::add))
        .isInstanceOfSatisfying(
            LtlParseException.class,
            e -> {
              assertThat(e.line()).isEqualTo(3);
              assertThat(e.lineOffset()).isEqualTo(2L * (OK_INSERT.length() + 1));
              assertThat(e.found()).isEqualTo("'x)'");
            });
    assertThat(seen).hasSize(2);
  }

  @Test
  void columnsCountUnicodeCharactersNotBytes() {
    String line = "insert tran 0x01 oqid 0x01 s.t after (a='日本語', b=i32 z)";
    assertThatThrownBy(() -> parser.parseAll(line))
        .isInstanceOfSatisfying(
            LtlParseException.class, e -> assertThat(e.column()).isEqualTo(line.indexOf('z') + 1));
  }

  @Test
  void malformedUtf8IsRefused() {
    byte[] line =
        "insert tran 0x01 oqid 0x01 s.t after (a='\u00e9')".getBytes(StandardCharsets.UTF_8);
    byte[] overlong = line.clone();
    int at = new String(line, StandardCharsets.ISO_8859_1).indexOf('\'') + 1;
    overlong[at] = (byte) 0xc0;
    overlong[at + 1] = (byte) 0xa9;
    assertThatThrownBy(() -> parser.parse(overlong, 0, overlong.length, c -> {}))
        .isInstanceOfSatisfying(
            LtlParseException.class, e -> assertThat(e.expected()).contains("well-formed UTF-8"));
  }

  @Test
  void rawControlCharactersInsideQuotesAreRefused() {
    assertThatThrownBy(() -> parser.parseAll("ddl tran 0x01 oqid 0x01 'a\u0001b'"))
        .isInstanceOfSatisfying(
            LtlParseException.class, e -> assertThat(e.expected()).contains("\\u00XX"));
  }

  @Test
  void anOverlongLineIsRefusedBeforeParsing() {
    LtlParser small = new LtlParser(32);
    assertThatThrownBy(() -> small.parseAll(OK_INSERT))
        .isInstanceOfSatisfying(
            LtlParseException.class, e -> assertThat(e.expected()).contains("at most 32 bytes"));
  }

  @Test
  void blankAndCommentLinesAndCrlfAreAccepted() throws Exception {
    List<LtlCommand> parsed =
        parser.parseAll("\n   \n-- a comment\r\n\t-- indented comment\n" + OK_INSERT + "\r\n");
    assertThat(parsed).hasSize(1);
  }

  @Test
  void decimalsKeepTheirScaleAndTimesTheirMicroseconds() throws Exception {
    LtlCommand.Insert insert =
        (LtlCommand.Insert)
            parser.parseOne(
                "insert tran 0x01 oqid 0x01 s.t after (a=dec 1.50, b=dec 1.5, c=time 10:00:00.5)");
    assertThat(insert.after().get(0).value()).isEqualTo(new Value.Decimal(new BigDecimal("1.50")));
    assertThat(insert.after().get(0).value()).isNotEqualTo(insert.after().get(1).value());
    assertThat(((Value.Time) insert.after().get(2).value()).value().getNano())
        .isEqualTo(500_000_000);
  }

  @Test
  void theWriterRefusesLoneSurrogatesNamingTheIndex() {
    LtlCommand ddl =
        new LtlCommand.Ddl(
            io.openrs.ltl.TranId.ofLong(1),
            io.openrs.ltl.Oqid.ofLong(1, 8),
            java.util.Optional.empty(),
            "ab\ud800");
    assertThatThrownBy(() -> new LtlWriter().toText(ddl))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("U+D800 at index 2");
  }
}
