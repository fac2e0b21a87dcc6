package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.repagent.support.AgentHarness;
import io.openrs.repagent.support.QueueContents.Transaction;
import io.openrs.repagent.support.TestPki;
import io.openrs.repagent.support.TestPostgres;
import io.openrs.repagent.support.Workload;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's configuration reaches its link (issue 28): {@code rs_tls verify-full} against a
 * server with {@code ltl_tls = required}, and {@code rs_compression} negotiated with the server's
 * {@code ltl_compression}; a PostgreSQL transaction arrives whole and the agent counts the bytes
 * saved.
 */
class PostgresAgentTransportIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;
  @TempDir Path pkiDir;
  private AgentHarness h;

  @AfterEach
  void tearDown() throws Exception {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void anAgentWithVerifyFullAndZstdDeliversATransactionOverTls() throws Exception {
    TestPki pki = TestPki.create(pkiDir);
    h = new AgentHarness(dir);
    h.serverOverride("ltl_tls", "required")
        .serverOverride("ltl_tls_certificate", pki.serverCertificate().toString())
        .serverOverride("ltl_tls_private_key", pki.serverKey().toString())
        .serverOverride("ltl_compression", "zstd");
    h.startServer();
    Workload.createTables(h.schema);
    RepAgent agent =
        h.startAgent(
            Map.of(
                "rs_host", "localhost",
                "rs_tls", "verify-full",
                "rs_tls_root_cert", pki.caCertificate().toString(),
                "rs_compression", "lz4,zstd"));
    await().atMost(WAIT).until(() -> agent.state() == RepAgent.State.REPLICATING);
    await().atMost(WAIT).until(() -> TestPostgres.confirmedFlushLsn(h.slot).isPresent());
    int rows = 3_000;
    try (Connection c = TestPostgres.connect()) {
      c.setAutoCommit(false);
      new Workload(h.schema).transaction(c, "big", rows, false);
    }
    await().atMost(WAIT).until(() -> h.outbound().size() == 1);
    Transaction t = h.outbound().get(0);
    assertThat(t.body()).hasSize(rows + 1);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(agent.counters().get(AgentCounter.RA_FRAME_BYTES_SENT))
                    .as("zstd, the server's only method, was chosen: frames shrink on the wire")
                    .isGreaterThan(3 * agent.counters().get(AgentCounter.RA_WIRE_BYTES_SENT))
                    .isGreaterThan(agent.counters().get(AgentCounter.RA_BYTES_SENT)));
  }
}
