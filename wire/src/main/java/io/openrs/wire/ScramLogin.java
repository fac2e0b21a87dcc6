package io.openrs.wire;

import com.ongres.scram.client.ScramClient;
import com.ongres.scram.common.ServerFirstMessage;
import com.ongres.scram.common.StringPreparation;
import com.ongres.scram.common.exception.ScramException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The agent's side of the version 4 login: one SCRAM-SHA-256 exchange (RFC 5802, RFC 7677) run by
 * the ongres {@code scram-client} library, the SCRAM client of the PostgreSQL JDBC driver, carried
 * in {@link Frame.ScramClientFirst} .. {@link Frame.ScramServerFinal}.
 *
 * <p>The password never leaves this object: the server sees a nonce and a proof. The server proves
 * in turn that it knows the user's verifier (its signature in {@link Frame.ScramServerFinal}); only
 * then is {@link #serverVerified()} true, and {@link LtlClient} accepts no Welcome before. A
 * server-first-message with fewer than {@link #MIN_ITERATIONS} iterations is refused: a server that
 * does not know the verifier could otherwise pick a cheap count to make the proof it gets easy to
 * attack offline; one with more than {@link #MAX_ITERATIONS} too, so it cannot stall the agent.
 *
 * <p>Not thread-safe: used on the client's I/O thread only.
 */
final class ScramLogin {

  /** Fewest PBKDF2 iterations the agent accepts (PostgreSQL's and OpenRS's verifiers use 4096). */
  static final int MIN_ITERATIONS = 4096;

  /**
   * Most PBKDF2 iterations the agent computes (about a second): a server cannot stall it longer.
   */
  static final int MAX_ITERATIONS = 1_000_000;

  /** Why the login failed on the agent's side; the server is not told. */
  static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;

    Failure(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final ScramClient client;
  private boolean clientFinalSent;
  private boolean serverVerified;

  ScramLogin(String user, char[] password) {
    this.client =
        ScramClient.builder()
            .advertisedMechanisms(List.of(WireProtocol.SCRAM_MECHANISM))
            .username(user)
            .password(password)
            // As PostgreSQL and its JDBC driver prepare passwords, and as the server's verifiers
            // do.
            .stringPreparation(StringPreparation.POSTGRESQL_PREPARATION)
            .build();
  }

  /** The frame that follows the Hello. */
  Frame.ScramClientFirst clientFirst() {
    return new Frame.ScramClientFirst(
        client.getScramMechanism().getName(), utf8(client.clientFirstMessage().toString()));
  }

  /**
   * Answers the server-first-message.
   *
   * @throws Failure when the message is malformed, does not extend the agent's nonce, or asks for
   *     fewer than {@link #MIN_ITERATIONS} iterations
   */
  Frame.ScramClientFinal clientFinal(Frame.ScramServerFirst serverFirst) throws Failure {
    if (clientFinalSent) {
      throw new Failure("the server sent a second ScramServerFirst", null);
    }
    ServerFirstMessage parsed;
    try {
      parsed = client.serverFirstMessage(text(serverFirst.message()));
    } catch (ScramException | RuntimeException e) {
      throw new Failure("the server's SCRAM server-first-message is invalid: " + e.getMessage(), e);
    }
    if (parsed.getIterationCount() < MIN_ITERATIONS
        || parsed.getIterationCount() > MAX_ITERATIONS) {
      throw new Failure(
          "the server asks for "
              + parsed.getIterationCount()
              + " SCRAM iterations; the agent accepts "
              + MIN_ITERATIONS
              + ".."
              + MAX_ITERATIONS,
          null);
    }
    clientFinalSent = true;
    return new Frame.ScramClientFinal(utf8(client.clientFinalMessage().toString()));
  }

  /**
   * Checks the server's signature.
   *
   * @throws Failure when the server's signature is wrong (it does not know the user's verifier: not
   *     the server the agent means, or one whose verifier for the user differs) or the message is
   *     malformed or out of order
   */
  void serverFinal(Frame.ScramServerFinal serverFinal) throws Failure {
    if (!clientFinalSent || serverVerified) {
      throw new Failure("the server sent ScramServerFinal out of order", null);
    }
    try {
      client.serverFinalMessage(text(serverFinal.message()));
    } catch (ScramException | RuntimeException e) {
      throw new Failure(
          "the server did not prove that it knows the password's verifier (SCRAM server"
              + " signature check failed: "
              + e.getMessage()
              + "); not trusting it",
          e);
    }
    serverVerified = true;
  }

  /** Whether the server's signature was checked and right. */
  boolean serverVerified() {
    return serverVerified;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] message) {
    return new String(message, StandardCharsets.UTF_8);
  }
}
