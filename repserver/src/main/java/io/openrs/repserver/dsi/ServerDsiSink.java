package io.openrs.repserver.dsi;

import io.openrs.config.rssd.ConnectionState;
import io.openrs.config.rssd.Rssd;
import io.openrs.dsi.DsiErrorSink;
import io.openrs.dsi.DsiState;
import io.openrs.dsi.LoggedTransaction;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TranId;
import io.openrs.ltl.text.LtlWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's side of one replicate connection's DSI: the exceptions log ({@code rs_exceptshdr}
 * and {@code rs_exceptscmd}), {@code rs_ticket_history}, and the connection's state in the RSSD (a
 * DSI that an error action stops is suspended there, as in Replication Server, so it stays
 * suspended across a restart until {@code resume connection}).
 *
 * <p>Called on DSI threads; the RSSD is thread-safe.
 */
final class ServerDsiSink implements DsiErrorSink {
  private static final Logger LOG = LoggerFactory.getLogger(ServerDsiSink.class);

  private final Rssd rssd;
  private final int replicateConnectionId;
  private final String name;

  ServerDsiSink(Rssd rssd, int replicateConnectionId, String name) {
    this.rssd = rssd;
    this.replicateConnectionId = replicateConnectionId;
    this.name = name;
  }

  @Override
  public void logTransaction(LoggedTransaction t) {
    LtlWriter writer = new LtlWriter();
    StringBuilder text = new StringBuilder();
    for (LtlCommand c : t.commands()) {
      text.append(writer.toText(c)).append('\n');
    }
    String reason =
        t.reason() == LoggedTransaction.Reason.SKIPPED
            ? "skipped by resume connection ... skip transaction"
            : "logged by an error action";
    long id =
        rssd.exceptions()
            .add(
                t.originConnectionId(),
                t.replicateConnectionId(),
                t.commitOqid().map(Oqid::toBytes).orElse(new byte[0]),
                t.tran().map(TranId::toString).orElse(""),
                reason + ": " + t.error(),
                text.toString());
    LOG.warn(
        "DSI {}: transaction {} of origin {} (commit OQID {}) written to the exceptions log as id"
            + " {} ({} commands): {}",
        name,
        t.tran().map(TranId::toString).orElse("(begin not read)"),
        t.originConnectionId(),
        t.commitOqid().map(Oqid::toString).orElse("none"),
        id,
        t.commands().size(),
        reason);
  }

  @Override
  public void stateChanged(DsiState state) {
    if (state.status() == DsiState.Status.DOWN) {
      rssd.connections().setState(replicateConnectionId, ConnectionState.SUSPENDED);
    }
  }

  @Override
  public void ticketApplied(
      int originConnectionId, LtlCommand.Ticket ticket, String dsiHeader, Instant committedAt) {
    TicketStamps stamps = TicketStamps.of(ticket.headers());
    Map<String, Instant> times = new HashMap<>(stamps.times());
    times.put("pdb", ticket.time());
    Instant dsi = TicketStamps.dsiTime(dsiHeader);
    if (dsi != null) {
      times.put("dsi", dsi);
    }
    times.put("rdb", committedAt);
    List<String> headers = new ArrayList<>(stamps.userHeaders());
    headers.add(dsiHeader);
    rssd.tickets().add(originConnectionId, replicateConnectionId, String.join(";", headers), times);
  }
}
