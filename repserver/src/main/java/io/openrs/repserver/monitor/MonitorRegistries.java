package io.openrs.repserver.monitor;

import io.micrometer.core.instrument.Clock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The meter registries the server runs with. */
public final class MonitorRegistries {

  private static final Logger LOG = LoggerFactory.getLogger(MonitorRegistries.class);

  private MonitorRegistries() {}

  /**
   * The server's registry: Prometheus, named by {@link MonitorNamingConvention} over {@link
   * CounterCatalog#standard()}, on the system clock.
   */
  public static PrometheusMeterRegistry prometheus() {
    return prometheus(CounterCatalog.standard(), Clock.SYSTEM);
  }

  /**
   * A Prometheus registry named by {@link MonitorNamingConvention} over {@code catalog}. A meter
   * Prometheus refuses (the same metric name with other tag keys) is logged at WARN, not thrown at
   * the module registering it.
   */
  public static PrometheusMeterRegistry prometheus(CounterCatalog catalog, Clock clock) {
    PrometheusMeterRegistry registry =
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new PrometheusRegistry(), clock);
    registry.config().namingConvention(new MonitorNamingConvention(catalog));
    registry
        .config()
        .onMeterRegistrationFailed(
            (id, reason) ->
                LOG.warn(
                    "meter {} {} not exported to Prometheus: {}",
                    id.getName(),
                    id.getTags(),
                    reason));
    return registry;
  }
}
