package io.openrs.config.rssd;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Saved counter samples ({@code admin stats, ..., save}): {@code rs_statdetail}. */
public interface CounterSamplesTable {
  void add(Instant sampledAt, String module, String instance, String counter, double value);

  /** Stores many samples in one transaction (one JDBC batch). */
  void addAll(Collection<CounterSample> samples);

  /**
   * Samples taken in {@code [from, to)}, optionally of one module and one counter, ordered by time,
   * module, instance and counter.
   */
  List<CounterSample> query(
      Instant from, Instant to, Optional<String> module, Optional<String> counter);

  /**
   * Deletes every sample ({@code stats_reset_rssd}).
   *
   * @return the number deleted
   */
  long deleteAll();

  /**
   * Deletes samples taken before {@code before}.
   *
   * @return the number deleted
   */
  long deleteBefore(Instant before);
}
