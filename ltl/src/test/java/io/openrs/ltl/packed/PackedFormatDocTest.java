package io.openrs.ltl.packed;

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
import io.openrs.ltl.text.LtlParser;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The worked hex examples in docs/formats/ltl-packed.md are what the encoder writes, byte for byte,
 * and read back (decoder and row reader) to the commands they annotate.
 */
class PackedFormatDocTest {
  private static final Path DOC = Path.of("..", "docs", "formats", "ltl-packed.md");

  static final TranId TRAN = TranId.ofHex("02f1".getBytes(StandardCharsets.US_ASCII), 0, 4);
  static final TableName TABLE = new TableName("s", "t");

  static final String EXAMPLE_TEXT =
      "insert tran 0x02f1 oqid 0x016b3a482c s.t after (id=i32 -3, amt=dec 1.50, n='hé')";

  static final LtlCommand EXAMPLE =
      new LtlCommand.Insert(
          TRAN,
          oqid("016b3a482c"),
          TABLE,
          false,
          List.of(
              new Column("id", new Value.Int32(-3)),
              new Column("amt", new Value.Decimal(new BigDecimal("1.50"))),
              new Column("n", new Value.Text("hé"))));

  static final String EXAMPLE_HEX =
      "0204230202f105016b3a482c017301740003026964050503616d740704ac02016e0b0368c3a9";

  /** The same command as the release before packed version 2 wrote it. */
  static final String EXAMPLE_VERSION_1_HEX = "01" + EXAMPLE_HEX.substring(2);

  static final String NON_FINITE_TEXT =
      "insert tran 0x02f1 oqid 0x016b3a482d s.t after (p=dec NaN, q=dec -Infinity,"
          + " d=date infinity, z=tstz -infinity)";

  static final LtlCommand NON_FINITE =
      new LtlCommand.Insert(
          TRAN,
          oqid("016b3a482d"),
          TABLE,
          false,
          List.of(
              new Column("p", new Value.NonFinite(Domain.DEC, Bound.NAN)),
              new Column("q", new Value.NonFinite(Domain.DEC, Bound.NEGATIVE_INFINITY)),
              new Column("d", new Value.NonFinite(Domain.DATE, Bound.POSITIVE_INFINITY)),
              new Column("z", new Value.NonFinite(Domain.TSTZ, Bound.NEGATIVE_INFINITY))));

  static final String NON_FINITE_HEX =
      "0204230202f105016b3a482d017301740004017013000001711300020164130101017a130302";

  static final String NATIVE_TEXT =
      "insert tran 0x02f1 oqid 0x016b3a482e s.t after (a=native postgresql '_int4' '{1,NULL,3}')";

  static final LtlCommand NATIVE =
      new LtlCommand.Insert(
          TRAN,
          oqid("016b3a482e"),
          TABLE,
          false,
          List.of(new Column("a", new Value.Native("postgresql", "_int4", "{1,NULL,3}"))));

  static final String NATIVE_HEX =
      "02042e0202f105016b3a482e0173017400010161140a706f737467726573716c055f696e74340a7b312c4e554c"
          + "4c2c337d";

  @Test
  void theEncoderWritesTheDocumentedBytes() throws Exception {
    checkExample(EXAMPLE_TEXT, EXAMPLE, EXAMPLE_HEX, 38);
  }

  @Test
  void theNonFiniteExampleIsWhatTheEncoderWrites() throws Exception {
    checkExample(NON_FINITE_TEXT, NON_FINITE, NON_FINITE_HEX, 38);
  }

  @Test
  void theDocumentedMalformedNonFiniteErrorIsWhatTheDecoderSays() throws Exception {
    byte[] b = HexFormat.of().parseHex(NON_FINITE_HEX);
    assertThat(b[32]).as("d's bound byte").isEqualTo((byte) 1);
    b[32] = 0;
    String message =
        "malformed packed LTL command at byte 32: non-finite bound 0 (NaN) of domain 1 (date):"
            + " NaN is a dec value only";
    assertThatThrownBy(() -> new PackedDecoder().decode(b)).hasMessage(message);
    assertThatThrownBy(() -> new PackedRowReader().reset(b, 0, b.length).next())
        .hasMessage(message);
    assertThat(Files.readString(DOC).replace("\n", " ").replaceAll("\\s+", " ")).contains(message);
  }

  @Test
  void theNativeExampleIsWhatTheEncoderWrites() throws Exception {
    checkExample(NATIVE_TEXT, NATIVE, NATIVE_HEX, 49);
  }

  @Test
  void theFirstExampleAsVersionOneWroteItDiffersOnlyInItsVersionByte() throws Exception {
    byte[] v1 = HexFormat.of().parseHex(EXAMPLE_VERSION_1_HEX);
    assertThat(new PackedDecoder().decode(v1)).contains(EXAMPLE);
    assertThat(Files.readString(DOC)).contains("differs only in its\nfirst byte, `01`");
  }

  /**
   * The command's text is in the page, followed by "packs to N bytes" and an annotated dump whose
   * hex (the first 21 characters of each line) is what the encoder writes for the command; the
   * bytes decode, and read with the row reader, to the command.
   */
  private static void checkExample(String text, LtlCommand command, String hex, int length)
      throws Exception {
    assertThat(new LtlParser().parseOne(text)).isEqualTo(command);
    assertThat(HexFormat.of().formatHex(new PackedEncoder().encode(command))).isEqualTo(hex);
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    int at = doc.indexOf(text);
    assertThat(at).as("the page shows %s", text).isPositive();
    int packs = doc.indexOf("packs to ", at);
    assertThat(doc.substring(packs)).startsWith("packs to " + length + " bytes");
    String dump = doc.substring(doc.indexOf("```", packs) + 3);
    dump = dump.substring(dump.indexOf('\n') + 1, dump.indexOf("```"));
    StringBuilder dumped = new StringBuilder();
    dump.lines()
        .forEach(l -> dumped.append(l.substring(0, Math.min(21, l.length())).replace(" ", "")));
    assertThat(dumped.toString()).isEqualTo(hex);
    byte[] bytes = HexFormat.of().parseHex(hex);
    assertThat(bytes).hasSize(length);
    assertThat(new PackedDecoder().decode(bytes)).contains(command);
    PackedRowReader reader = new PackedRowReader().reset(bytes, 0, bytes.length);
    assertThat(reader.next()).isTrue();
    List<Column> after = ((LtlCommand.Insert) command).after();
    for (int i = 0; i < after.size(); i++) {
      assertThat(reader.after().value(i)).isEqualTo(after.get(i).value());
    }
  }

  private static Oqid oqid(String hex) {
    return Oqid.ofHex(hex.getBytes(StandardCharsets.US_ASCII), 0, hex.length());
  }
}
