package io.openrs.bench.comparison;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/** The little arithmetic of the report: medians with ranges, ratios, lag percentiles, digests. */
final class Stats {
  private Stats() {}

  /** Median, minimum and maximum of a non-empty list of samples. */
  record Summary(double median, double min, double max, int n) {
    String format(String unit) {
      return String.format(Locale.ROOT, "%s [%s–%s]%s", num(median), num(min), num(max), unit);
    }

    /** This summary's median divided by {@code base}'s. */
    double ratioTo(Summary base) {
      return median / base.median;
    }
  }

  static Summary summarize(List<Double> samples) {
    if (samples.isEmpty()) {
      throw new IllegalArgumentException("no samples to summarize");
    }
    List<Double> s = new ArrayList<>(samples);
    Collections.sort(s);
    int n = s.size();
    double median = n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    return new Summary(median, s.get(0), s.get(n - 1), n);
  }

  static String num(double v) {
    if (Math.abs(v) >= 1000) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    if (Math.abs(v) >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    return String.format(Locale.ROOT, "%.2f", v);
  }

  /** A histogram of lags in microseconds, up to one hour, three significant digits. */
  static Histogram lagHistogram() {
    return new Histogram(3_600_000_000L, 3);
  }

  /** p50, p99 and max of {@code h} (microseconds) in milliseconds. */
  record Lag(double p50Ms, double p99Ms, double maxMs, long samples) {}

  static Lag lag(Histogram h) {
    if (h.getTotalCount() == 0) {
      throw new IllegalStateException("no heartbeat reached the replicate: no lag to report");
    }
    return new Lag(
        h.getValueAtPercentile(50) / 1000.0,
        h.getValueAtPercentile(99) / 1000.0,
        h.getMaxValue() / 1000.0,
        h.getTotalCount());
  }

  /**
   * The tables whose digests differ between {@code primary} and {@code replicate} (table name to
   * its digest, {@code rows:hash}), with both digests; empty when they are equal. A table missing
   * on one side differs.
   */
  static Map<String, String> differences(
      Map<String, String> primary, Map<String, String> replicate) {
    Map<String, String> diff = new TreeMap<>();
    for (Map.Entry<String, String> e : primary.entrySet()) {
      String r = replicate.get(e.getKey());
      if (!e.getValue().equals(r)) {
        diff.put(e.getKey(), "primary " + e.getValue() + ", replicate " + r);
      }
    }
    for (String t : replicate.keySet()) {
      if (!primary.containsKey(t)) {
        diff.put(t, "primary null, replicate " + replicate.get(t));
      }
    }
    return diff;
  }
}
