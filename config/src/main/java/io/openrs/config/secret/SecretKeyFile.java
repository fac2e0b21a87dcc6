package io.openrs.config.secret;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The key file: the one AES-256 key the server seals connection passwords with ({@link SecretBox}).
 * The server creates it at its first start in its data directory, mode {@code 0600}, and refuses to
 * start when it is readable by anyone but its owner. Losing it makes the sealed passwords
 * unreadable (set them again); whoever reads it and the RSSD reads the passwords, so back it up
 * apart from the RSSD.
 *
 * <pre>
 * offset  width  field
 * 0       4      MAGIC     "ORSK" (4f 52 53 4b)
 * 4       1      VERSION   1
 * 5       32     KEY       the AES-256 key, random (SecureRandom)
 * 37      4      CRC       CRC-32C (Castagnoli, java.util.zip.CRC32C) of bytes 0..36, big-endian
 * FILE_SIZE = 41
 * </pre>
 *
 * <p>{@code docs/formats/secrets.md} has a worked example ({@code SecretFormatsTest}).
 *
 * <p>Created whole or not at all: written to {@code <name>.tmp} (created {@code 0600}), forced,
 * renamed over the final name and the directory forced; a {@code .tmp} left by a crash is deleted.
 *
 * <p>Stateless; not safe for two processes creating the same file at once (the server's {@code
 * repserver.lock} guards its data directory).
 */
public final class SecretKeyFile {
  private static final Logger LOG = LoggerFactory.getLogger(SecretKeyFile.class);

  /** The key file's name in the data directory. */
  public static final String DEFAULT_NAME = "secret.key";

  static final byte[] MAGIC = {'O', 'R', 'S', 'K'};

  /** Version 1 (2026-11-27): magic, version, 32-byte key, CRC-32C. */
  static final byte VERSION_1 = 1;

  static final int MAGIC_OFFSET = 0;
  static final int VERSION_OFFSET = MAGIC_OFFSET + MAGIC.length;
  static final int KEY_OFFSET = VERSION_OFFSET + 1;
  static final int CRC_OFFSET = KEY_OFFSET + SecretBox.KEY_SIZE;
  static final int FILE_SIZE = CRC_OFFSET + 4;

  private SecretKeyFile() {}

  /**
   * Loads the key in {@code file}, creating the file with a new random key when it does not exist.
   *
   * @throws SecretException when the file is readable by group or others, damaged or of an unknown
   *     version (naming the file and what is wrong), or cannot be read or written
   */
  public static SecretBox loadOrCreate(Path file) {
    try {
      Files.deleteIfExists(tmp(file));
      if (Files.notExists(file)) {
        create(file, SecretBox.newKey());
        LOG.info("created the secret key file {} (mode 0600)", file);
      }
      return load(file);
    } catch (IOException e) {
      throw new SecretException("cannot use the secret key file " + file + ": " + e, e);
    }
  }

  /**
   * Loads the key in {@code file}.
   *
   * @throws SecretException as {@link #loadOrCreate}, and when the file does not exist
   */
  public static SecretBox load(Path file) {
    try {
      Optional<String> loose = PrivateFiles.openToOthers(file);
      if (loose.isPresent()) {
        throw new SecretException(
            "the secret key file "
                + file
                + " has mode "
                + loose.get()
                + "; it must be readable by the server's user only: chmod 600 "
                + file);
      }
      byte[] bytes = Files.readAllBytes(file);
      return SecretBox.of(decode(file, bytes));
    } catch (IOException e) {
      throw new SecretException("cannot read the secret key file " + file + ": " + e, e);
    }
  }

  static byte[] decode(Path file, byte[] bytes) {
    if (bytes.length != FILE_SIZE) {
      throw damaged(file, "it has " + bytes.length + " bytes, " + FILE_SIZE + " expected");
    }
    if (!Arrays.equals(bytes, MAGIC_OFFSET, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw damaged(file, "it does not start with ORSK");
    }
    if (bytes[VERSION_OFFSET] != VERSION_1) {
      throw new SecretException(
          "the secret key file "
              + file
              + " has version "
              + bytes[VERSION_OFFSET]
              + "; this server reads version "
              + VERSION_1);
    }
    int stored = ByteBuffer.wrap(bytes, CRC_OFFSET, 4).getInt();
    int computed = crc(bytes);
    if (stored != computed) {
      throw damaged(file, String.format("stored crc=%08x, computed crc=%08x", stored, computed));
    }
    return Arrays.copyOfRange(bytes, KEY_OFFSET, KEY_OFFSET + SecretBox.KEY_SIZE);
  }

  static byte[] encode(byte[] key) {
    ByteBuffer b = ByteBuffer.allocate(FILE_SIZE);
    b.put(MAGIC).put(VERSION_1).put(key);
    b.putInt(CRC_OFFSET, crc(b.array()));
    return b.array();
  }

  private static void create(Path file, byte[] key) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    PrivateFiles.createDirectories(dir);
    Path tmp = tmp(file);
    try (FileChannel ch =
        FileChannel.open(
            tmp,
            Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
            PrivateFiles.fileAttributes(tmp))) {
      ByteBuffer b = ByteBuffer.wrap(encode(key));
      while (b.hasRemaining()) {
        ch.write(b);
      }
      ch.force(true);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // Not every platform can force a directory; the rename itself is atomic.
    }
  }

  private static Path tmp(Path file) {
    return file.resolveSibling(file.getFileName() + ".tmp");
  }

  private static int crc(byte[] bytes) {
    CRC32C c = new CRC32C();
    c.update(bytes, 0, CRC_OFFSET);
    return (int) c.getValue();
  }

  private static SecretException damaged(Path file, String why) {
    return new SecretException(
        "the secret key file "
            + file
            + " is damaged ("
            + why
            + "); restore it from a backup (a new key cannot open the passwords sealed with the"
            + " old one)");
  }
}
