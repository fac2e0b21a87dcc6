package io.openrs.queue;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A persistent queue of opaque messages: producers append, named readers read in order and confirm
 * what they have processed, space is freed behind the slowest reader.
 *
 * <p>Thread-safe: any number of threads may append. Each {@link QueueReader} belongs to one thread.
 *
 * <p>Durability: the future returned by {@link #append} completes once the message is durable under
 * the queue's {@link WriteFlush} policy, and only then can a reader see it. Futures complete on the
 * queue's writer thread; keep dependent actions short or use the {@code *Async} variants.
 */
public interface StableQueue extends AutoCloseable {

  /** The queue's identity. */
  QueueId id();

  /** Lifecycle state. */
  QueueState state();

  /**
   * Hands one message to the writer. Blocks while the queue's bounded write buffer ({@code
   * exec_sqm_write_request_limit}) is full.
   *
   * @return completes with the message's position when durable, or exceptionally with {@link
   *     QueueClosedException} if the queue stops first
   * @throws QueueClosedException if the queue is not running
   * @throws IllegalArgumentException if the message exceeds {@code sqm_max_message_size}
   */
  CompletableFuture<QueuePosition> append(byte[] message) throws InterruptedException;

  /**
   * Hands several messages to the writer as one request; they get consecutive positions.
   *
   * @return completes with the position of the last message when all are durable
   */
  CompletableFuture<QueuePosition> appendAll(List<byte[]> messages) throws InterruptedException;

  /**
   * Opens the named reader, creating it (positioned at the oldest message held) if it does not
   * exist. A reader's confirmed position survives restarts. At most one open handle per name.
   */
  QueueReader openReader(String name);

  /**
   * Removes a reader and its truncation point (it no longer holds space). Closes an open handle.
   */
  void dropReader(String name);

  /**
   * Reads up to {@code maxMessages} messages starting at {@code from} (inclusive) without moving
   * any reader ({@code sysadmin dump_queue}).
   */
  List<QueueMessage> dump(QueuePosition from, int maxMessages);

  /** Like {@link #dump(QueuePosition, int)} from the oldest message held. */
  List<QueueMessage> dumpFromStart(int maxMessages);

  /**
   * Deletes every message written before this call and frees its segments ({@code sysadmin
   * sqm_purge_queue}); readers continue with what is written after. Data loss by design.
   */
  CompletableFuture<Void> purge();

  /** Sizes, backlog and readers for the admin commands. */
  QueueInfo info();

  /** Stops accepting writes, finishes accepted ones, stops the writer and closes files. */
  @Override
  void close();
}
