package io.openrs.repserver.sqt;

import io.openrs.ltl.TranId;
import io.openrs.queue.QueuePosition;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Works out how far the SQT reader may confirm its inbound queue (invariant 5: the inbound queue is
 * truncated only behind transactions DIST has made durable in every outbound queue).
 *
 * <p>Transactions interleave in the queue, so the confirmable position is the position just before
 * the first command of the oldest transaction that is not finished (still open, or committed but
 * its outbound writes not yet durable); with none unfinished, it is the last position read.
 * Rolled-back transactions are finished when they roll back.
 *
 * <p>Owned by the SQT thread; not thread-safe.
 */
public final class TruncationTracker {

  private record Pending(TranId tran, Optional<QueuePosition> before) {}

  private final Map<TranId, Long> sequenceOf = new HashMap<>();
  private final TreeMap<Long, Pending> unfinished = new TreeMap<>();
  private final Map<Long, Boolean> committedNotDurable = new HashMap<>();
  private long nextSequence;
  private Optional<QueuePosition> lastRead = Optional.empty();

  /**
   * A command was read at {@code position}; {@code tran} is its transaction.
   *
   * @return whether this command opened the transaction
   */
  public boolean read(TranId tran, QueuePosition position) {
    boolean opened = false;
    if (!sequenceOf.containsKey(tran)) {
      long seq = nextSequence++;
      sequenceOf.put(tran, seq);
      unfinished.put(seq, new Pending(tran, lastRead));
      opened = true;
    }
    lastRead = Optional.of(position);
    return opened;
  }

  /** The transaction rolled back: nothing of it is distributed. */
  public void rolledBack(TranId tran) {
    Long seq = sequenceOf.remove(tran);
    if (seq != null) {
      unfinished.remove(seq);
    }
  }

  /**
   * The transaction committed and was handed to DIST.
   *
   * @return a token to pass to {@link #durable} once every outbound write of it is durable
   */
  public long committed(TranId tran) {
    Long seq = sequenceOf.remove(tran);
    if (seq == null) {
      throw new IllegalStateException("commit of transaction " + tran + " that was never read");
    }
    committedNotDurable.put(seq, Boolean.TRUE);
    return seq;
  }

  /** DIST's writes of the committed transaction {@code token} are durable. */
  public void durable(long token) {
    if (committedNotDurable.remove(token) == null) {
      throw new IllegalStateException("transaction token " + token + " is not awaiting durability");
    }
    unfinished.remove(token);
  }

  /** The furthest position every reader-side obligation allows confirming, if any. */
  public Optional<QueuePosition> confirmable() {
    if (unfinished.isEmpty()) {
      return lastRead;
    }
    return unfinished.firstEntry().getValue().before();
  }
}
