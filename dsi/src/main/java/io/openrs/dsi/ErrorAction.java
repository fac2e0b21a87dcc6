package io.openrs.dsi;

import java.util.Locale;

/**
 * What the DSI does when the replicate database reports an error, Replication Server's error
 * actions. Declared from the least to the most severe: when several errors come back for one
 * command the most severe action wins ({@link #max}).
 */
public enum ErrorAction {
  /** Treat the command as applied and carry on (the failing statement is rolled back alone). */
  IGNORE,
  /** Like {@link #IGNORE}, and log a warning naming the statement and the error. */
  WARN,
  /**
   * Roll back and retry the transaction up to {@code command_retry} times; then write it to the
   * exceptions log and continue with the next.
   */
  RETRY_LOG,
  /** Roll back, write the transaction to the exceptions log and continue with the next. */
  LOG,
  /** Roll back and retry up to {@code command_retry} times; then stop the connection (DOWN). */
  RETRY_STOP,
  /** Roll back and stop the connection (DOWN). The action of every error no class maps. */
  STOP_REPLICATION;

  /** The name as admin commands write it: {@code retry_stop}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses {@code ignore}, {@code warn}, {@code log}, ... ignoring case. */
  public static ErrorAction parse(String text) {
    for (ErrorAction a : values()) {
      if (a.label().equalsIgnoreCase(text.trim())) {
        return a;
      }
    }
    throw new IllegalArgumentException(
        "unknown error action '"
            + text
            + "'; expected ignore, warn, retry_log, log, retry_stop or stop_replication");
  }

  /** The more severe of two actions. */
  public static ErrorAction max(ErrorAction a, ErrorAction b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  /** True for the actions that retry the transaction first. */
  public boolean retries() {
    return this == RETRY_LOG || this == RETRY_STOP;
  }
}
