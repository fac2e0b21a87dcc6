package io.openrs.repserver.exec;

import io.openrs.config.rssd.ScramVerifier;
import io.openrs.ltl.LtlCommand;
import io.openrs.pgwire.LoginThrottle;
import io.openrs.pgwire.PgException;
import io.openrs.pgwire.ScramExchange;
import io.openrs.wire.ErrorCode;
import io.openrs.wire.Frame;
import io.openrs.wire.WireProtocol;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * One agent's login on the LTL port, between its Hello and its admission (docs/formats/ltl-wire.md,
 * "Login"):
 *
 * <ul>
 *   <li><b>Version 4</b>: the Hello carries no password; the agent proves it with SCRAM-SHA-256 in
 *       {@link Frame.ScramClientFirst} and {@link Frame.ScramClientFinal}, answered with {@link
 *       Frame.ScramServerFirst} and, once the proof is right, {@link Frame.ScramServerFinal}. The
 *       exchange is the admin port's ({@link ScramExchange}): same verifiers, an unknown user fails
 *       exactly like a wrong password.
 *   <li><b>Versions 1-3</b>: the password in the Hello is checked against the verifier, only when
 *       {@code exec_hello_password} is on; otherwise such a login is refused, so a password sent in
 *       clear is never accepted unless the DBA chose to.
 * </ul>
 *
 * A failed proof or password counts against the client address ({@link LoginThrottle}, {@code
 * exec_max_login_failures}); while the address must wait, its logins are refused with {@code
 * TOO_MANY_CONNECTIONS} (the agent retries after its back-off) without looking at the password.
 *
 * <p>Not thread-safe: owned by its session's event loop. {@link Shared} is thread-safe.
 */
public final class AgentLogin {

  /**
   * What the logins of one listener share.
   *
   * @param maxLoginFailures {@code exec_max_login_failures}: failed logins in a row from one
   *     address before it must wait (0 = never)
   * @param helloPasswords {@code exec_hello_password}: whether version 1-3 agents may log in with
   *     the password in the Hello
   */
  public record Settings(int maxLoginFailures, boolean helloPasswords) {}

  /** The state every login of one listener shares. Thread-safe. */
  static final class Shared {
    private final AgentGate gate;
    private final Settings settings;
    private final LoginThrottle throttle;
    private final ScramExchange.ServerSecrets secrets = new ScramExchange.ServerSecrets();

    Shared(AgentGate gate, Settings settings, Clock clock) {
      this.gate = gate;
      this.settings = settings;
      this.throttle = new LoginThrottle(settings.maxLoginFailures(), clock);
    }
  }

  private final Shared shared;
  private final Optional<InetAddress> address;
  private String user;
  private ScramExchange scram;
  private boolean clientFirstSeen;
  private boolean done;

  AgentLogin(Shared shared, Optional<InetAddress> address) {
    this.shared = shared;
    this.address = address;
  }

  /**
   * Starts the login of a Hello at the negotiated {@code version}.
   *
   * @return true when the agent is logged in now (versions 1-3); false when SCRAM frames must
   *     follow
   * @throws AgentRejectedException {@code TOO_MANY_CONNECTIONS} while the address must wait, {@code
   *     PROTOCOL_ERROR} for a password where none belongs or none where one must be, {@code
   *     AUTHENTICATION_FAILED} for a wrong password or a password in the Hello the server refuses
   */
  boolean hello(LtlCommand.Connect connect, int version) throws AgentRejectedException {
    user = connect.user();
    refuseWhileThrottled();
    if (version >= WireProtocol.SCRAM_VERSION) {
      if (connect.password().isPresent()) {
        throw new AgentRejectedException(
            ErrorCode.PROTOCOL_ERROR,
            "a Hello for protocol version "
                + version
                + " must not carry a password: the agent proves it with SCRAM frames");
      }
      scram = ScramExchange.start(user, shared.gate.verifier(user), shared.secrets);
      return false;
    }
    if (connect.password().isEmpty()) {
      throw new AgentRejectedException(
          ErrorCode.PROTOCOL_ERROR,
          "a Hello for protocol version "
              + version
              + " carries the password; agents without one log in with SCRAM at version "
              + WireProtocol.SCRAM_VERSION);
    }
    if (!shared.settings.helloPasswords()) {
      throw new AgentRejectedException(
          ErrorCode.AUTHENTICATION_FAILED,
          "this server does not accept passwords sent in clear in the Hello (protocol version "
              + version
              + ", exec_hello_password is off): upgrade the agent to protocol version "
              + WireProtocol.SCRAM_VERSION
              + ", which logs in with SCRAM, or set exec_hello_password on");
    }
    Optional<String> verifier = shared.gate.verifier(user);
    if (verifier.isEmpty()
        || !ScramVerifier.matches(verifier.get(), connect.password().get().toCharArray())) {
      throw failed();
    }
    succeeded();
    return true;
  }

