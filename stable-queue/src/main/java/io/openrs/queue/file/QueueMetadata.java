package io.openrs.queue.file;

import io.openrs.queue.QueueId;
import io.openrs.queue.QueuePosition;
import java.util.List;
import java.util.Optional;

/**
 * What a queue keeps besides its segments: its layout parameters, its first segment and its
 * readers' truncation points. The last segment and block are not kept: recovery finds them by
 * scanning.
 *
 * @param generation increases with every save; the copy with the highest valid generation wins
 * @param queue the queue
 * @param blockSizeBytes block size the segments were written with
 * @param segmentSizeBytes segment size the segments were written with
 * @param firstSegment oldest segment the queue still holds (or will write, if none exists)
 * @param readers every reader and its last persisted confirmation
 */
record QueueMetadata(
    long generation,
    QueueId queue,
    int blockSizeBytes,
    long segmentSizeBytes,
    long firstSegment,
    List<ReaderMark> readers) {

  QueueMetadata {
    readers = List.copyOf(readers);
  }

  /** A reader's name and truncation point. */
  record ReaderMark(String name, Optional<QueuePosition> confirmed) {}
}
