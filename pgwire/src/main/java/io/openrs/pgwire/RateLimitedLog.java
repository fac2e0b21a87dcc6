package io.openrs.pgwire;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;

/**
 * One log line per cause per {@link #INTERVAL}: the first event of a cause in an interval is logged
 * with how many of the same cause were left out since the previous line; the others are only
 * counted. For events a hostile client can repeat at will (refused, timed-out or throttled
 * connections), so that a flood does not write a line per socket. Thread-safe.
 */
final class RateLimitedLog {
  /** At most one line per cause in this time. */
  static final Duration INTERVAL = Duration.ofSeconds(10);

  private static final class Cause {
    Instant lastLogged = Instant.MIN;
    long suppressed;
  }

  private final Logger log;
  private final Clock clock;
  private final ConcurrentMap<String, Cause> causes = new ConcurrentHashMap<>();

  RateLimitedLog(Logger log, Clock clock) {
    this.log = log;
    this.clock = clock;
  }

  /**
   * Logs at INFO unless the cause was logged less than {@link #INTERVAL} ago.
   *
   * @param cause a short fixed key (not per address): one line per key per interval
   */
  void info(String cause, String format, Object... arguments) {
    Cause c = causes.computeIfAbsent(cause, k -> new Cause());
    long left;
    synchronized (c) {
      Instant now = clock.instant();
      if (c.lastLogged != Instant.MIN && now.isBefore(c.lastLogged.plus(INTERVAL))) {
        c.suppressed++;
        return;
      }
      c.lastLogged = now;
      left = c.suppressed;
      c.suppressed = 0;
    }
    if (left == 0) {
      log.info(format, arguments);
    } else if (log.isInfoEnabled()) {
      String line = org.slf4j.helpers.MessageFormatter.arrayFormat(format, arguments).getMessage();
      log.info("{} ({} more like this since the previous line, not logged)", line, left);
    }
  }
}
