package io.openrs.dsi;

import io.openrs.ltl.Oqid;
import io.openrs.ltl.TranId;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Why a DSI is down: what {@code admin who_is_down} shows.
 *
 * @param originConnectionId the origin of the failing transaction (0 when the failure is not about
 *     a transaction, e.g. a damaged queue)
 * @param commitOqid the failing transaction's commit OQID, if it has one
 * @param tran the origin's transaction id, if known
 * @param statement the failing statement with its values, or what the DSI was doing
 * @param sqlState the database's SQLSTATE, if any
 * @param vendorCode the database's vendor error code (0 if none)
 * @param message the database's (or the DSI's) message
 * @param action the error action that stopped the connection
 * @param time when it happened
 */
public record DsiFailure(
    int originConnectionId,
    Optional<Oqid> commitOqid,
    Optional<TranId> tran,
    String statement,
    Optional<String> sqlState,
    int vendorCode,
    String message,
    ErrorAction action,
    Instant time) {

  public DsiFailure {
    Objects.requireNonNull(commitOqid, "commitOqid");
    Objects.requireNonNull(tran, "tran");
    Objects.requireNonNull(statement, "statement");
    Objects.requireNonNull(sqlState, "sqlState");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(time, "time");
  }

  /** One line for logs and {@code admin who_is_down}'s info column. */
  public String describe() {
    return "origin "
        + originConnectionId
        + commitOqid.map(o -> " transaction commit OQID " + o).orElse("")
        + ": "
        + sqlState.map(s -> "SQLSTATE " + s + ", ").orElse("")
        + (vendorCode != 0 ? "vendor code " + vendorCode + ", " : "")
        + message
        + " (action "
        + action.label()
        + "); statement: "
        + statement;
  }
}
