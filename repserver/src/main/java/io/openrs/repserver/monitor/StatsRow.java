package io.openrs.repserver.monitor;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One line of {@code admin stats}: a counter of one instance, since the last reset. See {@code
 * docs/monitoring.md} for what each number means per kind.
 *
 * @param module the Replication Server module ({@code SQM})
 * @param instance the instance ({@code 101:1}, {@code pds.pdb}, {@code rs_objects}); empty for
 *     server-wide counters
 * @param counter the counter name ({@code CmdsWritten})
 * @param extraTags further tags that tell instances apart ({@code reader=SQT}, {@code
 *     replicate=rds.rdb}, {@code reason=drained}), sorted by key
 * @param observations counter: the increase since reset; timer: observations since reset; gauge:
 *     samples taken since reset
 * @param total counter: the increase since reset; timer: milliseconds since reset; gauge: sum of
 *     the samples
 * @param last counter: the increase over the latest interval; timer: mean milliseconds per
 *     observation over the latest interval that had any; gauge: the current value
 * @param max the largest {@code last} since reset
 * @param ratePerSecond counter: total per second since reset; timer: observations per second since
 *     reset; gauge: 0
 */
public record StatsRow(
    String module,
    String instance,
    String counter,
    Map<String, String> extraTags,
    long observations,
    double total,
    double last,
    double max,
    double ratePerSecond) {

  public StatsRow {
    Objects.requireNonNull(module, "module");
    Objects.requireNonNull(instance, "instance");
    Objects.requireNonNull(counter, "counter");
    extraTags = Collections.unmodifiableMap(new TreeMap<>(extraTags));
  }

  /** RS's "Avg ttl/obs": total divided by observations; 0 without observations. */
  public double average() {
    return observations == 0 ? 0 : total / observations;
  }

  /**
   * The instance with its extra tags, as saved samples and the CSV name it: {@code 101:1
   * reader=SQT}; just the instance when there are none.
   */
  public String instanceLabel() {
    return instanceLabel(instance, extraTags);
  }

  /** Whether every number is 0 (hidden unless {@code stats_show_zero_counters} is on). */
  public boolean isZero() {
    return total == 0 && last == 0 && max == 0;
  }

  static String instanceLabel(String instance, Map<String, String> extraTags) {
    StringBuilder b = new StringBuilder(instance);
    extraTags.forEach(
        (k, v) -> {
          if (b.length() > 0) {
            b.append(' ');
          }
          b.append(k).append('=').append(v);
        });
    return b.toString();
  }
}
