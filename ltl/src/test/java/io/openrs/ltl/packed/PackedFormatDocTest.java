package io.openrs.ltl.packed;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The worked hex example in docs/formats/ltl-packed.md is what the encoder writes. */
class PackedFormatDocTest {
  static final LtlCommand EXAMPLE =
      new LtlCommand.Insert(
          TranId.ofHex("02f1".getBytes(StandardCharsets.US_ASCII), 0, 4),
          Oqid.ofHex("016b3a482c".getBytes(StandardCharsets.US_ASCII), 0, 10),
          new TableName("s", "t"),
          false,
          List.of(
              new Column("id", new Value.Int32(-3)),
              new Column("amt", new Value.Decimal(new BigDecimal("1.50"))),
              new Column("n", new Value.Text("hé"))));

  static final String EXAMPLE_HEX =
      "0104230202f105016b3a482c017301740003026964050503616d740704ac02016e0b0368c3a9";

  @Test
  void theEncoderWritesTheDocumentedBytes() throws Exception {
    assertThat(HexFormat.of().formatHex(new PackedEncoder().encode(EXAMPLE)))
        .isEqualTo(EXAMPLE_HEX);
    String doc = Files.readString(Path.of("..", "docs", "formats", "ltl-packed.md"));
    // The annotated dump: hex in the first 21 characters of each line, then its meaning.
    String dump = doc.substring(doc.indexOf("```", doc.indexOf("packs to")) + 3);
    dump = dump.substring(dump.indexOf('\n') + 1, dump.indexOf("```"));
    StringBuilder hex = new StringBuilder();
    dump.lines()
        .forEach(l -> hex.append(l.substring(0, Math.min(21, l.length())).replace(" ", "")));
    assertThat(doc)
        .contains(
            "insert tran 0x02f1 oqid 0x016b3a482c s.t after (id=i32 -3, amt=dec 1.50, n='hé')");
    assertThat(hex.toString()).isEqualTo(EXAMPLE_HEX);
  }
}
