package io.openrs.config.rssd;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * A transaction written to the exceptions log ({@code rs_exceptshdr} + {@code rs_exceptscmd}):
 * skipped by {@code resume connection ... skip transaction} or by a {@code log} error action.
 *
 * @param id the log id ({@code sys_trans_id}), increasing
 * @param originConnectionId where the transaction came from
 * @param replicateConnectionId where it failed
 * @param originOqid the OQID of the transaction (its commit)
 * @param tranId the origin's transaction id text
 * @param error the replicate's error (SQLSTATE, vendor code, message) or the reason it was logged
 * @param commandText the transaction's commands as text
 * @param logged when it was logged
 */
public record ExceptionEntry(
    long id,
    int originConnectionId,
    int replicateConnectionId,
    byte[] originOqid,
    String tranId,
    String error,
    String commandText,
    Instant logged) {
  public ExceptionEntry {
    originOqid = originOqid.clone();
    Objects.requireNonNull(tranId, "tranId");
    Objects.requireNonNull(error, "error");
    Objects.requireNonNull(commandText, "commandText");
    Objects.requireNonNull(logged, "logged");
  }

  @Override
  public byte[] originOqid() {
    return originOqid.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ExceptionEntry e
        && e.id == id
        && e.originConnectionId == originConnectionId
        && e.replicateConnectionId == replicateConnectionId
        && Arrays.equals(e.originOqid, originOqid)
        && e.tranId.equals(tranId)
        && e.error.equals(error)
        && e.commandText.equals(commandText)
        && e.logged.equals(logged);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        id,
        originConnectionId,
        replicateConnectionId,
        Arrays.hashCode(originOqid),
        tranId,
        error,
        commandText,
        logged);
  }

  @Override
  public String toString() {
    return "ExceptionEntry[id="
        + id
        + ", origin="
        + originConnectionId
        + ", replicate="
        + replicateConnectionId
        + ", oqid="
        + Bytes.hex(originOqid)
        + ", tranId="
        + tranId
        + ", error="
        + error
        + ", commandText="
        + commandText.length()
        + " chars, logged="
        + logged
        + "]";
  }
}
