package io.openrs.dsi;

import static io.openrs.dsi.testkit.Txs.i32;
import static io.openrs.dsi.testkit.Txs.i64;
import static io.openrs.dsi.testkit.Txs.row;
import static io.openrs.dsi.testkit.Txs.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.dsi.testkit.Awaits;
import io.openrs.dsi.testkit.OutboundQueueFixture;
import io.openrs.dsi.testkit.RecordingSink;
import io.openrs.dsi.testkit.Replicate;
import io.openrs.dsi.testkit.TestDb;
import io.openrs.dsi.testkit.Txs;
import io.openrs.dsi.testkit.Workload;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TranId;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Large transactions with large-transaction threads ({@code dsi_num_large_xact_threads}) against
 * the real databases: applied while their commands are still being read (their rows locked at the
 * replicate before the commit is in the queue), rolled back when their run is dropped or rolled
 * back at the primary, applied again from the queue when they fail or find no large thread free,
 * and exactly once across a suspend in the middle.
 */
class LargeTransactionsIT {
  private static final int REPLICATE = 201;
  private static final int ORIGIN = 101;

  @TempDir Path dir;

  /** 4 threads, one of them for large transactions, large above 10 commands. */
  static DsiSettings settings(SerializationMethod m, String... more) {
    List<String> nv =
        new ArrayList<>(
            List.of(
                "dsi_num_threads",
                "4",
                "dsi_num_large_xact_threads",
                "1",
                "dsi_large_xact_size",
                "10",
                "dsi_max_xacts_in_group",
                "2"));
    nv.addAll(List.of(more));
    return ContinuousApplyIT.settings(nv.toArray(String[]::new)).withSerializationMethod(m);
  }

  private static void createBig(TestDb.Scratch s) throws SQLException {
    s.exec(
        s.db() == TestDb.POSTGRESQL
            ? "CREATE TABLE big (id bigint PRIMARY KEY, v text)"
            : "CREATE TABLE big (id BIGINT PRIMARY KEY, v VARCHAR(200)) ENGINE=InnoDB");
  }

  /** True if another transaction holds a lock on row {@code id} of big (probed with NOWAIT). */
  static boolean rowLocked(TestDb.Scratch s, long id) throws SQLException {
    try (Connection c = s.connect()) {
      c.setAutoCommit(false);
      try (PreparedStatement ps =
          c.prepareStatement("SELECT id FROM big WHERE id = ? FOR UPDATE NOWAIT")) {
        ps.setLong(1, id);
        ps.executeQuery().close();
        return false;
      } catch (SQLException e) {
        if ("55P03".equals(e.getSQLState()) || e.getErrorCode() == 1205) {
          return true;
        }
        throw e;
      } finally {
        c.rollback();
      }
    }
  }

  private static long count(TestDb.Scratch s) throws Exception {
    return Long.parseLong(StreamShapesIT.rows(s, "SELECT count(*) FROM big").get(0));
  }

  /** begin, an update of row 1, inserts of rows 2..n+1 (no commit yet). */
  private static Txs updateThenInsert(Txs x, int n) {
    x.begin().update("big", row("id", i64(1)), row("id", i64(1), "v", text("new")));
    for (int i = 2; i <= n + 1; i++) {
      x.insert("big", row("id", i64(i), "v", text("row " + i)));
    }
    return x;
  }

  private static LtlCommand last(Workload.Tx t) {
    return t.commands().get(t.commands().size() - 1);
  }

