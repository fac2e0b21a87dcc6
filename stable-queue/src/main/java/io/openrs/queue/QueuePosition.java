package io.openrs.queue;

import java.util.Comparator;

/**
 * Where a message starts in a queue, Replication Server's local queue id {@code seg.blk.row}: the
 * segment, the block inside that segment, and the row (the message's ordinal among the messages
 * that start in that block). Positions of one queue strictly increase in write order and are never
 * reused, not even after a purge.
 *
 * <p>{@link #toString()} and {@link #parse(String)} are the one textual form ({@code "12.3.7"})
 * used by logs, errors, the dump tool and admin commands.
 *
 * @param segment segment number, {@code >= 0}
 * @param block block index inside the segment, {@code >= 0}
 * @param row message ordinal inside the block, {@code >= 0}
 */
public record QueuePosition(long segment, int block, int row) implements Comparable<QueuePosition> {

  private static final Comparator<QueuePosition> ORDER =
      Comparator.comparingLong(QueuePosition::segment)
          .thenComparingInt(QueuePosition::block)
          .thenComparingInt(QueuePosition::row);

  public QueuePosition {
    if (segment < 0 || block < 0 || row < 0) {
      throw new IllegalArgumentException(
          "position parts must be >= 0, got " + segment + "." + block + "." + row);
    }
  }

  /** Parses {@code "seg.blk.row"}. */
  public static QueuePosition parse(String text) {
    String[] parts = text.split("\\.", -1);
    if (parts.length != 3) {
      throw new IllegalArgumentException(
          "queue position must look like <segment>.<block>.<row>, got '" + text + "'");
    }
    try {
      return new QueuePosition(
          Long.parseLong(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "queue position must look like <segment>.<block>.<row>, got '" + text + "'", e);
    }
  }

  @Override
  public int compareTo(QueuePosition o) {
    return ORDER.compare(this, o);
  }

  /** True if this position comes strictly after {@code other}. */
  public boolean isAfter(QueuePosition other) {
    return compareTo(other) > 0;
  }

  @Override
  public String toString() {
    return segment + "." + block + "." + row;
  }
}
