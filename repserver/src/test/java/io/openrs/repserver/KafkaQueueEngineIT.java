package io.openrs.repserver;

import static io.openrs.repserver.support.Origin.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueInfo;
import io.openrs.queue.kafka.InProcessKafka;
import io.openrs.repserver.support.AdminSql;
import io.openrs.repserver.support.AgentReplay;
import io.openrs.repserver.support.Origin;
import io.openrs.repserver.support.OutboundContents;
import io.openrs.repserver.support.OutboundContents.Transaction;
import io.openrs.repserver.support.ServerProcess;
import io.openrs.repserver.support.TcpForwarder;
import io.openrs.repserver.support.TestServers;
import io.openrs.wire.LtlClient;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A server with {@code queue_engine = kafka} on a real broker in the test JVM: an agent's committed
 * transactions reach the outbound queue once each, in commit order; after a restart on the same
 * cluster the server resumes from its truncation point and a resending agent causes no duplicates;
 * the admin commands show the Kafka queues and no partitions; a start the engine cannot serve fails
 * naming what is wrong.
 */
class KafkaQueueEngineIT {

  private static final TableName ORDERS = new TableName("shop", "orders");
  private static final Duration WAIT = Duration.ofSeconds(60);

  private static InProcessKafka kafka;

  @TempDir Path dir;

  @BeforeAll
  static void startBroker() throws Exception {
    kafka = InProcessKafka.start(1);
  }

  @AfterAll
  static void stopBroker() throws Exception {
    if (kafka != null) {
      kafka.close();
    }
  }

  /** A server on the broker, its queues' topics named after {@code rsName}. */
  private ServerSettings kafkaSettings(String rsName, Map<String, String> more) {
    return kafkaSettings(rsName, more, Map.of("producer.linger.ms", "1"));
  }

  private ServerSettings kafkaSettings(
      String rsName, Map<String, String> more, Map<String, String> clientProperties) {
    Map<String, String> p = new HashMap<>();
    p.put("queue_engine", "kafka");
    p.put("kafka_bootstrap_servers", kafka.bootstrapServers());
    p.put("kafka_replication_factor", "1");
    p.put("kafka_min_insync_replicas", "1");
    p.putAll(more);
    ServerSettings s = TestServers.settings(dir, p);
    return new ServerSettings(
        rsName,
        s.directory(),
        s.parameters(),
        s.partitions(),
        s.rssd(),
        s.initialAdminPassword(),
        clientProperties);
  }

  private ReplicationServer start(String rsName) throws Exception {
    return ReplicationServer.start(kafkaSettings(rsName, Map.of()), new SimpleMeterRegistry());
  }

  /** {@code count} transactions from {@code firstTran}, every seventh rolled back. */
  private static List<LtlCommand> transactions(Origin o, int firstTran, int count) {
    List<LtlCommand> stream = new ArrayList<>();
    for (int t = firstTran; t < firstTran + count; t++) {
      stream.add(o.begin(t));
      for (int r = 0; r < 1 + t % 5; r++) {
        stream.add(o.insert(t, ORDERS, col("id", t * 100 + r), col("note", "t" + t + "r" + r)));
      }
      stream.add(t % 7 == 0 ? o.rollback(t) : o.commit(t));
    }
    return stream;
  }

  private static Oqid lastOqid(List<LtlCommand> stream) {
    return ((LtlCommand.InTransaction) stream.get(stream.size() - 1)).oqid();
  }

  private static void awaitTruncation(LtlClient client, Oqid oqid) {
    await()
        .atMost(WAIT)
        .until(
            () -> client.truncation().get(30, TimeUnit.SECONDS), p -> p.equals(Optional.of(oqid)));
  }

  private static List<Transaction> awaitOutbound(ReplicationServer s, int transactions) {
    return await()
        .atMost(WAIT)
        .until(
            () -> OutboundContents.read(s.outboundQueue("rds", "rdb").orElseThrow()),
            out -> out.size() >= transactions);
  }

  private static List<TranId> committed(List<LtlCommand> stream) {
    return stream.stream()
        .filter(c -> c instanceof LtlCommand.Commit)
        .map(c -> ((LtlCommand.Commit) c).tran())
        .toList();
  }

