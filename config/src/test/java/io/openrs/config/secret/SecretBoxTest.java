package io.openrs.config.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import org.junit.jupiter.api.Test;

class SecretBoxTest {
  private static final String SECRET = "pw-Grüße-4711";
  private static final String CONTEXT = "rs_config/101/password";
  private final SecretBox box = SecretBox.of(SecretBox.newKey());

  @Test
  void aSealedSecretOpensWithTheSameKeyAndContextOnly() {
    String sealed = box.seal(SECRET, CONTEXT);

    assertThat(sealed).startsWith("enc:1:").doesNotContain(SECRET);
    assertThat(box.open(sealed, CONTEXT)).isEqualTo(SECRET);
    assertThat(box.seal(SECRET, CONTEXT)).as("a fresh nonce per seal").isNotEqualTo(sealed);
    assertThatThrownBy(() -> box.open(sealed, "rs_config/102/password"))
        .isInstanceOf(SecretException.class)
        .hasMessageContaining("rs_config/102/password")
        .hasMessageNotContaining(SECRET);
    assertThatThrownBy(() -> SecretBox.of(SecretBox.newKey()).open(sealed, CONTEXT))
        .isInstanceOf(SecretException.class)
        .hasMessageContaining("sealed with another key");
  }

  @Test
  void theLayoutIsKeyIdNonceCiphertextTag() {
    byte[] bytes = Base64.getDecoder().decode(box.seal("abc", CONTEXT).substring(6));
    assertThat(SecretBox.HEADER_SIZE).isEqualTo(16);
    assertThat(bytes).hasSize(SecretBox.HEADER_SIZE + 3 + SecretBox.TAG_SIZE);
  }

  @Test
  void everyChangedByteIsDetected() {
    String sealed = box.seal(SECRET, CONTEXT);
    byte[] bytes = Base64.getDecoder().decode(sealed.substring(6));
    for (int i = SecretBox.NONCE_OFFSET; i < bytes.length; i++) {
      byte[] damaged = bytes.clone();
      damaged[i] ^= 0x01;
      String text = "enc:1:" + Base64.getEncoder().encodeToString(damaged);
      assertThatThrownBy(() -> box.open(text, CONTEXT))
          .as("byte %d", i)
          .isInstanceOf(SecretException.class)
          .hasMessageContaining("damaged");
    }
  }

  @Test
  void unknownVersionsShortValuesAndNonBase64AreRefusedByName() {
    assertThatThrownBy(() -> box.open("enc:2:AAAA", CONTEXT))
        .isInstanceOf(SecretException.class)
        .hasMessageContaining("format version 2; this server reads versions 1 to 1");
    assertThatThrownBy(() -> box.open("enc:1:AAAA", CONTEXT))
        .isInstanceOf(SecretException.class)
        .hasMessageContaining("3 bytes, at least 32 expected");
    assertThatThrownBy(() -> box.open("enc:1:***", CONTEXT))
        .isInstanceOf(SecretException.class)
        .hasMessageContaining("not base64");
    assertThatThrownBy(() -> box.open("plain", CONTEXT))
        .isInstanceOf(SecretException.class)
        .hasMessageContaining("not a sealed value");
  }

  @Test
  void referencesResolveAtUseAndClearValuesAreSealedForStorage() throws Exception {
    java.nio.file.Path file = java.nio.file.Files.createTempFile("pw", ".txt");
    java.nio.file.Files.writeString(file, "from-a-file\n");
    Secrets secrets =
        new Secrets(
            java.util.Optional.of(box), name -> name.equals("PGPW") ? "from-the-env" : null);

    assertThat(secrets.reveal("env:PGPW", CONTEXT)).isEqualTo("from-the-env");
    assertThat(secrets.reveal("file:" + file, CONTEXT)).isEqualTo("from-a-file");
    assertThat(secrets.forStorage("env:PGPW", CONTEXT)).isEqualTo("env:PGPW");
    String stored = secrets.forStorage(SECRET, CONTEXT);
    assertThat(stored).startsWith("enc:1:");
    assertThat(secrets.reveal(stored, CONTEXT)).isEqualTo(SECRET);
    assertThatThrownBy(() -> secrets.reveal("env:MISSING", CONTEXT))
        .isInstanceOf(SecretException.class)
        .hasMessageContaining("environment variable MISSING");
    assertThatThrownBy(() -> secrets.reveal("file:/no/such/file", CONTEXT))
        .isInstanceOf(SecretException.class)
        .hasMessageContaining("/no/such/file");
    assertThatThrownBy(() -> Secrets.withoutKey().forStorage(SECRET, CONTEXT))
        .isInstanceOf(SecretException.class)
        .hasMessageNotContaining(SECRET);
    java.nio.file.Files.delete(file);
  }
}
