package io.openrs.repserver;

import io.openrs.config.param.ParameterValues;
import io.openrs.config.rssd.RssdSettings;
import io.openrs.queue.file.PartitionSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a server starts with: the server-scope parameter values (from the configuration file, over
 * the catalog's defaults; values saved in the RSSD by admin commands are layered on top at start),
 * where its files live, its partitions, its RSSD, and the first administrator's password.
 *
 * @param name the server's name ({@code rs_name})
 * @param directory the server's directory (queue state, embedded RSSD, lock file)
 * @param parameters server-scope parameter values
 * @param partitions stable queue partitions, in allocation order
 * @param rssd where the RSSD is
 * @param initialAdminPassword the password of user {@code sa} when the RSSD has no user yet
 * @param kafkaClientProperties Kafka client properties ({@code kafka.<property>} lines) for {@code
 *     queue_engine = kafka}; their values may be secrets and are never shown
 */
public record ServerSettings(
    String name,
    Path directory,
    ParameterValues parameters,
    List<PartitionSpec> partitions,
    RssdSettings rssd,
    Optional<char[]> initialAdminPassword,
    Map<String, String> kafkaClientProperties) {

  /** Settings without Kafka client properties. */
  public ServerSettings(
      String name,
      Path directory,
      ParameterValues parameters,
      List<PartitionSpec> partitions,
      RssdSettings rssd,
      Optional<char[]> initialAdminPassword) {
    this(name, directory, parameters, partitions, rssd, initialAdminPassword, Map.of());
  }

  public ServerSettings {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(parameters, "parameters");
    partitions = List.copyOf(partitions);
    if (partitions.isEmpty()) {
      throw new IllegalArgumentException("a server needs at least one partition");
    }
    Objects.requireNonNull(rssd, "rssd");
    kafkaClientProperties = Map.copyOf(kafkaClientProperties);
  }

  @Override
  public String toString() {
    return "ServerSettings[name="
        + name
        + ", directory="
        + directory
        + ", partitions="
        + partitions
        + ", rssd="
        + rssd
        + ", initialAdminPassword="
        + (initialAdminPassword.isPresent() ? "(set)" : "(none)")
        + ", kafkaClientProperties="
        + new java.util.TreeSet<>(kafkaClientProperties.keySet())
        + "]";
  }
}
