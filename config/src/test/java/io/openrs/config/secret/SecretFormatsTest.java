package io.openrs.config.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The worked examples of {@code docs/formats/secrets.md}, byte for byte. */
class SecretFormatsTest {
  private static final HexFormat HEX = HexFormat.ofDelimiter(" ");

  private static byte[] key() {
    byte[] key = new byte[32];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) i;
    }
    return key;
  }

  @Test
  void keyFileExample() {
    byte[] file = SecretKeyFile.encode(key());
    assertThat(HEX.formatHex(file))
        .isEqualTo(
            "4f 52 53 4b 01"
                + " 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f"
                + " 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f"
                + " f5 8d 31 bb");
    assertThat(SecretKeyFile.decode(Path.of("example"), file)).isEqualTo(key());
  }

  @Test
  void sealedValueExample() {
    byte[] nonce = new byte[SecretBox.NONCE_SIZE];
    for (int i = 0; i < nonce.length; i++) {
      nonce[i] = (byte) (0xa0 + i);
    }
    SecretBox box = SecretBox.of(key());
    String sealed = box.seal("pw", "rs_config/101/password", nonce);

    assertThat(box.keyIdHex()).isEqualTo("630dcd29");
    assertThat(sealed).isEqualTo("enc:1:Yw3NKaChoqOkpaanqKmqq5Zv3rKAZobr91DwIPDqwjgRQA==");
    assertThat(box.open(sealed, "rs_config/101/password")).isEqualTo("pw");
  }
}
