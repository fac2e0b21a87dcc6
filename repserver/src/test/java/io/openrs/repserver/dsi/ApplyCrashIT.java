package io.openrs.repserver.dsi;

import static io.openrs.repserver.support.Origin.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.RepDefColumn;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.repserver.ReplicationServer;
import io.openrs.repserver.support.AgentReplay;
import io.openrs.repserver.support.Origin;
import io.openrs.repserver.support.ReplicateDb;
import io.openrs.repserver.support.ServerProcess;
import io.openrs.repserver.support.TestServers;
import io.openrs.wire.BatchAnswer;
import io.openrs.wire.LtlClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly once at the replicate across SIGKILLs of the server while its DSI applies a backlog
 * (fixed seed, bounded rounds): the agent resumes from each new truncation point, the DSI from its
 * queue position and {@code rs_lastcommit}. A keyless table makes a transaction applied twice
 * visible as duplicate rows; a keyed one makes it stop the DSI with a unique violation.
 */
class ApplyCrashIT {

  private static final Logger LOG = LoggerFactory.getLogger(ApplyCrashIT.class);
  private static final TableName ORDERS = new TableName("shop", "orders");
  private static final TableName AUDIT = new TableName("shop", "audit");
  private static final long SEED = Long.getLong("openrs.crash.seed", 20261121L);
  private static final int ROUNDS = Integer.getInteger("openrs.crash.rounds", 4);

