package io.openrs.queue;

/** Direction of a queue, numbered as Replication Server numbers {@code q_type}. */
public enum QueueType {
  /** Towards a replicate database (read by its DSI). {@code q_type} 0. */
  OUTBOUND(0),
  /** From a replication agent (read by the SQT / DIST). {@code q_type} 1. */
  INBOUND(1);

  private final int code;

  QueueType(int code) {
    this.code = code;
  }

  /** The number Replication Server uses: 0 outbound, 1 inbound. */
  public int code() {
    return code;
  }

  /** The type with this {@code q_type} number. */
  public static QueueType ofCode(int code) {
    return switch (code) {
      case 0 -> OUTBOUND;
      case 1 -> INBOUND;
      default ->
          throw new IllegalArgumentException(
              "queue type must be 0 (outbound) or 1 (inbound), got " + code);
    };
  }
}
