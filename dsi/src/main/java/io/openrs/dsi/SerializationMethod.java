package io.openrs.dsi;

import java.util.Locale;

/**
 * {@code dsi_serialization_method}: when a parallel DSI thread may start its next transaction.
 * Whatever the method, transactions commit in the origin's commit order.
 */
public enum SerializationMethod {
  /**
   * A transaction starts once every earlier transaction that writes one of the same rows (table and
   * primary key, or unique key) has committed; others run together. The method for parallel work.
   */
  DEPENDENCY_AWARE,
  /**
   * A transaction starts once its predecessor is ready to commit (Replication Server's default).
   */
  WAIT_FOR_COMMIT,
  /** Accepted; applied as {@link #WAIT_FOR_COMMIT} by this version. */
  WAIT_FOR_START,
  /** Accepted; applied as {@link #WAIT_FOR_COMMIT} by this version. */
  NO_WAIT,
  /** A transaction starts once its predecessor has committed: no overlap at all. */
  WAIT_AFTER_COMMIT;

  /** The parameter value: {@code wait_for_commit}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a parameter value, ignoring case. */
  public static SerializationMethod parse(String text) {
    for (SerializationMethod m : values()) {
      if (m.label().equalsIgnoreCase(text.trim())) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown dsi_serialization_method '" + text + "'");
  }
}
