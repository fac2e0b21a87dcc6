package io.openrs.ltl.packed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.ltl.ByteBuilder;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlArbitraries;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.RandomGenerator;

/**
 * {@link PackedRowReader} against {@link PackedDecoder}, the reference: seeded random commands of
 * every kind read back equal, and seeded mutations of them are refused by the reader exactly when
 * the decoder refuses them. The seed ({@code ltl.rowreader.seed}) is printed with any failure.
 */
class PackedRowReaderTest {
  private static final long SEED = Long.getLong("ltl.rowreader.seed", 20261125L);

  private final PackedEncoder encoder = new PackedEncoder();
  private final PackedDecoder decoder = new PackedDecoder();
  private final PackedRowReader reader = new PackedRowReader();

  @Example
  void randomCommandsReadAsThePackedDecoderDecodesThem() throws Exception {
    Random random = new Random(SEED);
    RandomGenerator<LtlCommand> gen = LtlArbitraries.commands().generator(100);
    for (int round = 0; round < 300; round++) {
      List<LtlCommand> cmds = new ArrayList<>();
      ByteBuilder out = new ByteBuilder(1024);
      int n = 1 + random.nextInt(20);
      for (int i = 0; i < n; i++) {
        LtlCommand c = gen.next(random).value();
        cmds.add(c);
        encoder.encode(c, out);
      }
      byte[] bytes = out.toByteArray();
      List<LtlCommand> decoded = new ArrayList<>();
      decoder.decodeAll(bytes, 0, bytes.length, decoded::add);
      reader.reset(bytes, 0, bytes.length);
      for (LtlCommand expected : decoded) {
        assertThat(reader.next()).as(seed()).isTrue();
        assertSame(expected, reader);
      }
      assertThat(reader.next()).as(seed()).isFalse();
      assertThat(reader.atEnd()).isTrue();
    }
  }

  @Example
  void namesAndTablesAreShared() throws Exception {
    ByteBuilder out = new ByteBuilder(256);
    for (int i = 0; i < 2; i++) {
      encoder.encode(
          new LtlCommand.Insert(
              TranId.ofLong(7),
              Oqid.ofLong(i + 1, 8),
              new TableName("public", "purchase"),
              false,
              List.of(
                  new Column("emp_id", new Value.Int32(i)),
                  new Column("notes", new Value.Text("n" + i)))),
          out);
    }
    byte[] b = out.toByteArray();
    reader.reset(b, 0, b.length);
    reader.next();
    TableName t = reader.table();
    String name = reader.after().name(0);
    reader.next();
    assertThat(reader.table()).isSameAs(t);
    assertThat(reader.after().name(0)).isSameAs(name).isEqualTo("emp_id");
    assertThat(reader.after().value(1)).isEqualTo(new Value.Text("n1"));
    assertThat(reader.after().longValue(0)).isEqualTo(1);
    assertThat(reader.after().type(0)).isEqualTo(PackedRowReader.Type.I32);
  }

  @Example
  void mutatedRowCommandsAreRefusedExactlyWhenTheDecoderRefusesThem() throws Exception {
    Random random = new Random(SEED + 1);
    RandomGenerator<LtlCommand> gen = LtlArbitraries.commands().generator(100);
    List<byte[]> corpus = new ArrayList<>();
    while (corpus.size() < 400) {
      LtlCommand c = gen.next(random).value();
      if (c instanceof LtlCommand.RowChange) {
        corpus.add(encoder.encode(c));
      }
    }
    int refused = 0;
    for (int i = 0; i < 40_000; i++) {
      byte[] b = mutate(corpus.get(random.nextInt(corpus.size())), random);
      boolean rowKind = b.length > 1 && b[1] >= 4 && b[1] <= 6;
      Optional<LtlCommand> expected;
      try {
        expected = decoder.decode(b);
      } catch (PackedFormatException e) {
        expected = null;
      }
      boolean accepted;
      try {
        reader.reset(b, 0, b.length);
        accepted = reader.next() && reader.atEnd();
        if (accepted && rowKind) {
          assertThat(expected).as(seed() + " input " + hex(b)).isNotNull();
          assertSame(expected.orElseThrow(), reader);
        }
      } catch (PackedFormatException e) {
        accepted = false;
      }
      if (rowKind || !accepted) {
        // other kinds are not checked by the reader (command() decodes them)
        assertThat(accepted).as(seed() + " input " + hex(b)).isEqualTo(expected != null);
      }
      if (!accepted) {
        refused++;
      }
    }
    assertThat(refused).isGreaterThan(1000);
  }

