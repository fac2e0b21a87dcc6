package io.openrs.queue.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueInfo;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.ReaderInfo;
import io.openrs.queue.StableQueue;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the Kafka engine keeps in Kafka, checked with Kafka's own clients against a real in-process
 * KRaft broker: the topic and its configuration, records and their header, readers' committed
 * offsets, deletion behind the slowest reader, what a reopen finds, and the manager's queue list.
 */
class KafkaEngineIT {

  private static final AtomicInteger SERVERS = new AtomicInteger();
  private static final QueueId Q = QueueId.inbound(101);
  private static InProcessKafka kafka;
  private static Admin admin;

  private KafkaEngineConfig config;
  private KafkaQueueManager manager;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = InProcessKafka.start(1);
    admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()));
  }

  @AfterAll
  static void stopKafka() throws Exception {
    admin.close();
    kafka.close();
  }

  @BeforeEach
  void openManager() {
    config =
        KafkaEngineConfig.singleBroker(
            "engine" + SERVERS.incrementAndGet(), kafka.bootstrapServers());
    manager = KafkaQueueManager.open(config);
  }

  @AfterEach
  void closeManager() {
    manager.close();
  }

  @Test
  void aQueueIsOneTopicWithOnePartitionNoRetentionAndTheConfiguredReplication() throws Exception {
    StableQueue q = manager.createQueue(Q, QueueSettings.defaults());
    String topic = "openrs." + config.serverName() + ".queue.101-1";
    assertThat(manager.topicName(Q)).isEqualTo(topic);
    TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
    assertThat(d.partitions()).hasSize(1);
    assertThat(d.partitions().get(0).replicas()).hasSize(1);
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    Config c = admin.describeConfigs(List.of(resource)).all().get().get(resource);
    assertThat(c.get("retention.ms").value()).isEqualTo("-1");
    assertThat(c.get("retention.bytes").value()).isEqualTo("-1");
    assertThat(c.get("min.insync.replicas").value()).isEqualTo("1");
    assertThat(c.get("cleanup.policy").value()).isEqualTo("delete");
    assertThat(c.get("unclean.leader.election.enable").value()).isEqualTo("false");
    assertThat(Integer.parseInt(c.get("max.message.bytes").value()))
        .isGreaterThan(QueueSettings.DEFAULT_MAX_MESSAGE_BYTES);
    q.close();
  }

  @Test
  void eachMessageIsOneRecordAtItsPositionsOffsetWithItsByteOffsetHeader() throws Exception {
    StableQueue q = manager.createQueue(Q, QueueSettings.defaults());
    List<byte[]> sent = List.of(new byte[] {1}, new byte[] {2, 2}, new byte[3000]);
    List<QueuePosition> positions = new ArrayList<>();
    for (byte[] m : sent) {
      positions.add(q.append(m).get(30, TimeUnit.SECONDS));
    }
    assertThat(positions)
        .extracting(QueuePosition::toString)
        .containsExactly("0.0.0", "1.0.0", "2.0.0");

    List<ConsumerRecord<byte[], byte[]>> records = rawRecords(manager.topicName(Q), 3);
    assertThat(records).extracting(ConsumerRecord::offset).containsExactly(0L, 1L, 2L);
    assertThat(records).allSatisfy(r -> assertThat(r.key()).isNull());
    assertThat(records.get(2).value()).hasSize(3000);
    assertThat(records)
        .extracting(
            r -> ByteBuffer.wrap(r.headers().lastHeader("openrs.byte-offset").value()).getLong())
        .containsExactly(0L, 1L, 3L);
  }

  /**
   * A queue's counters carry the file engine's names and tags: what Kafka acknowledged (records,
   * bytes, send-to-acknowledgement time), the records held, each reader's records, fetches and
   * backlog after its confirmed position; they go when the reader and the queue close.
   */
  @Test
  void theQueuesCountersFollowWritesReadsAndConfirmations() throws Exception {
    MeterRegistry registry = new SimpleMeterRegistry();
    KafkaQueueManager metered = KafkaQueueManager.open(config, registry);
    try {
      StableQueue q = metered.createQueue(Q, QueueSettings.defaults());
      List<QueuePosition> positions = new ArrayList<>();
      for (byte[] m : List.of(new byte[10], new byte[20], new byte[30])) {
        positions.add(q.append(m).get(30, TimeUnit.SECONDS));
      }
      String instance = Q.toString();
      assertThat(registry.get("CmdsWritten").tag("instance", instance).functionCounter().count())
          .isEqualTo(3.0);
      assertThat(registry.get("BytesWritten").tag("instance", instance).functionCounter().count())
          .isEqualTo(60.0);
      assertThat(registry.get("SQMWriteTime").tag("instance", instance).functionTimer().count())
          .isEqualTo(3.0);
      assertThat(registry.get("SegsActive").tag("instance", instance).gauge().value())
          .isEqualTo(3.0);
      QueueReader r = q.openReader("dist");
      assertThat(
              registry
                  .get("SQMRBacklogSeg")
                  .tags("instance", instance, "reader", "dist")
                  .gauge()
                  .value())
          .isEqualTo(3.0);
      for (int i = 0; i < 3; i++) {
        assertThat(r.poll(Duration.ofSeconds(30))).isPresent();
      }
      assertThat(
              registry
                  .get("CmdsRead")
                  .tags("module", "SQMR", "reader", "dist")
                  .functionCounter()
                  .count())
          .isEqualTo(3.0);
      assertThat(
              registry
                  .get("SQMRReadTime")
                  .tags("instance", instance, "reader", "dist")
                  .functionTimer()
                  .count())
          .isPositive();
      r.confirm(positions.get(1));
      assertThat(
              registry
                  .get("SQMRBacklogSeg")
                  .tags("instance", instance, "reader", "dist")
                  .gauge()
                  .value())
          .isEqualTo(1.0);
      r.close();
      assertThat(registry.find("CmdsRead").tag("reader", "dist").meters()).isEmpty();
      q.close();
      assertThat(registry.find("CmdsWritten").meters()).isEmpty();
    } finally {
      metered.close();
    }
  }

  @Test
  void aReadersPositionIsTheCommittedOffsetOfItsOwnGroup() throws Exception {
    StableQueue q = manager.createQueue(Q, QueueSettings.defaults());
    for (int i = 0; i < 10; i++) {
      q.append(new byte[] {(byte) i}).get(30, TimeUnit.SECONDS);
    }
    String group = manager.readerGroupName(Q, "DSI");
    assertThat(group).isEqualTo(manager.topicName(Q) + ".reader.DSI");
    try (QueueReader r = q.openReader("DSI")) {
      assertThat(committed(group)).isEqualTo(new OffsetAndMetadata(0, ReaderMark.START));
      List<QueueMessage> got = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        got.add(r.poll(Duration.ofSeconds(10)).orElseThrow());
      }
      r.confirm(got.get(4).position());
    }
    assertThat(committed(group)).isEqualTo(new OffsetAndMetadata(5, ReaderMark.CONFIRMED));
    q.dropReader("DSI");
    assertThat(admin.listGroups().all().get()).noneMatch(g -> g.groupId().equals(group));
  }

  @Test
  void recordsAreDeletedBehindTheSlowestReaderButNeverTheLastOne() throws Exception {
    StableQueue q = manager.createQueue(Q, QueueSettings.defaults());
    QueueReader a = q.openReader("A");
    QueueReader b = q.openReader("B");
    List<QueuePosition> p = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      p.add(q.append(new byte[100]).get(30, TimeUnit.SECONDS));
    }
    TopicPartition tp = new TopicPartition(manager.topicName(Q), 0);
    a.confirm(p.get(15));
    b.confirm(p.get(7));
    awaitLogStart(tp, 7);
    b.confirm(p.get(19));
    awaitLogStart(tp, 15);
    a.confirm(p.get(19));
    awaitLogStart(tp, 19);
    assertThat(q.lastMessage().map(QueueMessage::position)).contains(p.get(19));
    assertThat(q.info().firstSegment()).isEqualTo(19);
    a.close();
    b.close();
  }

  @Test
  void aReopenFindsTheEndTheReadersAndTheByteCountsAndInfoShowsTheBacklog() throws Exception {
    StableQueue q = manager.createQueue(Q, QueueSettings.defaults());
    List<QueuePosition> p = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      p.add(q.append(new byte[100 * (i + 1)]).get(30, TimeUnit.SECONDS)); // 100, 200, ... 1000
    }
    try (QueueReader fast = q.openReader("FAST");
        QueueReader slow = q.openReader("SLOW")) {
      fast.confirm(p.get(8));
      slow.confirm(p.get(2));
    }
    manager.close();
    manager = KafkaQueueManager.open(config);
    assertThat(manager.queueIds()).containsExactly(Q);
    q = manager.openQueue(Q, QueueSettings.defaults());
    QueuePosition next = q.append(new byte[50]).get(30, TimeUnit.SECONDS);
    assertThat(next).isEqualTo(new QueuePosition(10, 0, 0));

    QueueInfo info = manager.queueInfos().get(0);
    assertThat(info.queue()).isEqualTo(Q);
    assertThat(info.lastPosition()).contains(next);
    assertThat(info.firstSegment()).as("deleted before SLOW's confirmed record").isEqualTo(2);
    assertThat(info.lastSegment()).isEqualTo(10);
    assertThat(info.segmentsActive()).isEqualTo(9);
    assertThat(info.allocatedBytes())
        .isEqualTo(300 + 400 + 500 + 600 + 700 + 800 + 900 + 1000 + 50);
    assertThat(info.readers())
        .containsExactly(
            new ReaderInfo("FAST", Optional.of(p.get(8)), 1000 + 50),
            new ReaderInfo(
                "SLOW", Optional.of(p.get(2)), 400 + 500 + 600 + 700 + 800 + 900 + 1000 + 50));
    assertThat(info.backlogBytes()).isEqualTo(info.readers().get(1).backlogBytes());
    try (QueueReader slow = q.openReader("SLOW")) {
      assertThat(slow.poll(Duration.ofSeconds(10)).orElseThrow().position()).isEqualTo(p.get(3));
    }
  }

  @Test
  void theManagerListsCreatesOpensAndDropsOnlyItsOwnQueues() throws Exception {
    manager.createQueue(Q, QueueSettings.defaults());
    manager.createQueue(QueueId.outbound(102), QueueSettings.defaults());
    try (KafkaQueueManager other =
        KafkaQueueManager.open(
            KafkaEngineConfig.singleBroker(config.serverName() + "x", kafka.bootstrapServers()))) {
      other.createQueue(Q, QueueSettings.defaults());
      assertThat(other.queueIds()).containsExactly(Q);
    }
    assertThat(manager.queueIds()).containsExactly(Q, QueueId.outbound(102));
    assertThatThrownBy(() -> manager.createQueue(Q, QueueSettings.defaults()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exists");
    assertThatThrownBy(() -> manager.openQueue(QueueId.inbound(999), QueueSettings.defaults()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not exist");
    manager.queue(Q).orElseThrow().openReader("SQT").close();
    manager.dropQueue(Q);
    assertThat(manager.queue(Q)).isEmpty();
    assertThat(manager.queueIds()).containsExactly(QueueId.outbound(102));
    String group = manager.readerGroupName(Q, "SQT");
    assertThat(admin.listGroups().all().get()).noneMatch(g -> g.groupId().equals(group));
  }

  @Test
  void aRecordTheEngineDidNotWriteIsRefusedAtOpen() throws Exception {
    manager.createQueue(Q, QueueSettings.defaults()).close();
    try (KafkaProducer<byte[], byte[]> stranger =
        new KafkaProducer<>(
            Map.of("bootstrap.servers", kafka.bootstrapServers()),
            new ByteArraySerializer(),
            new ByteArraySerializer())) {
      stranger.send(new ProducerRecord<>(manager.topicName(Q), new byte[] {9})).get();
    }
    assertThatThrownBy(() -> manager.openQueue(Q, QueueSettings.defaults()))
        .isInstanceOf(KafkaQueueFormatException.class)
        .hasMessageContaining("openrs.byte-offset")
        .hasMessageContaining("offset 0");
  }

  private static OffsetAndMetadata committed(String group) throws Exception {
    Map<TopicPartition, OffsetAndMetadata> offsets =
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    assertThat(offsets).hasSize(1);
    OffsetAndMetadata o = offsets.values().iterator().next();
    return new OffsetAndMetadata(o.offset(), o.metadata());
  }

  private static void awaitLogStart(TopicPartition tp, long expected) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    long start = -1;
    while (System.nanoTime() < deadline) {
      start =
          admin.listOffsets(Map.of(tp, OffsetSpec.earliest())).partitionResult(tp).get().offset();
      if (start >= expected) {
        break;
      }
      Thread.sleep(20);
    }
    assertThat(start).as("log start offset of %s", tp).isEqualTo(expected);
  }

  private static List<ConsumerRecord<byte[], byte[]>> rawRecords(String topic, int n) {
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(
            Map.of("bootstrap.servers", kafka.bootstrapServers(), "auto.offset.reset", "earliest"),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      TopicPartition tp = new TopicPartition(topic, 0);
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (out.size() < n && System.nanoTime() < deadline) {
        out.addAll(c.poll(Duration.ofMillis(200)).records(tp));
      }
      return out;
    }
  }
}
