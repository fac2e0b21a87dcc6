package io.openrs.ltl.packed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.ltl.ByteBuilder;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Damaged packed input, one test per shape; each fails with the offset of the problem. */
class PackedDecoderTest {
  private static final LtlCommand INSERT =
      new LtlCommand.Insert(
          TranId.ofLong(0x2f1),
          Oqid.ofLong(0x2c, 12),
          new TableName("public", "orders"),
          false,
          List.of(
              new Column("id", new Value.Int64(1001)), new Column("note", new Value.Text("hi"))));

  private final PackedEncoder encoder = new PackedEncoder();
  private final PackedDecoder decoder = new PackedDecoder();

  @Test
  void emptyInputHoldsNoCommand() throws Exception {
    List<LtlCommand> out = new ArrayList<>();
    assertThat(decoder.decodeAll(new byte[0], 0, 0, out::add)).isZero();
    assertThat(out).isEmpty();
    assertThatThrownBy(() -> decoder.decode(new byte[0]))
        .isInstanceOf(PackedFormatException.class)
        .hasMessageContaining("exactly one command");
  }

  @Test
  void headerOnlyIsCutShort() {
    assertThatThrownBy(() -> decoder.decode(new byte[] {1, 4}))
        .isInstanceOfSatisfying(
            PackedFormatException.class, e -> assertThat(e.offset()).isEqualTo(2))
        .hasMessageContaining("varint cut short");
  }

  @Test
  void anUnsupportedVersionIsNamed() {
    byte[] b = encoder.encode(INSERT);
    b[0] = 9;
    assertThatThrownBy(() -> decoder.decode(b))
        .hasMessageContaining("unsupported packed version 9 (this reader reads 1..2)");
  }

  @Test
  void aCutInsideTheBodyIsRefused() {
    byte[] b = encoder.encode(INSERT);
    for (int cut = 1; cut < b.length; cut++) {
      byte[] shorter = Arrays.copyOf(b, cut);
      assertThatThrownBy(() -> decoder.decode(shorter)).isInstanceOf(PackedFormatException.class);
    }
  }

  @Test
  void aJunkTailIsRefused() {
    byte[] b = Arrays.copyOf(encoder.encode(INSERT), encoder.encode(INSERT).length + 3);
    assertThatThrownBy(() -> decoder.decode(b)).isInstanceOf(PackedFormatException.class);
  }

  @Test
  void anUnknownKindIsSkippedByItsLength() throws Exception {
    ByteBuilder stream = new ByteBuilder();
    stream.append((byte) 1).append((byte) 99).appendVarLong(3).append(new byte[] {7, 7, 7});
    encoder.encode(INSERT, stream);
    List<LtlCommand> out = new ArrayList<>();
    assertThat(decoder.decodeAll(stream.array(), 0, stream.size(), out::add)).isEqualTo(1);
    assertThat(out).containsExactly(INSERT);
  }

  @Test
  void aLengthOfTwoToTheSixtyThreeOrMoreIsRefusedNotMisreadAsNegative() {
    byte[] found =
        HexFormat.of()
            .parseHex(
                "0110400f62484a69726d777201000809015c09e697a5e69cace8aa9e011eef8982ebba89ec8cae9daa000103eeb08ee9b7aee1aabae48db0ef85b1e5a38ee48085e6ba");
    assertThatThrownBy(() -> decoder.decode(found)).isInstanceOf(PackedFormatException.class);
  }

  @Test
  void anUnknownValueTagNamesItsOffset() {
    byte[] b = encoder.encode(INSERT);
    int tagAt = b.length - 4; // text tag of 'hi': tag, length 2, 'h', 'i'
    assertThat(b[tagAt]).isEqualTo((byte) PackedFormat.TAG_TEXT);
    b[tagAt] = 77;
    assertThatThrownBy(() -> decoder.decode(b))
        .isInstanceOfSatisfying(
            PackedFormatException.class, e -> assertThat(e.offset()).isEqualTo(tagAt))
        .hasMessageContaining("unknown value tag 77");
  }

  @Test
  void theDocumentedExampleDecodes() throws Exception {
    // The worked example of docs/formats/ltl-packed.md.
    byte[] doc = HexFormat.of().parseHex(PackedFormatDocTest.EXAMPLE_HEX);
    assertThat(decoder.decode(doc)).contains(PackedFormatDocTest.EXAMPLE);
  }

  @Test
  void aRowHeadNamesTheChangeWithoutReadingItsImages() throws Exception {
    byte[] b = encoder.encode(INSERT);
    int tagAt = b.length - 4; // damage the image: the head still reads, the decode does not
    b[tagAt] = 77;
    assertThat(decoder.rowHead(b))
        .contains(
            new PackedRowHead(
                PackedRowReader.Kind.INSERT,
                TranId.ofLong(0x2f1),
                Oqid.ofLong(0x2c, 12),
                new TableName("public", "orders"),
                false));
    assertThatThrownBy(() -> decoder.decode(b)).isInstanceOf(PackedFormatException.class);
  }

  @Test
  void aRowHeadCarriesKindAndSnapshotFlag() throws Exception {
    TranId t = TranId.ofLong(7);
    Oqid o = Oqid.ofLong(9, 1);
    TableName table = new TableName("s", "t");
    List<Column> row = List.of(new Column("id", new Value.Int32(1)));
    assertThat(decoder.rowHead(encoder.encode(new LtlCommand.Insert(t, o, table, true, row))))
        .contains(new PackedRowHead(PackedRowReader.Kind.INSERT, t, o, table, true));
    assertThat(decoder.rowHead(encoder.encode(new LtlCommand.Update(t, o, table, row, row))))
        .contains(new PackedRowHead(PackedRowReader.Kind.UPDATE, t, o, table, false));
    assertThat(decoder.rowHead(encoder.encode(new LtlCommand.Delete(t, o, table, row))))
        .contains(new PackedRowHead(PackedRowReader.Kind.DELETE, t, o, table, false));
    assertThat(decoder.rowHead(encoder.encode(new LtlCommand.Truncate(t, o, table)))).isEmpty();
    assertThat(decoder.rowHead(encoder.encode(new LtlCommand.Rollback(t, o)))).isEmpty();
  }

  @Test
  void aRowHeadChecksTheFrameAndTheHead() {
    byte[] b = encoder.encode(INSERT);
    byte[] longer = Arrays.copyOf(b, b.length + 1);
    assertThatThrownBy(() -> decoder.rowHead(longer))
        .isInstanceOfSatisfying(
            PackedFormatException.class, e -> assertThat(e.offset()).isEqualTo(b.length))
        .hasMessageContaining("1 bytes after the command");
    byte[] cut = Arrays.copyOf(b, 6);
    assertThatThrownBy(() -> decoder.rowHead(cut)).isInstanceOf(PackedFormatException.class);
    byte[] badTable = encoder.encode(INSERT);
    int tableLength = indexOf(badTable, "orders".getBytes()) - 1;
    badTable[tableLength] = 100; // longer than the body
    assertThatThrownBy(() -> decoder.rowHead(badTable))
        .isInstanceOfSatisfying(
            PackedFormatException.class, e -> assertThat(e.offset()).isEqualTo(tableLength))
        .hasMessageContaining("string length 100");
  }

  private static int indexOf(byte[] in, byte[] what) {
    for (int i = 0; i + what.length <= in.length; i++) {
      if (Arrays.equals(in, i, i + what.length, what, 0, what.length)) {
        return i;
      }
    }
    throw new AssertionError("not found");
  }
}
