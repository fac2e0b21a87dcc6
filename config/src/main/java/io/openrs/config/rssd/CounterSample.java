package io.openrs.config.rssd;

import java.time.Instant;
import java.util.Objects;

/**
 * One saved counter value, a row of {@code rs_statdetail}.
 *
 * @param sampledAt end of the observation interval
 * @param module the Replication Server module, e.g. {@code SQM}
 * @param instance the instance, e.g. {@code 101:1}; empty for server-wide counters
 * @param counter the counter name, e.g. {@code BlocksWritten}
 * @param value the value observed
 */
public record CounterSample(
    Instant sampledAt, String module, String instance, String counter, double value) {
  public CounterSample {
    Objects.requireNonNull(sampledAt, "sampledAt");
    Objects.requireNonNull(module, "module");
    Objects.requireNonNull(instance, "instance");
    Objects.requireNonNull(counter, "counter");
  }
}
