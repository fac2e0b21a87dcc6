package io.openrs.repserver.monitor;

import io.micrometer.core.instrument.Meter;
import java.util.List;
import java.util.Locale;

/**
 * How a counter named as Replication Server names it becomes a Prometheus metric name: {@code
 * openrs_} + the name in snake case + a unit suffix + the type's suffix.
 *
 * <ul>
 *   <li>snake case splits before an upper-case letter that follows a lower-case letter or digit,
 *       and before the last letter of a run of capitals followed by lower case: {@code
 *       SQMRBacklogSeg} becomes {@code sqmr_backlog_seg}, {@code RAWriteWaitsTime} {@code
 *       ra_write_waits_time};
 *   <li>timers are in seconds and end in {@code _seconds} (series {@code _count} and {@code _sum});
 *   <li>counters and gauges whose unit is {@code bytes} or {@code seconds} get that suffix unless
 *       the name already has the word ({@code CacheMemUsed} becomes {@code
 *       openrs_cache_mem_used_bytes}, {@code BytesWritten} stays {@code openrs_bytes_written});
 *       other units ({@code messages}, {@code blocks}) are counts and add nothing;
 *   <li>counters end in {@code _total}, which Prometheus' client appends on scrape.
 * </ul>
 */
public final class PrometheusNames {

  /** Prefix of every metric named from a counter catalogue. */
  public static final String PREFIX = "openrs_";

  private static final List<String> UNIT_SUFFIXES = List.of("bytes", "seconds");
  private static final List<String> RESERVED_SUFFIXES =
      List.of("_total", "_created", "_bucket", "_info");

  private PrometheusNames() {}

  /** Whether {@code meterName} is a Replication Server style name ({@code CmdsWritten}). */
  public static boolean isCounterStyle(String meterName) {
    return meterName.matches("[A-Z][A-Za-z0-9]*");
  }

  /** {@code SQMWriteTime} to {@code sqm_write_time}. */
  public static String snakeCase(String name) {
    StringBuilder b = new StringBuilder(name.length() + 8);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c) && i > 0) {
        char prev = name.charAt(i - 1);
        boolean nextLower = i + 1 < name.length() && Character.isLowerCase(name.charAt(i + 1));
        if (Character.isLowerCase(prev)
            || Character.isDigit(prev)
            || (Character.isUpperCase(prev) && nextLower)) {
          b.append('_');
        }
      }
      b.append(Character.toLowerCase(c));
    }
    return b.toString();
  }

  /**
   * The metric name the Micrometer registry is given for a counter-style meter, without the {@code
   * _total} the Prometheus client appends to counters.
   *
   * @param unit the meter's base unit, or the catalogue's; may be null
   */
  public static String registryName(String meterName, Meter.Type type, String unit) {
    String s = PREFIX + snakeCase(meterName);
    switch (type) {
      case TIMER:
      case LONG_TASK_TIMER:
        if (!s.endsWith("_seconds")) {
          s += "_seconds";
        }
        break;
      default:
        if (unit != null) {
          String u = unit.toLowerCase(Locale.ROOT);
          if (UNIT_SUFFIXES.contains(u) && !hasWord(s, u)) {
            s += "_" + u;
          }
        }
        break;
    }
    return stripReservedSuffixes(s);
  }

  /**
   * The name a scrape shows: {@link #registryName} plus {@code _total} for counters; a timer's
   * family name (its series add {@code _count} and {@code _sum}).
   *
   * @param kind {@code counter}, {@code gauge} or {@code timer} ({@link CounterInfo#kind()})
   */
  public static String exposedName(String counterName, String kind, String unit) {
    switch (kind) {
      case CounterInfo.COUNTER:
        return registryName(counterName, Meter.Type.COUNTER, unit) + "_total";
      case CounterInfo.TIMER:
        return registryName(counterName, Meter.Type.TIMER, unit);
      case CounterInfo.GAUGE:
        return registryName(counterName, Meter.Type.GAUGE, unit);
      case CounterInfo.SUMMARY:
        return registryName(counterName, Meter.Type.DISTRIBUTION_SUMMARY, unit);
      default:
        throw new IllegalArgumentException("unknown kind " + kind);
    }
  }

  private static boolean hasWord(String snake, String word) {
    return ("_" + snake + "_").contains("_" + word + "_");
  }

  private static String stripReservedSuffixes(String name) {
    String s = name;
    boolean stripped = true;
    while (stripped) {
      stripped = false;
      for (String suffix : RESERVED_SUFFIXES) {
        if (s.endsWith(suffix) && s.length() > suffix.length()) {
          s = s.substring(0, s.length() - suffix.length());
          stripped = true;
        }
      }
    }
    return s;
  }
}
