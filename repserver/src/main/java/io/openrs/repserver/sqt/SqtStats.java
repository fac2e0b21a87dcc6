package io.openrs.repserver.sqt;

/**
 * The counters of one SQT, written by its thread and read by the meters ({@code volatile} is not
 * needed for monotonic statistics read for display; the meters tolerate a slightly stale value).
 */
public final class SqtStats {
  /** Commands read from the inbound queue (RS {@code CmdsRead}). */
  public long cmdsRead;

  /** Transactions opened (RS {@code OpenTransAdd}). */
  public long openTrans;

  /** Transactions committed and handed on (RS {@code ClosedTransAdd}). */
  public long closedTrans;

  /** Transactions rolled back and discarded. */
  public long rolledBackTrans;

  /** Transactions whose commands were freed from the cache (RS {@code TransRemoved}). */
  public long transRemoved;

  /** Bytes of commands in the cache now (RS {@code CacheMemUsed}). */
  public long cacheMemUsed;

  /** The most bytes the cache ever held. */
  public long cacheMemMax;

  /** Commands in the largest transaction seen (RS {@code CmdsTran} max). */
  public long largestTranCmds;

  /** Commands re-read from the queue for removed transactions. */
  public long cmdsReread;
}
