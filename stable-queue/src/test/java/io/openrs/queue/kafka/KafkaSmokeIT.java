package io.openrs.queue.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.queue.QueueId;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.StableQueue;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class KafkaSmokeIT {
  @Test
  void smoke() throws Exception {
    try (InProcessKafka k = InProcessKafka.start(1);
        KafkaQueueManager m =
            KafkaQueueManager.open(KafkaEngineConfig.singleBroker("smoke", k.bootstrapServers()))) {
      System.out.println("BOOTSTRAP " + k.bootstrapServers());
      StableQueue q = m.createQueue(QueueId.inbound(101), QueueSettings.defaults());
      QueuePosition p = q.append(new byte[] {1, 2, 3}).get(30, TimeUnit.SECONDS);
      assertThat(p).isEqualTo(new QueuePosition(0, 0, 0));
      try (QueueReader r = q.openReader("SQT")) {
        QueueMessage msg = r.poll(Duration.ofSeconds(10)).orElseThrow();
        assertThat(msg.payload()).containsExactly(1, 2, 3);
        r.confirm(msg.position());
      }
      System.out.println(q.info());
    }
  }
}
