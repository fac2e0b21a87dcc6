package io.openrs.queue.kafka;

import io.openrs.queue.QueueId;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.StableQueue;
import io.openrs.queue.StableQueueContract;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The stable queue contract on the Kafka engine, against one real in-process KRaft broker. Each
 * test has its own server name, so its own topics and groups.
 */
class KafkaEngineContractIT extends StableQueueContract {

  private static final AtomicInteger SERVERS = new AtomicInteger();
  private static InProcessKafka kafka;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = InProcessKafka.start(1);
  }

  @AfterAll
  static void stopKafka() throws Exception {
    kafka.close();
  }

  @Override
  protected Engine startEngine() {
    KafkaEngineConfig config =
        KafkaEngineConfig.singleBroker(
            "contract" + SERVERS.incrementAndGet(), kafka.bootstrapServers());
    return new Engine() {
      private KafkaQueueManager manager = KafkaQueueManager.open(config);

      @Override
      public QueueSettings settings() {
        return QueueSettings.defaults().withMaxMessageBytes(1024 * 1024);
      }

      @Override
      public StableQueue create(QueueId id, QueueSettings settings) {
        return manager.createQueue(id, settings);
      }

      @Override
      public StableQueue restartAndOpen(QueueId id, QueueSettings settings) {
        manager.close();
        manager = KafkaQueueManager.open(config);
        return manager.openQueue(id, settings);
      }

      @Override
      public void close() {
        manager.close();
      }
    };
  }
}
