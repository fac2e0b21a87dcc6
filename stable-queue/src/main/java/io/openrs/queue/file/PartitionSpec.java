package io.openrs.queue.file;

import io.openrs.queue.InvalidSettingException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A partition as {@code create partition} declares it: a directory holding segment files of many
 * queues, and the space the queues may use in it.
 *
 * @param name logical name, unique
 * @param directory where the segment files go (created if missing)
 * @param limitBytes space limit; at least 1 MiB
 */
public record PartitionSpec(String name, Path directory, long limitBytes) {

  public PartitionSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(directory, "directory");
    if (name.isBlank()) {
      throw new IllegalArgumentException("partition name must not be blank");
    }
    if (limitBytes < 1024 * 1024) {
      throw new InvalidSettingException(
          "partition size", limitBytes, "at least 1048576 bytes (partition " + name + ")", null);
    }
  }

  /**
   * Refuses this partition if it cannot hold one segment of {@code segmentBytes}: a writer would
   * never get a segment there, and a server whose partitions are all that small would accept
   * changes and wait forever on the first write.
   *
   * @throws InvalidSettingException naming the partition, its size and the segment size
   */
  public void requireRoomForSegment(long segmentBytes) {
    if (limitBytes < segmentBytes) {
      throw new InvalidSettingException(
          "partition size",
          limitBytes,
          "at least one segment of "
              + segmentBytes
              + " bytes (sqm_segment_size) in partition "
              + name
              + " ("
              + directory
              + "): a smaller partition never holds a segment, so its writers would wait forever;"
              + " make the partition larger or sqm_segment_size smaller",
          null);
    }
  }
}
