package io.openrs.queue.file;

import io.openrs.queue.QueuePosition;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** What producers and admin calls hand to the writer thread, in order. */
sealed interface WriteTask {

  /**
   * Messages to append as one request.
   *
   * @param messages the messages, in order
   * @param bytes what the request counts against {@code exec_sqm_write_request_limit}: each message
   *     plus its record length field
   * @param future completed with the last message's position once durable
   */
  record Append(List<byte[]> messages, long bytes, CompletableFuture<QueuePosition> future)
      implements WriteTask {}

  /** Purge everything written before this task. */
  record Purge(CompletableFuture<Void> future) implements WriteTask {}
}