  @Example
  void utf8IsCheckedAsJavasDecoderChecksIt() throws Exception {
    Random random = new Random(SEED + 2);
    byte[] interesting = {
      0,
      0x41,
      0x7f,
      (byte) 0x80,
      (byte) 0xbf,
      (byte) 0xc0,
      (byte) 0xc1,
      (byte) 0xc2,
      (byte) 0xdf,
      (byte) 0xe0,
      (byte) 0xa0,
      (byte) 0xed,
      (byte) 0x9f,
      (byte) 0xee,
      (byte) 0xef,
      (byte) 0xf0,
      (byte) 0x90,
      (byte) 0xf4,
      (byte) 0x8f,
      (byte) 0xf5,
      (byte) 0xff
    };
    for (int i = 0; i < 50_000; i++) {
      byte[] text = new byte[random.nextInt(i % 2 == 0 ? 7 : 40)];
      for (int k = 0; k < text.length; k++) {
        // odd rounds: long ASCII runs (read eight bytes at a time) with a few odd bytes
        text[k] =
            i % 2 == 0 || random.nextInt(12) == 0
                ? interesting[random.nextInt(interesting.length)]
                : (byte) ('a' + random.nextInt(26));
      }
      byte[] cmd = textInsert(text);
      boolean valid;
      try {
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(text));
        valid = true;
      } catch (CharacterCodingException e) {
        valid = false;
      }
      reader.reset(cmd, 0, cmd.length);
      if (valid) {
        reader.next();
        assertThat(reader.after().value(0))
            .isEqualTo(new Value.Text(new String(text, StandardCharsets.UTF_8)));
      } else {
        assertThatThrownBy(reader::next)
            .as(hex(text))
            .isInstanceOf(PackedFormatException.class)
            .hasMessageContaining("UTF-8");
      }
    }
  }

  @Example
  void skimmingFramesEachCommandAsNextDoesWithoutReadingItsBody() throws Exception {
    Random random = new Random(SEED + 2);
    RandomGenerator<LtlCommand> gen = LtlArbitraries.commands().generator(100);
    for (int round = 0; round < 200; round++) {
      List<LtlCommand> cmds = new ArrayList<>();
      ByteBuilder out = new ByteBuilder(1024);
      for (int i = 1 + random.nextInt(10); i > 0; i--) {
        LtlCommand c = gen.next(random).value();
        cmds.add(c);
        encoder.encode(c, out);
      }
      byte[] bytes = out.toByteArray();
      PackedRowReader full = new PackedRowReader().reset(bytes, 0, bytes.length);
      reader.reset(bytes, 0, bytes.length);
      for (LtlCommand c : cmds) {
        assertThat(full.next()).isTrue();
        assertThat(reader.skim()).as(seed()).isTrue();
        assertThat(reader.kind()).as(seed() + " " + c).isEqualTo(full.kind());
        assertThat(reader.commandOffset()).isEqualTo(full.commandOffset());
        assertThat(reader.commandLength()).isEqualTo(full.commandLength());
        if (reader.kind() == PackedRowReader.Kind.OTHER) {
          assertThat(reader.command()).isEqualTo(full.command());
        } else {
          // the body was not read: its table and images are refused, not stale
          assertThatThrownBy(reader::table)
              .isInstanceOf(IllegalStateException.class)
              .hasMessageContaining("skimmed");
          assertThatThrownBy(reader::after).isInstanceOf(IllegalStateException.class);
        }
      }
      assertThat(reader.skim()).isFalse();
      assertThat(reader.atEnd()).isTrue();
    }
  }

  @Example
  void skimmingChecksTheFrameButNotTheBody() throws Exception {
    byte[] insert = textInsert("abc".getBytes(StandardCharsets.UTF_8));
    // a body that is not UTF-8 passes the frame; next() refuses it
    byte[] badText = textInsert(new byte[] {(byte) 0xC3});
    reader.reset(badText, 0, badText.length);
    assertThat(reader.skim()).isTrue();
    assertThat(reader.kind()).isEqualTo(PackedRowReader.Kind.INSERT);
    reader.reset(badText, 0, badText.length);
    assertThatThrownBy(reader::next).isInstanceOf(PackedFormatException.class);
    // a body length past the bytes left, or an unknown version, is refused by the frame
    byte[] cut = java.util.Arrays.copyOf(insert, insert.length - 1);
    reader.reset(cut, 0, cut.length);
    assertThatThrownBy(reader::skim)
        .isInstanceOf(PackedFormatException.class)
        .hasMessageContaining("body length");
    byte[] version = insert.clone();
    version[0] = 99;
    reader.reset(version, 0, version.length);
    assertThatThrownBy(reader::skim)
        .isInstanceOf(PackedFormatException.class)
        .hasMessageContaining("unsupported packed version");
    // after a skim, next() reads the following command whole
    byte[] two = new byte[insert.length * 2];
    System.arraycopy(insert, 0, two, 0, insert.length);
    System.arraycopy(insert, 0, two, insert.length, insert.length);
    reader.reset(two, 0, two.length);
    assertThat(reader.skim()).isTrue();
    assertThat(reader.next()).isTrue();
    assertThat(reader.table()).isEqualTo(new TableName("s", "t"));
    assertThat(reader.after().value(0)).isEqualTo(new Value.Text("abc"));
    assertThat(reader.atEnd()).isTrue();
  }

  @Example
  void otherKindsAreDecodedWhole() throws Exception {
    LtlCommand ddl =
        new LtlCommand.Ddl(TranId.ofLong(1), Oqid.ofLong(2, 8), Optional.empty(), "drop table t");
    byte[] b = encoder.encode(ddl);
    reader.reset(b, 0, b.length);
    assertThat(reader.next()).isTrue();
    assertThat(reader.kind()).isEqualTo(PackedRowReader.Kind.OTHER);
    assertThat(reader.command()).contains(ddl);
    assertThat(reader.commandLength()).isEqualTo(b.length);
    assertThatThrownBy(reader::table).isInstanceOf(IllegalStateException.class);
  }

  /** An insert of one text column holding {@code text} as is (not necessarily UTF-8). */
  private static byte[] textInsert(byte[] text) {
    ByteBuilder body = new ByteBuilder(64);
    body.append((byte) 1).append((byte) 1); // tran
    body.append((byte) 1).append((byte) 2); // oqid
    body.append((byte) 1).append('s');
    body.append((byte) 1).append('t');
    body.append((byte) 0); // flags
    body.append((byte) 1); // one column
    body.append((byte) 1).append('c');
    body.append((byte) 11); // text
    body.appendVarLong(text.length);
    body.append(text);
    byte[] bb = body.toByteArray();
    ByteBuilder out = new ByteBuilder(bb.length + 4);
    out.append((byte) 1).append((byte) 4).appendVarLong(bb.length);
    out.append(bb);
    return out.toByteArray();
  }

  private static void assertSame(LtlCommand expected, PackedRowReader r) throws Exception {
    if (expected instanceof LtlCommand.Insert ins) {
      assertThat(r.kind()).isEqualTo(PackedRowReader.Kind.INSERT);
      assertThat(r.table()).isEqualTo(ins.table());
      assertThat(r.snapshot()).isEqualTo(ins.snapshot());
      assertImage(ins.after(), r.after());
      assertThat(r.before().size()).isZero();
    } else if (expected instanceof LtlCommand.Update upd) {
      assertThat(r.kind()).isEqualTo(PackedRowReader.Kind.UPDATE);
      assertThat(r.table()).isEqualTo(upd.table());
      assertImage(upd.before(), r.before());
      assertImage(upd.after(), r.after());
    } else if (expected instanceof LtlCommand.Delete del) {
      assertThat(r.kind()).isEqualTo(PackedRowReader.Kind.DELETE);
      assertThat(r.table()).isEqualTo(del.table());
      assertImage(del.before(), r.before());
      assertThat(r.after().size()).isZero();
    } else {
      assertThat(r.kind()).isEqualTo(PackedRowReader.Kind.OTHER);
      assertThat(r.command()).contains(expected);
    }
  }

  private static void assertImage(List<Column> expected, PackedRowReader.Image image) {
    assertThat(image.size()).as(seed()).isEqualTo(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      Column c = expected.get(i);
      assertThat(image.name(i)).as(seed()).isEqualTo(c.name());
      assertThat(image.value(i)).as(seed() + " column " + c.name()).isEqualTo(c.value());
      assertThat(image.unchanged(i)).isEqualTo(c.value() instanceof Value.Unchanged);
      assertThat(image.isNull(i)).isEqualTo(c.value() instanceof Value.Null);
      assertThat(image.type(i).name().toLowerCase())
          .isNotEmpty(); // every tag maps to a type (value() would have thrown otherwise)
    }
  }

  private static byte[] mutate(byte[] seed, Random r) {
    byte[] b = seed.clone();
    int rounds = 1 + r.nextInt(3);
    for (int k = 0; k < rounds && b.length > 0; k++) {
      int at = r.nextInt(b.length);
      switch (r.nextInt(5)) {
        case 0 -> b[at] ^= (byte) (1 << r.nextInt(8));
        case 1 -> b[at] = (byte) new int[] {0, 1, 0x7f, 0x80, 0xff, 0xc3, 0xed, 0x3f}[r.nextInt(8)];
        case 2 -> b = java.util.Arrays.copyOf(b, at);
        case 3 -> b[at] = (byte) r.nextInt(256); // lengths unchanged: reaches the body's checks
        default -> {
          byte[] c = new byte[b.length + 1];
          System.arraycopy(b, 0, c, 0, at);
          c[at] = (byte) r.nextInt(256);
          System.arraycopy(b, at, c, at + 1, b.length - at);
          b = c;
        }
      }
    }
    return b;
  }

  private static String seed() {
    return "seed " + SEED;
  }

  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }
}
