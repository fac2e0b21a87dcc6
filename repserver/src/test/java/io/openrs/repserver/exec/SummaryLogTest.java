package io.openrs.repserver.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One line per cause per interval, whatever the number of events; time from a manual clock. */
class SummaryLogTest {

  enum Cause {
    A,
    B
  }

  /** A clock the test moves. */
  private static final class ManualClock extends Clock {
    private Instant now = Instant.parse("2026-11-27T10:00:00Z");

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  private final ManualClock clock = new ManualClock();
  private final List<String> lines = new ArrayList<>();
  private final SummaryLog<Cause> log =
      new SummaryLog<>(Cause.class, clock, Duration.ofMinutes(1), (c, l) -> lines.add(c + " " + l));

  @Test
  void aFloodOfOneCauseWritesOneLineAtOnceAndOneSummaryPerInterval() {
    for (int i = 1; i <= 10_000; i++) {
      log.event(Cause.A, "socket " + i);
    }
    assertThat(lines).singleElement().asString().startsWith("A socket 1 (further ones");
    clock.advance(Duration.ofSeconds(30));
    log.flush();
    assertThat(lines).hasSize(1);
    clock.advance(Duration.ofSeconds(30));
    log.flush();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(1)).isEqualTo("A 9999 more in the last 60 s, the last: socket 10000");
    // The flood goes on: counted into the next summary, not logged one by one.
    log.event(Cause.A, "socket 10001");
    clock.advance(Duration.ofMinutes(1));
    log.flush();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(2)).isEqualTo("A 1 more in the last 60 s, the last: socket 10001");
  }

  @Test
  void eachCauseHasItsOwnLineAndAQuietCauseIsLoggedAtOnceAgain() {
    log.event(Cause.A, "a1");
    log.event(Cause.B, "b1");
    log.event(Cause.A, "a2");
    assertThat(lines).hasSize(2);
    clock.advance(Duration.ofMinutes(1));
    log.flush(); // A's summary; B counted nothing
    assertThat(lines).hasSize(3).last().asString().startsWith("A 1 more");
    clock.advance(Duration.ofMinutes(1));
    log.flush(); // nothing counted: the windows close
    assertThat(lines).hasSize(3);
    log.event(Cause.B, "b2");
    assertThat(lines).hasSize(4).last().asString().startsWith("B b2 (further ones");
  }

  @Test
  void anEventAfterTheIntervalCarriesTheSummaryOfTheLastWindow() {
    log.event(Cause.A, "a1");
    log.event(Cause.A, "a2");
    clock.advance(Duration.ofSeconds(61));
    log.event(Cause.A, "a3");
    assertThat(lines)
        .containsExactly(
            "A a1 (further ones are counted and summarised once per 60 s)",
            "A 1 more in the last 61 s, the last: a2; now a3 (further ones are counted and"
                + " summarised once per 60 s)");
  }
}
