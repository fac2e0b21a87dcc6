package io.openrs.dsi.testkit;

import io.openrs.dsi.DsiErrorSink;
import io.openrs.dsi.DsiState;
import io.openrs.dsi.LoggedTransaction;
import io.openrs.ltl.LtlCommand;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps what the DSI hands the server. */
public final class RecordingSink implements DsiErrorSink {
  public final List<LoggedTransaction> logged = new CopyOnWriteArrayList<>();
  public final List<DsiState> states = new CopyOnWriteArrayList<>();
  public final List<String> tickets = new CopyOnWriteArrayList<>();

  @Override
  public void logTransaction(LoggedTransaction transaction) {
    logged.add(transaction);
  }

  @Override
  public void stateChanged(DsiState state) {
    states.add(state);
  }

  @Override
  public void ticketApplied(
      int originConnectionId, LtlCommand.Ticket ticket, String dsiHeader, Instant committedAt) {
    tickets.add(originConnectionId + " " + ticket.headers() + " " + dsiHeader);
  }
}
