package io.openrs.demo;

import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Samples the server through the admin port, the way a DBA watches it, and turns two samples into a
 * progress line: commands per second into the server ({@code admin stats}: REPAGENT {@code
 * CmdsRecv}), through DIST ({@code CmdsRead}) and out of the DSI ({@code DSICmdsSucceed}), the
 * backlog of the primary's inbound queue and the replicate's outbound queue ({@code admin who,
 * sqm}) and the latency of the last {@code rs_ticket} ({@code admin ticket_history}).
 */
final class Progress {
  static final String RA_IN = "REPAGENT.CmdsRecv";
  static final String DIST_READ = "DIST.CmdsRead";
  static final String DSI_OUT = "DSI.DSICmdsSucceed";

  /** A ticket that reached the replicate. */
  record Ticket(String headers, double latencyMillis) {
    /** The second header (the demo's ticket name: ready, t1, t2, ..., end). */
    String name() {
      String[] h = headers.split(";", -1);
      return h.length > 1 ? h[1] : headers;
    }
  }

  /** One look at the server. */
  record Sample(
      long nanos,
      long primaryCommitted,
      Map<String, Double> totals,
      Map<String, Long> backlogBytes,
      Optional<Ticket> lastTicket) {

    double total(String moduleCounter) {
      return totals.getOrDefault(moduleCounter, 0.0);
    }
  }

  private final String inboundQueue;
  private final String outboundQueue;

  /**
   * @param inboundQueue the primary's inbound queue, {@code <id>:1}
   * @param outboundQueue the replicate's outbound queue, {@code <id>:0}
   */
  Progress(String inboundQueue, String outboundQueue) {
    this.inboundQueue = inboundQueue;
    this.outboundQueue = outboundQueue;
  }

  Sample sample(AdminSession admin, long primaryCommitted) throws SQLException {
    long now = System.nanoTime();
    Map<String, Double> totals = totals(admin.rows("admin stats, \"all\""));
    Map<String, Long> backlog = new HashMap<>();
    for (Map<String, String> r : admin.rows("admin who, sqm")) {
      backlog.put(r.get("queue"), parseLong(r.get("backlog_bytes")));
    }
    return new Sample(now, primaryCommitted, totals, backlog, lastTicket(admin));
  }

  /** Sums every counter's total by {@code MODULE.Counter} (over instances and threads). */
  static Map<String, Double> totals(List<Map<String, String>> stats) {
    Map<String, Double> totals = new HashMap<>();
    for (Map<String, String> r : stats) {
      String key = r.get("module") + "." + r.get("counter");
      totals.merge(key, parseDouble(r.get("total")), Double::sum);
    }
    return totals;
  }

  static Optional<Ticket> lastTicket(AdminSession admin) throws SQLException {
    List<Map<String, String>> rows = admin.rows("admin ticket_history, 1");
    if (rows.isEmpty() || rows.get(0).get("latency_ms") == null) {
      return Optional.empty();
    }
    Map<String, String> r = rows.get(0);
    return Optional.of(new Ticket(r.get("headers"), parseDouble(r.get("latency_ms"))));
  }

  String header() {
    return String.format(
        Locale.ROOT,
        "  %6s  %-9s %12s %12s %11s %12s   %-25s %s",
        "time",
        "phase",
        "primary tx/s",
        "in cmd/s",
        "DIST cmd/s",
        "out cmd/s",
        "backlog " + inboundQueue + " / " + outboundQueue,
        "last rs_ticket");
  }

  String line(String phase, Duration elapsed, Sample prev, Sample cur) {
    double seconds = Math.max(1e-3, (cur.nanos() - prev.nanos()) / 1e9);
    String backlog =
        bytes(cur.backlogBytes().getOrDefault(inboundQueue, 0L))
            + " / "
            + bytes(cur.backlogBytes().getOrDefault(outboundQueue, 0L));
    String ticket =
        cur.lastTicket()
            .map(t -> String.format(Locale.ROOT, "%,.0f ms (%s)", t.latencyMillis(), t.name()))
            .orElse("-");
    return String.format(
        Locale.ROOT,
        "  %5ds  %-9s %,12.0f %,12.0f %,11.0f %,12.0f   %-25s %s",
        elapsed.toSeconds(),
        phase,
        (cur.primaryCommitted() - prev.primaryCommitted()) / seconds,
        (cur.total(RA_IN) - prev.total(RA_IN)) / seconds,
        (cur.total(DIST_READ) - prev.total(DIST_READ)) / seconds,
        (cur.total(DSI_OUT) - prev.total(DSI_OUT)) / seconds,
        backlog,
        ticket);
  }

  /** {@code 0 B}, {@code 12.3 KiB}, {@code 4.0 MiB}. */
  static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    if (n < 1024L * 1024) {
      return String.format(Locale.ROOT, "%.1f KiB", n / 1024.0);
    }
    if (n < 1024L * 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f MiB", n / (1024.0 * 1024));
    }
    return String.format(Locale.ROOT, "%.2f GiB", n / (1024.0 * 1024 * 1024));
  }

  private static long parseLong(String s) {
    if (s == null || s.isBlank()) {
      return 0;
    }
    return (long) Double.parseDouble(s);
  }

  private static double parseDouble(String s) {
    if (s == null || s.isBlank()) {
      return 0;
    }
    return Double.parseDouble(s);
  }
}
