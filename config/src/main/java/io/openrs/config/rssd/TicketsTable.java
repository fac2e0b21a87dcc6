package io.openrs.config.rssd;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code rs_ticket} history: {@code rs_ticket_history}. */
public interface TicketsTable {
  /** The module keys a ticket may carry times for. */
  Set<String> MODULES = Set.of("pdb", "exec", "dist", "dsi", "rdb");

  /**
   * Stores a ticket that reached a replicate.
   *
   * @param moduleTimes when it passed each module; keys among {@link #MODULES}, any may be absent
   * @return its row number
   * @throws RssdException {@code INVALID} for a key not in {@link #MODULES}
   */
  long add(
      int originConnectionId,
      int replicateConnectionId,
      String headers,
      Map<String, Instant> moduleTimes);

  /** The newest {@code limit} tickets, newest first. */
  List<TicketEntry> recent(int limit);
}
