package io.openrs.config.param;

/** The part of the server a parameter tunes; the docs have one table per area, in this order. */
public enum Area {
  SERVER_PROCESS("Server process (start-up file only)"),
  STABLE_QUEUE("Stable queues"),
  INBOUND("Inbound: EXEC, NRM, SQT and STS"),
  AGENT("Replication agent"),
  DSI("DSI: applying to replicate databases"),
  MONITORING("Monitor counters");

  private final String title;

  Area(String title) {
    this.title = title;
  }

  /** The section heading in {@code docs/parameters.md}. */
  public String title() {
    return title;
  }
}
