package io.openrs.config.rssd;

import io.openrs.runtime.CounterDefinition;
import io.openrs.runtime.CounterKind;
import io.openrs.runtime.CounterModule;

/**
 * The catalogue of the STS cache's monitor counters. {@link StsCache} registers each in Micrometer
 * with tags {@code module=STS} and {@code instance=<system table>} (e.g. {@code rs_objects}).
 * {@code docs/counters.md} describes each one (checked by a test). The {@link CounterDefinition}
 * pattern of every module's catalogue: every STS counter is a count.
 */
public enum StsCounter implements CounterDefinition {
  STS_CACHE_HITS(
      "STSCacheHits",
      "lookups",
      "Lookups answered from the STS cache without a query to the RSSD (fully cached tables"
          + " answer every lookup so)."),
  STS_CACHE_MISSES(
      "STSCacheMisses",
      "lookups",
      "Lookups that queried the RSSD: the entry was not cached, or a fully cached table was"
          + " (re)loaded after a change."),
  STS_CACHE_EXCEED(
      "STSCacheExceed",
      "entries",
      "Cached entries swapped out because the table already held sts_cachesize entries; the next"
          + " lookup of a swapped-out entry queries the RSSD again. Non-zero: raise sts_cachesize"
          + " or fully cache the table (sts_full_cache_<table>).");

  /** The {@code module} tag of every STS counter. */
  public static final String MODULE = "STS";

  /** The module of every STS counter ({@link #MODULE}). */
  public enum Module implements CounterModule {
    STS
  }

  private final String counterName;
  private final String unit;
  private final String description;

  StsCounter(String counterName, String unit, String description) {
    this.counterName = counterName;
    this.unit = unit;
    this.description = description;
  }

  /** Replication Server's name, used as the Micrometer meter name. */
  @Override
  public String counterName() {
    return counterName;
  }

  @Override
  public Module module() {
    return Module.STS;
  }

  @Override
  public CounterKind kind() {
    return CounterKind.COUNTER;
  }

  /** Base unit of the value. */
  @Override
  public String unit() {
    return unit;
  }

  @Override
  public String description() {
    return description;
  }
}