  /**
   * A frame of the version 4 login.
   *
   * @return the answer to send: {@link Frame.ScramServerFirst}, or {@link Frame.ScramServerFinal}
   *     after which {@link #done()} is true
   * @throws AgentRejectedException {@code AUTHENTICATION_FAILED} for a wrong proof or an unknown
   *     user, {@code TOO_MANY_CONNECTIONS} while the address must wait, {@code PROTOCOL_ERROR} for
   *     a malformed message or a frame out of order
   */
  Frame scram(Frame frame) throws AgentRejectedException {
    if (scram == null || done) {
      throw unexpected(frame);
    }
    try {
      if (frame instanceof Frame.ScramClientFirst f && !clientFirstSeen) {
        clientFirstSeen = true;
        return new Frame.ScramServerFirst(scram.clientFirst(f.mechanism(), f.message()));
      }
      if (frame instanceof Frame.ScramClientFinal f && clientFirstSeen) {
        refuseWhileThrottled();
        Frame.ScramServerFinal answer = new Frame.ScramServerFinal(scram.clientFinal(f.message()));
        done = true;
        succeeded();
        return answer;
      }
    } catch (PgException e) {
      if (ScramExchange.wrongPassword(e)) {
        throw failed();
      }
      throw new AgentRejectedException(
          ErrorCode.PROTOCOL_ERROR,
          "SCRAM login of user '"
              + user
              + "': "
              + e.getMessage()
              + e.detail().map(d -> " (" + d + ")").orElse(""));
    }
    throw unexpected(frame);
  }

  /** Whether the version 4 exchange has succeeded. */
  boolean done() {
    return done;
  }

  /** Whether the login waits for SCRAM frames (version 4, not done). */
  boolean inScram() {
    return scram != null && !done;
  }

  private AgentRejectedException unexpected(Frame frame) {
    return new AgentRejectedException(
        ErrorCode.PROTOCOL_ERROR,
        "unexpected "
            + frame.getClass().getSimpleName()
            + " during the login: a version "
            + WireProtocol.SCRAM_VERSION
            + " agent sends ScramClientFirst after its Hello, then ScramClientFinal");
  }

  private void refuseWhileThrottled() throws AgentRejectedException {
    if (address.isEmpty()) {
      return;
    }
    Optional<Duration> wait = shared.throttle.waitFor(address.get());
    if (wait.isPresent()) {
      throw new AgentRejectedException(
          ErrorCode.TOO_MANY_CONNECTIONS,
          "too many failed logins from "
              + address.get().getHostAddress()
              + ", retry in "
              + LoginThrottle.seconds(wait.get())
              + " s (exec_max_login_failures; each further failure doubles the wait up to "
              + LoginThrottle.MAX_BACKOFF.toSeconds()
              + " s, a successful login ends it)");
    }
  }

  private AgentRejectedException failed() {
    address.ifPresent(shared.throttle::failed);
    return new AgentRejectedException(
        ErrorCode.AUTHENTICATION_FAILED,
        "login of user '" + user + "' failed: unknown user or wrong password");
  }

  private void succeeded() {
    address.ifPresent(shared.throttle::succeeded);
  }
}
