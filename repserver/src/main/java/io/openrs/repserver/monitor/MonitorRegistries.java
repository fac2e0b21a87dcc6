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
   * CounterCatalog#standard()}, on the system clock, with Micrometer's JVM and process metrics
   * bound ({@link #bindJvmAndProcess}).
   */
  public static PrometheusMeterRegistry prometheus() {
    PrometheusMeterRegistry registry = prometheus(CounterCatalog.standard(), Clock.SYSTEM);
    bindJvmAndProcess(registry);
    return registry;
  }

  /**
   * Binds Micrometer's JVM and process metrics under their standard names ({@code
   * jvm_memory_used_bytes}, {@code jvm_gc_pause_seconds}, {@code jvm_threads_live_threads}, {@code
   * process_cpu_usage}, {@code process_uptime_seconds}, {@code process_files_open_files}, ...).
   */
  public static void bindJvmAndProcess(io.micrometer.core.instrument.MeterRegistry registry) {
    new io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics().bindTo(registry);
    new io.micrometer.core.instrument.binder.jvm.JvmGcMetrics().bindTo(registry);
    new io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics().bindTo(registry);
    new io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics().bindTo(registry);
    new io.micrometer.core.instrument.binder.system.ProcessorMetrics().bindTo(registry);
    new io.micrometer.core.instrument.binder.system.UptimeMetrics().bindTo(registry);
    new io.micrometer.core.instrument.binder.system.FileDescriptorMetrics().bindTo(registry);
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
