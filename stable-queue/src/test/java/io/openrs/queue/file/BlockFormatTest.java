package io.openrs.queue.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.queue.QueueId;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class BlockFormatTest {

  static final int BLOCK = 16 * 1024;
  static final QueueId Q = QueueId.inbound(101);

  /** The worked example of docs/formats/stable-queue-block.md: one block holding "hello". */
  static ByteBuffer example() {
    ByteBuffer b = ByteBuffer.allocate(BLOCK);
    b.putInt(BlockFormat.HEADER_SIZE, 5);
    b.put(
        BlockFormat.HEADER_SIZE + 4, "hello".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    BlockFormat.writeHeader(b, 0, BLOCK, (short) 0, Q, 3 * 64 + 2, 9, 0, 1);
    return b;
  }

  @Test
  void headerLayoutIsTheDocumentedOne() {
    assertThat(BlockFormat.HEADER_SIZE).isEqualTo(40);
    assertThat(BlockFormat.CRC_OFFSET).isEqualTo(8);
    assertThat(BlockFormat.BLOCK_SEQUENCE_OFFSET).isEqualTo(20);
    assertThat(BlockFormat.MESSAGE_COUNT_OFFSET).isEqualTo(36);
    String hex = HexFormat.of().formatHex(example().array(), 0, 49);
    // The same bytes as in docs/formats/stable-queue-block.md.
    assertThat(hex)
        .isEqualTo(
            "4f525351"
                + "0001"
                + "0000"
                + "151691f6"
                + "00000065"
                + "01"
                + "0e"
                + "0000"
                + "00000000000000c2"
                + "00000009"
                + "00000000"
                + "00000001"
                + "00000005"
                + "68656c6c6f");
  }

  @Test
  void aGoodBlockPassesAndEachDamageIsNamed() {
    ByteBuffer b = example();
    BlockFormat.Check ok = BlockFormat.check(b, 0, BLOCK, BLOCK, Q, 194);
    assertThat(ok.ok()).isTrue();
    assertThat(ok.header().orElseThrow().payloadLength()).isEqualTo(9);

    assertThat(BlockFormat.check(b, 0, 0, BLOCK, Q, 194).damage())
        .isEqualTo(BlockFormat.Damage.NO_BLOCK);
    assertThat(BlockFormat.check(ByteBuffer.allocate(BLOCK), 0, BLOCK, BLOCK, Q, 194).damage())
        .isEqualTo(BlockFormat.Damage.NO_BLOCK);
    assertThat(BlockFormat.check(b, 0, 20, BLOCK, Q, 194).damage())
        .isEqualTo(BlockFormat.Damage.SHORT);
    assertThat(BlockFormat.check(b, 0, 45, BLOCK, Q, 194).damage())
        .isEqualTo(BlockFormat.Damage.SHORT);
    assertThat(BlockFormat.check(b, 0, BLOCK, BLOCK, Q, 195).damage())
        .isEqualTo(BlockFormat.Damage.WRONG_IDENTITY);
    assertThat(BlockFormat.check(b, 0, BLOCK, BLOCK, QueueId.outbound(101), 194).damage())
        .isEqualTo(BlockFormat.Damage.WRONG_IDENTITY);
    assertThat(BlockFormat.check(b, 0, BLOCK, 2 * BLOCK, Q, 194).damage())
        .isEqualTo(BlockFormat.Damage.BAD_LENGTH);

    ByteBuffer flipped = example();
    flipped.put(BlockFormat.HEADER_SIZE + 6, (byte) 'X');
    BlockFormat.Check crc = BlockFormat.check(flipped, 0, BLOCK, BLOCK, Q, 194);
    assertThat(crc.damage()).isEqualTo(BlockFormat.Damage.CRC_MISMATCH);
    assertThat(crc.detail()).contains("stored crc=0x").contains("computed crc=0x");

    ByteBuffer magic = example();
    magic.put(0, (byte) 0x11);
    assertThat(BlockFormat.check(magic, 0, BLOCK, BLOCK, Q, 194).damage())
        .isEqualTo(BlockFormat.Damage.BAD_MAGIC);

    ByteBuffer version = example();
    version.putShort(BlockFormat.VERSION_OFFSET, (short) 2);
    BlockFormat.Check v = BlockFormat.check(version, 0, BLOCK, BLOCK, Q, 194);
    assertThat(v.damage()).isEqualTo(BlockFormat.Damage.UNSUPPORTED_VERSION);
    assertThat(v.detail()).isEqualTo("format version 2, this build reads 1..1");
  }

  @Test
  void metadataRoundTripsAndRejectsDamage() {
    QueueMetadata m =
        new QueueMetadata(
            7,
            Q,
            BLOCK,
            1024 * 1024,
            3,
            java.util.List.of(
                new QueueMetadata.ReaderMark(
                    "SQT", java.util.Optional.of(new io.openrs.queue.QueuePosition(3, 1, 2))),
                new QueueMetadata.ReaderMark("DIST", java.util.Optional.empty())));
    ByteBuffer bytes = MetadataStore.encode(m);
    assertThat(MetadataStore.decode(bytes.duplicate())).isEqualTo(m);
    bytes.put(MetadataStore.HEADER_SIZE + 3, (byte) 1);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> MetadataStore.decode(bytes))
        .hasMessageContaining("stored crc=");
  }
}