  @TempDir Path dir;

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void everyCommittedTransactionReachesTheReplicateOnceAcrossServerKills() throws Exception {
    Random random = new Random(SEED);
    int port = ServerProcess.freePort();
    try (ReplicateDb replicate = ReplicateDb.create("rs_crash")) {
      replicate.exec(
          "CREATE TABLE public.orders (id int PRIMARY KEY, note text)",
          "CREATE TABLE public.audit (tran int, seq int, note text)");
      Map<String, String> params = Map.of("ltl_port", String.valueOf(port));
      try (ReplicationServer s = TestServers.start(dir, params)) {
        ConnectionDef primary =
            s.createConnection("pds", "pdb", Profile.POSTGRESQL, true, Map.of());
        Map<String, String> settings = new LinkedHashMap<>(replicate.connectionSettings());
        settings.put("dsi_max_xacts_in_group", "5");
        s.createConnection("rds", replicate.name(), Profile.POSTGRESQL, false, settings);
        s.catalog()
            .createRepDef(
                new RepDef(
                    "orders_rd",
                    primary.id(),
                    "shop",
                    "orders",
                    "public",
                    "orders",
                    List.of(new RepDefColumn("id", "int"), new RepDefColumn("note", "text")),
                    List.of("id"),
                    List.of()));
        s.catalog()
            .createRepDef(
                new RepDef(
                    "audit_rd",
                    primary.id(),
                    "shop",
                    "audit",
                    "public",
                    "audit",
                    List.of(
                        new RepDefColumn("tran", "int"),
                        new RepDefColumn("seq", "int"),
                        new RepDefColumn("note", "text")),
                    List.of(),
                    List.of()));
        s.catalog()
            .subscriptions()
            .create("orders_sub", "orders_rd", false, "rds", replicate.name(), none());
        s.catalog()
            .subscriptions()
            .create("audit_sub", "audit_rd", false, "rds", replicate.name(), none());
        // Suspended while the connections are made in-process: the processes below apply.
        s.suspendConnection("rds", replicate.name());
        s.resumeConnection("rds", replicate.name(), false);
      }
      Path config =
          ServerProcess.writeConfig(
              dir,
              List.of(
                  "rs_name = TEST_RS",
                  "data_directory = .",
                  "listen_address = 127.0.0.1",
                  "ltl_port = " + port,
                  "prometheus_port = 0",
                  "admin_port = 0",
                  "sqm_write_flush = on",
                  "sqm_segment_size = 4194304",
                  "partition.p1 = p1 512m"));

      Origin o = new Origin();
      List<LtlCommand> stream = new ArrayList<>();
      int transactions = 800;
      int committedRows = 0;
      int auditRows = 0;
      Oqid lastCommit = null;
      for (int t = 1; t <= transactions; t++) {
        stream.add(o.begin(t));
        int rows = 1 + random.nextInt(12);
        for (int r = 0; r < rows; r++) {
          stream.add(o.insert(t, ORDERS, col("id", t * 100 + r), col("note", "t" + t + "r" + r)));
          stream.add(o.insert(t, AUDIT, col("tran", t), col("seq", r), col("note", "a" + r)));
        }
        if (random.nextInt(20) == 0) {
          stream.add(o.rollback(t));
        } else {
          LtlCommand.Commit c = o.commit(t);
          stream.add(c);
          lastCommit = c.oqid();
          committedRows += rows;
          auditRows += rows;
        }
      }

      List<Integer> appliedAtKills = new ArrayList<>();
      for (int round = 0; round < ROUNDS; round++) {
        try (ServerProcess server = ServerProcess.start(config, Duration.ofSeconds(60))) {
          LtlClient client = AgentReplay.connect(port, "crash-agent");
          int from = AgentReplay.resumeIndex(stream, client.welcome().truncationPoint());
          List<List<LtlCommand>> batches = Origin.chunks(stream.subList(from, stream.size()), 200);
          int sendBatches = Math.min(batches.size(), 5 + random.nextInt(25));
          List<CompletableFuture<BatchAnswer>> answers = new ArrayList<>();
          for (List<LtlCommand> batch : batches.subList(0, sendBatches)) {
            answers.add(client.sendBatch(o.text(batch)));
          }
          for (CompletableFuture<BatchAnswer> a : answers) {
            assertThat(a.get(60, TimeUnit.SECONDS)).isInstanceOf(BatchAnswer.Accepted.class);
          }
          // Let the DSI get into the backlog, then kill the server in the middle of applying.
          int target = replicateCount(replicate) + 50 + random.nextInt(400);
          await()
              .atMost(Duration.ofSeconds(60))
              .until(
                  () ->
                      replicateCount(replicate) >= target
                          || client
                              .truncation()
                              .get(10, TimeUnit.SECONDS)
                              .map(p -> p.equals(lastOqid(stream)))
                              .orElse(false));
          int applied = replicateCount(replicate);
          LOG.info(
              "round {}: resumed at command {}, sent {} batches, {} rows applied; SIGKILL",
              round,
              from,
              sendBatches,
              applied);
          server.kill();
          appliedAtKills.add(applied);
          client.close();
        }
      }

      try (ServerProcess server = ServerProcess.start(config, Duration.ofSeconds(60))) {
        LtlClient client = AgentReplay.connect(port, "crash-agent");
        int from = AgentReplay.resumeIndex(stream, client.welcome().truncationPoint());
        for (List<LtlCommand> batch : Origin.chunks(stream.subList(from, stream.size()), 200)) {
          assertThat(client.sendBatch(o.text(batch)).get(60, TimeUnit.SECONDS))
              .isInstanceOf(BatchAnswer.Accepted.class);
        }
        Oqid last = lastCommit;
        await()
            .atMost(Duration.ofSeconds(120))
            .until(
                () -> replicate.rows("SELECT encode(origin_qid, 'hex') FROM rs_lastcommit"),
                rows -> rows.equals(List.of(HexFormat.of().formatHex(last.toBytes()))));
        client.close();
        assertThat(server.stop()).as("graceful shutdown:\n%s", server.tail()).isTrue();
      }
      int total = committedRows;
      assertThat(appliedAtKills)
          .as("rows applied when the server was killed")
          .anyMatch(n -> n > 0 && n < total);
      assertThat(replicate.rows("SELECT count(*), count(DISTINCT id) FROM public.orders"))
          .containsExactly(committedRows + "|" + committedRows);
      assertThat(replicate.rows("SELECT count(*), count(DISTINCT (tran, seq)) FROM public.audit"))
          .as("no audit row twice")
          .containsExactly(auditRows + "|" + auditRows);
      List<String> expectedIds = new ArrayList<>();
      boolean open = false;
      List<String> pending = new ArrayList<>();
      for (LtlCommand c : stream) {
        if (c instanceof LtlCommand.Begin) {
          pending.clear();
          open = true;
        } else if (c instanceof LtlCommand.Insert i && open && i.table().equals(ORDERS)) {
          pending.add(i.after().get(0).value().toString());
        } else if (c instanceof LtlCommand.Commit) {
          expectedIds.addAll(pending);
          open = false;
        } else if (c instanceof LtlCommand.Rollback) {
          open = false;
        }
      }
      assertThat(replicate.rows("SELECT count(*) FROM public.orders"))
          .containsExactly(String.valueOf(expectedIds.size()));
    }
  }

  private static Optional<String> none() {
    return Optional.empty();
  }

  private static int replicateCount(ReplicateDb db) throws Exception {
    return Integer.parseInt(db.rows("SELECT count(*) FROM public.orders").get(0));
  }

  private static Oqid lastOqid(List<LtlCommand> stream) {
    return ((LtlCommand.InTransaction) stream.get(stream.size() - 1)).oqid();
  }
}
