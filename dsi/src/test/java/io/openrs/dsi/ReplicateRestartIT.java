package io.openrs.dsi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.dsi.testkit.Awaits;
import io.openrs.dsi.testkit.OutboundQueueFixture;
import io.openrs.dsi.testkit.PrivatePostgres;
import io.openrs.dsi.testkit.RecordingSink;
import io.openrs.dsi.testkit.Replicate;
import io.openrs.dsi.testkit.TestDb;
import io.openrs.dsi.testkit.Workload;
import io.openrs.ltl.Oqid;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The replicate database crashes in the middle of applying: a private PostgreSQL instance ({@link
 * PrivatePostgres}; as root it runs as user postgres through {@code runuser}, which needs root) is
 * stopped with {@code pg_ctl stop -m immediate} at three points of a long backlog (fixed seed) and
 * started again (crash recovery). The DSI reconnects, re-reads {@code rs_lastcommit} and goes on:
 * the replicate ends equal to the reference model, which a transaction applied twice (rows in the
 * table without a key, duplicate keys, moved values) or missing would break, and {@code
 * rs_lastcommit} holds every origin's last commit. Continuous mode, and the parallel DSI with a
 * large-transaction thread and large transactions in the stream; and with {@code
 * dsi_synchronous_commit off} (continuous and HVAR), where the crash loses the commits not yet
 * flushed and the DSI must apply them again from the outbound queue.
 */
class ReplicateRestartIT {
  private static final int REPLICATE = 201;

  private static PrivatePostgres pg;

  @TempDir Path dir;

  @BeforeAll
  static void startPrivateServer() throws Exception {
    pg = PrivatePostgres.start();
  }

  @AfterAll
  static void stopPrivateServer() throws Exception {
    if (pg != null) {
      pg.close();
    }
  }

  static Stream<Arguments> modes() {
    return Stream.of(
        Arguments.of("continuous", ContinuousApplyIT.settings("dsi_max_xacts_in_group", "3")),
        // Commits return before the WAL flush: the crash loses the last ones, which the queue
        // must still hold (it is confirmed only behind pg_current_wal_flush_lsn()).
        Arguments.of(
            "continuous, dsi_synchronous_commit off",
            ContinuousApplyIT.settings(
                "dsi_max_xacts_in_group", "3", "dsi_synchronous_commit", "off")),
        Arguments.of(
            "hvar, dsi_synchronous_commit off",
            ContinuousApplyIT.settings(
                "dsi_compile_enable", "on", "dsi_synchronous_commit", "off")),
        Arguments.of(
            "parallel",
            ContinuousApplyIT.settings(
                    "dsi_num_threads",
                    "4",
                    "dsi_num_large_xact_threads",
                    "1",
                    "dsi_large_xact_size",
                    "20",
                    "dsi_max_xacts_in_group",
                    "3")
                .withSerializationMethod(SerializationMethod.DEPENDENCY_AWARE)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("modes")
  void theReplicateCrashesWhileApplyingAndEndsExactlyOnce(String mode, DsiSettings settings)
      throws Exception {
    try (TestDb.Scratch s = TestDb.postgresScratchAt(pg.baseUrl(), "dsi_crash");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(Workload.ddl(TestDb.POSTGRESQL).toArray(String[]::new));
      Workload w = new Workload(TestDb.POSTGRESQL, s.name(), 2024, 0.15);
      List<Workload.Tx> txs = w.next(1500);
      q.append(txs);
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              settings,
              new RecordingSink(),
              new SimpleMeterRegistry())) {
        for (int round = 1; round <= 3; round++) {
          Oqid mark = ContinuousApplyIT.oqidOf101(txs, round * txs.size() / 5);
          await()
              .atMost(Duration.ofSeconds(60))
              .pollInterval(Duration.ofMillis(20))
              .until(
                  () -> {
                    Oqid at = Replicate.lastCommits(s).get(101);
                    return at != null && at.compareTo(mark) >= 0;
                  });
          pg.stopImmediately();
          assertThat(pg.accepting()).isFalse();
          pg.startServer();
        }
        Awaits.applied(dsi, s, w.lastCommits());
        w.assertReplicaMatches(s);
        assertThat(dsi.counter(DsiCounter.RECONNECTS)).isPositive();
        if (!settings.synchronousCommit()) {
          assertThat(dsi.counter(DsiCounter.LOG_FLUSH_CHECKS)).isPositive();
          // Once the WAL writer has flushed the last commits, the queue is confirmed to its end.
          await()
              .atMost(Duration.ofSeconds(5))
              .pollInterval(Duration.ofMillis(20))
              .until(
                  () -> {
                    var info = q.queue().info();
                    return info.readers().stream()
                        .anyMatch(
                            r ->
                                r.name().equals("DSI")
                                    && r.confirmed().isPresent()
                                    && r.confirmed().equals(info.lastPosition()));
                  });
        }
        assertThat(dsi.state()).isEqualTo(DsiState.RUNNING);
      }
    }
  }
}
