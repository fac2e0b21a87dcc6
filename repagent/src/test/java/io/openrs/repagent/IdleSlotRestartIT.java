package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.ltl.LtlCommand;
import io.openrs.repagent.support.AgentHarness;
import io.openrs.repagent.support.TestPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On an idle primary the slot's {@code restart_lsn} catches up with its confirmed position: the
 * first WAL record after the last commit is a running-transactions record (a checkpoint, or the
 * background writer every 15 s), and once the agent confirms that commit PostgreSQL may restart
 * decoding right there. The agent's resume offset names the same position, with {@code lsn_proc}
 * one byte before it ({@link PostgresResumeOffsets}); Debezium's own position check compared that
 * with {@code restart_lsn} and refused to start, at every retry (found by the native benchmark: an
 * agent restarted after an idle spell never replicated again). The agent must start and deliver
 * what was committed while it was stopped.
 */
class IdleSlotRestartIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;
  private AgentHarness h;

  @BeforeEach
  void setUp() throws Exception {
    h = new AgentHarness(dir);
    h.startServer();
  }

  @AfterEach
  void tearDown() throws Exception {
    h.close();
  }

  @Test
  void anAgentRestartsFromASlotWhoseRestartPointIsItsLastCommit() throws Exception {
    String table = h.schema + ".idle";
    TestPostgres.exec("CREATE TABLE " + table + " (id int PRIMARY KEY)");
    Map<String, String> config =
        new java.util.HashMap<>(
            Map.of("offset_flush_interval_ms", "100", "heartbeat_interval_ms", "0"));
    if (Boolean.getBoolean("idleSlot.debeziumCheck")) {
      config.put("debezium.internal.log.position.check.enable", "true");
    }
    RepAgent agent = h.startAgent(config);
    await().atMost(WAIT).until(() -> agent.state() == RepAgent.State.REPLICATING);
    // The agent captures from its slot's creation on.
    await().atMost(WAIT).until(() -> TestPostgres.confirmedFlushLsn(h.slot).isPresent());
    // A commit followed at once by a checkpoint's running-transactions record; the slot's restart
    // point moves onto the commit's end once the agent confirms it. Other sessions writing WAL in
    // between can put the record elsewhere, so a few attempts, each bounded.
    boolean idleState = false;
    for (int id = 1; id <= 5 && !idleState; id++) {
      TestPostgres.exec("INSERT INTO " + table + " VALUES (" + id + ")", "CHECKPOINT");
      int row = id;
      await()
          .atMost(WAIT)
          .untilAsserted(() -> assertThat(inserted()).contains(String.valueOf(row)));
      try {
        await()
            .atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(50))
            .until(
                () -> {
                  Optional<Long> restart = TestPostgres.restartLsn(h.slot);
                  Optional<Long> confirmed = TestPostgres.confirmedFlushLsn(h.slot);
                  return restart.isPresent() && restart.equals(confirmed);
                });
        idleState = true;
      } catch (org.awaitility.core.ConditionTimeoutException notYet) {
        // another session wrote WAL between the commit and the checkpoint: try again
      }
    }
    assertThat(idleState)
        .as("the slot's restart_lsn reached its confirmed_flush_lsn in one of 5 attempts")
        .isTrue();
    agent.close();
    TestPostgres.exec("INSERT INTO " + table + " VALUES (100)");
    RepAgent again = h.startAgent(config);
    await().atMost(WAIT).untilAsserted(() -> assertThat(inserted()).contains("100"));
    assertThat(again.state()).isEqualTo(RepAgent.State.REPLICATING);
  }

  /** The ids of the inserts into the table that reached the server's inbound queue. */
  private java.util.List<String> inserted() throws Exception {
    java.util.List<String> ids = new java.util.ArrayList<>();
    for (LtlCommand.InTransaction c : h.inbound()) {
      if (c instanceof LtlCommand.Insert i && i.table().table().equals("idle")) {
        io.openrs.ltl.Value v = i.after().get(0).value();
        ids.add(
            v instanceof io.openrs.ltl.Value.Int32 n ? Integer.toString(n.value()) : v.toString());
      }
    }
    return ids;
  }
}
