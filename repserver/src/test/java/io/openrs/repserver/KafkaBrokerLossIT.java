package io.openrs.repserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.queue.kafka.InProcessKafka;
import io.openrs.repserver.support.AdminSql;
import io.openrs.repserver.support.AgentReplay;
import io.openrs.repserver.support.Origin;
import io.openrs.repserver.support.TestServers;
import io.openrs.wire.LtlClient;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running server whose queues are on a three-broker cluster (replication factor 3,
 * min.insync.replicas 2) loses the broker that leads its inbound queue's partition in the middle of
 * an agent's stream: the server goes on without a restart, the agent's truncation point reaches the
 * stream's end, and the outbound queue holds every committed transaction exactly once, in commit
 * order.
 */
class KafkaBrokerLossIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;
  private InProcessKafka kafka;

  @BeforeEach
  void startCluster() throws Exception {
    kafka = InProcessKafka.start(3);
  }

  @AfterEach
  void stopCluster() throws Exception {
    kafka.close();
  }

  private ServerSettings settings() {
    return settings(Map.of());
  }

  private ServerSettings settings(Map<String, String> more) {
    Map<String, String> p = new HashMap<>(more);
    p.put("queue_engine", "kafka");
    p.put("kafka_bootstrap_servers", kafka.bootstrapServers());
    p.put("kafka_replication_factor", "3");
    p.put("kafka_min_insync_replicas", "2");
    ServerSettings s = TestServers.settings(dir, p);
    return new ServerSettings(
        "KAFKA_LOSS_RS",
        s.directory(),
        s.parameters(),
        s.partitions(),
        s.rssd(),
        s.initialAdminPassword(),
        Map.of("producer.linger.ms", "1"));
  }

  @Test
  void losingTheInboundLeaderMidStreamLosesAndDoublesNothing() throws Exception {
    Origin o = new Origin();
    List<LtlCommand> stream = AgentReplay.orderTransactions(o, new Random(29), 300);
    int half = AgentReplay.resumeIndex(stream, Optional.of(oqidAt(stream, stream.size() / 2)));
    try (ReplicationServer s = ReplicationServer.start(settings(), new SimpleMeterRegistry());
        Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      AgentReplay.ordersSubscribed(s);
      try (LtlClient client = AgentReplay.connect(s.ltlPort(), "broker-loss-agent")) {
        String inbound = "openrs.KAFKA_LOSS_RS.queue." + inboundQueueNumber(s) + "-1";
        int leader = leaderOf(admin, inbound);
        AgentReplay.send(client, o, stream.subList(0, half));
        // Lost while the first half's writes are in flight; nothing waited for them.
        kafka.stopBroker(leader);
        AgentReplay.send(client, o, stream.subList(half, stream.size()));
        awaitTruncation(client, oqidAt(stream, stream.size() - 1));
        assertThat(leaderOf(admin, inbound)).isNotEqualTo(leader);
      }
      AgentReplay.assertOutboundHoldsEachCommitOnce(s, stream);
    }
  }

  /**
   * Two of the three brokers go: one in-sync replica is left, fewer than min.insync.replicas, so
   * Kafka acknowledges no write. The server waits instead of failing and says so ({@code admin
   * health} SUSPECT naming the queue, {@code admin who, sqm} "waiting ... for Kafka"); when one
   * broker is back the waiting writes are acknowledged, the stream completes without a restart and
   * nothing is lost or doubled.
   */
  @Test
  @Timeout(180)
  void writesWaitForACrippledClusterSaySoAndResumeWhenABrokerIsBack() throws Exception {
    Origin o = new Origin();
    List<LtlCommand> stream = AgentReplay.orderTransactions(o, new Random(30), 300);
    int third = AgentReplay.resumeIndex(stream, Optional.of(oqidAt(stream, stream.size() / 3)));
    int twoThirds =
        AgentReplay.resumeIndex(stream, Optional.of(oqidAt(stream, 2 * stream.size() / 3)));
    // Short broker calls: a reader's commit begun during the outage retries soon after it.
    ServerSettings settings = settings(Map.of("kafka_operation_timeout_ms", "5000"));
    try (ReplicationServer s = ReplicationServer.start(settings, new SimpleMeterRegistry())) {
      AgentReplay.ordersSubscribed(s);
      try (LtlClient client = AgentReplay.connect(s.ltlPort(), "outage-agent");
          Connection admin = AdminSql.connect(s);
          Statement sql = admin.createStatement()) {
        AgentReplay.send(client, o, stream.subList(0, third));
        awaitTruncation(client, oqidAt(stream, third - 1));
        List<Integer> brokers = kafka.brokerIds().stream().sorted().toList();
        kafka.stopBroker(brokers.get(1));
        kafka.stopBroker(brokers.get(2));
        AgentReplay.send(client, o, stream.subList(third, twoThirds));
        await()
            .atMost(WAIT)
            .until(
                () -> firstRow(sql, "admin health"),
                h ->
                    h.get(2).equals("SUSPECT")
                        && h.get(5)
                            .contains("s for Kafka to acknowledge a write (admin who, sqm)"));
        assertThat(AdminSql.rows(sql, "admin who, sqm"))
            .anyMatch(r -> r.get(2).contains("for Kafka to acknowledge a write"));
        assertThat(AdminSql.rows(sql, "admin who"))
            .anyMatch(r -> r.get(2).equals("Waiting for Kafka"));
        kafka.startBroker(brokers.get(1));
        AgentReplay.send(client, o, stream.subList(twoThirds, stream.size()));
        awaitTruncation(client, oqidAt(stream, stream.size() - 1));
        AgentReplay.assertOutboundHoldsEachCommitOnce(s, stream);
        await().atMost(WAIT).until(() -> firstRow(sql, "admin health").get(2).equals("HEALTHY"));
      }
    }
  }

  private static List<String> firstRow(Statement s, String command) throws Exception {
    return AdminSql.rows(s, command).get(0);
  }

  private static Oqid oqidAt(List<LtlCommand> stream, int index) {
    return ((LtlCommand.InTransaction) stream.get(index)).oqid();
  }

  private static int inboundQueueNumber(ReplicationServer s) {
    return s.catalog().view().connections().stream()
        .filter(c -> c.name().equals("pds.pdb"))
        .findFirst()
        .orElseThrow()
        .id();
  }

  private static int leaderOf(Admin admin, String topic) throws Exception {
    return admin
        .describeTopics(List.of(topic))
        .allTopicNames()
        .get(30, TimeUnit.SECONDS)
        .get(topic)
        .partitions()
        .get(0)
        .leader()
        .id();
  }

  private static void awaitTruncation(LtlClient client, Oqid oqid) {
    await()
        .atMost(WAIT)
        .until(
            () -> client.truncation().get(30, TimeUnit.SECONDS),
            p -> p.isPresent() && p.get().compareTo(oqid) >= 0);
  }
}
