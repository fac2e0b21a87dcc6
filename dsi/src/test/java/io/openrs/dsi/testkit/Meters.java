package io.openrs.dsi.testkit;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.openrs.dsi.DsiCounter;

/** DSI counters read back from a meter registry, for tests and benchmarks. */
public final class Meters {
  private Meters() {}

  /** A DSI counter's value (summed over DSIEXEC threads), read from the registry. */
  public static long counter(MeterRegistry r, DsiCounter c) {
    double sum = 0;
    for (FunctionCounter f :
        r.find(c.counterName()).tag("module", c.module().name()).functionCounters()) {
      sum += f.count();
    }
    return (long) sum;
  }

  /** A summary's count of observations. */
  public static long observations(MeterRegistry r, DsiCounter c) {
    long n = 0;
    for (DistributionSummary s : r.find(c.counterName()).summaries()) {
      n += s.count();
    }
    return n;
  }
}
