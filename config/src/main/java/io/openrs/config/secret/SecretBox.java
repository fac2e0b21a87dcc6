package io.openrs.config.secret;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals secrets (connection passwords) for storage in the RSSD with one AES-256 key, and opens them
 * again when a component needs the clear value.
 *
 * <pre>
 * Stored text (what the RSSD row holds):
 *
 *   "enc:" VERSION ":" BASE64(bytes)          e.g. enc:1:q0Z8mQ3k...   (RFC 4648 base64, padded)
 *
 * bytes, version 1 (all fields fixed width; the key id is compared as bytes):
 *
 *   offset  width  field
 *   0       4      KEY_ID       first 4 bytes of SHA-256(key): tells "another key file" apart
 *                               from "damaged value"
 *   4       12     NONCE        random for every seal (SecureRandom), never reused with a key
 *   16      n      CIPHERTEXT   AES-256-GCM of the secret's UTF-8 bytes (n = their length)
 *   16+n    16     TAG          GCM tag (128 bits) over CIPHERTEXT and the associated data
 *   HEADER_SIZE = 16, total = HEADER_SIZE + n + TAG_SIZE
 *
 * associated data (authenticated, not stored): UTF-8 of "openrs-secret-v1|" + context, where
 * context names the value's place, e.g. "rs_config/101/password": a sealed value copied into
 * another row does not open there.
 * </pre>
 *
 * <p>{@code docs/formats/secrets.md} has a worked example ({@code SecretFormatsTest}).
 *
 * <p>The GCM tag is the integrity check: a changed bit anywhere, a wrong key or a wrong context
 * fails {@link #open} with a {@link SecretException} naming the context, never the value.
 *
 * <p>Immutable and thread-safe; each call makes its own {@link Cipher}.
 */
public final class SecretBox {
  /** Version 1 (2026-11-27): AES-256-GCM, 12-byte random nonce, 4-byte key id. */
  public static final int VERSION_1 = 1;

  /** The version {@link #seal} writes. */
  public static final int CURRENT_VERSION = VERSION_1;

  /** The oldest version {@link #open} reads. */
  public static final int OLDEST_READABLE_VERSION = VERSION_1;

  /** Every sealed value starts with this. */
  public static final String PREFIX = "enc:";

  /** AES-256: the key is 32 bytes. */
  public static final int KEY_SIZE = 32;

  static final int KEY_ID_OFFSET = 0;
  static final int KEY_ID_SIZE = 4;
  static final int NONCE_OFFSET = KEY_ID_OFFSET + KEY_ID_SIZE;
  static final int NONCE_SIZE = 12;
  static final int HEADER_SIZE = NONCE_OFFSET + NONCE_SIZE;
  static final int TAG_SIZE = 16;

  private static final String AAD_PREFIX = "openrs-secret-v1|";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SecretKeySpec key;
  private final byte[] keyId;

  private SecretBox(byte[] key) {
    if (key.length != KEY_SIZE) {
      throw new IllegalArgumentException(
          "a secret key has " + KEY_SIZE + " bytes, got " + key.length);
    }
    this.key = new SecretKeySpec(key.clone(), "AES");
    this.keyId = keyId(key);
  }

  /** A box with {@code key} (32 bytes, copied). */
  public static SecretBox of(byte[] key) {
    Objects.requireNonNull(key, "key");
    return new SecretBox(key);
  }

  /** A fresh random 32-byte key. */
  public static byte[] newKey() {
    byte[] k = new byte[KEY_SIZE];
    RANDOM.nextBytes(k);
    return k;
  }

  /** Whether {@code stored} is a sealed value (starts with {@value #PREFIX}). */
  public static boolean isSealed(String stored) {
    return stored != null && stored.startsWith(PREFIX);
  }

  /**
   * Seals {@code secret} for the place {@code context} names.
   *
   * @return {@code enc:1:<base64>}
   */
  public String seal(String secret, String context) {
    byte[] nonce = new byte[NONCE_SIZE];
    RANDOM.nextBytes(nonce);
    return seal(secret, context, nonce);
  }

  /** {@link #seal(String, String)} with a given nonce: for the byte-exact example test only. */
  String seal(String secret, String context, byte[] nonce) {
    Objects.requireNonNull(secret, "secret");
    Objects.requireNonNull(context, "context");
    if (nonce.length != NONCE_SIZE) {
      throw new IllegalArgumentException("a nonce has " + NONCE_SIZE + " bytes");
    }
    byte[] sealed;
    try {
      Cipher c = cipher(Cipher.ENCRYPT_MODE, nonce, context);
      sealed = c.doFinal(secret.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new SecretException("cannot seal the secret of " + context + ": " + e, e);
    }
    ByteBuffer out = ByteBuffer.allocate(HEADER_SIZE + sealed.length);
    out.put(keyId).put(nonce).put(sealed);
    return PREFIX + CURRENT_VERSION + ":" + Base64.getEncoder().encodeToString(out.array());
  }

  /**
   * Opens a value {@link #seal} made for the same {@code context}.
   *
   * @throws SecretException naming the context: not a sealed value, an unknown version, a value
   *     sealed with another key, or one that was changed
   */
  public String open(String stored, String context) {
    Objects.requireNonNull(context, "context");
    byte[] bytes = decode(stored, context);
    if (bytes.length < HEADER_SIZE + TAG_SIZE) {
      throw new SecretException(
          "the sealed secret of "
              + context
              + " is damaged: "
              + bytes.length
              + " bytes, at least "
              + (HEADER_SIZE + TAG_SIZE)
              + " expected");
    }
    byte[] storedKeyId = Arrays.copyOfRange(bytes, KEY_ID_OFFSET, KEY_ID_OFFSET + KEY_ID_SIZE);
    if (!MessageDigest.isEqual(storedKeyId, keyId)) {
      throw new SecretException(
          "the secret of "
              + context
              + " was sealed with another key (key id "
              + hex(storedKeyId)
              + ", this server's key file has "
              + hex(keyId)
              + "): restore the key file it was sealed with, or set the secret again");
    }
    byte[] nonce = Arrays.copyOfRange(bytes, NONCE_OFFSET, NONCE_OFFSET + NONCE_SIZE);
    try {
      Cipher c = cipher(Cipher.DECRYPT_MODE, nonce, context);
      byte[] clear = c.doFinal(bytes, HEADER_SIZE, bytes.length - HEADER_SIZE);
      return new String(clear, StandardCharsets.UTF_8);
    } catch (AEADBadTagException e) {
      throw new SecretException(
          "the sealed secret of " + context + " is damaged or belongs to another place", e);
    } catch (GeneralSecurityException e) {
      throw new SecretException("cannot open the secret of " + context + ": " + e, e);
    }
  }

  private static byte[] decode(String stored, String context) {
    if (!isSealed(stored)) {
      throw new SecretException("the secret of " + context + " is not a sealed value");
    }
    int colon = stored.indexOf(':', PREFIX.length());
    int version;
    try {
      version = colon < 0 ? -1 : Integer.parseInt(stored.substring(PREFIX.length(), colon));
    } catch (NumberFormatException e) {
      version = -1;
    }
    if (version < OLDEST_READABLE_VERSION || version > CURRENT_VERSION) {
      throw new SecretException(
          "the sealed secret of "
              + context
              + " has format version "
              + (colon < 0 ? "?" : stored.substring(PREFIX.length(), colon))
              + "; this server reads versions "
              + OLDEST_READABLE_VERSION
              + " to "
              + CURRENT_VERSION);
    }
    try {
      return Base64.getDecoder().decode(stored.substring(colon + 1));
    } catch (IllegalArgumentException e) {
      throw new SecretException("the sealed secret of " + context + " is damaged: not base64");
    }
  }

  private Cipher cipher(int mode, byte[] nonce, String context) throws GeneralSecurityException {
    Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
    c.init(mode, key, new GCMParameterSpec(TAG_SIZE * 8, nonce));
    c.updateAAD((AAD_PREFIX + context).getBytes(StandardCharsets.UTF_8));
    return c;
  }

  /** The key id as 8 hex digits: what logs and errors may show of a key. */
  public String keyIdHex() {
    return hex(keyId);
  }

  private static byte[] keyId(byte[] key) {
    try {
      return Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(key), KEY_ID_SIZE);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  private static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder();
    for (byte x : b) {
      sb.append(String.format("%02x", x));
    }
    return sb.toString();
  }

  /** Shows the key id, never the key. */
  @Override
  public String toString() {
    return "SecretBox[keyId=" + keyIdHex() + "]";
  }
}
