package io.openrs.dsi.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.dsi.DsiConnection;
import io.openrs.dsi.DsiState;
import io.openrs.ltl.Oqid;
import java.time.Duration;
import java.util.Map;
import java.util.function.LongSupplier;

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

  /**
   * Waits until {@code counter} reads {@code expected}. For the counters the DSI books right after
   * a replicate commit ({@code DSITranGroupsCommit}, {@code DSITransUngroupedCommit}): a test that
   * saw rs_lastcommit reach a transaction ({@link #applied}) can read them a moment before they
   * count it. A value that never comes fails after 10 s.
   */
  public static void counted(LongSupplier counter, long expected) {
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(counter.getAsLong()).isEqualTo(expected));
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
