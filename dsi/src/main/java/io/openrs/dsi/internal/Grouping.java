package io.openrs.dsi.internal;

import io.openrs.dsi.DsiSettings;

/**
 * Which consecutive transactions may share one replicate transaction: at most {@code
 * dsi_max_xacts_in_group} of them and {@code dsi_xact_group_size} bytes; a large transaction (more
 * than {@code dsi_large_xact_size} commands, streamed or held whole) travels alone, as does an
 * incomplete run and, where DDL commits implicitly, a transaction holding DDL. Transactions of
 * different origins may share a group: each origin's row of rs_lastcommit is written in it.
 */
public final class Grouping {
  private final DsiSettings settings;
  private final boolean transactionalDdl;

  public Grouping(DsiSettings settings, boolean transactionalDdl) {
    this.settings = settings;
    this.transactionalDdl = transactionalDdl;
  }

  /** A bound for one new group. */
  public GroupBound newGroup() {
    return new GroupBound() {
      private int transactions;
      private long bytes;
      private boolean firstAlone;

      @Override
      public void first(SourceTransaction t) {
        transactions = 1;
        bytes = t.bytes();
        firstAlone = alone(t);
      }

      @Override
      public boolean joins(SourceTransaction next) {
        if (transactions >= settings.maxXactsInGroup()
            || firstAlone
            || alone(next)
            || bytes + next.bytes() > settings.xactGroupSizeBytes()) {
          return false;
        }
        transactions++;
        bytes += next.bytes();
        return true;
      }
    };
  }

  private boolean alone(SourceTransaction t) {
    if (t.streamed() || !t.complete() || t.size() > settings.largeXactSize()) {
      return true;
    }
    return !transactionalDdl && t.hasDdl();
  }
}
