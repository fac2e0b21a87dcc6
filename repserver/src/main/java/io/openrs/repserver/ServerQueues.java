package io.openrs.repserver;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.openrs.config.param.ParameterValues;
import io.openrs.queue.QueueInfo;
import io.openrs.queue.QueueManager;
import io.openrs.queue.file.FileQueueManager;
import io.openrs.queue.file.PartitionInfo;
import io.openrs.queue.file.PartitionSpec;
import io.openrs.queue.kafka.KafkaEngineConfig;
import io.openrs.queue.kafka.KafkaQueueManager;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The server's stable queues on the engine its start-up file chooses ({@code queue_engine}): the
 * {@link QueueManager} the server uses for every queue, and the file engine's own features
 * (partitions, space warnings), which exist only with {@code queue_engine = file}.
 *
 * <p>With {@code kafka} the queues are topics of the cluster at {@code kafka_bootstrap_servers},
 * named after {@code rs_name}; the server does not start when it cannot reach the cluster within
 * {@code kafka_operation_timeout_ms} and says which cluster it tried.
 */
final class ServerQueues implements AutoCloseable {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ServerQueues.class);

  private final QueueManager manager;
  private final Optional<FileQueueManager> files;

  private ServerQueues(QueueManager manager, Optional<FileQueueManager> files) {
    this.manager = manager;
    this.files = files;
  }

  /**
   * Opens the queue manager of {@code queue_engine}; {@code effective} are the parameters with the
   * RSSD's values (the partitions must hold a segment of the effective {@code sqm_segment_size}).
   */
  static ServerQueues open(
      ServerSettings settings,
      ParameterValues effective,
      MeterRegistry registry,
      Optional<java.util.function.BooleanSupplier> leaseHeld)
      throws IOException {
    ServerQueues q = open(settings, effective, registry);
    return leaseHeld.isEmpty()
        ? q
        : new ServerQueues(new LeaseGuardedQueues(q.manager, leaseHeld.get()), q.files);
  }

  private static ServerQueues open(
      ServerSettings settings, ParameterValues effective, MeterRegistry registry)
      throws IOException {
    if (isKafka(settings)) {
      KafkaEngineConfig config = kafkaConfig(settings);
      try {
        return new ServerQueues(openKafka(settings, config, registry), Optional.empty());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "queue_engine = kafka: a kafka.<property> line: " + e.getMessage(), e);
      } catch (RuntimeException e) {
        throw new IllegalStateException(
            "queue_engine = kafka: cannot open the stable queues in the Kafka cluster at "
                + config.bootstrapServers()
                + " (kafka_bootstrap_servers): "
                + e.getMessage(),
            e);
      }
    }
    for (PartitionSpec partition : settings.partitions()) {
      partition.requireRoomForSegment(effective.getLong("sqm_segment_size"));
    }
    FileQueueManager f =
        FileQueueManager.open(
            settings.directory().resolve("queues"), settings.partitions(), registry, Clock.SYSTEM);
    return new ServerQueues(f, Optional.of(f));
  }

  /**
   * Opens the Kafka engine. A server that runs alone ({@code server_lease_ms} 0) waits for a
   * cluster it cannot reach, saying so once and again once it is reached; one of a standby pair
   * fails the start instead, which frees the lease for a server that can reach the cluster.
   */
  private static KafkaQueueManager openKafka(
      ServerSettings settings, KafkaEngineConfig config, MeterRegistry registry)
      throws java.io.InterruptedIOException {
    boolean alone = settings.parameters().getInt("server_lease_ms") == 0;
    long waitingSince = 0;
    while (true) {
      try {
        KafkaQueueManager m = KafkaQueueManager.open(config, registry);
        if (waitingSince != 0) {
          LOG.info(
              "queue_engine = kafka: reached the cluster at {} after {} s; the server starts",
              config.bootstrapServers(),
              (System.nanoTime() - waitingSince) / 1_000_000_000L);
        }
        return m;
      } catch (io.openrs.queue.kafka.KafkaClusterUnreachableException e) {
        if (!alone) {
          throw e;
        }
        if (waitingSince == 0) {
          waitingSince = System.nanoTime();
          LOG.warn(
              "queue_engine = kafka: cannot reach the Kafka cluster at {} (kafka_bootstrap_servers)"
                  + " within kafka_operation_timeout_ms: {}; the server waits for it and tries"
                  + " again (a server of a standby pair, server_lease_ms > 0, fails the start"
                  + " instead)",
              config.bootstrapServers(),
              e.getMessage());
        }
        try {
          Thread.sleep(1000); // each attempt itself waits kafka_operation_timeout_ms
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException(
              "interrupted while waiting for the Kafka cluster");
        }
      }
    }
  }

  static boolean isKafka(ServerSettings settings) {
    return settings.parameters().getString("queue_engine").equals("kafka");
  }

  /** The Kafka engine's configuration from the start-up file; names what is missing or wrong. */
  static KafkaEngineConfig kafkaConfig(ServerSettings settings) {
    ParameterValues p = settings.parameters();
    String bootstrap = p.getString("kafka_bootstrap_servers");
    if (bootstrap.isBlank()) {
      throw new IllegalArgumentException(
          "queue_engine = kafka needs kafka_bootstrap_servers (the Kafka cluster's"
              + " bootstrap.servers, e.g. k1:9092,k2:9092)");
    }
    try {
      return new KafkaEngineConfig(
          settings.name(),
          bootstrap,
          (short) p.getInt("kafka_replication_factor"),
          p.getInt("kafka_min_insync_replicas"),
          settings.kafkaClientProperties(),
          Duration.ofMillis(p.getInt("kafka_operation_timeout_ms")));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "queue_engine = kafka (rs_name, kafka_replication_factor, kafka_min_insync_replicas): "
              + e.getMessage(),
          e);
    }
  }

  /** The queue manager of the engine in use. */
  QueueManager manager() {
    return manager;
  }

  /** The file engine's partitions; none with Kafka (the brokers hold the data). */
  List<PartitionInfo> partitions() {
    return files.map(FileQueueManager::partitions).orElse(List.of());
  }

  /** Queues whose ongoing wait for an acknowledgement was logged (rssd writer thread only). */
  private final java.util.Set<io.openrs.queue.QueueId> waitsLogged = new java.util.HashSet<>();

  /**
   * Logs once, at WARN, each queue whose oldest write has waited {@link
   * QueueInfo#LONG_ACKNOWLEDGEMENT_WAIT} for the cluster (the engine logs when acknowledgements
   * come again); called every few seconds.
   */
  void logAcknowledgementWaits() {
    java.util.Map<io.openrs.queue.QueueId, Duration> waits = manager.acknowledgementWaits();
    waitsLogged.removeIf(
        id ->
            waits.getOrDefault(id, Duration.ZERO).compareTo(QueueInfo.LONG_ACKNOWLEDGEMENT_WAIT)
                < 0);
    waits.forEach(
        (id, wait) -> {
          if (wait.compareTo(QueueInfo.LONG_ACKNOWLEDGEMENT_WAIT) >= 0 && waitsLogged.add(id)) {
            LOG.warn(
                "queue {}: Kafka has not acknowledged a write for {} s; the queue's writes wait"
                    + " while the producer retries; is the cluster short of in-sync replicas or"
                    + " unreachable? (admin who, sqm)",
                id,
                wait.toSeconds());
          }
        });
  }

  /** Hands the stable storage warning thresholds to the file engine; Kafka has none. */
  void setSpaceWarnings(int thr1, int thr2, int thrInd) {
    files.ifPresent(f -> f.setSpaceWarnings(thr1, thr2, thrInd));
  }

  @Override
  public void close() {
    manager.close();
  }
}
