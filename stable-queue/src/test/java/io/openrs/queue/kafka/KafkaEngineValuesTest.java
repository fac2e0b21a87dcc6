package io.openrs.queue.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.queue.QueueId;
import io.openrs.queue.QueuePosition;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.Test;

/** Names, positions, reader marks and client properties of the Kafka engine, without a broker. */
class KafkaEngineValuesTest {

  @Test
  void topicAndGroupNamesFollowTheDocumentedShapeAndParseBack() {
    KafkaNames names = new KafkaNames("RS1");
    assertThat(names.topic(QueueId.inbound(101))).isEqualTo("openrs.RS1.queue.101-1");
    assertThat(names.topic(QueueId.outbound(7))).isEqualTo("openrs.RS1.queue.7-0");
    assertThat(names.readerGroup(QueueId.inbound(101), "SQT"))
        .isEqualTo("openrs.RS1.queue.101-1.reader.SQT");
    assertThat(names.queueOf("openrs.RS1.queue.101-1")).contains(QueueId.inbound(101));
    assertThat(names.queueOf("openrs.RS2.queue.101-1")).isEmpty();
    assertThat(names.queueOf("openrs.RS1.queue.x-1")).isEmpty();
    assertThat(names.queueOf("__consumer_offsets")).isEmpty();
  }

  @Test
  void aServerNameThatWouldMakeAmbiguousTopicNamesIsRefused() {
    assertThatThrownBy(() -> KafkaEngineConfig.singleBroker("RS.1", "localhost:9092"))
        .hasMessageContaining("server name");
    assertThatThrownBy(
            () ->
                new KafkaEngineConfig(
                    "RS1", "localhost:9092", (short) 1, 2, Map.of(), Duration.ofSeconds(1)))
        .hasMessageContaining("min.insync.replicas");
  }

  @Test
  void aPositionIsTheOffsetAsTheSegment() {
    assertThat(KafkaPositions.of(42)).isEqualTo(new QueuePosition(42, 0, 0));
    assertThat(KafkaPositions.offsetOf(QueuePosition.parse("42.0.0"))).isEqualTo(42);
    assertThat(KafkaPositions.firstOffsetFrom(new QueuePosition(42, 0, 0))).isEqualTo(42);
    assertThat(KafkaPositions.firstOffsetFrom(new QueuePosition(42, 3, 1))).isEqualTo(43);
  }

  @Test
  void aReaderMarkRoundTripsThroughACommittedOffset() {
    ReaderMark confirmed = ReaderMark.confirmedAt(9);
    assertThat(confirmed.toCommit()).isEqualTo(new OffsetAndMetadata(10, ReaderMark.CONFIRMED));
    assertThat(ReaderMark.fromCommit(confirmed.toCommit())).contains(confirmed);
    assertThat(confirmed.confirmedPosition()).contains(new QueuePosition(9, 0, 0));
    assertThat(confirmed.keepFrom()).isEqualTo(9);

    ReaderMark start = ReaderMark.startingAt(5);
    assertThat(ReaderMark.fromCommit(start.toCommit())).contains(start);
    assertThat(start.confirmedPosition()).isEmpty();
    assertThat(start.keepFrom()).isEqualTo(5);

    assertThat(ReaderMark.fromCommit(new OffsetAndMetadata(3, "someone else's"))).isEmpty();
  }

  @Test
  void clientPropertiesPassThroughPerClientAndTheDurabilityOnesCannotBeWeakened() {
    KafkaEngineConfig config =
        KafkaEngineConfig.singleBroker("RS1", "k1:9092")
            .withClientProperties(
                Map.of(
                    "security.protocol", "SSL",
                    "producer.linger.ms", "20",
                    "consumer.fetch.min.bytes", "1",
                    "admin.retries", "7",
                    "producer.acks", "all"));
    KafkaClientProperties p = new KafkaClientProperties(config);
    Map<String, Object> producer = p.producer("w", 1024);
    assertThat(producer)
        .containsEntry("bootstrap.servers", "k1:9092")
        .containsEntry("security.protocol", "SSL")
        .containsEntry("linger.ms", "20")
        .containsEntry("acks", "all")
        .containsEntry("enable.idempotence", "true")
        .containsEntry("max.in.flight.requests.per.connection", 5)
        // a cluster that cannot acknowledge makes writes wait, not fail
        .containsEntry("delivery.timeout.ms", Integer.MAX_VALUE)
        .containsEntry("max.block.ms", (long) Integer.MAX_VALUE)
        .doesNotContainKey("fetch.min.bytes")
        .doesNotContainKey("retries");
    assertThat(p.consumer("r"))
        .containsEntry("security.protocol", "SSL")
        .containsEntry("fetch.min.bytes", "1")
        .containsEntry("enable.auto.commit", "false")
        .doesNotContainKey("group.id")
        .doesNotContainKey("linger.ms");
    assertThat(p.admin("a")).containsEntry("retries", "7").doesNotContainKey("linger.ms");

    for (Map.Entry<String, String> weak :
        Map.of(
                "producer.acks", "1",
                "acks", "0",
                "enable.idempotence", "false",
                "producer.max.in.flight.requests.per.connection", "6",
                "producer.transactional.id", "x",
                "consumer.group.id", "g",
                "enable.auto.commit", "true")
            .entrySet()) {
      KafkaClientProperties bad =
          new KafkaClientProperties(
              config.withClientProperties(Map.of(weak.getKey(), weak.getValue())));
      String key = weak.getKey().replaceFirst("^(producer|consumer)\\.", "");
      assertThatThrownBy(
              () -> {
                bad.producer("w", 1024);
                bad.consumer("r");
              })
          .as(weak.toString())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(key);
    }
  }
}
