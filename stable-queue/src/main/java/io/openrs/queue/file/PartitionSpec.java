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
}
