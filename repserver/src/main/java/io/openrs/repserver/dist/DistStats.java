package io.openrs.repserver.dist;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Counters of one origin's DIST, written by its thread and read by the meters. */
public final class DistStats {
  /** Commands read from SQT (RS {@code CmdsRead}). */
  public volatile long cmdsRead;

  /** Transactions processed (RS {@code TransProcessed}). */
  public volatile long transProcessed;

  /** Row changes no subscription wanted (ours: {@code CmdsNoSubscriber}). */
  public volatile long cmdsNoSubscriber;

  /** {@code rs_ticket} markers passed on (RS {@code RSTicket}). */
  public volatile long tickets;

  /** Nanoseconds DIST waited handing transactions to outbound queue writers. */
  public volatile long outboundWaitNanos;

  /** Number of such hand-offs. */
  public volatile long outboundWaits;

  /** Commands distributed, by replicate connection id. */
  public final ConcurrentHashMap<Integer, LongAdder> cmdsDistributed = new ConcurrentHashMap<>();

  /** Called (on the DIST thread) the first time a replicate gets a transaction. */
  public volatile java.util.function.IntConsumer newReplicate = id -> {};

  /** Transactions distributed, by replicate connection id. */
  public final ConcurrentHashMap<Integer, LongAdder> transDistributed = new ConcurrentHashMap<>();
}
