package io.openrs.repserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import io.openrs.config.rssd.RssdSettings;
import io.openrs.config.secret.SecretKeyFile;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.queue.file.PartitionSpec;
import io.openrs.queue.kafka.InProcessKafka;
import io.openrs.repserver.support.AgentReplay;
import io.openrs.repserver.support.Origin;
import io.openrs.repserver.support.ReplicateDb;
import io.openrs.repserver.support.ServerProcess;
import io.openrs.repserver.support.TestServers;
import io.openrs.wire.LtlClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scale-out topology: two server processes with {@code queue_engine = kafka} and {@code
 * server_lease_ms}, each with its OWN data directory, sharing only the RSSD on PostgreSQL and the
 * Kafka cluster (a broker in this JVM; the children reach it on the loopback). Their data
 * directories hold the same key file ({@code secret.key}, copied), nothing else in common. SIGKILL
 * of the active one while an agent streams, once something of the round is acknowledged (fixed
 * seed): the standby takes over from the queues in Kafka, the agent resumes from the truncation
 * point it is given, and the outbound queue holds every committed transaction exactly once, in
 * commit order.
 */
class KafkaStandbyTakeoverIT {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaStandbyTakeoverIT.class);

  private static final String PG_URL = "jdbc:postgresql://127.0.0.1:5432/openrs_test";
  private static final TableName ORDERS = new TableName("shop", "orders");
  private static final long SEED = Long.getLong("openrs.standby.seed", 20261127L);
  private static final int ROUNDS = 2;
  private static final long LEASE_MS = 3000;
  private static final Duration READY = Duration.ofSeconds(60);
  private static final String RS_NAME = "KSTANDBY_RS";

  @TempDir Path dir;
  private String schema;
  private InProcessKafka kafka;

  @BeforeEach
  void freshRssdSchemaAndBroker() throws Exception {
    schema =
        "rssd_kstandby_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);
    sql("create schema " + schema);
    kafka = InProcessKafka.start(1);
  }

  @AfterEach
  void dropRssdSchemaAndBroker() throws Exception {
    try {
      if (kafka != null) {
        kafka.close();
      }
    } finally {
      sql("drop schema if exists " + schema + " cascade");
    }
  }

  private static void sql(String statement) throws Exception {
    try (Connection c =
            DriverManager.getConnection(PG_URL, ReplicateDb.USER, ReplicateDb.PASSWORD);
        Statement st = c.createStatement()) {
      st.execute(statement);
    }
  }

  private String rssdUrl() {
    return PG_URL + "?currentSchema=" + schema;
  }

  /** A server of the pair in this JVM (the set-up and the final check), in {@code directory}. */
  private ServerSettings inProcess(Path directory) {
    Map<String, String> p = new HashMap<>();
    p.put("ltl_port", "0");
    p.put("admin_port", "0");
    p.put("listen_address", "127.0.0.1");
    p.put("prometheus_port", "0");
    p.put("queue_engine", "kafka");
    p.put("kafka_bootstrap_servers", kafka.bootstrapServers());
    p.put("kafka_replication_factor", "1");
    p.put("kafka_min_insync_replicas", "1");
    return new ServerSettings(
        RS_NAME,
        directory,
        ParameterValues.of(Scope.SERVER, p),
        List.of(new PartitionSpec("p1", directory.resolve("p1"), 512L * 1024 * 1024)),
        new RssdSettings(rssdUrl(), ReplicateDb.USER, ReplicateDb.PASSWORD, Optional.empty()),
        Optional.of(TestServers.ADMIN_PASSWORD.toCharArray()));
  }

  /** The start-up file of a server process whose data directory is {@code directory}. */
  private Path config(Path directory, int ltlPort) throws Exception {
    return ServerProcess.writeConfig(
        directory,
        List.of(
            "rs_name = " + RS_NAME,
            "data_directory = .",
            "listen_address = 127.0.0.1",
            "ltl_port = " + ltlPort,
            "prometheus_port = 0",
            "admin_port = 0",
            "queue_engine = kafka",
            "kafka_bootstrap_servers = " + kafka.bootstrapServers(),
            "kafka_replication_factor = 1",
            "kafka_min_insync_replicas = 1",
            "kafka.client.dns.lookup = use_all_dns_ips",
            "rssd_url = " + rssdUrl(),
            "rssd_user = " + ReplicateDb.USER,
            "server_lease_ms = " + LEASE_MS));
  }

  @Test
  @Timeout(300)
  void theStandbyWithItsOwnDirectoryTakesOverFromKafkaAndNothingIsLostOrDoubled() throws Exception {
    Path dirA = Files.createDirectories(dir.resolve("a"));
    Path dirB = Files.createDirectories(dir.resolve("b"));
    try (ReplicationServer s =
        ReplicationServer.start(inProcess(dirA), new SimpleMeterRegistry(), () -> {})) {
      AgentReplay.ordersSubscribed(s);
    }
    // The key that seals the connection passwords in the shared RSSD: the same in both.
    Files.copy(
        dirA.resolve(SecretKeyFile.DEFAULT_NAME),
        dirB.resolve(SecretKeyFile.DEFAULT_NAME),
        StandardCopyOption.COPY_ATTRIBUTES);
    int[] ports = {ServerProcess.freePort(), ServerProcess.freePort()};
    Path[] configs = {config(dirA, ports[0]), config(dirB, ports[1])};

    Random random = new Random(SEED);
    Origin o = new Origin();
    List<LtlCommand> stream = AgentReplay.orderTransactions(o, random, 300);
    Oqid last = ((LtlCommand.InTransaction) stream.get(stream.size() - 1)).oqid();

    List<Long> takeoverMs = new ArrayList<>();
    Optional<Oqid> acknowledged = Optional.empty();
    int activeIndex = 0;
    ServerProcess active = ServerProcess.start(configs[0], READY);
    ServerProcess standby = ServerProcess.launch(configs[1]);
    try {
      for (int round = 0; round < ROUNDS; round++) {
        LtlClient client = AgentReplay.connect(ports[activeIndex], "kstandby-agent");
        Optional<Oqid> point = client.welcome().truncationPoint();
        if (acknowledged.isPresent()) {
          assertThat(point).as("truncation point after takeover %d", round).isPresent();
          assertThat(point.get()).isGreaterThanOrEqualTo(acknowledged.get());
        }
        int from = AgentReplay.resumeIndex(stream, point);
        int batchesBeforeKill = 1 + random.nextInt(40);
        int sent = 0;
        for (List<LtlCommand> batch : Origin.chunks(stream.subList(from, stream.size()), 25)) {
          client.sendBatch(o.text(batch));
          if (++sent == batchesBeforeKill) {
            break;
          }
        }
        // Kill once this round got something acknowledged (Kafka's first write of a process takes
        // longer than a file write), with the batches sent after it possibly still in flight.
        Optional<Oqid> before = point;
        Optional<Oqid> now =
            await()
                .atMost(READY)
                .until(
                    () -> client.truncation().get(30, TimeUnit.SECONDS),
                    p ->
                        p.isPresent() && (before.isEmpty() || p.get().compareTo(before.get()) > 0));
        acknowledged = AgentReplay.max(acknowledged, now);
        assertThat(standby.isReady())
            .as("the standby waits while the active server runs")
            .isFalse();
        long killed = System.nanoTime();
        active.kill();
        client.close();
        standby.awaitReady(READY);
        takeoverMs.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed));
        activeIndex = 1 - activeIndex;
        active = standby;
        standby = ServerProcess.launch(configs[1 - activeIndex]);
      }

      LtlClient client = AgentReplay.connect(ports[activeIndex], "kstandby-agent");
      Optional<Oqid> point = client.welcome().truncationPoint();
      assertThat(point.orElseThrow()).isGreaterThanOrEqualTo(acknowledged.orElseThrow());
      for (List<LtlCommand> batch :
          Origin.chunks(
              stream.subList(AgentReplay.resumeIndex(stream, point), stream.size()), 25)) {
        client.sendBatch(o.text(batch));
      }
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> client.truncation().get(30, TimeUnit.SECONDS),
              p -> p.equals(Optional.of(last)));
      client.close();
      standby.kill();
      assertThat(active.stop()).as("graceful shutdown completed:\n%s", active.tail()).isTrue();
    } finally {
      active.close();
      standby.close();
    }
    LOG.warn(
        "Kafka standby takeovers (server_lease_ms {}), SIGKILL to ready: {} ms",
        LEASE_MS,
        takeoverMs);
    // Neither directory holds a queue: the queues were in Kafka all along.
    for (Path d : List.of(dirA, dirB)) {
      assertThat(d.resolve("queues")).doesNotExist();
      assertThat(d.resolve("p1")).doesNotExist();
    }

    // Read back through a server in a third, empty directory (with the key): only Kafka and the
    // RSSD are shared.
    Path dirC = Files.createDirectories(dir.resolve("c"));
    Files.copy(
        dirA.resolve(SecretKeyFile.DEFAULT_NAME),
        dirC.resolve(SecretKeyFile.DEFAULT_NAME),
        StandardCopyOption.COPY_ATTRIBUTES);
    try (ReplicationServer s =
        ReplicationServer.start(inProcess(dirC), new SimpleMeterRegistry(), () -> {})) {
      AgentReplay.assertOutboundHoldsEachCommitOnce(s, stream);
    }
  }
}
