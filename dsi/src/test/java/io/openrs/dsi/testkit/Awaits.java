package io.openrs.dsi.testkit;

import static org.awaitility.Awaitility.await;

import io.openrs.dsi.DsiConnection;
import io.openrs.dsi.DsiState;
import io.openrs.ltl.Oqid;
import java.time.Duration;
import java.util.Map;

/** Waiting for the DSI, failing at once with its failure if it goes down. */
public final class Awaits {
  private Awaits() {}

  /** Waits until rs_lastcommit holds {@code expected}. */
  public static void applied(DsiConnection dsi, TestDb.Scratch s, Map<Integer, Oqid> expected) {
    applied(dsi, s, expected, Duration.ofMillis(100));
  }

  /** Waits until rs_lastcommit holds {@code expected}, looking every {@code poll}. */
  public static void applied(
      DsiConnection dsi, TestDb.Scratch s, Map<Integer, Oqid> expected, Duration poll) {
    try (Replicate.Watch watch = Replicate.watch(s)) {
      await()
          .atMost(Duration.ofSeconds(120))
          .pollDelay(Duration.ZERO)
          .pollInterval(poll)
          .pollInSameThread() // the watch's connection has one user
          .until(
              () -> {
                DsiState st = dsi.state();
                if (st.status() == DsiState.Status.DOWN) {
                  throw new AssertionError("the DSI went down: " + st);
                }
                return watch.reached(expected);
              });
    }
  }

  /** Waits until the DSI is down. */
  public static DsiState down(DsiConnection dsi) {
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> dsi.state().status() == DsiState.Status.DOWN);
    return dsi.state();
  }
}
