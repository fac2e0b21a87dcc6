package io.openrs.queue.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.queue.QueueClosedException;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.QueueState;
import io.openrs.queue.StableQueue;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Three real brokers, replication factor 3, {@code min.insync.replicas} 2: the partition's leader
 * is shut down while a producer writes; every write is acknowledged, and the queue then holds each
 * message exactly once, in order. With a second broker gone a write is never acknowledged: the
 * queue stops instead.
 */
class KafkaReplicationIT {

  private static final QueueId Q = QueueId.inbound(101);
  private static final int MAX_MESSAGES = 200_000;

  @Test
  void losingTheLeaderDuringWritesLosesNothingAndDoublesNothing() throws Exception {
    try (InProcessKafka kafka = InProcessKafka.start(3);
        Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      KafkaEngineConfig config =
          new KafkaEngineConfig(
              "repl", kafka.bootstrapServers(), (short) 3, 2, Map.of(), Duration.ofSeconds(30));
      try (KafkaQueueManager manager = KafkaQueueManager.open(config)) {
        StableQueue q = manager.createQueue(Q, QueueSettings.defaults());
        String topic = manager.topicName(Q);
        int leader = leaderOf(admin, topic);

        // The writer appends without waiting until told to stop; the leader is shut down after
        // 1000 acknowledgements and the writer stopped 1000 acknowledgements after that, so writes
        // are in flight before, during and after the leader's loss.
        CountDownLatch beforeLoss = new CountDownLatch(1000);
        CountDownLatch afterLoss = new CountDownLatch(2000);
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService writer = Executors.newSingleThreadExecutor();
        Future<List<QueuePosition>> written =
            writer.submit(
                () -> {
                  List<CompletableFuture<QueuePosition>> fs = new ArrayList<>();
                  for (int i = 0; i < MAX_MESSAGES && !stop.get(); i++) {
                    CompletableFuture<QueuePosition> f = q.append(message(i));
                    f.thenRun(
                        () -> {
                          beforeLoss.countDown();
                          afterLoss.countDown();
                        });
                    fs.add(f);
                    if (i % 100 == 99) {
                      f.get(60, TimeUnit.SECONDS); // at most 100 writes in flight
                    }
                  }
                  List<QueuePosition> out = new ArrayList<>();
                  for (CompletableFuture<QueuePosition> f : fs) {
                    out.add(f.get(60, TimeUnit.SECONDS));
                  }
                  return out;
                });
        List<QueuePosition> positions;
        try {
          assertThat(beforeLoss.await(60, TimeUnit.SECONDS)).isTrue();
          long acknowledgedBefore = 1000 - beforeLoss.getCount();
          kafka.cluster().brokers().get(leader).shutdown();
          assertThat(afterLoss.await(60, TimeUnit.SECONDS)).isTrue();
          stop.set(true);
          positions = written.get(90, TimeUnit.SECONDS);
          assertThat(positions.size()).isGreaterThan((int) acknowledgedBefore + 1000);
        } finally {
          stop.set(true);
          writer.shutdownNow();
        }
        int messages = positions.size();
        assertThat(leaderOf(admin, topic)).isNotEqualTo(leader);
        assertThat(positions).doesNotHaveDuplicates().isSorted();

        TopicPartition tp = new TopicPartition(topic, 0);
        assertThat(
                admin
                    .listOffsets(Map.of(tp, OffsetSpec.latest()))
                    .partitionResult(tp)
                    .get()
                    .offset())
            .as("records in the topic: one per message, no duplicate written by a retry")
            .isEqualTo(messages);
        try (QueueReader r = q.openReader("DSI")) {
          for (int i = 0; i < messages; i++) {
            Optional<QueueMessage> m = r.poll(Duration.ofSeconds(10));
            assertThat(m).as("message %d", i).isPresent();
            assertThat(idOf(m.get().payload())).isEqualTo(i);
            assertThat(m.get().position()).isEqualTo(positions.get(i));
          }
          assertThat(r.poll()).isEmpty();
          r.confirm(positions.get(messages - 1));
          // A deletion that waited for the lost broker's replica fails; later confirmations (a
          // live reader keeps confirming) retry it once the broker is fenced.
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
          long logStart = logStart(admin, tp);
          for (long id = messages; logStart < messages - 1; id++) {
            assertThat(System.nanoTime() - deadline)
                .as(
                    "records before offset %d deleted within 40 s (log start %d)",
                    messages - 1, logStart)
                .isNegative();
            q.append(message(id)).get(30, TimeUnit.SECONDS);
            r.confirm(r.poll(Duration.ofSeconds(10)).orElseThrow().position());
            Thread.sleep(200);
            logStart = logStart(admin, tp);
          }
        }

        q.close();
      }

      // A second broker goes: one in-sync replica is left, fewer than min.insync.replicas. A
      // manager that gives up on a write after 5 s (instead of the default 2 minutes) shows that
      // the write is never acknowledged: the queue stops instead.
      KafkaEngineConfig impatient =
          config.withClientProperties(
              Map.of(
                  "producer.delivery.timeout.ms", "5000", "producer.request.timeout.ms", "2000"));
      try (KafkaQueueManager manager = KafkaQueueManager.open(impatient)) {
        StableQueue q = manager.openQueue(Q, QueueSettings.defaults());
        assertThat(q.lastMessage()).isPresent();
        String topic = manager.topicName(Q);
        int second =
            kafka.cluster().brokers().keySet().stream()
                .filter(id -> !kafka.cluster().brokers().get(id).isShutdown())
                .findFirst()
                .orElseThrow();
        kafka.cluster().brokers().get(second).shutdown();
        CompletableFuture<QueuePosition> lonely = q.append(message(-1));
        assertThatThrownBy(() -> lonely.get(60, TimeUnit.SECONDS))
            .as("one in-sync replica left, min.insync.replicas is 2: never acknowledged")
            .isInstanceOf(ExecutionException.class)
            .hasCauseInstanceOf(QueueClosedException.class);
        assertThat(q.state()).isEqualTo(QueueState.FAILED);
        assertThat(leaderOf(admin, topic)).isNotNegative();
      }
    }
  }

  private static long logStart(Admin admin, TopicPartition tp) throws Exception {
    return admin.listOffsets(Map.of(tp, OffsetSpec.earliest())).partitionResult(tp).get().offset();
  }

  private static int leaderOf(Admin admin, String topic) throws Exception {
    TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
    return d.partitions().get(0).leader() == null ? -1 : d.partitions().get(0).leader().id();
  }

  private static byte[] message(long id) {
    return ByteBuffer.allocate(200).putLong(id).putLong(~id).array();
  }

  private static long idOf(byte[] b) {
    ByteBuffer buf = ByteBuffer.wrap(b);
    long id = buf.getLong();
    assertThat(buf.getLong()).isEqualTo(~id);
    return id;
  }
}
