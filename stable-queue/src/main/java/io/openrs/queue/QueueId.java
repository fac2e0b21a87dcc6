package io.openrs.queue;

import java.util.Objects;

/**
 * Identity of a queue as Replication Server spells it: {@code <q_number>:<q_type>}, e.g. {@code
 * 101:1} for the inbound queue of connection 101. {@link #toString()} and {@link #parse(String)}
 * are the one textual form used by logs, errors, counters and admin commands.
 *
 * @param number the connection (database) id or route site id; {@code 0..Integer.MAX_VALUE}
 * @param type inbound or outbound
 */
public record QueueId(int number, QueueType type) implements Comparable<QueueId> {

  public QueueId {
    if (number < 0) {
      throw new IllegalArgumentException("queue number must be >= 0, got " + number);
    }
    Objects.requireNonNull(type, "type");
  }

  /** The inbound queue of a connection. */
  public static QueueId inbound(int number) {
    return new QueueId(number, QueueType.INBOUND);
  }

  /** The outbound queue of a connection. */
  public static QueueId outbound(int number) {
    return new QueueId(number, QueueType.OUTBOUND);
  }

  /** Parses {@code "101:1"}. */
  public static QueueId parse(String text) {
    int colon = text.indexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new IllegalArgumentException(
          "queue id must look like <number>:<0|1>, got '" + text + "'");
    }
    try {
      return new QueueId(
          Integer.parseInt(text.substring(0, colon)),
          QueueType.ofCode(Integer.parseInt(text.substring(colon + 1))));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "queue id must look like <number>:<0|1>, got '" + text + "'", e);
    }
  }

  @Override
  public int compareTo(QueueId o) {
    int c = Integer.compare(number, o.number);
    return c != 0 ? c : Integer.compare(type.code(), o.type.code());
  }

  @Override
  public String toString() {
    return number + ":" + type.code();
  }
}
