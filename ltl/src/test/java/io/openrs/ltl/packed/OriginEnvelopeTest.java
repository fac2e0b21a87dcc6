package io.openrs.ltl.packed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TranId;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class OriginEnvelopeTest {

  private final LtlCommand commit =
      new LtlCommand.Commit(
          TranId.ofLong(7), Oqid.ofLong(42, 12), Instant.parse("2026-11-21T10:00:00.123456Z"));

  @Test
  void carriesOriginAndCommand() throws Exception {
    byte[] message = OriginEnvelope.pack(0x01020304, commit, new PackedEncoder());

    assertThat(message[0]).isEqualTo(OriginEnvelope.MAGIC);
    assertThat(OriginEnvelope.originOf(message)).isEqualTo(0x01020304);
    assertThat(OriginEnvelope.commandOf(message, new PackedDecoder())).contains(commit);
    assertThat(OriginEnvelope.wrap(0x01020304, new PackedEncoder().encode(commit)))
        .isEqualTo(message);
  }

  @Test
  void theDocumentedExampleStartsAsTheEncoderWritesIt() throws Exception {
    byte[] message = OriginEnvelope.pack(101, commit, new PackedEncoder());
    assertThat(java.util.HexFormat.ofDelimiter(" ").formatHex(message, 0, 7))
        .isEqualTo("e1 00 00 00 65 02 02");
    assertThat(
            java.nio.file.Files.readString(
                java.nio.file.Path.of("..", "docs", "formats", "ltl-packed.md")))
        .contains("`e1 00 00 00 65 02 02 ...`");
  }

  @Test
  void rejectsWhatIsNotAnEnvelope() {
    byte[] packed = new PackedEncoder().encode(commit);
    assertThatThrownBy(() -> OriginEnvelope.originOf(packed))
        .isInstanceOf(PackedFormatException.class)
        .hasMessageContaining("magic");
    assertThatThrownBy(() -> OriginEnvelope.originOf(new byte[] {OriginEnvelope.MAGIC, 0}))
        .isInstanceOf(PackedFormatException.class)
        .hasMessageContaining("shorter than its 5-byte header");
  }
}