  static Stream<Arguments> methods() {
    List<Arguments> out = new ArrayList<>();
    for (TestDb db : TestDb.values()) {
      for (SerializationMethod m :
          List.of(
              SerializationMethod.DEPENDENCY_AWARE,
              SerializationMethod.WAIT_FOR_COMMIT,
              SerializationMethod.NO_WAIT)) {
        out.add(Arguments.of(db, m));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("methods")
  void aRandomStreamWithLargeTransactionsEndsEqualToTheModel(TestDb db, SerializationMethod m)
      throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_large");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(Workload.ddl(db).toArray(String[]::new));
      Workload w = new Workload(db, s.name(), 17, 0.3);
      List<Workload.Tx> txs = w.next(300);
      q.append(txs);
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              settings(m),
              new RecordingSink(),
              new SimpleMeterRegistry())) {
        Awaits.applied(dsi, s, w.lastCommits());
        w.assertReplicaMatches(s);
        Awaits.counted(() -> dsi.counter(DsiCounter.TRANS_UNGROUPED_COMMIT), txs.size());
        assertThat(dsi.counter(DsiCounter.LARGE_STREAMED)).isPositive();
        assertThat(dsi.state()).isEqualTo(DsiState.RUNNING);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void aLargeTransactionIsAppliedBeforeItsCommitIsRead(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_lstream");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      createBig(s);
      s.exec("INSERT INTO big (id, v) VALUES (1, 'old')");
      Txs x = new Txs(s.name(), ORIGIN);
      updateThenInsert(x, 500);
      q.append(ORIGIN, x.open());
      Workload.Tx whole = x.commit();
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              settings(SerializationMethod.DEPENDENCY_AWARE),
              new RecordingSink(),
              new SimpleMeterRegistry())) {
        // its first command is applied (row 1 locked) though its commit is not in the queue
        await().atMost(Duration.ofSeconds(30)).until(() -> rowLocked(s, 1));
        assertThat(dsi.counter(DsiCounter.LARGE_STREAMED)).isEqualTo(1);
        assertThat(count(s)).isEqualTo(1);
        assertThat(Replicate.lastCommits(s)).doesNotContainKey(ORIGIN);
        q.append(ORIGIN, List.of(last(whole)));
        Awaits.applied(dsi, s, Map.of(ORIGIN, whole.commitOqid()));
        assertThat(count(s)).isEqualTo(501);
        assertThat(StreamShapesIT.rows(s, "SELECT v FROM big WHERE id = 1")).containsExactly("new");
        assertThat(dsi.counter(DsiCounter.LARGE_REREAD)).isZero();
        Awaits.counted(() -> dsi.counter(DsiCounter.TRANS_UNGROUPED_COMMIT), 1);
      }
    }
  }

  /** A crash cut the run; DIST wrote the transaction again, whole, after it. */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void aDroppedRunIsRolledBackAndItsRewriteAppliedOnce(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_ldrop");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      createBig(s);
      s.exec("INSERT INTO big (id, v) VALUES (1, 'old')");
      Txs x = new Txs(s.name(), ORIGIN);
      updateThenInsert(x, 500);
      List<LtlCommand> cut = x.open().subList(0, 300);
      Workload.Tx whole = x.commit();
      Workload.Tx after =
          x.begin().insert("big", row("id", i64(9999), "v", text("after"))).commit();
      q.append(ORIGIN, cut);
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              settings(SerializationMethod.DEPENDENCY_AWARE),
              new RecordingSink(),
              new SimpleMeterRegistry())) {
        await().atMost(Duration.ofSeconds(30)).until(() -> rowLocked(s, 1));
        q.append(List.of(whole, after));
        Awaits.applied(dsi, s, Map.of(ORIGIN, after.commitOqid()));
        assertThat(count(s)).isEqualTo(502);
        assertThat(StreamShapesIT.rows(s, "SELECT v FROM big WHERE id = 1")).containsExactly("new");
        assertThat(dsi.counter(DsiCounter.TRANS_DROPPED)).isEqualTo(1);
        assertThat(dsi.counter(DsiCounter.LARGE_ROLLED_BACK)).isEqualTo(1);
        assertThat(dsi.counter(DsiCounter.LARGE_STREAMED)).isEqualTo(2);
        Awaits.counted(() -> dsi.counter(DsiCounter.TRANS_UNGROUPED_COMMIT), 2);
        assertThat(dsi.state()).isEqualTo(DsiState.RUNNING);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void aRunRolledBackAtThePrimaryIsRolledBackAtTheReplicate(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_lrb");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      createBig(s);
      s.exec("INSERT INTO big (id, v) VALUES (1, 'old')");
      Txs x = new Txs(s.name(), ORIGIN);
      updateThenInsert(x, 200);
      List<LtlCommand> open = x.open();
      TranId tran = ((LtlCommand.Begin) open.get(0)).tran();
      Workload.Tx after =
          x.begin().insert("big", row("id", i64(9999), "v", text("after"))).commit();
      q.append(ORIGIN, open);
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              settings(SerializationMethod.WAIT_FOR_COMMIT),
              new RecordingSink(),
              new SimpleMeterRegistry())) {
        await().atMost(Duration.ofSeconds(30)).until(() -> rowLocked(s, 1));
        q.append(ORIGIN, List.of(new LtlCommand.Rollback(tran, Oqid.ofLong(90_000, 12))));
        q.append(List.of(after));
        Awaits.applied(dsi, s, Map.of(ORIGIN, after.commitOqid()));
        assertThat(StreamShapesIT.rows(s, "SELECT id, v FROM big ORDER BY id"))
            .containsExactly("1,old", "9999,after");
        assertThat(dsi.counter(DsiCounter.LARGE_ROLLED_BACK)).isEqualTo(1);
      }
    }
  }

  /**
   * Its live apply fails (a duplicate key): it is applied again, alone, read again from the queue,
   * stops the connection at its own OQID, and {@code resume ... skip transaction} logs every one of
   * its commands.
   */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void aFailingLargeTransactionIsReadAgainAndStopsAtItsOqid(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_lfail");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      createBig(s);
      s.exec("INSERT INTO big (id, v) VALUES (300, 'taken')");
      Txs x = new Txs(s.name(), ORIGIN);
      Workload.Tx before = x.begin().insert("big", row("id", i64(1000), "v", text("b"))).commit();
      x.begin();
      for (int i = 1; i <= 500; i++) {
        x.insert("big", row("id", i64(10_000 + i == 10_300 ? 300 : 10_000 + i), "v", text("l")));
      }
      Workload.Tx large = x.commit();
      Workload.Tx after = x.begin().insert("big", row("id", i64(1001), "v", text("a"))).commit();
      q.append(List.of(before, large, after));
      RecordingSink sink = new RecordingSink();
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              settings(SerializationMethod.DEPENDENCY_AWARE),
              sink,
              new SimpleMeterRegistry())) {
        DsiFailure f = Awaits.down(dsi).failure().orElseThrow();
        assertThat(f.commitOqid()).contains(large.commitOqid());
        assertThat(Replicate.lastCommits(s)).containsEntry(ORIGIN, before.commitOqid());
        assertThat(count(s)).isEqualTo(2);
        assertThat(dsi.counter(DsiCounter.LARGE_REREAD)).isPositive();
        dsi.resumeSkippingTransaction();
        Awaits.applied(dsi, s, Map.of(ORIGIN, after.commitOqid()));
        assertThat(count(s)).isEqualTo(3);
        assertThat(sink.logged)
            .singleElement()
            .satisfies(l -> assertThat(l.commands()).isEqualTo(large.commands()));
      }
    }
  }

  /**
   * no_wait: the second large transaction could start while the only large thread still applies the
   * first (slowed by a trigger); it waits for its commit and a normal thread applies it, read again
   * from the queue.
   */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void withEveryLargeThreadBusyALargeTransactionIsAppliedAsANormalOne(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_lbusy");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      createBig(s);
      if (db == TestDb.POSTGRESQL) {
        s.exec(
            "CREATE TABLE slow (id integer PRIMARY KEY)",
            "CREATE FUNCTION slow_down() RETURNS trigger LANGUAGE plpgsql AS"
                + " $$ BEGIN PERFORM pg_sleep(1.5); RETURN NEW; END $$",
            "CREATE TRIGGER slow_down BEFORE INSERT ON slow FOR EACH ROW EXECUTE FUNCTION"
                + " slow_down()");
      } else {
        s.exec(
            "CREATE TABLE slow (id INT PRIMARY KEY) ENGINE=InnoDB",
            "CREATE TRIGGER slow_down BEFORE INSERT ON slow FOR EACH ROW SET @x = SLEEP(1.5)");
      }
      Txs x = new Txs(s.name(), ORIGIN);
      x.begin();
      for (int i = 1; i <= 50; i++) {
        x.insert("big", row("id", i64(i), "v", text("first")));
      }
      Workload.Tx first = x.insert("slow", row("id", i32(1))).commit();
      x.begin();
      for (int i = 51; i <= 100; i++) {
        x.insert("big", row("id", i64(i), "v", text("second")));
      }
      Workload.Tx second = x.commit();
      q.append(List.of(first, second));
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              settings(SerializationMethod.NO_WAIT, "dsi_keep_triggers", "on"),
              new RecordingSink(),
              new SimpleMeterRegistry())) {
        Awaits.applied(dsi, s, Map.of(ORIGIN, second.commitOqid()));
        assertThat(count(s)).isEqualTo(100);
        assertThat(dsi.counter(DsiCounter.ALL_LARGE_THREADS_IN_USE)).isPositive();
        assertThat(dsi.counter(DsiCounter.LARGE_REREAD)).isPositive();
        Awaits.counted(() -> dsi.counter(DsiCounter.TRANS_UNGROUPED_COMMIT), 2);
      }
    }
  }

  /**
   * DDL arriving in a large transaction already being applied: PostgreSQL applies it in the stream;
   * on MariaDB, where DDL commits implicitly, the transaction is rolled back and applied alone,
   * read again from the queue.
   */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void ddlInAStreamedTransaction(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_lddl");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      createBig(s);
      s.exec("INSERT INTO big (id, v) VALUES (1, 'old')");
      Txs x = new Txs(s.name(), ORIGIN);
      updateThenInsert(x, 20);
      List<LtlCommand> head = x.open();
      x.ddl(Optional.of(s.name()), "CREATE TABLE extra (id INT PRIMARY KEY)");
      for (int i = 1; i <= 20; i++) {
        x.insert("extra", row("id", i32(i)));
      }
      Workload.Tx t = x.commit();
      Workload.Tx after = x.begin().insert("big", row("id", i64(100), "v", text("a"))).commit();
      q.append(ORIGIN, head);
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              settings(SerializationMethod.DEPENDENCY_AWARE).withApplyDdl(true),
              new RecordingSink(),
              new SimpleMeterRegistry())) {
        await().atMost(Duration.ofSeconds(30)).until(() -> rowLocked(s, 1));
        q.append(ORIGIN, t.commands().subList(head.size(), t.commands().size()));
        q.append(List.of(after));
        Awaits.applied(dsi, s, Map.of(ORIGIN, after.commitOqid()));
        assertThat(count(s)).isEqualTo(22);
        assertThat(StreamShapesIT.rows(s, "SELECT count(*) FROM extra")).containsExactly("20");
        assertThat(dsi.counter(DsiCounter.LARGE_REREAD)).isEqualTo(db == TestDb.POSTGRESQL ? 0 : 1);
        Awaits.counted(() -> dsi.counter(DsiCounter.TRANS_UNGROUPED_COMMIT), 2);
      }
    }
  }

  /** Suspended in the middle of a streamed transaction: rolled back, streamed again on resume. */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void suspendInTheMiddleOfAStreamAppliesItOnce(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_lsusp");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      createBig(s);
      s.exec("INSERT INTO big (id, v) VALUES (1, 'old')");
      Txs x = new Txs(s.name(), ORIGIN);
      updateThenInsert(x, 400);
      q.append(ORIGIN, x.open());
      Workload.Tx whole = x.commit();
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              settings(SerializationMethod.DEPENDENCY_AWARE),
              new RecordingSink(),
              new SimpleMeterRegistry())) {
        await().atMost(Duration.ofSeconds(30)).until(() -> rowLocked(s, 1));
        dsi.suspend();
        assertThat(rowLocked(s, 1)).isFalse();
        assertThat(StreamShapesIT.rows(s, "SELECT v FROM big WHERE id = 1")).containsExactly("old");
        dsi.resume();
        await().atMost(Duration.ofSeconds(30)).until(() -> rowLocked(s, 1));
        q.append(ORIGIN, List.of(last(whole)));
        Awaits.applied(dsi, s, Map.of(ORIGIN, whole.commitOqid()));
        assertThat(count(s)).isEqualTo(401);
        assertThat(dsi.counter(DsiCounter.LARGE_STREAMED)).isEqualTo(2);
      }
    }
  }
}
