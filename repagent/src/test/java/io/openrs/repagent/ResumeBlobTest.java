package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ResumeBlobTest {

  private static ByteBuffer b(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void roundTripsOffsetsAndHistory() throws IOException {
    Map<ByteBuffer, ByteBuffer> offsets = new LinkedHashMap<>();
    offsets.put(b("[\"a\",{\"server\":\"x\"}]"), b("{\"lsn\":42}"));
    offsets.put(b("k2"), null);
    ResumeBlob.Contents c = new ResumeBlob.Contents(offsets, List.of("{\"ddl\":\"CREATE\"}", "é"));
    byte[] blob = ResumeBlob.encode(c);
    assertThat(Arrays.copyOf(blob, 4)).isEqualTo(new byte[] {'O', 'R', 'A', 'B'});
    ResumeBlob.Contents back = ResumeBlob.decode(blob);
    assertThat(back.offsets()).isEqualTo(offsets);
    assertThat(back.schemaHistory()).containsExactly("{\"ddl\":\"CREATE\"}", "é");
  }

  @Test
  void anEmptyBlobIsNoPosition() throws IOException {
    assertThat(ResumeBlob.decode(new byte[0]).offsets()).isEmpty();
  }

  @Test
  void damageIsNamed() throws IOException {
    byte[] good = ResumeBlob.encode(ResumeBlob.Contents.empty());
    assertThatThrownBy(() -> ResumeBlob.decode(new byte[] {'O', 'R'}))
        .hasMessageContaining("shorter than its header");
    byte[] magic = good.clone();
    magic[0] = 'X';
    assertThatThrownBy(() -> ResumeBlob.decode(magic)).hasMessageContaining("ORAB");
    byte[] version = good.clone();
    version[ResumeBlob.VERSION_OFFSET] = 9;
    assertThatThrownBy(() -> ResumeBlob.decode(version))
        .hasMessageContaining("version 9, this agent reads version 1");
    byte[] cut = Arrays.copyOf(good, good.length - 3);
    assertThatThrownBy(() -> ResumeBlob.decode(cut)).hasMessageContaining("its header says");
    byte[] flipped = good.clone();
    flipped[flipped.length - 1] ^= 1;
    assertThatThrownBy(() -> ResumeBlob.decode(flipped)).hasMessageContaining("stored crc=");
  }

  @Test
  void aBlobOverTheServersLimitIsRefused() {
    byte[] noise = new byte[2 * ResumeBlob.MAX_BYTES];
    new Random(1).nextBytes(noise);
    Map<ByteBuffer, ByteBuffer> offsets = Map.of(b("k"), ByteBuffer.wrap(noise));
    assertThatThrownBy(() -> ResumeBlob.encode(new ResumeBlob.Contents(offsets, List.of())))
        .hasMessageContaining("more than the server keeps");
  }
}
