package io.openrs.pgwire;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.text.Normalizer;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * SCRAM-SHA-256 verifiers in PostgreSQL's format, for whoever stores users: {@code
 * SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>} (base64), computed as PostgreSQL's
 * {@code pg_be_scram_build_secret} does (RFC 5802 section 3, RFC 7677), so verifiers copied from a
 * PostgreSQL {@code pg_authid.rolpassword} work here and the other way round.
 *
 * <p>The password is prepared with SASLprep as PostgreSQL does: pure ASCII is used as is; otherwise
 * non-ASCII spaces become spaces, "mapped to nothing" characters are dropped and the result is
 * NFKC-normalised, and a password with prohibited or unassigned characters is used unprepared (this
 * implementation approximates RFC 4013's tables with Java's Unicode data).
 */
public final class PgScram {
  private PgScram() {}

  /** The mechanism name. */
  public static final String MECHANISM = "SCRAM-SHA-256";

  /** Iterations used by {@link #verifier(String)}: 4096, PostgreSQL's default. */
  public static final int DEFAULT_ITERATIONS = 4096;

  /** Salt bytes used by {@link #verifier(String)}: 16, as PostgreSQL. */
  public static final int DEFAULT_SALT_BYTES = 16;

  private static final SecureRandom RANDOM = new SecureRandom();

  /** A verifier for the password with a fresh random salt and {@link #DEFAULT_ITERATIONS}. */
  public static String verifier(String password) {
    byte[] salt = new byte[DEFAULT_SALT_BYTES];
    RANDOM.nextBytes(salt);
    return verifier(password, salt, DEFAULT_ITERATIONS);
  }

  /** A verifier for the password with the given salt and iteration count. */
  public static String verifier(String password, byte[] salt, int iterations) {
    Objects.requireNonNull(password, "password");
    if (password.isEmpty()) {
      throw new IllegalArgumentException("password must not be empty");
    }
    if (salt.length == 0) {
      throw new IllegalArgumentException("salt must not be empty");
    }
    if (iterations < 1) {
      throw new IllegalArgumentException("iterations must be >= 1, got " + iterations);
    }
    byte[] saltedPassword = saltedPassword(password, salt, iterations);
    byte[] storedKey = sha256(hmac(saltedPassword, "Client Key"));
    byte[] serverKey = hmac(saltedPassword, "Server Key");
    Base64.Encoder b64 = Base64.getEncoder();
    return MECHANISM
        + "$"
        + iterations
        + ":"
        + b64.encodeToString(salt)
        + "$"
        + b64.encodeToString(storedKey)
        + ":"
        + b64.encodeToString(serverKey);
  }

  /** Whether the text is a well-formed SCRAM-SHA-256 verifier. */
  public static boolean isVerifier(String text) {
    return Verifier.parse(text).isPresent();
  }

  /** A parsed verifier. */
  record Verifier(int iterations, byte[] salt, byte[] storedKey, byte[] serverKey) {
    static Optional<Verifier> parse(String text) {
      if (text == null || !text.startsWith(MECHANISM + "$")) {
        return Optional.empty();
      }
      String[] parts = text.substring(MECHANISM.length() + 1).split("\\$", -1);
      if (parts.length != 2) {
        return Optional.empty();
      }
      String[] iterSalt = parts[0].split(":", -1);
      String[] keys = parts[1].split(":", -1);
      if (iterSalt.length != 2 || keys.length != 2) {
        return Optional.empty();
      }
      try {
        int iterations = Integer.parseInt(iterSalt[0]);
        Base64.Decoder b64 = Base64.getDecoder();
        byte[] salt = b64.decode(iterSalt[1]);
        byte[] storedKey = b64.decode(keys[0]);
        byte[] serverKey = b64.decode(keys[1]);
        if (iterations < 1
            || salt.length == 0
            || storedKey.length != 32
            || serverKey.length != 32) {
          return Optional.empty();
        }
        return Optional.of(new Verifier(iterations, salt, storedKey, serverKey));
      } catch (IllegalArgumentException e) {
        return Optional.empty();
      }
    }
  }

  static byte[] saltedPassword(String password, byte[] salt, int iterations) {
    byte[] key = saslPrep(password).getBytes(StandardCharsets.UTF_8);
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update(salt);
      byte[] u = mac.doFinal(new byte[] {0, 0, 0, 1});
      byte[] result = u.clone();
      for (int i = 1; i < iterations; i++) {
        u = mac.doFinal(u);
        for (int j = 0; j < result.length; j++) {
          result[j] ^= u[j];
        }
      }
      return result;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  static byte[] hmac(byte[] key, String text) {
    return hmac(key, text.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] hmac(byte[] key, byte[] data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  /** SASLprep as PostgreSQL applies it (see the class comment). */
  static String saslPrep(String password) {
    boolean ascii = true;
    for (int i = 0; i < password.length() && ascii; i++) {
      ascii = password.charAt(i) < 0x80;
    }
    if (ascii) {
      return password;
    }
    StringBuilder mapped = new StringBuilder(password.length());
    for (int i = 0; i < password.length(); ) {
      int cp = password.codePointAt(i);
      i += Character.charCount(cp);
      if (mappedToNothing(cp)) {
        continue;
      }
      mapped.appendCodePoint(nonAsciiSpace(cp) ? ' ' : cp);
    }
    String normalized = Normalizer.normalize(mapped, Normalizer.Form.NFKC);
    for (int i = 0; i < normalized.length(); ) {
      int cp = normalized.codePointAt(i);
      i += Character.charCount(cp);
      if (prohibited(cp)) {
        return password;
      }
    }
    return normalized;
  }

  private static boolean mappedToNothing(int cp) {
    return cp == 0x00AD
        || cp == 0x034F
        || cp == 0x1806
        || (cp >= 0x180B && cp <= 0x180D)
        || (cp >= 0x200B && cp <= 0x200D)
        || cp == 0x2060
        || (cp >= 0xFE00 && cp <= 0xFE0F)
        || cp == 0xFEFF;
  }

  private static boolean nonAsciiSpace(int cp) {
    return cp == 0x00A0
        || cp == 0x1680
        || (cp >= 0x2000 && cp <= 0x200B)
        || cp == 0x202F
        || cp == 0x205F
        || cp == 0x3000;
  }

  private static boolean prohibited(int cp) {
    int type = Character.getType(cp);
    return type == Character.CONTROL
        || type == Character.PRIVATE_USE
        || type == Character.SURROGATE
        || type == Character.UNASSIGNED
        || cp == 0x06DD
        || cp == 0x070F
        || cp == 0x180E
        || (cp >= 0x200C && cp <= 0x200F)
        || (cp >= 0x2028 && cp <= 0x202E)
        || (cp >= 0x2060 && cp <= 0x2063)
        || (cp >= 0x206A && cp <= 0x206F)
        || (cp >= 0xFFF9 && cp <= 0xFFFD)
        || (cp >= 0x2FF0 && cp <= 0x2FFB)
        || cp == 0x0340
        || cp == 0x0341
        || (cp >= 0x1D173 && cp <= 0x1D17A)
        || cp == 0xE0001
        || (cp >= 0xE0020 && cp <= 0xE007F)
        || (cp & 0xFFFE) == 0xFFFE
        || (cp >= 0xFDD0 && cp <= 0xFDEF);
  }
}
