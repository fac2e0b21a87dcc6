package io.openrs.queue;

/**
 * The queue is closed (or stopped by a fatal error, which is then the cause). Thrown by calls made
 * after close, and used to complete writes that were accepted but could not be made durable.
 */
public final class QueueClosedException extends QueueException {

  private final QueueState state;

  public QueueClosedException(QueueId queue, QueueState state, Throwable cause) {
    super(queue, "queue is closed (state " + state + ")", cause);
    this.state = state;
  }

  /** The state the queue was in. */
  public QueueState state() {
    return state;
  }
}
