package io.openrs.queue.file;

import io.openrs.queue.QueueId;
import java.nio.file.Path;
import java.util.Map;

/**
 * A partition as {@code admin disk_space} / {@code rs_helppartition} show it.
 *
 * @param name logical name
 * @param directory its directory
 * @param limitBytes space limit
 * @param usedBytes space held by segments
 * @param dropPending true after {@code drop partition}: no new segments, removed once empty
 * @param bytesByQueue space held per queue
 */
public record PartitionInfo(
    String name,
    Path directory,
    long limitBytes,
    long usedBytes,
    boolean dropPending,
    Map<QueueId, Long> bytesByQueue) {

  public PartitionInfo {
    bytesByQueue = Map.copyOf(bytesByQueue);
  }
}
