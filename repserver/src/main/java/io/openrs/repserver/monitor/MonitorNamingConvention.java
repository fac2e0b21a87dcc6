package io.openrs.repserver.monitor;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.NamingConvention;
import io.micrometer.prometheusmetrics.PrometheusNamingConvention;
import java.util.Objects;

/**
 * The Prometheus naming convention of the server's registry: counter-style meter names ({@code
 * CmdsWritten}) are named by {@link PrometheusNames} ({@code openrs_cmds_written_total}), taking
 * the unit from the meter or, when the meter has none, from the {@link CounterCatalog}; any other
 * meter (Micrometer's dotted names such as {@code jvm.memory.used}) follows Micrometer's {@link
 * PrometheusNamingConvention}, so standard JVM dashboards keep working.
 *
 * <p>The tag {@code instance} becomes the label {@code instance_id} (Replication Server's column
 * name): Prometheus sets its own {@code instance} label (the scraped target) and would otherwise
 * rename ours to {@code exported_instance}. Other tag keys are kept.
 */
public final class MonitorNamingConvention implements NamingConvention {

  private final CounterCatalog catalog;
  private final NamingConvention standard = new PrometheusNamingConvention();

  public MonitorNamingConvention(CounterCatalog catalog) {
    this.catalog = Objects.requireNonNull(catalog, "catalog");
  }

  @Override
  public String name(String name, Meter.Type type, String baseUnit) {
    if (!PrometheusNames.isCounterStyle(name)) {
      return standard.name(name, type, baseUnit);
    }
    String unit = baseUnit != null ? baseUnit : catalog.unitOf(name).orElse(null);
    return PrometheusNames.registryName(name, type, unit);
  }

  /** The Prometheus label of the {@code instance} tag. */
  public static final String INSTANCE_LABEL = "instance_id";

  @Override
  public String tagKey(String key) {
    return key.equals("instance") ? INSTANCE_LABEL : standard.tagKey(key);
  }

  @Override
  public String tagValue(String value) {
    return standard.tagValue(value);
  }
}
