package io.openrs.repserver.dist;

import io.openrs.ltl.Oqid;

/**
 * DIST could not place a command (a where clause cannot be decided on the row the source sent). The
 * distributor of that origin stops; nothing is dropped: the inbound queue keeps the transaction
 * until {@code resume distributor}.
 */
public final class DistributionException extends Exception {
  private static final long serialVersionUID = 1L;

  private final Oqid oqid;

  public DistributionException(Oqid oqid, String message, Throwable cause) {
    super(message, cause);
    this.oqid = oqid;
  }

  public Oqid oqid() {
    return oqid;
  }
}
