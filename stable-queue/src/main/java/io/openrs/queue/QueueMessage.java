package io.openrs.queue;

import java.util.Objects;

/**
 * One message read from a queue: its position and its bytes. The array is the reader's own copy;
 * the queue keeps no reference to it.
 *
 * @param position where the message starts
 * @param payload the opaque message bytes
 */
public record QueueMessage(QueuePosition position, byte[] payload) {

  public QueueMessage {
    Objects.requireNonNull(position, "position");
    Objects.requireNonNull(payload, "payload");
  }

  @Override
  public String toString() {
    return "QueueMessage[" + position + ", " + payload.length + " bytes]";
  }
}
