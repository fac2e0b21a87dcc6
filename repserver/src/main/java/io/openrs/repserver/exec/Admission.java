package io.openrs.repserver.exec;

import io.netty.channel.Channel;
import io.openrs.wire.ErrorCode;
import io.openrs.wire.Frame;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may hold a place on the LTL port. Two separate limits:
 *
 * <ul>
 *   <li><b>Handshakes</b>: a socket is in the handshake from accept until its Hello is decoded and,
 *       for a version 4 agent, its SCRAM login is finished (or refused). At most {@code
 *       exec_max_handshakes} at once; when one more arrives the <em>oldest</em> makes way (closed
 *       with {@code TOO_MANY_CONNECTIONS}), so idle sockets cannot keep a real agent, which sends
 *       its Hello at once, from being heard. A socket whose Hello and login have not come within
 *       {@code exec_handshake_timeout} is closed.
 *   <li><b>Agent sessions</b>: only a socket whose Hello was admitted takes one of the {@code
 *       exec_max_connections} places ({@link #openSession}).
 * </ul>
 *
 * Refusals and timeouts are logged through a {@link SummaryLog}: one line per cause per minute.
 *
 * <p>Thread-safe: called from every event loop of the listener.
 */
final class Admission {

  private static final Logger LOG = LoggerFactory.getLogger(Admission.class);

  /** Interval of the summary lines about refused and timed-out sockets. */
  static final Duration LOG_INTERVAL = Duration.ofMinutes(1);

  /** Why a socket lost its place; each has its own summary line. */
  enum Cause {
    /** No Hello within {@code exec_handshake_timeout}. */
    HANDSHAKE_TIMEOUT,
    /** Made way for a newer socket: {@code exec_max_handshakes} were in the handshake. */
    HANDSHAKE_EVICTED,
    /** Hello admitted but {@code exec_max_connections} agent sessions are open. */
    TOO_MANY_SESSIONS,
    /** A plaintext agent while {@code ltl_tls = required}. */
    PLAINTEXT_REFUSED,
    /** A TLS handshake failed (untrusted certificate either way, no client certificate, ...). */
    TLS_HANDSHAKE_FAILED,
  }

  /** The limits. */
  record Limits(int maxSessions, int maxHandshakes, Duration handshakeTimeout) {}

  private final Limits limits;
  private final ConcurrentLinkedDeque<Channel> handshaking = new ConcurrentLinkedDeque<>();
  private final AtomicInteger handshakeCount = new AtomicInteger();
  private final AtomicInteger sessions = new AtomicInteger();
  private final SummaryLog<Cause> log;
  private final SummaryLog<ErrorCode> refusals;

  Admission(Limits limits, Clock clock) {
    this.limits = limits;
    this.log =
        new SummaryLog<>(
            Cause.class, clock, LOG_INTERVAL, (cause, line) -> LOG.warn("LTL port: {}", line));
    this.refusals =
        new SummaryLog<>(
            ErrorCode.class,
            clock,
            LOG_INTERVAL,
            (code, line) -> LOG.warn("LTL port, agent refused ({}): {}", code, line));
  }

  /**
   * A Hello refused by the gate ({@code AUTHENTICATION_FAILED}, {@code UNKNOWN_ORIGIN}, ...):
   * logged through the summary log, so wrong passwords at full speed cost a line a minute.
   */
  void helloRefused(Channel ch, ErrorCode code, String message) {
    refusals.event(code, "agent from " + ch.remoteAddress() + " refused: " + message);
  }

  /**
   * A socket refused for its TLS ({@link Cause#PLAINTEXT_REFUSED}, {@link
   * Cause#TLS_HANDSHAKE_FAILED}): one summary line per cause per interval, naming the last cause.
   */
  void tlsRefused(Channel ch, Cause cause, String detail) {
    count(cause, detail);
  }

  /** A socket was accepted: it is in the handshake until {@link #helloReceived}. */
  void accepted(Channel ch) {
    handshaking.addLast(ch);
    int n = handshakeCount.incrementAndGet();
    ch.closeFuture().addListener(f -> leaveHandshake(ch));
    ch.eventLoop()
        .schedule(
            () -> {
              if (leaveHandshake(ch)) {
                lose(
                    ch,
                    Cause.HANDSHAKE_TIMEOUT,
                    ErrorCode.PROTOCOL_ERROR,
                    "no Hello and finished login within exec_handshake_timeout "
                        + limits.handshakeTimeout().toMillis()
                        + " ms");
              }
            },
            limits.handshakeTimeout().toNanos(),
            TimeUnit.NANOSECONDS);
    while (n > limits.maxHandshakes()) {
      Channel oldest = handshaking.peekFirst();
      if (oldest == null || oldest == ch) {
        break;
      }
      if (leaveHandshake(oldest)) {
        lose(
            oldest,
            Cause.HANDSHAKE_EVICTED,
            ErrorCode.TOO_MANY_CONNECTIONS,
            "made way for a newer connection: "
                + limits.maxHandshakes()
                + " connections had sent no Hello (exec_max_handshakes); retry");
      }
      n = handshakeCount.get();
    }
  }

  /**
   * The socket's handshake is over (its Hello and login are in, or it is refused): it no longer
   * counts against the handshake limit.
   */
  void helloReceived(Channel ch) {
    leaveHandshake(ch);
  }

  /**
   * Takes an agent session place.
   *
   * @return false (and the refusal is counted and logged) when {@code exec_max_connections}
   *     sessions are open
   */
  boolean openSession(Channel ch) {
    if (sessions.incrementAndGet() <= limits.maxSessions()) {
      ch.closeFuture().addListener(f -> sessions.decrementAndGet());
      return true;
    }
    sessions.decrementAndGet();
    count(
        Cause.TOO_MANY_SESSIONS,
        "refused an agent from "
            + ch.remoteAddress()
            + ": "
            + limits.maxSessions()
            + " agents connected (exec_max_connections)");
    return false;
  }

  /** {@code exec_max_connections}. */
  int maxSessions() {
    return limits.maxSessions();
  }

  /** Agent sessions open now. */
  int sessions() {
    return sessions.get();
  }

  /** Writes the summary lines whose interval has passed; the listener calls it periodically. */
  void flushLog() {
    log.flush();
    refusals.flush();
  }

  /** True when this call took {@code ch} out of the handshake (it was still in it). */
  private boolean leaveHandshake(Channel ch) {
    if (handshaking.remove(ch)) {
      handshakeCount.decrementAndGet();
      return true;
    }
    return false;
  }

  /**
   * Closes a socket that lost its place: the Error is written and the socket closed at once, so a
   * peer that does not read cannot hold it open.
   */
  private void lose(Channel ch, Cause cause, ErrorCode code, String message) {
    count(
        cause,
        (cause == Cause.HANDSHAKE_TIMEOUT
                ? "closed a connection that did not send its Hello and finish its login within"
                    + " exec_handshake_timeout ("
                    + limits.handshakeTimeout().toMillis()
                    + " ms)"
                : "closed the oldest connection in the handshake to make way for a newer one ("
                    + limits.maxHandshakes()
                    + " without a Hello, exec_max_handshakes)")
            + ": "
            + ch.remoteAddress());
    ch.eventLoop()
        .execute(
            () -> {
              ch.writeAndFlush(new Frame.Error(code, message));
              ch.close();
            });
  }

  private void count(Cause cause, String detail) {
    log.event(cause, detail);
  }
}
