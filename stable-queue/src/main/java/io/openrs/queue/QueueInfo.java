package io.openrs.queue;

import java.util.List;
import java.util.Optional;

/**
 * A queue as {@code admin who, sqm} and {@code admin disk_space} show it.
 *
 * @param queue the queue
 * @param state lifecycle state
 * @param waitingForSegment true while the writer waits for a free segment (partition full)
 * @param segmentWait how long the ongoing wait for a segment has lasted so far (zero when not
 *     waiting)
 * @param firstSegment oldest segment still held
 * @param lastSegment segment being written
 * @param segmentsActive segments held (allocated, not yet freed)
 * @param allocatedBytes space reserved in partitions: {@code segmentsActive * segment size}
 * @param lastPosition position of the last durable message, if any was written since creation
 * @param backlogBytes bytes behind the slowest reader (everything held when there is no reader)
 * @param readers the readers
 * @param acknowledgementWait how long the oldest write not yet durable has waited (Kafka engine:
 *     for the cluster's acknowledgement, which a cluster that lost too many brokers cannot give
 *     until they are back); zero when none waits, and always zero with the file engine, whose
 *     writer waits only for its own disk
 */
public record QueueInfo(
    QueueId queue,
    QueueState state,
    boolean waitingForSegment,
    java.time.Duration segmentWait,
    long firstSegment,
    long lastSegment,
    long segmentsActive,
    long allocatedBytes,
    Optional<QueuePosition> lastPosition,
    long backlogBytes,
    List<ReaderInfo> readers,
    java.time.Duration acknowledgementWait) {

  /**
   * A write waiting this long to become durable is a long wait: the server shows it ({@code admin
   * who, sqm}, {@code admin health}) and logs it.
   */
  public static final java.time.Duration LONG_ACKNOWLEDGEMENT_WAIT =
      java.time.Duration.ofSeconds(5);

  public QueueInfo {
    readers = List.copyOf(readers);
  }

  /** Whether the oldest write not yet durable has waited {@link #LONG_ACKNOWLEDGEMENT_WAIT}. */
  public boolean waitsLongForAcknowledgement() {
    return acknowledgementWait.compareTo(LONG_ACKNOWLEDGEMENT_WAIT) >= 0;
  }
}
