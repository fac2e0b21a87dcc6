package io.openrs.queue.kafka;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.queue.QueueException;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueInfo;
import io.openrs.queue.QueueManager;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.StableQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka engine's {@link QueueManager}: creates, opens and drops queues held in topics of one
 * cluster, and lists them with their backlog. Partitions and space warnings, which the file engine
 * has beside the interface, have no Kafka counterpart (the cluster's disks are the brokers'
 * business).
 *
 * <p>A queue's topic is created with one partition, the configured replication factor and {@code
 * min.insync.replicas}, no time or size retention ({@code retention.ms=-1}, {@code
 * retention.bytes=-1}: only the engine deletes, behind its readers), no unclean leader election,
 * and {@code max.message.bytes} large enough for {@code sqm_max_message_size}.
 *
 * <p>Thread-safe.
 */
public final class KafkaQueueManager implements QueueManager {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaQueueManager.class);

  private final KafkaEngineConfig config;
  private final KafkaNames names;
  private final KafkaClientProperties clients;
  private final Admin admin;
  private final MeterRegistry registry;
  private final Map<QueueId, KafkaStableQueue> open = new ConcurrentHashMap<>();

  private KafkaQueueManager(KafkaEngineConfig config, Admin admin, MeterRegistry registry) {
    this.config = config;
    this.registry = registry;
    this.names = new KafkaNames(config.serverName());
    this.clients = new KafkaClientProperties(config);
    this.admin = admin;
  }

  /**
   * Checks the client properties (a value that would weaken the durability rule is refused, naming
   * it, before any connection), then connects to the cluster (checked within the operation
   * timeout).
   *
   * @throws KafkaClusterUnreachableException when the cluster does not answer within the operation
   *     timeout
   */
  public static KafkaQueueManager open(KafkaEngineConfig config) {
    return open(config, new SimpleMeterRegistry());
  }

  /**
   * As {@link #open(KafkaEngineConfig)}, each queue registering its counters in {@code registry}
   * ({@link KafkaQueueMeters}: the file engine's names, with the meanings this engine gives them).
   */
  public static KafkaQueueManager open(KafkaEngineConfig config, MeterRegistry registry) {
    KafkaClientProperties clients = new KafkaClientProperties(config);
    clients.producer("openrs-" + config.serverName() + "-check", 0);
    clients.consumer("openrs-" + config.serverName() + "-check");
    Admin admin = Admin.create(clients.admin("openrs-" + config.serverName() + "-admin"));
    KafkaQueueManager m = new KafkaQueueManager(config, admin, registry);
    try {
      String clusterId;
      try {
        clusterId = m.await("reach the cluster", admin.describeCluster().clusterId());
      } catch (KafkaEngineException e) {
        if (e.getCause() instanceof TimeoutException
            || e.getCause() instanceof org.apache.kafka.common.errors.RetriableException) {
          throw new KafkaClusterUnreachableException(e.getMessage(), e.getCause());
        }
        throw e;
      }
      LOG.info(
          "Kafka engine of server {}: cluster {} at {}",
          config.serverName(),
          clusterId,
          config.bootstrapServers());
    } catch (RuntimeException e) {
      admin.close(config.operationTimeout());
      throw e;
    }
    return m;
  }

  @Override
  public Map<QueueId, Duration> acknowledgementWaits() {
    Map<QueueId, Duration> waits = new java.util.TreeMap<>();
    for (KafkaStableQueue q : open.values()) {
      Duration w = q.acknowledgementWait();
      if (!w.isZero()) {
        waits.put(q.id(), w);
      }
    }
    return waits;
  }

  /** The configuration. */
  public KafkaEngineConfig config() {
    return config;
  }

  /** The topic that holds (or would hold) a queue. */
  public String topicName(QueueId id) {
    return names.topic(id);
  }

  /** The consumer group that holds a reader's position. */
  public String readerGroupName(QueueId id, String reader) {
    return names.readerGroup(id, reader);
  }

  /** Creates a queue's topic and opens the queue; fails if the topic exists. */
  public StableQueue createQueue(QueueId id, QueueSettings settings) {
    String topic = names.topic(id);
    NewTopic t =
        new NewTopic(topic, Optional.of(1), Optional.of(config.replicationFactor()))
            .configs(
                Map.of(
                    TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG,
                    Integer.toString(config.minInsyncReplicas()),
                    TopicConfig.RETENTION_MS_CONFIG,
                    "-1",
                    TopicConfig.RETENTION_BYTES_CONFIG,
                    "-1",
                    TopicConfig.CLEANUP_POLICY_CONFIG,
                    TopicConfig.CLEANUP_POLICY_DELETE,
                    TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG,
                    "false",
                    TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                    Integer.toString(
                        settings.maxMessageBytes() + KafkaClientProperties.RECORD_OVERHEAD_BYTES)));
    try {
      await("create topic " + topic, admin.createTopics(List.of(t)).all());
    } catch (KafkaEngineException e) {
      if (e.getCause() instanceof TopicExistsException) {
        throw new IllegalStateException("queue " + id + " exists (topic " + topic + ")", e);
      }
      throw e;
    }
    LOG.info(
        "queue {}: created topic {} (replication factor {}, min.insync.replicas {})",
        id,
        topic,
        config.replicationFactor(),
        config.minInsyncReplicas());
    return register(id, settings);
  }

  /** Opens an existing queue: finds its topic's offsets and its readers. */
  public StableQueue openQueue(QueueId id, QueueSettings settings) {
    String topic = names.topic(id);
    TopicDescription d;
    try {
      d =
          await("describe topic " + topic, admin.describeTopics(List.of(topic)).allTopicNames())
              .get(topic);
    } catch (KafkaEngineException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        throw new IllegalArgumentException(
            "queue " + id + " does not exist (no topic " + topic + ")", e);
      }
      throw e;
    }
    if (d.partitions().size() != 1) {
      throw new QueueException(
          id,
          "topic " + topic + " has " + d.partitions().size() + " partitions; a queue has one",
          null);
    }
    return register(id, settings);
  }

  /** Opens the queue if its topic exists, else creates it. */
  @Override
  public StableQueue openOrCreateQueue(QueueId id, QueueSettings settings) {
    return queueIds().contains(id) ? openQueue(id, settings) : createQueue(id, settings);
  }

  private StableQueue register(QueueId id, QueueSettings settings) {
    if (open.containsKey(id)) {
      throw new IllegalStateException("queue " + id + " is already open");
    }
    KafkaStableQueue q =
        KafkaStableQueue.open(
            id,
            settings,
            new QueueTopic(id, names, admin, config.operationTimeout()),
            clients,
            config.operationTimeout(),
            closed -> open.remove(closed.id(), closed),
            registry);
    if (open.putIfAbsent(id, q) != null) {
      q.close();
      throw new IllegalStateException("queue " + id + " is already open");
    }
    return q;
  }

  /** The open queue, if any. */
  @Override
  public Optional<StableQueue> queue(QueueId id) {
    return Optional.ofNullable(open.get(id));
  }

  /** Every queue of this server that exists in the cluster (has a topic), open or not. */
  @Override
  public Set<QueueId> queueIds() {
    Set<QueueId> ids = new TreeSet<>();
    for (String topic : await("list topics", admin.listTopics().names())) {
      names.queueOf(topic).ifPresent(ids::add);
    }
    return ids;
  }

  /** {@code admin who, sqm} for every open queue. */
  @Override
  public List<QueueInfo> queueInfos() {
    return open.values().stream()
        .map(KafkaStableQueue::info)
        .sorted((a, b) -> a.queue().compareTo(b.queue()))
        .toList();
  }

  /** Drops a queue and all its data: closes it if open, deletes its readers' groups and topic. */
  @Override
  public void dropQueue(QueueId id) {
    KafkaStableQueue q = open.get(id);
    if (q != null) {
      q.close();
    }
    if (!queueIds().contains(id)) {
      throw new IllegalArgumentException("queue " + id + " does not exist");
    }
    QueueTopic topic = new QueueTopic(id, names, admin, config.operationTimeout());
    for (String reader : topic.readerMarks().keySet()) {
      topic.deleteReader(reader);
    }
    await("delete topic " + topic.name(), admin.deleteTopics(List.of(topic.name())).all());
    LOG.info("dropped queue {} (topic {})", id, topic.name());
  }

  private <T> T await(String action, KafkaFuture<T> future) {
    try {
      return future.get(config.operationTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KafkaEngineException("Kafka engine: interrupted while waiting to " + action, e);
    } catch (ExecutionException e) {
      throw new KafkaEngineException(
          "Kafka engine: cannot "
              + action
              + " at "
              + config.bootstrapServers()
              + ": "
              + e.getCause(),
          e.getCause());
    } catch (TimeoutException e) {
      throw new KafkaEngineException(
          "Kafka engine: cannot "
              + action
              + " at "
              + config.bootstrapServers()
              + " within "
              + config.operationTimeout(),
          e);
    }
  }

  /**
   * Closes every open queue, then the admin client without waiting for a deletion still under way
   * (the next open of the queue deletes again what its readers no longer need).
   */
  @Override
  public void close() {
    for (KafkaStableQueue q : new ArrayList<>(open.values())) {
      q.close();
    }
    admin.close(Duration.ZERO);
  }
}
