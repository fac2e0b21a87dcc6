package io.openrs.repserver.sqt;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.TranId;
import io.openrs.queue.QueuePosition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SQT: assembles the interleaved commands of an inbound queue into whole transactions and hands
 * them on in commit order (the order of their commit commands in the queue, which is the origin's
 * commit order). Rolled-back transactions are discarded.
 *
 * <p>The cache of open transactions' commands is bounded by {@code sqt_max_cache_size} bytes: when
 * a command would exceed it, the commands of the largest open transaction are freed (counter {@code
 * TransRemoved}) and that transaction is later re-read from the queue when it commits, so a
 * transaction larger than the whole cache is still delivered, in full, without the heap growing.
 *
 * <p>A command whose transaction's begin was not seen (an agent that does not send begin) opens the
 * transaction implicitly; it is delivered without a begin.
 *
 * <p>Owned by the SQT thread of one inbound queue; not thread-safe.
 */
public final class TransactionSorter {

  private static final Logger LOG = LoggerFactory.getLogger(TransactionSorter.class);

  /** What one command did to the sorter's state. */
  public sealed interface Outcome {}

  /** The command went into an open transaction (or opened one). */
  public record Added(TranId tran) implements Outcome {}

  /** A transaction committed and is ready for DIST. */
  public record Committed(SortedTransaction transaction) implements Outcome {}

  /** A transaction rolled back; its commands are dropped. */
  public record RolledBack(TranId tran, long commandCount) implements Outcome {}

  private static final class OpenTransaction {
    final TranId tran;
    final QueuePosition firstPosition;
    LtlCommand.Begin begin;
    List<QueuedCommand> body = new ArrayList<>();
    boolean removed;
    long commandCount;
    long bytes;
    long cachedBytes;

    OpenTransaction(TranId tran, QueuePosition firstPosition) {
      this.tran = tran;
      this.firstPosition = firstPosition;
    }
  }

  private final String queueName;
  private final long maxCacheBytes;
  private final SqtStats stats;
  private final Map<TranId, OpenTransaction> open = new HashMap<>();
  private long cachedBytes;

  /**
   * @param queueName the inbound queue, for log messages
   * @param maxCacheBytes {@code sqt_max_cache_size}
   * @param stats where the counters are kept
   */
  public TransactionSorter(String queueName, long maxCacheBytes, SqtStats stats) {
    if (maxCacheBytes <= 0) {
      throw new IllegalArgumentException("sqt_max_cache_size must be positive: " + maxCacheBytes);
    }
    this.queueName = queueName;
    this.maxCacheBytes = maxCacheBytes;
    this.stats = stats;
  }

  /**
   * Takes the next command of the queue as read from it (a row change's images not yet decoded).
   *
   * @param position the command's position in the inbound queue
   * @param queued the command
   * @param packedBytes its size in the queue, the unit of the cache bound
   */
  public Outcome accept(QueuePosition position, QueuedCommand queued, int packedBytes) {
    stats.cmdsRead++;
    TranId tran = queued.tran();
    OpenTransaction t = open.get(tran);
    LtlCommand.InTransaction command = queued.isRowChange() ? null : queued.command();
    if (command instanceof LtlCommand.Commit commit) {
      if (t == null) {
        t = openTransaction(tran, position);
      }
      open.remove(tran);
      cachedBytes -= t.cachedBytes;
      stats.cacheMemUsed = cachedBytes;
      stats.closedTrans++;
      stats.largestTranCmds = Math.max(stats.largestTranCmds, t.commandCount);
      return new Committed(
          new SortedTransaction(
              tran,
              Optional.ofNullable(t.begin),
              commit,
              t.removed ? List.of() : t.body,
              t.removed,
              t.firstPosition,
              position,
              t.commandCount,
              t.bytes));
    }
    if (command instanceof LtlCommand.Rollback) {
      long count = 0;
      if (t != null) {
        open.remove(tran);
        cachedBytes -= t.cachedBytes;
        stats.cacheMemUsed = cachedBytes;
        count = t.commandCount;
      }
      stats.rolledBackTrans++;
      return new RolledBack(tran, count);
    }
    if (t == null) {
      t = openTransaction(tran, position);
    }
    if (command instanceof LtlCommand.Begin begin && t.begin == null && t.commandCount == 0) {
      t.begin = begin;
      return new Added(tran);
    }
    t.commandCount++;
    t.bytes += packedBytes;
    if (!t.removed) {
      t.body.add(queued);
      t.cachedBytes += packedBytes;
      cachedBytes += packedBytes;
      if (cachedBytes > maxCacheBytes) {
        removeLargest();
      }
    }
    stats.cacheMemUsed = cachedBytes;
    stats.cacheMemMax = Math.max(stats.cacheMemMax, cachedBytes);
    return new Added(tran);
  }

  private OpenTransaction openTransaction(TranId tran, QueuePosition position) {
    OpenTransaction t = new OpenTransaction(tran, position);
    open.put(tran, t);
    stats.openTrans++;
    return t;
  }

  private void removeLargest() {
    while (cachedBytes > maxCacheBytes) {
      OpenTransaction largest = null;
      for (OpenTransaction t : open.values()) {
        if (!t.removed && (largest == null || t.cachedBytes > largest.cachedBytes)) {
          largest = t;
        }
      }
      if (largest == null) {
        return;
      }
      cachedBytes -= largest.cachedBytes;
      largest.cachedBytes = 0;
      largest.body = List.of();
      largest.removed = true;
      stats.transRemoved++;
      if (stats.transRemoved == 1 || Long.bitCount(stats.transRemoved) == 1) {
        LOG.warn(
            "SQT of queue {}: sqt_max_cache_size ({} bytes) is too small; removed the commands of"
                + " open transaction {} ({} commands, {} bytes) from the cache, they will be re-read"
                + " from the queue at commit ({} transactions removed so far; raise"
                + " sqt_max_cache_size)",
            queueName,
            maxCacheBytes,
            largest.tran,
            largest.commandCount,
            largest.bytes,
            stats.transRemoved);
      }
    }
  }

  /** Transactions begun and neither committed nor rolled back. */
  public int openTransactions() {
    return open.size();
  }

  /** Bytes of commands held in the cache. */
  public long cachedBytes() {
    return cachedBytes;
  }
}
