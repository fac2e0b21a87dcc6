package io.openrs.repserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import io.openrs.config.rssd.Rssd;
import io.openrs.config.rssd.RssdSettings;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.queue.file.PartitionSpec;
import io.openrs.repserver.support.AgentReplay;
import io.openrs.repserver.support.Origin;
import io.openrs.repserver.support.ReplicateDb;
import io.openrs.repserver.support.ServerProcess;
import io.openrs.repserver.support.TestServers;
import io.openrs.wire.LtlClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Two server processes share one data directory and an RSSD on PostgreSQL, with {@code
 * server_lease_ms}: one is active, the other waits for the lease. SIGKILL of the active one at a
 * random moment while an agent streams (fixed seed, bounded rounds): the standby takes over, the
 * agent resumes there from the truncation point it is given, and in the end the outbound queue
 * holds every transaction exactly once, in commit order. The time from each kill to the standby's
 * ready line is logged (median and max).
 */
class StandbyTakeoverIT {

  private static final Logger LOG = LoggerFactory.getLogger(StandbyTakeoverIT.class);
  private static final String PG_URL = "jdbc:postgresql://127.0.0.1:5432/openrs_test";
  private static final TableName ORDERS = new TableName("shop", "orders");
  private static final long SEED = Long.getLong("openrs.standby.seed", 20261127L);
  private static final int ROUNDS = Integer.getInteger("openrs.standby.rounds", 3);
  private static final long LEASE_MS = 3000;
  private static final Duration READY = Duration.ofSeconds(60);

  @TempDir Path dir;
  private String schema;

  @BeforeEach
  void freshRssdSchema() throws Exception {
    schema = "rssd_standby_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);
    sql("create schema " + schema);
  }

  @AfterEach
  void dropRssdSchema() throws Exception {
    sql("drop schema if exists " + schema + " cascade");
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

  /** The servers' shared directory and RSSD, for this JVM (the set-up and the final check). */
  private ServerSettings inProcess() {
    Map<String, String> p = new HashMap<>();
    p.put("ltl_port", "0");
    p.put("admin_port", "0");
    p.put("listen_address", "127.0.0.1");
    p.put("prometheus_port", "0");
    p.put("sqm_segment_size", "1048576");
    p.put("block_size", "16384");
    return new ServerSettings(
        "STANDBY_RS",
        dir,
        ParameterValues.of(Scope.SERVER, p),
        List.of(new PartitionSpec("p1", dir.resolve("p1"), 512L * 1024 * 1024)),
        new RssdSettings(rssdUrl(), ReplicateDb.USER, ReplicateDb.PASSWORD, Optional.empty()),
        Optional.of(TestServers.ADMIN_PASSWORD.toCharArray()));
  }

  private Path config(String file, int ltlPort) throws Exception {
    Path cfg = dir.resolve(file);
    Files.write(
        cfg,
        List.of(
            "rs_name = STANDBY_RS",
            "data_directory = .",
            "listen_address = 127.0.0.1",
            "ltl_port = " + ltlPort,
            "prometheus_port = 0",
            "admin_port = 0",
            "sqm_write_flush = on",
            "sqm_segment_size = 1048576",
            "block_size = 16384",
            "partition.p1 = p1 512m",
            "rssd_url = " + rssdUrl(),
            "rssd_user = " + ReplicateDb.USER,
            "server_lease_ms = " + LEASE_MS),
        StandardCharsets.UTF_8);
    return cfg;
  }

  @Test
  @Timeout(600)
  void theStandbyTakesOverAfterASigkillAndNothingIsLostOrDoubled() throws Exception {
    try (ReplicationServer s =
        ReplicationServer.start(inProcess(), new SimpleMeterRegistry(), () -> {})) {
      AgentReplay.ordersSubscribed(s);
    }
    int[] ports = {ServerProcess.freePort(), ServerProcess.freePort()};
    Path[] configs = {config("a.cfg", ports[0]), config("b.cfg", ports[1])};

    Random random = new Random(SEED);
    Origin o = new Origin();
    List<LtlCommand> stream = AgentReplay.orderTransactions(o, random, 500);
    Oqid last = ((LtlCommand.InTransaction) stream.get(stream.size() - 1)).oqid();

    List<Long> takeoverMs = new ArrayList<>();
    Optional<Oqid> acknowledged = Optional.empty();
    int activeIndex = 0;
    ServerProcess active = ServerProcess.start(configs[0], READY);
    ServerProcess standby = ServerProcess.launch(configs[1]);
    try {
      for (int round = 0; round < ROUNDS; round++) {
        LtlClient client = AgentReplay.connect(ports[activeIndex], "standby-agent");
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
        acknowledged = AgentReplay.max(acknowledged, client.truncation().get(30, TimeUnit.SECONDS));
        assertThat(standby.isReady())
            .as("the standby waits while the active server runs")
            .isFalse();
        long killed = System.nanoTime();
        active.kill();
        client.close();
        standby.awaitReady(READY);
        takeoverMs.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed));
        LOG.info(
            "takeover {}: standby ready {} ms after the SIGKILL of the active server",
            round + 1,
            takeoverMs.get(takeoverMs.size() - 1));
        activeIndex = 1 - activeIndex;
        active = standby;
        standby = ServerProcess.launch(configs[1 - activeIndex]);
      }

      LtlClient client = AgentReplay.connect(ports[activeIndex], "standby-agent");
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
    List<Long> sorted = takeoverMs.stream().sorted().toList();
    LOG.warn(
        "standby takeover over {} SIGKILLs (server_lease_ms {}): median {} ms, max {} ms",
        sorted.size(),
        LEASE_MS,
        sorted.get(sorted.size() / 2),
        sorted.get(sorted.size() - 1));
    try (Rssd rssd = Rssd.open(inProcess().rssd())) {
      assertThat(rssd.lease().read().holder()).as("released by the graceful stop").isEmpty();
    }

    try (ReplicationServer s =
        ReplicationServer.start(inProcess(), new SimpleMeterRegistry(), () -> {})) {
      AgentReplay.assertOutboundHoldsEachCommitOnce(s, stream);
    }
  }
}
