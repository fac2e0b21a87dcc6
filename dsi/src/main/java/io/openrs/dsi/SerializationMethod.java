package io.openrs.dsi;

import java.util.Locale;

/**
 * {@code dsi_serialization_method}: when a parallel DSI thread may start its next transaction.
 * Whatever the method, transactions commit in the origins' commit order (each waits for its
 * predecessor on the predecessor's {@code rs_threads} row, a wait the replicate's deadlock detector
 * sees), and {@code rs_lastcommit} is written in the same replicate transaction: exactly once.
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
  /**
   * A transaction starts once its predecessor has started (locked its {@code rs_threads} row): all
   * run together, with no dependency analysis; out-of-order effects show as lock waits, deadlocks,
   * duplicate keys or row-count mismatches, which roll back and re-apply in commit order.
   */
  WAIT_FOR_START,
  /**
   * A transaction starts at once on a free thread, before its predecessor has started; it still
   * commits in commit order (see docs/dsi.md for why commits are never reordered).
   */
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
