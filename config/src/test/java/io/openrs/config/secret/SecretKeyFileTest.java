package io.openrs.config.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretKeyFileTest {
  @TempDir Path dir;

  @Test
  void theFirstStartCreatesAPrivateKeyFileTheNextStartsReadBack() throws Exception {
    Path file = dir.resolve("data").resolve(SecretKeyFile.DEFAULT_NAME);

    SecretBox first = SecretKeyFile.loadOrCreate(file);

    assertThat(Files.size(file)).isEqualTo(SecretKeyFile.FILE_SIZE).isEqualTo(41);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
        .isEqualTo("rwx------");
    assertThat(Files.readAllBytes(file)).startsWith('O', 'R', 'S', 'K', 1);
    String sealed = first.seal("pw", "c");
    assertThat(SecretKeyFile.loadOrCreate(file).open(sealed, "c")).isEqualTo("pw");
    assertThat(Files.exists(file.resolveSibling(SecretKeyFile.DEFAULT_NAME + ".tmp"))).isFalse();
  }

  @Test
  void aKeyFileOthersCanReadIsRefused() throws Exception {
    Path file = dir.resolve(SecretKeyFile.DEFAULT_NAME);
    SecretKeyFile.loadOrCreate(file);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

    assertThatThrownBy(() -> SecretKeyFile.loadOrCreate(file))
        .isInstanceOf(SecretException.class)
        .hasMessageContaining("has mode rw-r--r--")
        .hasMessageContaining("chmod 600 " + file);
  }

  @Test
  void aDamagedKeyFileIsRefusedWithTheNumbers() throws Exception {
    Path file = dir.resolve(SecretKeyFile.DEFAULT_NAME);
    SecretKeyFile.loadOrCreate(file);
    byte[] bytes = Files.readAllBytes(file);
    bytes[10] ^= 0x40;
    Files.write(file, bytes);
    assertThatThrownBy(() -> SecretKeyFile.load(file))
        .isInstanceOf(SecretException.class)
        .hasMessageContaining("is damaged (stored crc=");
    Files.write(file, new byte[] {'O', 'R', 'S', 'K'});
    assertThatThrownBy(() -> SecretKeyFile.load(file))
        .isInstanceOf(SecretException.class)
        .hasMessageContaining("it has 4 bytes, 41 expected");
  }
}
