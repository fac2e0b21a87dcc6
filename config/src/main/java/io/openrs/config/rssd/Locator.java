package io.openrs.config.rssd;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * The last origin queue id (OQID) the server made durable for one origin connection, a row of
 * {@code rs_locater}, plus the agent's resume data stored with it. The arrays are copied in and
 * out.
 *
 * @param originConnectionId the primary connection
 * @param oqid the OQID; never moves backwards
 * @param resumeBlob the agent's opaque resume data (e.g. Debezium offsets) stored with it; empty
 *     when none was ever stored
 * @param updated when the row last changed
 */
public record Locator(int originConnectionId, byte[] oqid, byte[] resumeBlob, Instant updated) {
  public Locator {
    oqid = oqid.clone();
    resumeBlob = resumeBlob == null ? new byte[0] : resumeBlob.clone();
    Objects.requireNonNull(updated, "updated");
  }

  @Override
  public byte[] oqid() {
    return oqid.clone();
  }

  @Override
  public byte[] resumeBlob() {
    return resumeBlob.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Locator l
        && l.originConnectionId == originConnectionId
        && Arrays.equals(l.oqid, oqid)
        && Arrays.equals(l.resumeBlob, resumeBlob)
        && l.updated.equals(updated);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        originConnectionId, Arrays.hashCode(oqid), Arrays.hashCode(resumeBlob), updated);
  }

  @Override
  public String toString() {
    return "Locator[origin="
        + originConnectionId
        + ", oqid="
        + Bytes.hex(oqid)
        + ", resumeBlob="
        + resumeBlob.length
        + " bytes, updated="
        + updated
        + "]";
  }
}
