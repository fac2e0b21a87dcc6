package io.openrs.config.rssd;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An {@code rs_ticket} that reached a replicate, a row of {@code rs_ticket_history}.
 *
 * @param id the row number ({@code cnt}), increasing
 * @param originConnectionId the primary that issued it
 * @param replicateConnectionId the replicate it reached
 * @param headers the ticket's header text (h1..h4 as sent)
 * @param moduleTimes when it passed each module: keys among {@link TicketsTable#MODULES}
 * @param logged when the row was written
 */
public record TicketEntry(
    long id,
    int originConnectionId,
    int replicateConnectionId,
    String headers,
    Map<String, Instant> moduleTimes,
    Instant logged) {
  public TicketEntry {
    Objects.requireNonNull(headers, "headers");
    Objects.requireNonNull(logged, "logged");
    moduleTimes = Collections.unmodifiableMap(new TreeMap<>(moduleTimes));
  }
}
