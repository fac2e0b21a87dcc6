package io.openrs.repserver.exec;

import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * One log line per cause per interval, however many sockets share the cause: the first event of a
 * cause is logged at once (with what it was), later ones within {@code interval} are only counted,
 * and the count is logged as one summary line by the first event after the interval or by {@link
 * #flush} (the listener calls it once per interval). A flood of sockets then costs a line a minute,
 * not a line a socket.
 *
 * <p>Thread-safe (events come from every event loop); time comes from the injected {@link Clock}.
 *
 * @param <C> the causes, an enum
 */
final class SummaryLog<C extends Enum<C>> {

  private final Clock clock;
  private final long intervalMillis;
  private final BiConsumer<C, String> sink;
  private final Map<C, Window> windows;

  private static final class Window {
    long startMillis;
    long suppressed;
    String lastDetail = "";
    boolean open;
  }

  /**
   * @param sink writes one line for a cause (the caller picks the logger and level)
   */
  SummaryLog(Class<C> causes, Clock clock, Duration interval, BiConsumer<C, String> sink) {
    this.clock = clock;
    this.intervalMillis = interval.toMillis();
    this.sink = sink;
    this.windows = new EnumMap<>(causes);
    for (C c : causes.getEnumConstants()) {
      windows.put(c, new Window());
    }
  }

  /** One event of {@code cause}; {@code detail} says which (the peer's address, the numbers). */
  void event(C cause, String detail) {
    String line = null;
    long now = clock.millis();
    Window w = windows.get(cause);
    synchronized (w) {
      if (w.open && now - w.startMillis < intervalMillis) {
        w.suppressed++;
        w.lastDetail = detail;
        return;
      }
      line = summary(w, now);
      w.open = true;
      w.startMillis = now;
      line =
          (line == null ? "" : line + "; now ")
              + detail
              + " (further ones are counted and summarised once per "
              + Duration.ofMillis(intervalMillis).toSeconds()
              + " s)";
    }
    sink.accept(cause, line);
  }

  /** Logs the count of every cause whose interval has passed with suppressed events. */
  void flush() {
    long now = clock.millis();
    for (Map.Entry<C, Window> e : windows.entrySet()) {
      Window w = e.getValue();
      String line;
      synchronized (w) {
        if (!w.open || now - w.startMillis < intervalMillis) {
          continue;
        }
        // A window that counted something stays open, so a flood that goes on is counted into
        // the next summary; a quiet one closes, and the next event is logged at once.
        w.open = w.suppressed > 0;
        line = summary(w, now);
        w.startMillis = now;
      }
      if (line != null) {
        sink.accept(e.getKey(), line);
      }
    }
  }

  /** The summary of the window ending {@code now}, or null when nothing was suppressed. */
  private String summary(Window w, long now) {
    if (w.suppressed == 0) {
      return null;
    }
    String s =
        w.suppressed
            + " more in the last "
            + Duration.ofMillis(now - w.startMillis).toSeconds()
            + " s, the last: "
            + w.lastDetail;
    w.suppressed = 0;
    return s;
  }
}
