package io.openrs.repagent;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.openrs.runtime.CounterKind;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The values of the {@link AgentCounter}s of one agent. Several threads bump them (the sender, the
 * connection's I/O thread, the log reader's thread), so each is an {@link AtomicLong}; times are
 * kept in nanoseconds and published in milliseconds. "Longest" counters are gauges, the others
 * {@link FunctionCounter}s.
 */
public final class AgentCounters {

  private final Map<AgentCounter, AtomicLong> values = new EnumMap<>(AgentCounter.class);

  public AgentCounters() {
    for (AgentCounter c : AgentCounter.values()) {
      values.put(c, new AtomicLong());
    }
  }

  /**
   * Publishes every counter to {@code registry} with tag {@code agent=<agentName>}.
   *
   * @return the meters, for {@link MeterRegistry#remove} when the agent stops
   */
  public java.util.List<io.micrometer.core.instrument.Meter> bindTo(
      MeterRegistry registry, String agentName) {
    java.util.List<io.micrometer.core.instrument.Meter> meters = new java.util.ArrayList<>();
    for (AgentCounter c : AgentCounter.values()) {
      AtomicLong v = values.get(c);
      boolean millis = c.unit().equals("ms");
      if (c.kind() == CounterKind.GAUGE) {
        meters.add(
            Gauge.builder(c.counterName(), v, a -> millis ? nanosToMillis(a.get()) : a.get())
                .description(c.description())
                .baseUnit(c.unit())
                .tag("agent", agentName)
                .register(registry));
      } else {
        meters.add(
            FunctionCounter.builder(
                    c.counterName(), v, a -> millis ? nanosToMillis(a.get()) : (double) a.get())
                .description(c.description())
                .baseUnit(c.unit())
                .tag("agent", agentName)
                .register(registry));
      }
    }
    return meters;
  }

  private static double nanosToMillis(long nanos) {
    return nanos / (double) TimeUnit.MILLISECONDS.toNanos(1);
  }

  public void add(AgentCounter c, long delta) {
    values.get(c).addAndGet(delta);
  }

  public void increment(AgentCounter c) {
    values.get(c).incrementAndGet();
  }

  /** Adds {@code nanos} to the sum counter and raises the longest one if it is longer. */
  public void time(AgentCounter sum, AgentCounter longest, long nanos) {
    values.get(sum).addAndGet(nanos);
    values.get(longest).accumulateAndGet(nanos, Math::max);
  }

  /** The raw value (nanoseconds for times). */
  public long get(AgentCounter c) {
    return values.get(c).get();
  }
}
