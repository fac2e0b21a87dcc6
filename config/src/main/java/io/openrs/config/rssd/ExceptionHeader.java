package io.openrs.config.rssd;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The header of an exceptions-log entry ({@code rs_exceptshdr}), without its command text: what
 * {@code rs_helpexception} lists.
 *
 * @param id the log id ({@code sys_trans_id})
 * @param originConnectionId where the transaction came from
 * @param replicateConnectionId where it failed
 * @param originOqid the OQID of its commit; empty when the commit was never read
 * @param tranId the origin's transaction id text; empty when the begin was never read
 * @param error the replicate's error or why it was logged
 * @param commandCount its commands (lines of the command text); empty for entries logged before the
 *     RSSD counted them (schema version 1)
 * @param logged when it was logged
 */
public record ExceptionHeader(
    long id,
    int originConnectionId,
    int replicateConnectionId,
    byte[] originOqid,
    String tranId,
    String error,
    OptionalInt commandCount,
    Instant logged) {
  public ExceptionHeader {
    originOqid = originOqid.clone();
    Objects.requireNonNull(tranId, "tranId");
    Objects.requireNonNull(error, "error");
    Objects.requireNonNull(commandCount, "commandCount");
    Objects.requireNonNull(logged, "logged");
  }

  @Override
  public byte[] originOqid() {
    return originOqid.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ExceptionHeader h
        && h.id == id
        && h.originConnectionId == originConnectionId
        && h.replicateConnectionId == replicateConnectionId
        && Arrays.equals(h.originOqid, originOqid)
        && h.tranId.equals(tranId)
        && h.error.equals(error)
        && h.commandCount.equals(commandCount)
        && h.logged.equals(logged);
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
        commandCount,
        logged);
  }

  @Override
  public String toString() {
    return "ExceptionHeader[id="
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
        + ", commands="
        + commandCount
        + ", logged="
        + logged
        + "]";
  }
}
