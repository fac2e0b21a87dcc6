package io.openrs.queue.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How the Kafka engine reaches its cluster and creates its topics.
 *
 * @param serverName the replication server's name; part of every topic and consumer group name
 *     (letters, digits, {@code _} and {@code -}, 1..64 characters), so several servers can share a
 *     cluster
 * @param bootstrapServers Kafka's {@code bootstrap.servers}, e.g. {@code "k1:9092,k2:9092"}
 * @param replicationFactor replicas of every queue topic created (existing topics keep theirs)
 * @param minInsyncReplicas the topic's {@code min.insync.replicas}: a write is acknowledged only
 *     once that many replicas hold it, 1..{@code replicationFactor}
 * @param clientProperties any Kafka client property, passed through: a plain key goes to the
 *     producer, the consumers and the admin client; a key prefixed {@code producer.}, {@code
 *     consumer.} or {@code admin.} goes to that client only, without the prefix. The properties the
 *     durability rule rests on cannot be weakened ({@link KafkaClientProperties})
 * @param operationTimeout the bound on every blocking call to the cluster (admin operations, a
 *     dump's fetch, a flush on close)
 */
public record KafkaEngineConfig(
    String serverName,
    String bootstrapServers,
    short replicationFactor,
    int minInsyncReplicas,
    Map<String, String> clientProperties,
    Duration operationTimeout) {

  private static final Pattern SERVER_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  public KafkaEngineConfig {
    Objects.requireNonNull(serverName, "serverName");
    if (!SERVER_NAME.matcher(serverName).matches()) {
      throw new IllegalArgumentException(
          "Kafka engine: server name must be 1..64 letters, digits, '_' or '-', got '"
              + serverName
              + "'");
    }
    if (bootstrapServers == null || bootstrapServers.isBlank()) {
      throw new IllegalArgumentException("Kafka engine: bootstrap.servers is empty");
    }
    if (replicationFactor < 1) {
      throw new IllegalArgumentException(
          "Kafka engine: replication factor must be >= 1, got " + replicationFactor);
    }
    if (minInsyncReplicas < 1 || minInsyncReplicas > replicationFactor) {
      throw new IllegalArgumentException(
          "Kafka engine: min.insync.replicas must be 1.."
              + replicationFactor
              + " (the replication factor), got "
              + minInsyncReplicas);
    }
    clientProperties = Map.copyOf(clientProperties);
    if (operationTimeout.isNegative() || operationTimeout.isZero()) {
      throw new IllegalArgumentException(
          "Kafka engine: operation timeout must be positive, got " + operationTimeout);
    }
  }

  /** Names the client properties without their values, which may hold secrets. */
  @Override
  public String toString() {
    return "KafkaEngineConfig[serverName="
        + serverName
        + ", bootstrapServers="
        + bootstrapServers
        + ", replicationFactor="
        + replicationFactor
        + ", minInsyncReplicas="
        + minInsyncReplicas
        + ", clientProperties="
        + new java.util.TreeSet<>(clientProperties.keySet())
        + ", operationTimeout="
        + operationTimeout
        + "]";
  }

  /** One broker, no replication, 30 s timeouts: for development and tests. */
  public static KafkaEngineConfig singleBroker(String serverName, String bootstrapServers) {
    return new KafkaEngineConfig(
        serverName, bootstrapServers, (short) 1, 1, Map.of(), Duration.ofSeconds(30));
  }

  /** The same with other client properties. */
  public KafkaEngineConfig withClientProperties(Map<String, String> properties) {
    return new KafkaEngineConfig(
        serverName,
        bootstrapServers,
        replicationFactor,
        minInsyncReplicas,
        properties,
        operationTimeout);
  }
}
