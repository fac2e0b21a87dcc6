package io.openrs.queue;

import java.time.Duration;
import java.util.Optional;

/**
 * A named reader of one queue (Replication Server's SQMR). It reads messages in order from its own
 * position, served from the queue's cache of recent blocks or from disk, and confirms what it has
 * fully processed; the queue frees a segment once every reader has confirmed past it.
 *
 * <p>Not thread-safe: owned by the thread that first reads from it (asserted with {@code -ea}).
 *
 * <p>After a restart a reader resumes after its last <em>persisted</em> confirmation. Confirmations
 * are persisted when they move into a new segment, when segments are freed and on close, so a
 * reader may see again messages it confirmed shortly before a crash: consumers must be idempotent
 * (the DSI is, through {@code rs_lastcommit}).
 */
public interface QueueReader extends AutoCloseable {

  /** The reader's name. */
  String name();

  /**
   * The next message if one is durable, without waiting.
   *
   * @throws QueueCorruptedException if the next block is damaged; never returns corrupt data
   */
  Optional<QueueMessage> poll();

  /**
   * The next message, waiting up to {@code timeout} for the writer to make one durable (the writer
   * signals; nothing polls).
   */
  Optional<QueueMessage> poll(Duration timeout) throws InterruptedException;

  /**
   * Marks every message up to and including {@code position} as processed. Positions at or before
   * the current confirmation are ignored.
   */
  void confirm(QueuePosition position);

  /** The last confirmed position, if any. */
  Optional<QueuePosition> confirmed();

  /** Releases the reader's files; its confirmed position stays with the queue. */
  @Override
  void close();
}
