package io.openrs.repserver.dist;

import io.openrs.queue.QueuePosition;
import io.openrs.queue.StableQueue;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The outbound queue of one replicate connection, as DIST writes it: every origin's DIST appends
 * whole transactions, and a transaction's messages must stay contiguous (the DSI reads them in
 * order), so a writer holds {@link #lock()} while it appends one transaction, even in several
 * chunks.
 */
public final class OutboundQueue {

  private final int replicateConnectionId;
  private final String replicateName;
  private final StableQueue queue;
  private final ReentrantLock lock = new ReentrantLock();

  public OutboundQueue(int replicateConnectionId, String replicateName, StableQueue queue) {
    this.replicateConnectionId = replicateConnectionId;
    this.replicateName = replicateName;
    this.queue = queue;
  }

  public int replicateConnectionId() {
    return replicateConnectionId;
  }

  public String replicateName() {
    return replicateName;
  }

  public StableQueue queue() {
    return queue;
  }

  /** Held while one transaction is appended. */
  public ReentrantLock lock() {
    return lock;
  }

  /** Appends messages (caller holds {@link #lock()} across one transaction's appends). */
  public CompletableFuture<QueuePosition> append(List<byte[]> messages)
      throws InterruptedException {
    if (!lock.isHeldByCurrentThread()) {
      throw new IllegalStateException("append to " + queue.id() + " without holding its lock");
    }
    return queue.appendAll(messages);
  }

  @Override
  public String toString() {
    return queue.id() + " " + replicateName;
  }
}
