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
import io.openrs.ltl.Value.NonFinite.Bound;
import io.openrs.ltl.Value.NonFinite.Domain;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Tags 19 (non-finite) and 20 (native): every value packs and reads back equal through {@link
 * PackedDecoder} and {@link PackedRowReader}; damaged payloads are refused by both with the offset
 * and the numbers.
 */
class PackedNonFiniteAndNativeTest {
  private final PackedEncoder encoder = new PackedEncoder();
  private final PackedDecoder decoder = new PackedDecoder();
  private final PackedRowReader reader = new PackedRowReader();

  static List<Value> newValues() {
    List<Value> all = new ArrayList<>();
    for (Domain d : Domain.values()) {
      for (Bound b : Bound.values()) {
        if (b != Bound.NAN || d == Domain.DEC) {
          all.add(new Value.NonFinite(d, b));
        }
      }
    }
    all.add(new Value.Native("postgresql", "_int4", "{1,NULL,3}"));
    all.add(new Value.Native("postgresql", "varbit", ""));
    all.add(new Value.Native("postgresql", "_text", "{\"é 😀\",\"it's\"}"));
    all.add(new Value.Native("pg_16", "sch\u00e9ma.\"Mood\"", "h\u00e4ppy\n"));
    all.add(new Value.Native("postgresql", "t".repeat(200), "x".repeat(300)));
    return all;
  }

