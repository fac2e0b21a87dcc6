package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.repagent.support.AgentHarness;
import io.openrs.repagent.support.TestPostgres;
import io.openrs.repserver.origin.OriginPipeline;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PostgreSQL slot may be confirmed past the resume blob the server hands the next agent, but
 * never past the last transaction the server holds: a server stopped after it made a transaction
 * durable and before it saved the blob covering it keeps the older blob (found by {@code
 * PostgresAgentCrashIT}: the agent refused to start with RA-7 although nothing was missing). The
 * agent then resumes from the slot and delivers every transaction committed after it; a slot
 * confirmed past the server's truncation point (changes the server never received are gone) is
 * refused with RA-7.
 */
class SlotPastSavedResumeIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final Map<String, String> CONFIG =
      Map.of(
          "offset_flush_interval_ms", "100",
          "heartbeat_interval_ms", "0",
          "retry_min_backoff_ms", "50",
          "retry_max_backoff_ms", "200");

  @TempDir Path dir;
  private AgentHarness h;
  private String table;

  @BeforeEach
  void setUp() throws Exception {
    h = new AgentHarness(dir);
    h.startServer();
    table = h.schema + ".past";
    TestPostgres.exec("CREATE TABLE " + table + " (id int PRIMARY KEY)");
  }

  @AfterEach
  void tearDown() throws Exception {
    h.close();
  }

  @Test
  void anAgentResumesFromASlotPastTheSavedBlobButBehindTheServer() throws Exception {
    byte[] older = deliverAndStop(1);
    long olderCommitEnd = commitEnd(origin().state().durableOqid().orElseThrow());
    // WAL after row 1's commit and a running-transactions record after it, so the slot's restart
    // point moves past that commit once row 2 is confirmed (the shape the crash test met).
    TestPostgres.exec("SELECT pg_switch_wal()", "CHECKPOINT");
    deliverAndStop(2);
    // The server holds row 2 and the slot is confirmed at its commit; the RSSD gets the blob of
    // the stop before it back, as if the server had stopped before saving the newer one.
    OriginPipeline origin = origin();
    Oqid durable = origin.state().durableOqid().orElseThrow();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(TestPostgres.confirmedFlushLsn(h.slot))
                    .as("the slot confirmed at the last commit the server holds")
                    .contains(commitEnd(durable)));
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(TestPostgres.restartLsn(h.slot).orElseThrow())
                    .as("the slot's restart_lsn past the older blob's commit end")
                    .isGreaterThan(olderCommitEnd));
    h.server.rssd().locators().save(origin.state().connectionId(), durable.toBytes(), older);
    h.stopServer();
    h.startServer();
    assertThat(origin().locator().resumeBlob()).isEqualTo(older);

    TestPostgres.exec("INSERT INTO " + table + " VALUES (3)");
    RepAgent agent = h.startAgent(CONFIG);
    await().atMost(WAIT).untilAsserted(() -> assertThat(inserted()).contains(3));
    assertThat(agent.state()).isEqualTo(RepAgent.State.REPLICATING);
    assertThat(inserted()).as("each row once, in commit order").containsExactly(1, 2, 3);
    agent.close();
  }

  @Test
  void aSlotConfirmedPastTheServersTruncationPointIsRefused() throws Exception {
    deliverAndStop(1);
    // Committed and confirmed in the slot behind the agent's back: the server never gets it.
    TestPostgres.exec("INSERT INTO " + table + " VALUES (2)");
    TestPostgres.exec("SELECT pg_replication_slot_advance('" + h.slot + "', pg_current_wal_lsn())");
    RepAgent agent = h.startAgent(CONFIG);
    await().atMost(WAIT).until(() -> agent.state() == RepAgent.State.FAILED);
    assertThat(agent.failure())
        .hasValueSatisfying(
            f ->
                assertThat(f.getMessage())
                    .startsWith("RA-7 ")
                    .contains("replication slot " + h.slot + " was confirmed up to")
                    .contains("the end of the last transaction the server holds"));
    assertThat(inserted()).containsExactly(1);
  }

  /**
   * Inserts row {@code id}, waits until the server holds it, stops the agent (which hands over a
   * resume blob covering it) and returns the blob the server saved.
   */
  private byte[] deliverAndStop(int id) throws Exception {
    RepAgent agent = h.startAgent(CONFIG);
    await().atMost(WAIT).until(() -> agent.state() == RepAgent.State.REPLICATING);
    await().atMost(WAIT).until(() -> TestPostgres.confirmedFlushLsn(h.slot).isPresent());
    TestPostgres.exec("INSERT INTO " + table + " VALUES (" + id + ")");
    await().atMost(WAIT).untilAsserted(() -> assertThat(inserted()).contains(id));
    agent.close();
    return origin().locator().resumeBlob();
  }

  /** The commit end LSN a PostgreSQL OQID starts with (docs/ltl.md). */
  private static long commitEnd(Oqid oqid) {
    return java.nio.ByteBuffer.wrap(oqid.toBytes()).getLong();
  }

  private OriginPipeline origin() {
    return h.server.origin(AgentHarness.DS, AgentHarness.DB).orElseThrow();
  }

  /** The ids of the inserts into the table that reached the server's inbound queue. */
  private List<Integer> inserted() throws Exception {
    List<Integer> ids = new ArrayList<>();
    for (LtlCommand.InTransaction c : h.inbound()) {
      if (c instanceof LtlCommand.Insert i && i.table().table().equals("past")) {
        ids.add(((io.openrs.ltl.Value.Int32) i.after().get(0).value()).value());
      }
    }
    return ids;
  }
}
