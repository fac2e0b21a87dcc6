package io.openrs.queue;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A persistent queue of opaque messages: producers append, named readers read in order and confirm
 * what they have processed, space is freed behind the slowest reader.
 *
 * <p>Thread-safe: any number of threads may append. Each {@link QueueReader} belongs to one thread.
 *
 * <p>Durability: the future returned by {@link #append} completes once the message is durable under
 * the queue's {@link WriteFlush} policy, and only then can a reader see it. Futures complete on one
 * of the queue's write-path threads; keep dependent actions short and never block in them (a
 * blocking {@code append} there can deadlock the queue), or use the {@code *Async} variants.
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
   * The random-access read: up to {@code maxMessages} durable messages in order, the first at
   * {@code from} (or the first after it if no message starts exactly there), without moving any
   * reader. The transaction sorter uses it to re-read transactions it removed from its cache, and
   * {@code sysadmin dump_queue} to show a range. Blocks still in the queue's cache ({@code
   * sqm_cache_size}) are served from memory, older ones from the segment files (every block read
   * from disk is checked).
   *
   * <p>If {@code from} lies in a segment already freed (every reader confirmed past it, or a
   * purge), reading starts at the oldest message held: a caller that needs exactly {@code from}
   * checks the first position returned. Returns fewer than {@code maxMessages} (possibly none) at
   * the end of the durable data.
   *
   * @throws QueueCorruptedException if a block on the way is damaged
   * @throws QueueClosedException if the queue is not running
   */
  List<QueueMessage> dump(QueuePosition from, int maxMessages);

  /**
   * The last durable message of the queue, read from its tail block(s) (a message spanning blocks
   * is returned whole; one left unfinished by a crash does not count). Correct after a restart:
   * recovery finds it. Empty if the queue holds no message: never written, or nothing written since
   * a purge. The server reads it at start-up to learn the last origin position written to an
   * inbound queue.
   *
   * <p>The segment holding the last message is never freed by truncation, so this works even when
   * every reader has confirmed it.
   *
   * @throws QueueCorruptedException if the tail is damaged
   * @throws QueueClosedException if the queue is not running
   */
  Optional<QueueMessage> lastMessage();

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
