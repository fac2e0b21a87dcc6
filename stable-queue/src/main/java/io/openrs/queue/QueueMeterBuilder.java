package io.openrs.queue;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Registers one {@link QueueCounter} as the Micrometer function meter its kind asks for, with the
 * catalogue's name, unit and description: what both engines' queue meters build on.
 */
public final class QueueMeterBuilder {

  private final MeterRegistry registry;

  public QueueMeterBuilder(MeterRegistry registry) {
    this.registry = registry;
  }

  /** A counter reading {@code f} of {@code obj}. */
  public <T> Meter counter(QueueCounter c, Tags tags, T obj, ToDoubleFunction<T> f) {
    return FunctionCounter.builder(c.counterName(), obj, f)
        .tags(tags)
        .baseUnit(c.unit())
        .description(c.description())
        .register(registry);
  }

  /** A timer reading a count and a total in nanoseconds of {@code obj}. */
  public <T> Meter timer(
      QueueCounter c, Tags tags, T obj, ToLongFunction<T> count, ToDoubleFunction<T> totalNanos) {
    return FunctionTimer.builder(c.counterName(), obj, count, totalNanos, TimeUnit.NANOSECONDS)
        .tags(tags)
        .description(c.description())
        .register(registry);
  }

  /** A gauge reading {@code f} of {@code obj}. */
  public <T> Meter gauge(QueueCounter c, Tags tags, T obj, ToDoubleFunction<T> f) {
    return Gauge.builder(c.counterName(), obj, f)
        .tags(tags)
        .baseUnit(c.unit())
        .description(c.description())
        .register(registry);
  }

  /** Removes {@code meter} from the registry. */
  public void remove(Meter meter) {
    registry.remove(meter);
  }
}
