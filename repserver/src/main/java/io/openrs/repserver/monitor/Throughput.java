package io.openrs.repserver.monitor;

import java.util.List;
import java.util.Locale;

/**
 * The throughput reports {@code admin stats, tps | cps | bps}: which counters each shows, in
 * pipeline order, so the first stage whose rate falls behind its input stands out.
 */
public enum Throughput {
  /** Transactions per second: sorted by SQT, processed by DIST, written to each replicate. */
  TPS(
      "transactions per second",
      List.of(
          new Source("SQT", "ClosedTransAdd"),
          new Source("DIST", "TransProcessed"),
          new Source("DIST", "TransDistributed"))),
  /**
   * Commands per second: received from agents, written to queues, read by queue readers, read by
   * DIST, written to each replicate's queue.
   */
  CPS(
      "commands per second",
      List.of(
          new Source("REPAGENT", "CmdsRecv"),
          new Source("SQM", "CmdsWritten"),
          new Source("SQMR", "CmdsRead"),
          new Source("DIST", "CmdsRead"),
          new Source("DIST", "CmdsDistributed"))),
  /** Bytes per second: LTL received from agents, written to queue segments. */
  BPS(
      "bytes per second",
      List.of(new Source("REPAGENT", "BytesReceived"), new Source("SQM", "BytesWritten")));

  /** A counter a report shows: its module and name. */
  public record Source(String module, String counter) {}

  private final String description;
  private final List<Source> sources;

  Throughput(String description, List<Source> sources) {
    this.description = description;
    this.sources = sources;
  }

  public String description() {
    return description;
  }

  /** The counters shown, in the order shown. */
  public List<Source> sources() {
    return sources;
  }

  /** {@code tps}, {@code cps} or {@code bps}, ignoring case. */
  public static Throughput parse(String text) {
    for (Throughput t : values()) {
      if (t.name().equalsIgnoreCase(text.trim())) {
        return t;
      }
    }
    throw new IllegalArgumentException(
        "unknown throughput '" + text + "'; expected tps, cps or bps");
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
