package io.openrs.dsi.internal;

import io.openrs.dsi.DsiSettings;
import java.util.List;

/**
 * Which consecutive transactions may share one replicate transaction: at most {@code
 * dsi_max_xacts_in_group} of them and {@code dsi_xact_group_size} bytes; a large transaction (more
 * than {@code dsi_large_xact_size} commands, streamed or held whole) travels alone, as does an
 * incomplete run and, where DDL commits implicitly, a transaction holding DDL. Transactions of
 * different origins may share a group: each origin's row of rs_lastcommit is written in it.
 */
final class Grouping {
  private final DsiSettings settings;
  private final boolean transactionalDdl;

  Grouping(DsiSettings settings, boolean transactionalDdl) {
    this.settings = settings;
    this.transactionalDdl = transactionalDdl;
  }

  boolean joins(List<SourceTransaction> group, SourceTransaction next) {
    if (group.size() >= settings.maxXactsInGroup() || alone(group.get(0)) || alone(next)) {
      return false;
    }
    long bytes = next.bytes();
    for (SourceTransaction t : group) {
      bytes += t.bytes();
    }
    return bytes <= settings.xactGroupSizeBytes();
  }

  private boolean alone(SourceTransaction t) {
    if (t.streamed() || !t.complete() || t.size() > settings.largeXactSize()) {
      return true;
    }
    return !transactionalDdl && t.hasDdl();
  }
}
