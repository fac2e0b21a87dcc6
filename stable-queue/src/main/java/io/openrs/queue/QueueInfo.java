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
    List<ReaderInfo> readers) {

  public QueueInfo {
    readers = List.copyOf(readers);
  }
}
