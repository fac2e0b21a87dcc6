package io.openrs.repserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.queue.file.PartitionSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfigFileTest {

  @TempDir Path dir;

  private ServerSettings parse(Map<String, String> env, String... lines) throws Exception {
    return ServerConfigFile.parse(dir.resolve("repserver.cfg"), List.of(lines), env::get);
  }

  @Test
  void readsParametersPartitionsAndPasswordReferences() throws Exception {
    Files.writeString(dir.resolve("rssd.secret"), "s3cret\n");
    ServerSettings s =
        parse(
            Map.of("ADMIN_PW", "first-admin"),
            "# comment",
            "",
            "rs_name = SITE_A",
            "data_directory = var",
            "ltl_port = 12000",
            "block_size = 64k",
            "sqm_write_flush = 'off'",
            "partition.p1 = parts/p1 2g",
            "partition.p2 = /srv/p2 512m",
            "rssd_url = jdbc:postgresql://127.0.0.1:5432/rssd",
            "rssd_user = openrs",
            "rssd_password_file = rssd.secret",
            "admin_password_env = ADMIN_PW");
    assertThat(s.name()).isEqualTo("SITE_A");
    assertThat(s.directory()).isEqualTo(dir.resolve("var"));
    assertThat(s.parameters().getInt("ltl_port")).isEqualTo(12000);
    assertThat(s.parameters().getInt("block_size")).isEqualTo(65536);
    assertThat(s.parameters().getString("sqm_write_flush")).isEqualTo("off");
    assertThat(s.partitions())
        .containsExactly(
            new PartitionSpec("p1", dir.resolve("parts/p1"), 2L << 30),
            new PartitionSpec("p2", Path.of("/srv/p2"), 512L << 20));
    assertThat(s.rssd().jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:5432/rssd");
    assertThat(s.rssd().password()).isEqualTo("s3cret");
    assertThat(s.rssd().toString()).doesNotContain("s3cret");
    assertThat(new String(s.initialAdminPassword().orElseThrow())).isEqualTo("first-admin");
    assertThat(s.toString()).doesNotContain("first-admin");
  }

  @Test
  void kafkaLinesGoToTheKafkaEngineAndTheirValuesAreNeverShown() throws Exception {
    ServerSettings s =
        parse(
            Map.of(
                "OPENRS_ADMIN_PASSWORD",
                "pw",
                "KAFKA_JAAS",
                "org.apache.kafka.common.security.plain.PlainLoginModule"
                    + " required username=\"rs\" password=\"hunter2\";"),
            "rs_name = SITE_A",
            "queue_engine = kafka",
            "kafka_bootstrap_servers = k1:9092,k2:9092",
            "kafka.security.protocol = SASL_SSL",
            "kafka.sasl.jaas.config = env:KAFKA_JAAS",
            "kafka.ssl.truststore.password = ${file:/etc/openrs/kafka.properties:truststore}");
    assertThat(s.kafkaClientProperties())
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry(
            "sasl.jaas.config",
            "org.apache.kafka.common.security.plain.PlainLoginModule"
                + " required username=\"rs\" password=\"hunter2\";")
        // Kafka's own config providers resolve their placeholders
        .containsEntry(
            "ssl.truststore.password", "${file:/etc/openrs/kafka.properties:truststore}");
    assertThat(s.toString()).contains("sasl.jaas.config").doesNotContain("hunter2");
    var config = ServerQueues.kafkaConfig(s);
    assertThat(config.serverName()).isEqualTo("SITE_A");
    assertThat(config.bootstrapServers()).isEqualTo("k1:9092,k2:9092");
    assertThat(config.replicationFactor()).isEqualTo((short) 3);
    assertThat(config.minInsyncReplicas()).isEqualTo(2);
    assertThat(config.clientProperties()).isEqualTo(s.kafkaClientProperties());
    assertThat(config.toString()).contains("sasl.jaas.config").doesNotContain("hunter2");
  }

  /** A Kafka secret written in clear is refused naming the line; a missing variable too. */
  @Test
  void kafkaSecretsAreReferencesNotValues() {
    Path cfg = dir.resolve("repserver.cfg");
    assertThatThrownBy(
            () ->
                parse(
                    Map.of("OPENRS_ADMIN_PASSWORD", "pw"),
                    "queue_engine = kafka",
                    "kafka.ssl.keystore.password = hunter2"))
        .hasMessageStartingWith(
            cfg
                + ":2: kafka.ssl.keystore.password: secrets are not written in the configuration"
                + " file")
        .hasMessageNotContaining("hunter2");
    assertThatThrownBy(
            () ->
                parse(
                    Map.of("OPENRS_ADMIN_PASSWORD", "pw"),
                    "queue_engine = kafka",
                    "kafka.producer.sasl.jaas.config = env:NO_SUCH_VARIABLE"))
        .hasMessageStartingWith(cfg + ":2: ")
        .hasMessageContaining("NO_SUCH_VARIABLE");
  }

  @Test
  void partitionLinesAreRefusedWithTheKafkaEngine() {
    Path cfg = dir.resolve("repserver.cfg");
    assertThatThrownBy(
            () ->
                parse(
                    Map.of("OPENRS_ADMIN_PASSWORD", "pw"),
                    "queue_engine = kafka",
                    "kafka_bootstrap_servers = k1:9092",
                    "partition.p1 = p1 1g"))
        .hasMessage(
            cfg
                + ":3: partition lines are for queue_engine = file; with kafka the brokers hold"
                + " the queues");
  }

  @Test
  void theKafkaEngineWithoutBootstrapServersIsRefusedNamingTheParameter() throws Exception {
    ServerSettings s = parse(Map.of("OPENRS_ADMIN_PASSWORD", "pw"), "queue_engine = kafka");
    assertThatThrownBy(() -> ServerQueues.kafkaConfig(s))
        .hasMessageStartingWith("queue_engine = kafka needs kafka_bootstrap_servers");
  }

  @Test
  void defaultsGiveAnEmbeddedRssdAndOnePartition() throws Exception {
    ServerSettings s = parse(Map.of("OPENRS_ADMIN_PASSWORD", "pw"), "rs_name = X");
    assertThat(s.rssd().isH2()).isTrue();
    assertThat(s.partitions()).singleElement().extracting(PartitionSpec::name).isEqualTo("p1");
    assertThat(s.initialAdminPassword()).isPresent();
  }

  @Test
  void aPartitionSmallerThanOneSegmentIsRefusedNamingItsLine() throws Exception {
    Path cfg = dir.resolve("repserver.cfg");
    assertThatThrownBy(
            () ->
                parse(
                    Map.of("OPENRS_ADMIN_PASSWORD", "pw"),
                    "rs_name = X",
                    "partition.big = p0 1g",
                    "partition.tiny = p1 1m"))
        .hasMessageStartingWith(cfg + ":3: partition.tiny: partition size = '1048576'")
        .hasMessageContaining("at least one segment of 67108864 bytes (sqm_segment_size)");
    // With segments of 1 MiB the same partition is fine.
    assertThat(
            parse(
                    Map.of("OPENRS_ADMIN_PASSWORD", "pw"),
                    "sqm_segment_size = 1m",
                    "partition.tiny = p1 1m")
                .partitions())
        .singleElement()
        .extracting(PartitionSpec::limitBytes)
        .isEqualTo(1L << 20);
  }

  @Test
  void errorsNameTheFileLineAndWhatIsWrong() {
    Path cfg = dir.resolve("repserver.cfg");
    assertThatThrownBy(() -> parse(Map.of(), "rs_name = X", "rssd_password = hunter2"))
        .hasMessageStartingWith(cfg + ":2: rssd_password: passwords are not written")
        .hasMessageNotContaining("hunter2");
    assertThatThrownBy(() -> parse(Map.of(), "ltl_port 5"))
        .hasMessage(cfg + ":1: expected name = value, found 'ltl_port 5'");
    assertThatThrownBy(() -> parse(Map.of(), "partition.p1 = /x lots"))
        .hasMessageContaining(":1: partition.p1: size 'lots' is not a size");
    assertThatThrownBy(() -> parse(Map.of(), "rs_name = A", "rs_name = B"))
        .hasMessage(cfg + ":2: rs_name is set twice");
    assertThatThrownBy(() -> parse(Map.of(), "block_size = 1000"))
        .hasMessageContaining("block_size")
        .hasMessageContaining("1000");
    assertThatThrownBy(() -> parse(Map.of(), "sqm_page_sise = 4"))
        .hasMessageContaining("sqm_page_size");
    assertThatThrownBy(() -> parse(Map.of(), "admin_password_env = NOPE"))
        .hasMessageContaining("environment variable NOPE, which is not set");
  }
}
