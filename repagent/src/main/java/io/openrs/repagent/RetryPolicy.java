package io.openrs.repagent;

import io.openrs.wire.ErrorCode;
import io.openrs.wire.LtlConnectionClosedException;
import io.openrs.wire.LtlRejectedException;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;

/**
 * Decides, after a session of the agent ended with a failure, whether to reconnect and after how
 * long, or to stop (conventions: one policy object, a unit test per rule). Waits grow exponentially
 * from {@code retry_min_backoff_ms} to {@code retry_max_backoff_ms} with jitter (a random wait
 * between half and all of the step), and start over once a session made progress.
 *
 * <p>Not thread-safe: owned by the agent's control thread.
 */
public final class RetryPolicy {

  /** What to do after a failure. */
  public record Decision(boolean retry, Duration delay, String state, Throwable reason) {
    /** Stop: the failure needs the DBA. */
    static Decision stop(String state, Throwable reason) {
      return new Decision(false, Duration.ZERO, state, reason);
    }
  }

  private final Duration min;
  private final Duration max;
  private final int rejectionLimit;
  private final Random random;
  private int attempt;
  private int missingPosition;
  private String lastRejection;
  private int sameRejections;

  public RetryPolicy(Duration min, Duration max, int rejectionLimit, Random random) {
    this.min = Objects.requireNonNull(min, "min");
    this.max = Objects.requireNonNull(max, "max");
    this.rejectionLimit = rejectionLimit;
    this.random = Objects.requireNonNull(random, "random");
  }

  /** A session delivered data: the next failure starts the back-off over. */
  public void progressed() {
    attempt = 0;
    missingPosition = 0;
  }

  /**
   * Sessions in a row refused for {@link AgentException.Code#RESUME_POSITION_MISSING} before the
   * agent stops: enough back-off for the server to save a position an agent just handed it (it
   * saves at least once a second).
   */
  static final int MISSING_POSITION_ATTEMPTS = 8;

  /** How many failures in a row (without progress) so far. */
  public int attempt() {
    return attempt;
  }

  /** The decision for {@code failure}, the reason a session ended. */
  public Decision onFailure(Throwable failure) {
    Throwable t = rootOf(failure);
    if (t instanceof AgentException a) {
      switch (a.code()) {
        case SOURCE_UNAVAILABLE:
          return retry("primary unavailable", a);
        case READER_FAILED:
          return retry("log reader failed", a);
        case RESUME_POSITION_MISSING:
          if (++missingPosition >= MISSING_POSITION_ATTEMPTS) {
            return Decision.stop("no resume position", a);
          }
          return retry("no resume position at the server", a);
        default:
          return Decision.stop(a.code().name().toLowerCase(java.util.Locale.ROOT), a);
      }
    }
    if (t instanceof CommandRejectedException r) {
      String id = r.identity();
      if (id.equals(lastRejection)) {
        sameRejections++;
      } else {
        lastRejection = id;
        sameRejections = 1;
      }
      if (sameRejections > rejectionLimit) {
        return Decision.stop(
            "command rejected",
            new AgentException(
                AgentException.Code.COMMAND_REJECTED,
                "the server rejected the same command "
                    + sameRejections
                    + " times; fix the cause at the server (e.g. the replication definition) and"
                    + " restart the agent: "
                    + r.getMessage(),
                r));
      }
      return retry("command rejected", r);
    }
    if (t instanceof LtlRejectedException e) {
      ErrorCode code = e.code();
      if (code == ErrorCode.LOG_TRANSFER_STOPPED) {
        return new Decision(true, max, "log transfer stopped at the server", e);
      }
      if (e.retryable()) {
        return retry("server refused (" + code + ")", e);
      }
      return Decision.stop(
          "server refused",
          new AgentException(
              AgentException.Code.SERVER_REFUSED,
              "the server refused the agent with " + code + ": " + e.getMessage(),
              e));
    }
    if (t instanceof LtlConnectionClosedException || t instanceof IOException) {
      return retry("server unreachable", t);
    }
    return retry("log reader failed", t);
  }

  /**
   * Whether {@code failure} says the server in use is not there or not taking agents (unreachable,
   * the connection lost, or a refusal worth retrying), so that another server of {@code
   * rs_standby_servers} may be the active one. A primary or log reader failure, a suspended log
   * transfer and the agent's own errors are not: the same server is tried again.
   */
  public static boolean tryAnotherServer(Throwable failure) {
    Throwable t = rootOf(failure);
    if (t instanceof AgentException || t instanceof CommandRejectedException) {
      return false;
    }
    if (t instanceof LtlRejectedException e) {
      return e.retryable() && e.code() != ErrorCode.LOG_TRANSFER_STOPPED;
    }
    Throwable c = failure;
    for (int i = 0; c != null && i < 20; i++, c = c.getCause()) {
      if (c instanceof LtlConnectionClosedException || c instanceof IOException) {
        return true;
      }
    }
    return false;
  }

  /**
   * The wait before attempt {@code n} (1-based): min * 2^(n-1), capped at max, then a uniform
   * random share between half and all of it.
   */
  Duration backoff(int n) {
    long minMs = Math.max(1, min.toMillis());
    long maxMs = Math.max(minMs, max.toMillis());
    long step = minMs;
    for (int i = 1; i < n && step < maxMs; i++) {
      step = Math.min(maxMs, step * 2);
    }
    long half = step / 2;
    return Duration.ofMillis(half + (long) (random.nextDouble() * (step - half + 1)));
  }

  private Decision retry(String state, Throwable reason) {
    attempt++;
    return new Decision(true, backoff(attempt), state, reason);
  }

  /** The first agent exception or rejection in the cause chain, else the failure itself. */
  static Throwable rootOf(Throwable failure) {
    Throwable t = failure;
    for (int i = 0; t != null && i < 20; i++) {
      if (t instanceof AgentException
          || t instanceof CommandRejectedException
          || t instanceof LtlRejectedException) {
        return t;
      }
      t = t.getCause();
    }
    return Optional.ofNullable(failure).orElseThrow();
  }
}
