package io.openrs.repserver.monitor;

import java.util.Objects;

/**
 * One counter of the merged catalogue, as {@code rs_helpcounter} lists it.
 *
 * @param name the counter name, also the Micrometer meter name (e.g. {@code CmdsWritten})
 * @param module the Replication Server module, the meter's {@code module} tag (e.g. {@code SQM})
 * @param kind {@code counter} (monotonic count), {@code gauge} (current value) or {@code timer}
 *     (observations and their total time)
 * @param unit base unit of the value: {@code seconds} for timers, {@code bytes}, or what is counted
 *     ({@code messages}, {@code blocks}, {@code transactions}, ...)
 * @param description what it counts, for operators
 * @param replicationServerName whether Replication Server has a counter of this name
 */
public record CounterInfo(
    String name,
    String module,
    String kind,
    String unit,
    String description,
    boolean replicationServerName) {

  public static final String COUNTER = "counter";
  public static final String GAUGE = "gauge";
  public static final String TIMER = "timer";
  public static final String SUMMARY = "summary";

  public CounterInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(module, "module");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(description, "description");
    if (!kind.equals(COUNTER)
        && !kind.equals(GAUGE)
        && !kind.equals(TIMER)
        && !kind.equals(SUMMARY)) {
      throw new IllegalArgumentException(
          "counter "
              + module
              + " "
              + name
              + ": kind must be counter, gauge, timer or summary, got "
              + kind);
    }
  }

  /**
   * The name Prometheus scrapes: {@code openrs_cmds_written_total} for a counter, {@code
   * openrs_sqm_backlog_bytes} for a gauge, {@code openrs_sqm_write_time_seconds} for a timer and a
   * distribution summary such as {@code openrs_hvar_group_cmds_commands} (whose series are {@code
   * _count}, {@code _sum} and the histogram's {@code _bucket}).
   */
  public String prometheusName() {
    return PrometheusNames.exposedName(name, kind, unit);
  }
}
