package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.repagent.support.AgentHarness;
import io.openrs.repagent.support.TestPostgres;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Invariant 2 for the resume position: the slot's confirmed position never passes the resume blob
 * the server has saved in its RSSD (else, after a reconnect, Debezium would find the blob's
 * position older than the slot's {@code restart_lsn} and refuse it for good: RA-6). The agent
 * commits Debezium's offsets to the slot only once the server confirmed the blob saved.
 */
class SlotBehindSavedResumeIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final Pattern LSN = Pattern.compile("\"(lsn_commit|lsn_proc|lsn)\":(\\d+)");

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
  void theSlotNeverPassesTheSavedResumePosition() throws Exception {
    String table = h.schema + ".ticks";
    TestPostgres.exec("CREATE TABLE " + table + " (id int PRIMARY KEY, pad text)");
    RepAgent agent = h.startAgent(Map.of("offset_flush_interval_ms", "100"));
    await().atMost(WAIT).until(() -> agent.state() == RepAgent.State.REPLICATING);
    long start = TestPostgres.currentLsn();
    int samples = 0;
    for (int i = 1; i <= 300; i++) {
      TestPostgres.exec("INSERT INTO " + table + " VALUES (" + i + ", repeat('x', 200))");
      // The slot first: a blob read after it is at least as new as the one saved before the
      // slot moved.
      java.util.Optional<Long> slot = TestPostgres.confirmedFlushLsn(h.slot);
      OptionalLong saved = savedBlobLsn();
      if (slot.isPresent() && saved.isPresent()) {
        samples++;
        assertThat(slot.get().longValue())
            .as("the slot's confirmed position against the saved resume position, insert %d", i)
            .isLessThanOrEqualTo(saved.getAsLong());
      }
    }
    await().atMost(WAIT).until(() -> TestPostgres.confirmedFlushLsn(h.slot).orElse(0L) > start);
    long slot = TestPostgres.confirmedFlushLsn(h.slot).orElseThrow();
    assertThat(savedBlobLsn().orElseThrow()).isGreaterThanOrEqualTo(slot);
    assertThat(samples).as("samples with a slot position and a saved blob").isPositive();
  }

  /**
   * The server cannot save resume blobs for a while (a DBA's transaction holds the origin's row of
   * {@code rs_locater}): the agent gets no confirmation, so it commits nothing to the slot, however
   * much it streams meanwhile; once the row is free the slot moves again.
   */
  @Test
  void theSlotHoldsWhileTheServerCannotSaveTheResumePosition() throws Exception {
    String table = h.schema + ".ticks2";
    TestPostgres.exec("CREATE TABLE " + table + " (id int PRIMARY KEY)");
    RepAgent agent = h.startAgent(Map.of("offset_flush_interval_ms", "100"));
    await().atMost(WAIT).until(() -> agent.state() == RepAgent.State.REPLICATING);
    long before = TestPostgres.currentLsn();
    // A record is released when a later one arrives: keep the primary busy until it is.
    java.util.concurrent.atomic.AtomicInteger next =
        new java.util.concurrent.atomic.AtomicInteger(1000);
    await()
        .atMost(WAIT)
        .until(
            () -> {
              TestPostgres.exec(
                  "INSERT INTO " + table + " VALUES (" + next.incrementAndGet() + ")");
              return savedBlobLsn().orElse(0) > before;
            });
    io.openrs.config.rssd.RssdSettings rssd =
        io.openrs.config.rssd.RssdSettings.embedded(dir.resolve("server"));
    try (java.sql.Connection c =
        java.sql.DriverManager.getConnection(rssd.jdbcUrl(), rssd.user(), rssd.password())) {
      c.setAutoCommit(false);
      // The lock holds the saved blob still; the slot may still catch up with it (its commit for
      // that blob can be in flight), but never pass it.
      long saved;
      try (java.sql.Statement st = c.createStatement();
          java.sql.ResultSet rs =
              st.executeQuery("select resume_blob from rs_locater for update")) {
        assertThat(rs.next()).isTrue();
        saved = maxLsn(rs.getBytes(1)).orElseThrow();
      }
      int inboundBefore = h.inbound().size();
      for (int i = 1; i <= 20; i++) {
        TestPostgres.exec("INSERT INTO " + table + " VALUES (" + i + ")");
      }
      long written = TestPostgres.currentLsn();
      // The agent streams and the server holds the rows, but the slot does not move.
      await().atMost(WAIT).until(() -> h.inbound().size(), n -> n >= inboundBefore + 20 * 3);
      await()
          .during(Duration.ofSeconds(12))
          .atMost(Duration.ofSeconds(20))
          .until(
              () -> TestPostgres.confirmedFlushLsn(h.slot).orElseThrow(),
              slot -> slot <= saved && slot < written);
      c.rollback();
      await()
          .atMost(WAIT)
          .until(
              () -> {
                TestPostgres.exec(
                    "INSERT INTO " + table + " VALUES (" + next.incrementAndGet() + ")");
                return TestPostgres.confirmedFlushLsn(h.slot).orElseThrow() >= written;
              });
    }
    long slot = TestPostgres.confirmedFlushLsn(h.slot).orElseThrow();
    assertThat(savedBlobLsn().orElseThrow()).isGreaterThanOrEqualTo(slot);
  }

  /** The highest LSN of the Debezium offsets in the resume blob the server saved, if any. */
  private OptionalLong savedBlobLsn() throws Exception {
    byte[] blob;
    try {
      blob = h.server.locatorOf(AgentHarness.DS, AgentHarness.DB).resumeBlob();
    } catch (IllegalStateException notYet) {
      return OptionalLong.empty();
    }
    return maxLsn(blob);
  }

  /** The highest LSN of the Debezium offsets in resume blob {@code blob}, if any. */
  private static OptionalLong maxLsn(byte[] blob) throws java.io.IOException {
    if (blob == null || blob.length == 0) {
      return OptionalLong.empty();
    }
    long best = -1;
    for (ByteBuffer v : ResumeBlob.decode(blob).offsets().values()) {
      Matcher m = LSN.matcher(StandardCharsets.UTF_8.decode(v.duplicate()));
      while (m.find()) {
        best = Math.max(best, Long.parseLong(m.group(2)));
      }
    }
    return best < 0 ? OptionalLong.empty() : OptionalLong.of(best);
  }
}
