package io.openrs.dsi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.dsi.testkit.Awaits;
import io.openrs.dsi.testkit.OutboundQueueFixture;
import io.openrs.dsi.testkit.RecordingSink;
import io.openrs.dsi.testkit.Replicate;
import io.openrs.dsi.testkit.Settings;
import io.openrs.dsi.testkit.TestDb;
import io.openrs.dsi.testkit.Workload;
import io.openrs.ltl.Oqid;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Continuous mode against the real databases: a random stream (fixed seeds) applied serially leaves
 * the replicate equal to the reference model, exactly once across DSI restarts, re-read queues and
 * killed connections; the bulk path ends where the row path does.
 */
class ContinuousApplyIT {
  static final int REPLICATE = 201;

  @TempDir Path dir;

  static DsiSettings settings(String... nameValues) {
    return Settings.connection(nameValues);
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void randomStreamEndsEqualToTheModel(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_apply");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(Workload.ddl(db).toArray(String[]::new));
      Workload w = new Workload(db, s.name(), 42);
      List<Workload.Tx> txs = w.next(400);
      q.append(txs);
      RecordingSink sink = new RecordingSink();
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE), q.queue(), settings(), sink, new SimpleMeterRegistry())) {
        Awaits.applied(dsi, s, w.lastCommits());
        assertThat(dsi.state()).isEqualTo(DsiState.RUNNING);
        w.assertReplicaMatches(s);
        Awaits.counted(() -> dsi.counter(DsiCounter.TRANS_UNGROUPED_COMMIT), txs.size());
        assertThat(dsi.counter(DsiCounter.TRAN_GROUPS_COMMIT)).isLessThan(txs.size());
        assertThat(sink.logged).isEmpty();
      }
    }
  }

  /** Closes and starts the DSI again at several points (bounded rounds, fixed seed). */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void exactlyOnceAcrossRestarts(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_restart");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(Workload.ddl(db).toArray(String[]::new));
      Workload w = new Workload(db, s.name(), 7);
      List<Workload.Tx> txs = w.next(900);
      q.append(txs);
      // small groups, so a close lands between many commits
      DsiSettings settings = settings("dsi_max_xacts_in_group", "3");
      RecordingSink sink = new RecordingSink();
      for (int round = 1; round <= 3; round++) {
        Oqid mark = oqidOf101(txs, round * txs.size() / 4);
        try (DsiConnection dsi =
            DsiConnection.start(
                s.target(REPLICATE), q.queue(), settings, sink, new SimpleMeterRegistry())) {
          await()
              .atMost(Duration.ofSeconds(60))
              .until(
                  () -> {
                    Oqid at = Replicate.lastCommits(s).get(101);
                    return at != null && at.compareTo(mark) >= 0;
                  });
        }
      }
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE), q.queue(), settings, sink, new SimpleMeterRegistry())) {
        Awaits.applied(dsi, s, w.lastCommits());
        w.assertReplicaMatches(s);
      }
    }
  }

  /** The queue hands everything over again (its reader re-created): nothing is applied twice. */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void transactionsReadAgainAreIgnored(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_reread");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(Workload.ddl(db).toArray(String[]::new));
      Workload w = new Workload(db, s.name(), 11);
      List<Workload.Tx> txs = w.next(200);
      q.append(txs);
      RecordingSink sink = new RecordingSink();
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE), q.queue(), settings(), sink, new SimpleMeterRegistry())) {
        Awaits.applied(dsi, s, w.lastCommits());
      }
      q.queue().dropReader("DSI"); // a new reader starts at the oldest message held
      List<Workload.Tx> more = w.next(50);
      q.append(more);
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE), q.queue(), settings(), sink, new SimpleMeterRegistry())) {
        Awaits.applied(dsi, s, w.lastCommits());
        assertThat(dsi.counter(DsiCounter.TRANS_IGNORED)).isEqualTo(txs.size());
        Awaits.counted(() -> dsi.counter(DsiCounter.TRANS_UNGROUPED_COMMIT), more.size());
        w.assertReplicaMatches(s);
      }
    }
  }

  /** The replicate kills the DSI's connection while it applies: it reconnects and goes on. */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void exactlyOnceWhenTheConnectionIsKilled(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_kill");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(Workload.ddl(db).toArray(String[]::new));
      Workload w = new Workload(db, s.name(), 23);
      List<Workload.Tx> txs = w.next(1200);
      q.append(txs);
      RecordingSink sink = new RecordingSink();
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              settings("dsi_max_xacts_in_group", "2"),
              sink,
              new SimpleMeterRegistry())) {
        int kills = 0;
        for (int round = 1; round <= 3; round++) {
          Oqid mark = oqidOf101(txs, round * txs.size() / 5);
          await()
              .atMost(Duration.ofSeconds(60))
              .until(
                  () -> {
                    Oqid at = Replicate.lastCommits(s).get(101);
                    return at != null && at.compareTo(mark) >= 0;
                  });
          kills += killDsiSessions(s);
        }
        Awaits.applied(dsi, s, w.lastCommits());
        assertThat(kills).isPositive();
        w.assertReplicaMatches(s);
        assertThat(dsi.state()).isEqualTo(DsiState.RUNNING);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void bulkPathEndsWhereTheRowPathDoes(TestDb db) throws Exception {
    for (boolean bulk : new boolean[] {false, true}) {
      try (TestDb.Scratch s = db.scratch("dsi_bulk");
          OutboundQueueFixture q =
              new OutboundQueueFixture(dir.resolve(bulk ? "bulk" : "rows"), REPLICATE)) {
        s.exec(Workload.ddl(db).toArray(String[]::new));
        Workload w = new Workload(db, s.name(), 5, 0.4);
        q.append(w.next(150));
        try (DsiConnection dsi =
            DsiConnection.start(
                s.target(REPLICATE),
                q.queue(),
                settings("dsi_bulk_copy", bulk ? "on" : "off", "dsi_bulk_threshold", "5"),
                new RecordingSink(),
                new SimpleMeterRegistry())) {
          Awaits.applied(dsi, s, w.lastCommits());
          w.assertReplicaMatches(s);
          if (bulk) {
            assertThat(dsi.counter(DsiCounter.BULK_ROWS)).isGreaterThan(1000);
          }
        }
      }
    }
  }

  static Oqid oqidOf101(List<Workload.Tx> txs, int upTo) {
    Oqid last = null;
    for (int i = 0; i < upTo; i++) {
      if (txs.get(i).origin() == 101) {
        last = txs.get(i).commitOqid();
      }
    }
    return last;
  }

  /** Kills the DSI's sessions at the replicate; returns how many. */
  static int killDsiSessions(TestDb.Scratch s) throws Exception {
    List<Long> ids = new ArrayList<>();
    try (Connection c = s.connect()) {
      if (s.db() == TestDb.POSTGRESQL) {
        try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name"
                    + " = ?")) {
          ps.setString(1, "openrs-dsi " + s.target(REPLICATE).name());
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              ids.add(1L);
            }
          }
        }
      } else {
        try (Statement st = c.createStatement();
            ResultSet rs =
                st.executeQuery(
                    "SELECT id FROM information_schema.processlist WHERE db = '"
                        + s.name()
                        + "' AND id <> CONNECTION_ID()")) {
          while (rs.next()) {
            ids.add(rs.getLong(1));
          }
        }
        try (Statement st = c.createStatement()) {
          for (long id : ids) {
            try {
              st.execute("KILL " + id);
            } catch (java.sql.SQLException gone) {
              // ended meanwhile
            }
          }
        }
      }
    }
    return ids.size();
  }
}
