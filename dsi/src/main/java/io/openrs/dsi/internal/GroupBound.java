package io.openrs.dsi.internal;

/**
 * How far one group taken from the {@link TransactionHandoff} reaches. It is shown the group's
 * transactions in order and keeps whatever totals it bounds as the group grows, so deciding on each
 * next transaction costs the same whatever the group's size (an HVAR group holds up to {@code
 * dsi_compile_max_cmds} commands: thousands of small transactions). One instance per group.
 */
public interface GroupBound {
  /** Records the group's first transaction, taken whatever it holds. */
  void first(SourceTransaction t);

  /** Whether {@code next} joins the group; if it does, it is recorded. */
  boolean joins(SourceTransaction next);
}
