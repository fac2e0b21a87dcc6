package io.openrs.queue;

/** Base of the stable queue's exceptions; always names the queue. */
public class QueueException extends RuntimeException {

  private final QueueId queue;

  public QueueException(QueueId queue, String message, Throwable cause) {
    super("queue " + queue + ": " + message, cause);
    this.queue = queue;
  }

  /** The queue concerned. */
  public QueueId queue() {
    return queue;
  }
}
