package io.openrs.queue.kafka;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * Real Kafka brokers in the test JVM, KRaft mode: one controller node and {@code n} broker nodes
 * ({@code KafkaClusterTestKit}), listening on {@code localhost} (the loopback interface, 127.0.0.1)
 * at ephemeral ports, their logs in a temporary directory deleted on close. Nothing is installed or
 * started outside the JVM. Public for the repserver module's tests (this module's test-jar).
 */
public final class InProcessKafka implements AutoCloseable {

  private final KafkaClusterTestKit cluster;
  private final Path baseDir;

  private InProcessKafka(KafkaClusterTestKit cluster, Path baseDir) {
    this.cluster = cluster;
    this.baseDir = baseDir;
  }

  /**
   * Starts {@code brokers} brokers and one controller; topics default to what the queue engine asks
   * for (it always says replication factor and min.insync.replicas).
   */
  public static InProcessKafka start(int brokers) throws Exception {
    Path base = Files.createTempDirectory("openrs-kafka-");
    KafkaClusterTestKit cluster =
        new KafkaClusterTestKit.Builder(
                new TestKitNodes.Builder()
                    .setBaseDirectory(base)
                    .setCombined(false)
                    .setNumControllerNodes(1)
                    .setNumBrokerNodes(brokers)
                    .build())
            .setConfigProp("offsets.topic.replication.factor", String.valueOf(Math.min(3, brokers)))
            .setConfigProp("offsets.topic.num.partitions", "1")
            .setConfigProp("group.initial.rebalance.delay.ms", "0")
            .setConfigProp("auto.create.topics.enable", "false")
            .setConfigProp("log.flush.interval.messages", String.valueOf(Long.MAX_VALUE))
            .setDeleteOnClose(true)
            .build();
    try {
      cluster.format();
      cluster.startup();
      cluster.waitForReadyBrokers();
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
    return new InProcessKafka(cluster, base);
  }

  public String bootstrapServers() {
    return cluster.bootstrapServers();
  }

  KafkaClusterTestKit cluster() {
    return cluster;
  }

  /**
   * Shuts broker {@code brokerId} down (a controlled shutdown: the controller moves its partitions'
   * leadership at once), as a lost machine whose replicas the others take over.
   */
  public void stopBroker(int brokerId) {
    cluster.brokers().get(brokerId).shutdown();
  }

  /**
   * Starts broker {@code brokerId} again after {@link #stopBroker}, with its logs as it left them.
   */
  public void startBroker(int brokerId) {
    cluster.brokers().get(brokerId).startup();
  }

  /** The brokers' node ids. */
  public java.util.Set<Integer> brokerIds() {
    return java.util.Set.copyOf(cluster.brokers().keySet());
  }

  @Override
  public void close() throws Exception {
    try {
      cluster.close();
    } finally {
      if (Files.exists(baseDir)) {
        try (Stream<Path> files = Files.walk(baseDir)) {
          files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
    }
  }
}
