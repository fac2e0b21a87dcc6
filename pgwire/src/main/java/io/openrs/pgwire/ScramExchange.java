package io.openrs.pgwire;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * One SCRAM-SHA-256 login for another protocol than PostgreSQL's (the LTL port's version 4 login):
 * the very exchange the admin port runs ({@link ScramServer}: same verifiers, same nonce and proof
 * checks, an unknown user indistinguishable from a wrong password), with the SCRAM messages as
 * bytes. Refusals are {@link PgException}s: {@link #wrongPassword} tells a failed proof (or unknown
 * user) from a malformed or out-of-order message.
 *
 * <p>Channel binding (SCRAM-SHA-256-PLUS) is not offered: only {@code SCRAM-SHA-256}.
 *
 * <p>Not thread-safe: one per login, used by one thread at a time.
 */
public final class ScramExchange {

  /**
   * What every login of one server shares: the random source of the server nonces and the secret
   * behind the made-up salts shown for unknown users (so the salt of a name is stable, as for a
   * real user, and tells a guesser nothing). Thread-safe.
   */
  public static final class ServerSecrets {
    private final SecureRandom random = new SecureRandom();
    private final byte[] mockSecret = new byte[32];

    public ServerSecrets() {
      random.nextBytes(mockSecret);
    }

    /** The server's half of a SCRAM nonce: 18 random bytes in base64, as PostgreSQL. */
    String serverNonce() {
      byte[] raw = new byte[18];
      synchronized (random) {
        random.nextBytes(raw);
      }
      return Base64.getEncoder().encodeToString(raw);
    }

    /** The salt shown for a user without a verifier: stable per user name and server. */
    byte[] mockSalt(String user) {
      byte[] name = user.getBytes(StandardCharsets.UTF_8);
      byte[] input = Arrays.copyOf(mockSecret, mockSecret.length + name.length);
      System.arraycopy(name, 0, input, mockSecret.length, name.length);
      return Arrays.copyOf(PgScram.sha256(input), PgScram.DEFAULT_SALT_BYTES);
    }
  }

  private final ScramServer server;

  private ScramExchange(ScramServer server) {
    this.server = server;
  }

  /**
   * Starts the login of {@code user}.
   *
   * @param verifier the user's SCRAM-SHA-256 verifier ({@link PgScram}'s format); empty for an
   *     unknown user, which then fails exactly like a wrong password
   */
  public static ScramExchange start(String user, Optional<String> verifier, ServerSecrets secrets) {
    Objects.requireNonNull(user, "user");
    return new ScramExchange(
        new ScramServer(
            user,
            verifier.flatMap(PgScram.Verifier::parse),
            secrets.mockSalt(user),
            null,
            secrets.serverNonce()));
  }

  /**
   * The server-first-message for the client's first message.
   *
   * @throws PgException 08P01 (malformed), 0A000 (an authzid or an extension the exchange does not
   *     support), for a mechanism other than {@code SCRAM-SHA-256} too
   */
  public byte[] clientFirst(String mechanism, byte[] message) throws PgException {
    return server.clientFirst(mechanism, message);
  }

  /**
   * Checks the client's proof and returns the server-final-message ({@code v=<signature>}).
   *
   * @throws PgException 28P01 ({@link #wrongPassword}) for a wrong proof or an unknown user; 08P01
   *     for a malformed message or one out of order
   */
  public byte[] clientFinal(byte[] message) throws PgException {
    return server.clientFinal(message);
  }

  /** Whether {@code e} says the proof was wrong or the user unknown (not a malformed message). */
  public static boolean wrongPassword(PgException e) {
    return e.sqlState().equals(PgSqlState.INVALID_PASSWORD);
  }
}
