package io.openrs.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A flood of one cause writes one line per interval, with the count of those left out. */
class RateLimitedLogTest {
  @Test
  void oneLinePerCausePerIntervalWithTheCountLeftOut() {
    Logger logger = (Logger) LoggerFactory.getLogger("RateLimitedLogTest");
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.setLevel(Level.INFO);
    logger.addAppender(appender);
    ManualClock clock = new ManualClock();
    RateLimitedLog log = new RateLimitedLog(logger, clock);

    for (int i = 0; i < 100; i++) {
      log.info("timeout", "closing connection from {}", "10.0.0." + i);
      log.info("refused", "refused {}", i);
    }
    clock.advance(RateLimitedLog.INTERVAL.minus(Duration.ofMillis(1)));
    log.info("timeout", "closing connection from {}", "late");
    clock.advance(Duration.ofMillis(1));
    log.info("timeout", "closing connection from {}", "next");

    List<String> lines = appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    assertThat(lines)
        .containsExactly(
            "closing connection from 10.0.0.0",
            "refused 0",
            "closing connection from next (100 more like this since the previous line, not"
                + " logged)");
  }
}
