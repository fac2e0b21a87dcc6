package io.openrs.runtime;

/** How a counter is kept in Micrometer. */
public enum CounterKind {
  /** A monotonic count ({@code FunctionCounter} or {@code Counter}). */
  COUNTER,
  /** A current value ({@code Gauge}). */
  GAUGE,
  /** A number of observations plus their total time ({@code FunctionTimer} or {@code Timer}). */
  TIMER,
  /** A distribution summary: observations, their total and histogram buckets. */
  SUMMARY
}
