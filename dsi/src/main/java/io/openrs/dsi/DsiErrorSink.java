package io.openrs.dsi;

import io.openrs.ltl.LtlCommand;
import java.time.Instant;

/**
 * What the server does for a DSI: keep the exceptions log and follow its state. Implemented by the
 * server; called on DSI threads, so implementations must be thread-safe and should not block for
 * long.
 */
public interface DsiErrorSink {

  /**
   * Writes a transaction, every command of it, to the exceptions log ({@code rs_exceptshdr} and
   * {@code rs_exceptscmd}). It must be durable when this returns: the DSI then records the
   * transaction as done at the replicate ({@code rs_lastcommit}) and moves on. Throwing stops the
   * DSI (DOWN) without skipping anything.
   */
  void logTransaction(LoggedTransaction transaction) throws Exception;

  /** The DSI's state changed (to DOWN with its failure, SUSPENDED or RUNNING). */
  void stateChanged(DsiState state);

  /**
   * An {@code rs_ticket} was committed at the replicate, with {@code dsiHeader} ({@code
   * DSI=<time>;DSI_T=<transactions>;DSI_C=<commands>}) to add to its trail. Called only with {@code
   * dsi_rs_ticket_report} on. The default does nothing.
   *
   * @param originConnectionId where the ticket came from
   * @param ticket the ticket as read
   * @param dsiHeader the DSI's header
   * @param committedAt when the replicate transaction holding it committed
   */
  default void ticketApplied(
      int originConnectionId, LtlCommand.Ticket ticket, String dsiHeader, Instant committedAt) {}
}
