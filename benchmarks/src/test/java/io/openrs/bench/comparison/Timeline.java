package io.openrs.bench.comparison;

import io.openrs.consistency.support.Admin;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples a server's progress counters every quarter second, on one admin connection while one of
 * our systems catches up, so the report shows whether the commands trickled in or came late in a
 * burst: seconds since the measurement started, commands the agent delivered ({@code REPAGENT
 * CmdsRecv}), commands DIST read and commands the DSI applied ({@code DSICmdsSucceed}).
 */
final class Timeline {

  private final Admin admin;
  private Admin.Session session; // the sampler thread's own
  private final long t0;
  private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
  private volatile double firstArrival = Double.NaN;
  private final ScheduledExecutorService sampler =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "bench-timeline");
            t.setDaemon(true);
            return t;
          });

  private Timeline(Admin admin, long t0) {
    this.admin = admin;
    this.t0 = t0;
  }

  static Timeline start(Admin admin, long t0) {
    Timeline t = new Timeline(admin, t0);
    t.lines.add("seconds  CmdsRecv  DIST_CmdsRead  DSICmdsSucceed");
    t.sampler.scheduleAtFixedRate(t::sample, 0, 250, TimeUnit.MILLISECONDS);
    return t;
  }

  private void sample() {
    try {
      double sec = (System.nanoTime() - t0) / 1e9;
      if (session == null) {
        session = admin.session();
      }
      double received = session.total("REPAGENT", "CmdsRecv");
      if (received > 0 && Double.isNaN(firstArrival)) {
        firstArrival = sec;
      }
      lines.add(
          String.format(
              Locale.ROOT,
              "%7.2f  %8.0f  %13.0f  %14.0f",
              sec,
              received,
              session.total("DIST", "CmdsRead"),
              session.total("DSI", "DSICmdsSucceed")));
    } catch (Exception e) {
      lines.add("error: " + e);
      if (session != null) {
        try {
          session.close();
        } catch (Exception ignored) {
          // a broken connection: the next sample logs in again
        }
        session = null;
      }
    }
  }

  /**
   * Seconds from the start to the first sample in which the agent had delivered a command (to a
   * quarter second); NaN when none had.
   */
  double firstArrivalSeconds() {
    return firstArrival;
  }

  void stop(Path file) throws Exception {
    sampler.shutdown();
    sampler.awaitTermination(5, TimeUnit.SECONDS);
    if (session != null) {
      session.close();
    }
    synchronized (lines) {
      Files.write(file, lines, StandardCharsets.UTF_8);
    }
  }
}
