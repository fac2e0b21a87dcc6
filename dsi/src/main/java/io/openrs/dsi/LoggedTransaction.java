package io.openrs.dsi;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TranId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A transaction the DSI hands to the exceptions log instead of applying it: skipped by {@code
 * resume connection ... skip transaction}, or by a {@code log} / {@code retry_log} error action.
 *
 * @param replicateConnectionId the connection it was meant for
 * @param originConnectionId where it came from
 * @param tran the origin's transaction id, if its begin was read
 * @param commitOqid its commit OQID, if its commit was read (an incomplete run has none)
 * @param commands every command as read from the outbound queue, begin and commit included
 * @param reason why it was not applied
 * @param error the replicate's error (SQLSTATE, vendor code, message) or the reason in words
 */
public record LoggedTransaction(
    int replicateConnectionId,
    int originConnectionId,
    Optional<TranId> tran,
    Optional<Oqid> commitOqid,
    List<LtlCommand> commands,
    Reason reason,
    String error) {

  /** Why a transaction was written to the exceptions log (RS's {@code log_reason}). */
  public enum Reason {
    /** {@code resume connection ... skip transaction} (RS {@code S}). */
    SKIPPED,
    /** A {@code log} or {@code retry_log} error action (RS {@code E}). */
    ERROR_ACTION
  }

  public LoggedTransaction {
    Objects.requireNonNull(tran, "tran");
    Objects.requireNonNull(commitOqid, "commitOqid");
    commands = List.copyOf(commands);
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(error, "error");
  }
}
