package io.openrs.repserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.repserver.support.AgentReplay;
import io.openrs.repserver.support.Origin;
import io.openrs.repserver.support.ServerProcess;
import io.openrs.repserver.support.TestServers;
import io.openrs.wire.LtlClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kills the server process with SIGKILL at random moments while an agent streams (fixed seed,
 * bounded rounds). The agent resumes from the truncation point it is given at each handshake. In
 * the end the outbound queue holds every change exactly once, in commit order, and no truncation
 * point the server ever gave went backwards.
 */
class ServerCrashIT {

  private static final Logger LOG = LoggerFactory.getLogger(ServerCrashIT.class);
  private static final TableName ORDERS = new TableName("shop", "orders");
  private static final long SEED = Long.getLong("openrs.crash.seed", 20261121L);
  private static final int ROUNDS = Integer.getInteger("openrs.crash.rounds", 5);

  @TempDir Path dir;

  @Test
  void everyAcknowledgedChangeSurvivesSigkillExactlyOnce() throws Exception {
    Random random = new Random(SEED);
    int port = ServerProcess.freePort();
    Map<String, String> params =
        Map.of(
            "ltl_port",
            String.valueOf(port),
            "sqm_write_flush",
            "on",
            "sqm_segment_size",
            String.valueOf(1024 * 1024),
            "block_size",
            "16384");
    try (ReplicationServer s = TestServers.start(dir, params)) {
      AgentReplay.ordersSubscribed(s);
    }
    Path config =
        ServerProcess.writeConfig(
            dir,
            List.of(
                "rs_name = CRASH_RS",
                "data_directory = .",
                "listen_address = 127.0.0.1",
                "ltl_port = " + port,
                "prometheus_port = 0",
                "admin_port = 0",
                "sqm_write_flush = on",
                "sqm_segment_size = 1048576",
                "block_size = 16384",
                "partition.p1 = p1 512m"));

    Origin o = new Origin();
    List<LtlCommand> stream = AgentReplay.orderTransactions(o, random, 600);
    Oqid last = ((LtlCommand.InTransaction) stream.get(stream.size() - 1)).oqid();

    Optional<Oqid> acknowledged = Optional.empty();
    for (int round = 0; round < ROUNDS; round++) {
      try (ServerProcess server = ServerProcess.start(config, Duration.ofSeconds(60))) {
        LtlClient client = AgentReplay.connect(port, "crash-agent");
        Optional<Oqid> point = client.welcome().truncationPoint();
        if (acknowledged.isPresent()) {
          assertThat(point).as("truncation point after round %d", round).isPresent();
          assertThat(point.get()).isGreaterThanOrEqualTo(acknowledged.get());
        }
        int from = AgentReplay.resumeIndex(stream, point);
        int batchesBeforeKill = 1 + random.nextInt(60);
        int sent = 0;
        for (List<LtlCommand> batch : Origin.chunks(stream.subList(from, stream.size()), 25)) {
          client.sendBatch(o.text(batch));
          if (++sent % 10 == 0) {
            acknowledged =
                AgentReplay.max(acknowledged, client.truncation().get(30, TimeUnit.SECONDS));
          }
          if (sent == batchesBeforeKill) {
            break;
          }
        }
        acknowledged = AgentReplay.max(acknowledged, client.truncation().get(30, TimeUnit.SECONDS));
        LOG.info(
            "round {}: resumed at command {}, sent {} batches, acknowledged {}; SIGKILL",
            round,
            from,
            sent,
            acknowledged);
        server.kill();
        client.close();
      }
    }

    try (ServerProcess server = ServerProcess.start(config, Duration.ofSeconds(60))) {
      LtlClient client = AgentReplay.connect(port, "crash-agent");
      Optional<Oqid> point = client.welcome().truncationPoint();
      if (acknowledged.isPresent()) {
        assertThat(point.orElseThrow()).isGreaterThanOrEqualTo(acknowledged.get());
      }
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
      assertThat(server.stop()).as("graceful shutdown completed:\n%s", server.tail()).isTrue();
    }

    try (ReplicationServer s = TestServers.start(dir, params)) {
      AgentReplay.assertOutboundHoldsEachCommitOnce(s, stream);
    }
  }
}
