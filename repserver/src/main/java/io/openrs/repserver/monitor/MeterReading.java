package io.openrs.repserver.monitor;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * One reading of a meter, in the three kinds {@code admin stats} knows.
 *
 * @param kind how to interpret the numbers
 * @param count a counter's cumulative value, a timer's cumulative number of observations, or a
 *     gauge's current value
 * @param totalMillis a timer's cumulative time in milliseconds (a distribution summary's total
 *     amount); 0 otherwise
 */
record MeterReading(Kind kind, double count, double totalMillis) {

  /** Tag every counter carries: the Replication Server module. */
  static final String MODULE_TAG = "module";

  /** Tag naming what a counter is about (queue id, origin, RSSD table). */
  static final String INSTANCE_TAG = "instance";

  enum Kind {
    COUNTER,
    TIMER,
    GAUGE
  }

  /**
   * Reads {@code m}; empty for meters {@code admin stats} does not show (no {@code module} tag,
   * long-task timers, custom meters) and for gauges whose object is gone (NaN).
   */
  static Optional<MeterReading> read(Meter m) {
    if (m.getId().getTag(MODULE_TAG) == null) {
      return Optional.empty();
    }
    if (m instanceof FunctionCounter c) {
      return Optional.of(new MeterReading(Kind.COUNTER, c.count(), 0));
    } else if (m instanceof Counter c) {
      return Optional.of(new MeterReading(Kind.COUNTER, c.count(), 0));
    } else if (m instanceof FunctionTimer t) {
      return Optional.of(
          new MeterReading(Kind.TIMER, t.count(), t.totalTime(TimeUnit.MILLISECONDS)));
    } else if (m instanceof Timer t) {
      return Optional.of(
          new MeterReading(Kind.TIMER, t.count(), t.totalTime(TimeUnit.MILLISECONDS)));
    } else if (m instanceof DistributionSummary s) {
      return Optional.of(new MeterReading(Kind.TIMER, s.count(), s.totalAmount()));
    } else if (m instanceof TimeGauge g) {
      double v = g.value(TimeUnit.MILLISECONDS);
      return Double.isNaN(v) ? Optional.empty() : Optional.of(new MeterReading(Kind.GAUGE, v, 0));
    } else if (m instanceof Gauge g) {
      double v = g.value();
      return Double.isNaN(v) ? Optional.empty() : Optional.of(new MeterReading(Kind.GAUGE, v, 0));
    }
    return Optional.empty();
  }

  static String module(Meter.Id id) {
    String m = id.getTag(MODULE_TAG);
    return m == null ? "" : m;
  }

  static String instance(Meter.Id id) {
    String i = id.getTag(INSTANCE_TAG);
    return i == null ? "" : i;
  }

  /**
   * The tags other than module and instance ({@code reader}, {@code replicate}, {@code reason}).
   */
  static Map<String, String> extraTags(Meter.Id id) {
    Map<String, String> extra = new TreeMap<>();
    for (Tag t : id.getTagsAsIterable()) {
      if (!t.getKey().equals(MODULE_TAG) && !t.getKey().equals(INSTANCE_TAG)) {
        extra.put(t.getKey(), t.getValue());
      }
    }
    return extra;
  }

  /** Whether {@code id} is selected by the optional module and instance (both ignoring case). */
  static boolean selected(Meter.Id id, Optional<String> module, Optional<String> instance) {
    return module.map(m -> m.equalsIgnoreCase(module(id))).orElse(true)
        && instance.map(i -> i.equalsIgnoreCase(instance(id))).orElse(true);
  }

  /** Module (pipeline order), instance, counter name, extra tags. */
  static final Comparator<Meter.Id> ID_ORDER =
      Comparator.comparing(MeterReading::module, CounterCatalog.MODULE_COMPARATOR)
          .thenComparing(MeterReading::instance)
          .thenComparing(Meter.Id::getName)
          .thenComparing(id -> extraTags(id).toString());
}
