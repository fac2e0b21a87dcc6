package io.openrs.config.rssd;

import io.openrs.pgwire.PgScram;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * SCRAM-SHA-256 verifiers (RFC 5802, RFC 7677) in PostgreSQL's text form: {@code
 * SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>}, salt and keys in base64. The RSSD
 * stores only this, never a password; the admin port's SCRAM exchange uses the parts ({@link
 * #parse}), and the agent handshake (plain password over the LTL connection) checks with {@link
 * #matches}.
 *
 * <p>The keys are derived by {@link PgScram} (module {@code pgwire}), the same code the admin
 * port's SCRAM exchange checks logins with: the password is SASLprep-normalized as PostgreSQL and
 * its clients do, so a verifier made here accepts exactly the passwords a client will prove.
 */
public final class ScramVerifier {
  /** The prefix naming the mechanism. */
  public static final String MECHANISM = "SCRAM-SHA-256";

  /** Iterations {@link #derive(char[])} uses (PostgreSQL's default). */
  public static final int DEFAULT_ITERATIONS = 4096;

  /** Salt length {@link #derive(char[])} uses, bytes (PostgreSQL's default). */
  public static final int SALT_BYTES = 16;

  private static final int KEY_BYTES = 32;
  private static final SecureRandom RANDOM = new SecureRandom();

  private ScramVerifier() {}

  /**
   * The parts of a verifier.
   *
   * @param iterations PBKDF2 iterations
   * @param salt the salt
   * @param storedKey {@code H(HMAC(SaltedPassword, "Client Key"))}
   * @param serverKey {@code HMAC(SaltedPassword, "Server Key")}
   */
  public record Parts(int iterations, byte[] salt, byte[] storedKey, byte[] serverKey) {
    public Parts {
      salt = salt.clone();
      storedKey = storedKey.clone();
      serverKey = serverKey.clone();
    }

    @Override
    public byte[] salt() {
      return salt.clone();
    }

    @Override
    public byte[] storedKey() {
      return storedKey.clone();
    }

    @Override
    public byte[] serverKey() {
      return serverKey.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Parts p
          && p.iterations == iterations
          && Arrays.equals(p.salt, salt)
          && Arrays.equals(p.storedKey, storedKey)
          && Arrays.equals(p.serverKey, serverKey);
    }

    @Override
    public int hashCode() {
      return Objects.hash(
          iterations,
          Arrays.hashCode(salt),
          Arrays.hashCode(storedKey),
          Arrays.hashCode(serverKey));
    }

    /** Does not show the keys. */
    @Override
    public String toString() {
      return "ScramVerifier.Parts[iterations=" + iterations + ", salt=" + salt.length + " bytes]";
    }

    /** The verifier text. */
    public String format() {
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
  }

  /**
   * A verifier for {@code password} with a fresh 16-byte random salt and 4096 iterations.
   *
   * @throws IllegalArgumentException for an empty password
   */
  public static String derive(char[] password) {
    byte[] salt = new byte[SALT_BYTES];
    RANDOM.nextBytes(salt);
    return derive(password, salt, DEFAULT_ITERATIONS);
  }

  /**
   * A verifier for {@code password} with the given salt and iterations.
   *
   * @throws IllegalArgumentException for an empty password or salt, or iterations below 1
   */
  public static String derive(char[] password, byte[] salt, int iterations) {
    if (password.length == 0) {
      throw new IllegalArgumentException("password must not be empty");
    }
    if (iterations < 1) {
      throw new IllegalArgumentException("iterations must be at least 1: " + iterations);
    }
    if (salt.length == 0) {
      throw new IllegalArgumentException("salt must not be empty");
    }
    // The derivation the admin port's SCRAM exchange checks against: SASLprep, as PostgreSQL
    // and its clients apply it, so a verifier made here always accepts that password at login.
    return PgScram.verifier(new String(password), salt, iterations);
  }

  /**
   * Whether {@code password} matches {@code verifier}. Compares in constant time. False for a
   * malformed verifier and for an empty password.
   */
  public static boolean matches(String verifier, char[] password) {
    if (password.length == 0) {
      return false;
    }
    Parts parts;
    try {
      parts = parse(verifier);
    } catch (IllegalArgumentException e) {
      return false;
    }
    Parts candidate = parse(PgScram.verifier(new String(password), parts.salt, parts.iterations));
    return MessageDigest.isEqual(candidate.storedKey, parts.storedKey)
        & MessageDigest.isEqual(candidate.serverKey, parts.serverKey);
  }

  /**
   * Splits a verifier into its parts.
   *
   * @throws IllegalArgumentException naming what is wrong (never echoing the keys)
   */
  public static Parts parse(String verifier) {
    if (verifier == null) {
      throw new IllegalArgumentException("verifier is null");
    }
    if (!verifier.startsWith(MECHANISM + "$")) {
      throw new IllegalArgumentException("verifier does not start with " + MECHANISM + "$");
    }
    String[] sections = verifier.substring(MECHANISM.length() + 1).split("\\$", -1);
    if (sections.length != 2) {
      throw new IllegalArgumentException(
          "verifier must have the form "
              + MECHANISM
              + "$<iterations>:<salt>$<StoredKey>:<ServerKey>");
    }
    String[] iterSalt = sections[0].split(":", -1);
    String[] keys = sections[1].split(":", -1);
    if (iterSalt.length != 2 || keys.length != 2) {
      throw new IllegalArgumentException(
          "verifier must have the form "
              + MECHANISM
              + "$<iterations>:<salt>$<StoredKey>:<ServerKey>");
    }
    int iterations;
    try {
      iterations = Integer.parseInt(iterSalt[0]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("iteration count is not a number", e);
    }
    if (iterations < 1) {
      throw new IllegalArgumentException("iteration count must be at least 1: " + iterations);
    }
    Base64.Decoder b64 = Base64.getDecoder();
    byte[] salt;
    byte[] storedKey;
    byte[] serverKey;
    try {
      salt = b64.decode(iterSalt[1]);
      storedKey = b64.decode(keys[0]);
      serverKey = b64.decode(keys[1]);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("salt or key is not valid base64", e);
    }
    if (salt.length == 0) {
      throw new IllegalArgumentException("salt is empty");
    }
    if (storedKey.length != KEY_BYTES || serverKey.length != KEY_BYTES) {
      throw new IllegalArgumentException(
          "StoredKey and ServerKey must be " + KEY_BYTES + " bytes each");
    }
    return new Parts(iterations, salt, storedKey, serverKey);
  }
}
