package io.openrs.pgwire;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Per-address login backoff: after {@code maxFailures} failed logins in a row from one client
 * address, that address must wait {@link #FIRST_BACKOFF} before its next attempt, twice as long
 * after each further failure, at most {@link #MAX_BACKOFF}; a successful login forgets the address.
 * An attempt made while waiting is refused without looking at its password and does not lengthen
 * the wait.
 *
 * <p>Memory is bounded: at most {@link #MAX_ADDRESSES} addresses are remembered, the least recently
 * seen forgotten first. Time comes from the injected clock. Used by the admin port and, through its
 * public API, by the LTL port's logins. Thread-safe (one lock, held for a map operation only).
 */
public final class LoginThrottle {
  /** Wait after the {@code maxFailures}-th failure in a row. */
  public static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);

  /** Longest wait. */
  public static final Duration MAX_BACKOFF = Duration.ofSeconds(60);

  /** Addresses remembered at most. */
  public static final int MAX_ADDRESSES = 10_000;

  private static final class Failures {
    int count;
    Instant blockedUntil = Instant.MIN;
  }

  private final int maxFailures;
  private final Clock clock;
  private final Map<InetAddress, Failures> byAddress =
      new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<InetAddress, Failures> eldest) {
          return size() > MAX_ADDRESSES;
        }
      };

  /**
   * @param maxFailures failures in a row before the first wait; 0 = never wait
   */
  public LoginThrottle(int maxFailures, Clock clock) {
    this.maxFailures = maxFailures;
    this.clock = clock;
  }

  /** How long the address must still wait before it may try again; empty when it may now. */
  public synchronized Optional<Duration> waitFor(InetAddress address) {
    Failures f = byAddress.get(address);
    if (f == null) {
      return Optional.empty();
    }
    Duration left = Duration.between(clock.instant(), f.blockedUntil);
    return left.isNegative() || left.isZero() ? Optional.empty() : Optional.of(left);
  }

  /** A login from the address failed (wrong password or unknown user). */
  public synchronized void failed(InetAddress address) {
    if (maxFailures == 0) {
      return;
    }
    Failures f = byAddress.computeIfAbsent(address, a -> new Failures());
    f.count++;
    if (f.count >= maxFailures) {
      int doublings = Math.min(f.count - maxFailures, 30);
      long millis = Math.min(MAX_BACKOFF.toMillis(), FIRST_BACKOFF.toMillis() << doublings);
      f.blockedUntil = clock.instant().plusMillis(millis);
    }
  }

  /** A login from the address succeeded: its failures are forgotten. */
  public synchronized void succeeded(InetAddress address) {
    byAddress.remove(address);
  }

  /** Addresses remembered now. */
  public synchronized int size() {
    return byAddress.size();
  }

  /** Whole seconds, rounded up, for messages. */
  public static long seconds(Duration d) {
    return (d.toMillis() + 999) / 1000;
  }
}