  @Test
  void everyNonFiniteAndNativeValueRoundTripsThroughDecoderAndRowReader() throws Exception {
    List<Value> values = newValues();
    assertThat(values.stream().filter(v -> v instanceof Value.NonFinite)).hasSize(9);
    List<Column> cols = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      cols.add(new Column("c" + i, values.get(i)));
    }
    LtlCommand update =
        new LtlCommand.Update(
            TranId.ofLong(1),
            Oqid.ofLong(2, 8),
            new TableName("s", "t"),
            List.of(new Column("id", new Value.Int32(1))),
            cols);
    byte[] b = encoder.encode(update);
    assertThat(decoder.decode(b)).contains(update);
    reader.reset(b, 0, b.length);
    assertThat(reader.next()).isTrue();
    PackedRowReader.Image after = reader.after();
    assertThat(after.size()).isEqualTo(values.size());
    for (int i = 0; i < values.size(); i++) {
      Value v = values.get(i);
      assertThat(after.value(i)).as("column %d", i).isEqualTo(v);
      assertThat(after.isNull(i)).isFalse();
      assertThat(after.unchanged(i)).isFalse();
      if (v instanceof Value.NonFinite nf) {
        assertThat(after.type(i)).isEqualTo(PackedRowReader.Type.NON_FINITE);
        assertThat(after.longValue(i)).isEqualTo(PackedFormat.domainByte(nf));
        assertThat(after.micros(i)).isEqualTo(PackedFormat.boundByte(nf));
        assertThat(after.value(i)).as("shared, nothing made").isSameAs(after.value(i));
        assertThatThrownBy(() -> after.nativeType(0))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("NON_FINITE, not NATIVE");
      } else {
        Value.Native n = (Value.Native) v;
        assertThat(after.type(i)).isEqualTo(PackedRowReader.Type.NATIVE);
        assertThat(after.nativeDialect(i)).isEqualTo(n.dialect());
        assertThat(after.nativeType(i)).isEqualTo(n.type());
        assertThat(
                new String(after.bytes(), after.offset(i), after.length(i), StandardCharsets.UTF_8))
            .isEqualTo(n.text());
        assertThat(after.ascii(i)).isEqualTo(n.text().chars().allMatch(ch -> ch < 0x80));
      }
    }
  }

  @Test
  void theDomainAndBoundBytesAreTheFormatsNotTheEnumsOrder() {
    assertThat(PackedFormat.nonFinite(0, 0)).isEqualTo(new Value.NonFinite(Domain.DEC, Bound.NAN));
    assertThat(PackedFormat.nonFinite(1, 1))
        .isEqualTo(new Value.NonFinite(Domain.DATE, Bound.POSITIVE_INFINITY));
    assertThat(PackedFormat.nonFinite(2, 2))
        .isEqualTo(new Value.NonFinite(Domain.TS, Bound.NEGATIVE_INFINITY));
    assertThat(PackedFormat.nonFinite(3, 1))
        .isEqualTo(new Value.NonFinite(Domain.TSTZ, Bound.POSITIVE_INFINITY));
    for (Value v : newValues()) {
      if (v instanceof Value.NonFinite nf) {
        assertThat(PackedFormat.nonFinite(PackedFormat.domainByte(nf), PackedFormat.boundByte(nf)))
            .isEqualTo(nf);
      }
    }
  }

  @Test
  void nativeDialectsAndTypesAreSharedBetweenRows() throws Exception {
    ByteBuilder out = new ByteBuilder(256);
    for (int i = 0; i < 2; i++) {
      encoder.encode(
          new LtlCommand.Insert(
              TranId.ofLong(1),
              Oqid.ofLong(i + 1, 8),
              new TableName("s", "t"),
              false,
              List.of(new Column("a", new Value.Native("postgresql", "_int4", "{" + i + "}")))),
          out);
    }
    byte[] b = out.toByteArray();
    reader.reset(b, 0, b.length);
    reader.next();
    String dialect = reader.after().nativeDialect(0);
    String type = reader.after().nativeType(0);
    reader.next();
    assertThat(reader.after().nativeDialect(0)).isSameAs(dialect);
    assertThat(reader.after().nativeType(0)).isSameAs(type);
    assertThat(reader.after().value(0)).isEqualTo(new Value.Native("postgresql", "_int4", "{1}"));
  }

  /**
   * A one-column insert whose column is tag 19 with these payload bytes (the command's body length
   * covers exactly them); they start at {@link #PAYLOAD_AT}.
   */
  private static byte[] nonFiniteInsert(byte... payload) {
    return insertWithValue(19, payload);
  }

  private static byte[] insertWithValue(int tag, byte... payload) {
    ByteBuilder body = new ByteBuilder(64);
    body.append((byte) 1).append((byte) 1); // tran
    body.append((byte) 1).append((byte) 2); // oqid
    body.append((byte) 1).append('s');
    body.append((byte) 1).append('t');
    body.append((byte) 0); // flags
    body.append((byte) 1); // one column
    body.append((byte) 1).append('c');
    body.append((byte) tag);
    body.append(payload);
    byte[] bb = body.toByteArray();
    ByteBuilder out = new ByteBuilder(bb.length + 4);
    out.append((byte) 2).append((byte) 4).appendVarLong(bb.length);
    out.append(bb);
    return out.toByteArray();
  }

  /** Where the payload of {@link #insertWithValue}'s value starts (after its tag). */
  private static final int PAYLOAD_AT = 16;

  @ParameterizedTest(name = "domain {0} bound {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          4   | 1 | 0 | non-finite domain 4 (known: 0 dec, 1 date, 2 ts, 3 tstz)
          255 | 0 | 0 | non-finite domain 255
          0   | 3 | 1 | non-finite bound 3 (known: 0 NaN, 1 +infinity, 2 -infinity)
          1   | 255 | 1 | non-finite bound 255
          1   | 0 | 1 | non-finite bound 0 (NaN) of domain 1 (date): NaN is a dec value only
          2   | 0 | 1 | non-finite bound 0 (NaN) of domain 2 (ts): NaN is a dec value only
          3   | 0 | 1 | non-finite bound 0 (NaN) of domain 3 (tstz): NaN is a dec value only
          """)
  void malformedNonFinitePayloadsAreRefusedWithTheNumbers(
      int domain, int bound, int badByte, String message) {
    byte[] b = nonFiniteInsert((byte) domain, (byte) bound);
    assertThat(b[PAYLOAD_AT - 1]).isEqualTo((byte) 19);
    int at = PAYLOAD_AT + badByte;
    assertRefused(b, at, message);
  }

  @Test
  void aCutNonFinitePayloadIsRefused() {
    assertRefused(nonFiniteInsert(), PAYLOAD_AT, "a non-finite value needs 2 bytes, 0 left");
    assertRefused(
        nonFiniteInsert((byte) 0), PAYLOAD_AT, "a non-finite value needs 2 bytes, 1 left");
  }

  @Test
  void malformedNativePayloadsAreRefused() {
    assertRefused(
        insertWithParts(20, str("PostgreSQL"), str("_int4"), str("{1}")),
        PAYLOAD_AT,
        "native dialect 'PostgreSQL' is not a lower-case word");
    assertRefused(
        insertWithParts(20, str(""), str("_int4"), str("{1}")),
        PAYLOAD_AT,
        "native dialect '' is not a lower-case word");
    assertRefused(
        insertWithParts(20, str("postgresql"), str(""), str("{1}")),
        PAYLOAD_AT + 11,
        "native type is empty");
    assertRefused(
        insertWithParts(20, str("postgresql"), str("_int4"), new byte[] {2, (byte) 0xc3, 0x28}),
        PAYLOAD_AT + 11 + 6 + 1,
        "not well-formed UTF-8");
    assertRefused(
        insertWithParts(20, str("postgresql"), str("_int4"), new byte[] {9, 'a'}),
        PAYLOAD_AT + 11 + 6,
        "string length 9 exceeds");
    assertRefused(insertWithParts(20, str("postgresql")), PAYLOAD_AT + 11, "a varint cut short");
  }

  private static byte[] str(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[utf8.length + 1];
    out[0] = (byte) utf8.length;
    System.arraycopy(utf8, 0, out, 1, utf8.length);
    return out;
  }

  private static byte[] insertWithParts(int tag, byte[]... parts) {
    ByteBuilder payload = new ByteBuilder(64);
    for (byte[] p : parts) {
      payload.append(p);
    }
    return insertWithValue(tag, payload.toByteArray());
  }

  /** Both the decoder and the row reader refuse {@code b} at {@code at} saying {@code message}. */
  private void assertRefused(byte[] b, int at, String message) {
    assertThatThrownBy(() -> decoder.decode(b))
        .isInstanceOfSatisfying(
            PackedFormatException.class, e -> assertThat(e.offset()).isEqualTo(at))
        .hasMessageContaining(message);
    assertThatThrownBy(() -> reader.reset(b, 0, b.length).next())
        .isInstanceOfSatisfying(
            PackedFormatException.class, e -> assertThat(e.offset()).isEqualTo(at))
        .hasMessageContaining(message);
  }
}
