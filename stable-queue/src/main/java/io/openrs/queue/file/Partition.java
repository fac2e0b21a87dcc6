package io.openrs.queue.file;

import io.openrs.queue.QueueId;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Space accounting of one partition. Not thread-safe: guarded by the {@link FileQueueManager}'s
 * space lock.
 */
final class Partition {

  private final PartitionSpec spec;
  private final Map<QueueId, Long> bytesByQueue = new HashMap<>();
  private long usedBytes;
  private boolean dropPending;

  Partition(PartitionSpec spec) {
    this.spec = spec;
  }

  String name() {
    return spec.name();
  }

  PartitionSpec spec() {
    return spec;
  }

  Path directory() {
    return spec.directory();
  }

  boolean dropPending() {
    return dropPending;
  }

  void markDropPending() {
    dropPending = true;
  }

  boolean fits(long bytes) {
    return !dropPending && usedBytes + bytes <= spec.limitBytes();
  }

  void add(QueueId queue, long bytes) {
    usedBytes += bytes;
    long left = bytesByQueue.merge(queue, bytes, Long::sum);
    if (left == 0) {
      bytesByQueue.remove(queue);
    }
  }

  /** Replaces what {@code queue} holds here (recount at open; idempotent). */
  void set(QueueId queue, long bytes) {
    usedBytes -= bytesByQueue.getOrDefault(queue, 0L);
    if (bytes == 0) {
      bytesByQueue.remove(queue);
    } else {
      bytesByQueue.put(queue, bytes);
    }
    usedBytes += bytes;
  }

  long usedBytes() {
    return usedBytes;
  }

  long limitBytes() {
    return spec.limitBytes();
  }

  /** Whole segments of {@code segmentBytes} still free here (none once a drop is pending). */
  long freeSegments(long segmentBytes) {
    return dropPending ? 0 : Math.max(0, spec.limitBytes() - usedBytes) / segmentBytes;
  }

  /** What {@code queue} holds here. */
  long bytesOf(QueueId queue) {
    return bytesByQueue.getOrDefault(queue, 0L);
  }

  java.util.Set<QueueId> queues() {
    return bytesByQueue.keySet();
  }

  PartitionInfo info() {
    return new PartitionInfo(
        spec.name(), spec.directory(), spec.limitBytes(), usedBytes, dropPending, bytesByQueue);
  }

  @Override
  public String toString() {
    return spec.name() + " (" + spec.directory() + ", " + usedBytes + "/" + spec.limitBytes() + ")";
  }
}