  private static void assertBodies(List<Transaction> out, List<LtlCommand> stream) {
    for (Transaction t : out) {
      List<LtlCommand.InTransaction> expected =
          stream.stream()
              .filter(c -> c instanceof LtlCommand.Insert i && i.tran().equals(t.tran()))
              .map(LtlCommand.InTransaction.class::cast)
              .toList();
      assertThat(t.body()).as("body of %s", t.tran()).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void committedTransactionsReachTheOutboundQueueOnceInOrderAcrossARestart() throws Exception {
    Origin o = new Origin();
    List<LtlCommand> first = transactions(o, 1, 150);
    List<LtlCommand> second = transactions(o, 151, 150);
    List<LtlCommand> all = new ArrayList<>(first);
    all.addAll(second);
    AgentReplay.Connections connections;

    try (ReplicationServer s = start("KAFKA_IT_RS")) {
      connections = AgentReplay.ordersSubscribed(s);
      try (LtlClient client = AgentReplay.connect(s.ltlPort(), "kafka-it-agent")) {
        AgentReplay.send(client, o, first);
        awaitTruncation(client, lastOqid(first));
      }
      List<Transaction> out = awaitOutbound(s, committed(first).size());
      assertThat(out).extracting(Transaction::tran).containsExactlyElementsOf(committed(first));
      assertBodies(out, first);
      assertThat(s.queueInfos())
          .extracting(QueueInfo::queue)
          .contains(
              QueueId.inbound(connections.primary().id()),
              QueueId.outbound(connections.replicate().id()));
    }
    // The queues are topics: the server wrote no queue files.
    assertThat(dir.resolve("queues")).doesNotExist();
    assertThat(dir.resolve("p1")).doesNotExist();

    try (ReplicationServer s = start("KAFKA_IT_RS")) {
      try (LtlClient client = AgentReplay.connect(s.ltlPort(), "kafka-it-agent")) {
        Optional<Oqid> point = client.welcome().truncationPoint();
        assertThat(point).as("truncation point after the restart").contains(lastOqid(first));
        // An agent that lost its own position resends everything: the server drops what it holds.
        AgentReplay.send(client, o, all);
        awaitTruncation(client, lastOqid(all));
      }
      List<Transaction> out = awaitOutbound(s, committed(all).size());
      assertThat(out).extracting(Transaction::tran).containsExactlyElementsOf(committed(all));
      assertBodies(out, all);
    }
  }

  @Test
  void adminCommandsShowTheKafkaQueuesAndNoPartitions() throws Exception {
    try (ReplicationServer s = start("KAFKA_ADMIN_RS")) {
      AgentReplay.Connections connections = AgentReplay.ordersSubscribed(s);
      try (Connection c = AdminSql.connect(s);
          Statement st = c.createStatement()) {
        assertThat(AdminSql.rows(st, "admin disk_space")).isEmpty();
        assertThat(AdminSql.rows(st, "admin who, sqm"))
            .extracting(r -> r.get(0))
            .contains(
                QueueId.inbound(connections.primary().id()).toString(),
                QueueId.outbound(connections.primary().id()).toString(),
                QueueId.outbound(connections.replicate().id()).toString());
      }
    }
  }

  @Test
  void startUpErrorsNameWhatIsWrong() {
    ServerSettings noBootstrap =
        kafkaSettings("KAFKA_BAD_RS", Map.of("kafka_bootstrap_servers", ""));
    assertThatThrownBy(() -> ReplicationServer.start(noBootstrap, new SimpleMeterRegistry()))
        .hasMessageContaining("queue_engine = kafka needs kafka_bootstrap_servers");
    ServerSettings tooFewReplicas =
        kafkaSettings("KAFKA_BAD_RS", Map.of("kafka_min_insync_replicas", "2"));
    assertThatThrownBy(() -> ReplicationServer.start(tooFewReplicas, new SimpleMeterRegistry()))
        .hasMessageContaining("kafka_min_insync_replicas")
        .hasMessageContaining("min.insync.replicas must be 1..1");
    ServerSettings weakAcks = kafkaSettings("KAFKA_BAD_RS", Map.of(), Map.of("producer.acks", "1"));
    assertThatThrownBy(() -> ReplicationServer.start(weakAcks, new SimpleMeterRegistry()))
        .hasMessageStartingWith("queue_engine = kafka: a kafka.<property> line: ")
        .hasMessageContaining("client property acks (or producer.acks) = '1' is not allowed");
  }

  /**
   * A server that runs alone waits at start for a cluster it cannot reach, says so in one WARN line
   * however many attempts it makes, and starts once the cluster answers.
   */
  @Test
  void aServerAloneWaitsForAClusterItCannotReachAndStartsOnceItAnswers() throws Exception {
    int port = ServerProcess.freePort();
    ServerSettings unreachable =
        kafkaSettings(
            "KAFKA_DOWN_RS",
            Map.of(
                "kafka_bootstrap_servers",
                "127.0.0.1:" + port,
                "kafka_operation_timeout_ms",
                "1000"));
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    log.start();
    ch.qos.logback.classic.Logger queues =
        (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(ServerQueues.class);
    queues.addAppender(log);
    Level level = queues.getLevel();
    queues.setLevel(Level.INFO);
    ExecutorService starter = Executors.newSingleThreadExecutor();
    try {
      Future<ReplicationServer> starting =
          starter.submit(() -> ReplicationServer.start(unreachable, new SimpleMeterRegistry()));
      await()
          .atMost(WAIT)
          .until(
              () ->
                  log.list.stream()
                      .anyMatch(
                          e -> e.getFormattedMessage().contains("cannot reach the Kafka cluster")));
      // Several attempts (1 s each, 1 s apart) while nothing listens, still one line.
      await()
          .during(Duration.ofSeconds(5))
          .atMost(Duration.ofSeconds(10))
          .until(() -> !starting.isDone());
      try (TcpForwarder cluster =
          TcpForwarder.start(port, kafka.bootstrapServers().split(",")[0])) {
        try (ReplicationServer s = starting.get(60, TimeUnit.SECONDS)) {
          assertThat(s.queueInfos()).isEmpty();
        }
      }
      assertThat(log.list)
          .extracting(ILoggingEvent::getFormattedMessage)
          .filteredOn(m -> m.contains("cannot reach the Kafka cluster"))
          .singleElement()
          .asString()
          .contains("127.0.0.1:" + port)
          .contains("kafka_bootstrap_servers");
      assertThat(log.list)
          .extracting(ILoggingEvent::getFormattedMessage)
          .anyMatch(m -> m.startsWith("queue_engine = kafka: reached the cluster at"));
    } finally {
      starter.shutdownNow();
      queues.setLevel(level);
      queues.detachAppender(log);
    }
  }
}
