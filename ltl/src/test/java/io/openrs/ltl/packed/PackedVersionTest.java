package io.openrs.ltl.packed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import io.openrs.ltl.text.LtlParser;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Packed versions: encoders write 2, decoders read 1..2, so the version 1 commands a stable queue
 * of the previous release holds still read; the version decides which value tags exist.
 */
class PackedVersionTest {
  private final PackedEncoder encoder = new PackedEncoder();
  private final PackedDecoder decoder = new PackedDecoder();
  private final PackedRowReader reader = new PackedRowReader();

  /** A golden command: its LTL text and the bytes the previous release packed it to. */
  private record Golden(String text, byte[] packed) {}

  @Test
  void versionOneCommandsOfThePreviousReleaseStillDecode() throws Exception {
    List<Golden> golden = golden("/packed/v1-commands.hex");
    assertThat(golden).hasSize(5);
    LtlParser parser = new LtlParser();
    for (Golden g : golden) {
      LtlCommand expected = parser.parseOne(g.text());
      assertThat(g.packed()[0]).as(g.text()).isEqualTo((byte) PackedFormat.VERSION_1);
      assertThat(decoder.decode(g.packed())).as(g.text()).contains(expected);
      reader.reset(g.packed(), 0, g.packed().length);
      assertThat(reader.next()).isTrue();
      if (expected instanceof LtlCommand.Insert insert) {
        assertImage(insert.after(), reader.after());
      } else if (expected instanceof LtlCommand.Update update) {
        assertImage(update.before(), reader.before());
        assertImage(update.after(), reader.after());
      } else if (expected instanceof LtlCommand.Delete delete) {
        assertImage(delete.before(), reader.before());
      } else {
        assertThat(reader.command()).contains(expected);
      }
      assertThat(reader.atEnd()).isTrue();
      // re-encoded, only the version byte changes
      byte[] now = encoder.encode(expected);
      assertThat(now[0]).isEqualTo((byte) PackedFormat.VERSION_2);
      assertThat(HexFormat.of().formatHex(now, 1, now.length))
          .isEqualTo(HexFormat.of().formatHex(g.packed(), 1, g.packed().length));
    }
  }

  @Test
  void encodersWriteVersionTwoAndDecodersReadOneToTwo() {
    assertThat(PackedFormat.CURRENT_VERSION).isEqualTo(PackedFormat.VERSION_2).isEqualTo(2);
    assertThat(PackedFormat.MIN_READ_VERSION).isEqualTo(1);
    assertThat(PackedFormat.MAX_READ_VERSION).isEqualTo(2);
    byte[] b = encoder.encode(new LtlCommand.GetTruncation());
    assertThat(b[0]).isEqualTo((byte) 2);
  }

  @Test
  void versionsOutsideOneToTwoAreRefusedNamingTheRange() throws Exception {
    for (int version : new int[] {0, 3, 255}) {
      byte[] b = encoder.encode(PackedFormatDocTest.EXAMPLE);
      b[0] = (byte) version;
      assertThatThrownBy(() -> decoder.decode(b))
          .isInstanceOfSatisfying(PackedFormatException.class, e -> assertThat(e.offset()).isZero())
          .hasMessageContaining(
              "unsupported packed version " + version + " (this reader reads 1..2)");
      reader.reset(b, 0, b.length);
      assertThatThrownBy(reader::next)
          .hasMessageContaining("unsupported packed version " + version);
    }
  }

  @Test
  void tagsNineteenAndTwentyAreMalformedInAVersionOneCommand() throws Exception {
    List<Column> cols =
        List.of(
            new Column(
                "p", new Value.NonFinite(Value.NonFinite.Domain.DEC, Value.NonFinite.Bound.NAN)),
            new Column("a", new Value.Native("postgresql", "_int4", "{1}")));
    LtlCommand insert =
        new LtlCommand.Insert(
            TranId.ofLong(1), Oqid.ofLong(2, 8), new TableName("s", "t"), false, cols);
    byte[] b = encoder.encode(insert);
    assertThat(decoder.decode(b)).contains(insert);
    for (Column c : cols) {
      // the command with only this column, written as version 1
      byte[] one =
          encoder.encode(
              new LtlCommand.Insert(
                  TranId.ofLong(1), Oqid.ofLong(2, 8), new TableName("s", "t"), false, List.of(c)));
      one[0] = 1;
      int tagAt = one.length - tail(c.value());
      int tag = c.value() instanceof Value.NonFinite ? 19 : 20;
      assertThat(one[tagAt]).isEqualTo((byte) tag);
      assertThatThrownBy(() -> decoder.decode(one))
          .isInstanceOfSatisfying(
              PackedFormatException.class, e -> assertThat(e.offset()).isEqualTo(tagAt))
          .hasMessageContaining("value tag " + tag + " in a packed version 1 command");
      reader.reset(one, 0, one.length);
      assertThatThrownBy(reader::next)
          .isInstanceOfSatisfying(
              PackedFormatException.class, e -> assertThat(e.offset()).isEqualTo(tagAt))
          .hasMessageContaining("value tag " + tag + " in a packed version 1 command");
    }
  }

  /** Bytes from a last column's tag to the end of its command. */
  private static int tail(Value v) {
    if (v instanceof Value.Native n) {
      return 1 + 3 + n.dialect().length() + n.type().length() + n.text().length();
    }
    return 3;
  }

  private static void assertImage(List<Column> expected, PackedRowReader.Image image) {
    assertThat(image.size()).isEqualTo(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      assertThat(image.name(i)).isEqualTo(expected.get(i).name());
      assertThat(image.value(i)).isEqualTo(expected.get(i).value());
    }
  }

  private static List<Golden> golden(String resource) throws IOException {
    String text;
    try (InputStream in = PackedVersionTest.class.getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<Golden> out = new ArrayList<>();
    List<String> lines = text.lines().filter(l -> !l.startsWith("//")).toList();
    for (int i = 0; i + 1 < lines.size(); i += 2) {
      assertThat(lines.get(i)).startsWith("# ");
      out.add(new Golden(lines.get(i).substring(2), HexFormat.of().parseHex(lines.get(i + 1))));
    }
    return out;
  }
}
