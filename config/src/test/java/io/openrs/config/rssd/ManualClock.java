package io.openrs.config.rssd;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock tests move by hand. Thread-safe. */
final class ManualClock extends Clock {
  private volatile Instant now;

  ManualClock(Instant start) {
    this.now = start;
  }

  void set(Instant instant) {
    now = instant;
  }

  void advance(Duration d) {
    synchronized (this) {
      now = now.plus(d);
    }
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("tests use UTC");
  }
}
