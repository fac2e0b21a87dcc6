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
import io.openrs.ltl.Oqid;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The parallel DSI (4 threads) against the real databases: every serialization method leaves the
 * replicate equal to the reference model; commit order holds through killed connections; a deadlock
 * between an earlier and a later transaction is broken by the replicate and resolved.
 */
class ParallelApplyIT {
  private static final int REPLICATE = 201;

  @TempDir Path dir;

  static DsiSettings parallel(SerializationMethod m, String... more) {
    List<String> nv =
        new ArrayList<>(List.of("dsi_num_threads", "4", "dsi_max_xacts_in_group", "2"));
    nv.addAll(List.of(more));
    return ContinuousApplyIT.settings(nv.toArray(String[]::new)).withSerializationMethod(m);
  }

  static Stream<Arguments> methods() {
    List<Arguments> out = new ArrayList<>();
    for (TestDb db : TestDb.values()) {
      for (SerializationMethod m : SerializationMethod.values()) {
        out.add(Arguments.of(db, m));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("methods")
  void randomStreamEndsEqualToTheModel(TestDb db, SerializationMethod method) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_par");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(Workload.ddl(db).toArray(String[]::new));
      Workload w = new Workload(db, s.name(), 99);
      List<Workload.Tx> txs = w.next(600);
      q.append(txs);
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              parallel(method),
              new RecordingSink(),
              new SimpleMeterRegistry())) {
        Awaits.applied(dsi, s, w.lastCommits());
        w.assertReplicaMatches(s);
        Awaits.counted(() -> dsi.counter(DsiCounter.TRANS_UNGROUPED_COMMIT), txs.size());
        assertThat(dsi.state()).isEqualTo(DsiState.RUNNING);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void exactlyOnceWhenConnectionsAreKilled(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_parkill");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(Workload.ddl(db).toArray(String[]::new));
      Workload w = new Workload(db, s.name(), 31);
      List<Workload.Tx> txs = w.next(1500);
      q.append(txs);
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              parallel(SerializationMethod.DEPENDENCY_AWARE),
              new RecordingSink(),
              new SimpleMeterRegistry())) {
        for (int round = 1; round <= 3; round++) {
          Oqid mark = ContinuousApplyIT.oqidOf101(txs, round * txs.size() / 5);
          await()
              .atMost(Duration.ofSeconds(60))
              .until(
                  () -> {
                    Oqid at = Replicate.lastCommits(s).get(101);
                    return at != null && at.compareTo(mark) >= 0;
                  });
          ContinuousApplyIT.killDsiSessions(s);
        }
        Awaits.applied(dsi, s, w.lastCommits());
        w.assertReplicaMatches(s);
      }
      // a restart that reads again what the queue still holds applies nothing twice
      q.queue().dropReader("DSI");
      List<Workload.Tx> more = w.next(100);
      q.append(more);
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              parallel(SerializationMethod.DEPENDENCY_AWARE),
              new RecordingSink(),
              new SimpleMeterRegistry())) {
        Awaits.applied(dsi, s, w.lastCommits());
        assertThat(dsi.counter(DsiCounter.TRANS_IGNORED)).isPositive();
        Awaits.counted(() -> dsi.counter(DsiCounter.TRANS_UNGROUPED_COMMIT), more.size());
        w.assertReplicaMatches(s);
      }
    }
  }

  /**
   * T1 (earlier) is slowed by a trigger before it inserts a value a unique index the DSI cannot see
   * (an expression index) also holds for T2's row; T2 (later) inserts first and waits to commit on
   * T1's rs_threads row; T1 waits on T2's index entry. The replicate breaks the deadlock; the DSI
   * re-applies in commit order.
   */
  static Stream<Arguments> overlappingMethods() {
    List<Arguments> out = new ArrayList<>();
    for (TestDb db : TestDb.values()) {
      for (SerializationMethod m :
          List.of(
              SerializationMethod.DEPENDENCY_AWARE,
              SerializationMethod.WAIT_FOR_START,
              SerializationMethod.NO_WAIT)) {
        out.add(Arguments.of(db, m));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("overlappingMethods")
  void aDeadlockBetweenThreadsIsBrokenAndResolved(TestDb db, SerializationMethod method)
      throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_deadlock");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      if (db == TestDb.POSTGRESQL) {
        s.exec(
            "CREATE TABLE slow (id integer PRIMARY KEY)",
            "CREATE FUNCTION slow_down() RETURNS trigger LANGUAGE plpgsql AS"
                + " $$ BEGIN PERFORM pg_sleep(1.5); RETURN NEW; END $$",
            "CREATE TRIGGER slow_down BEFORE INSERT ON slow FOR EACH ROW EXECUTE FUNCTION"
                + " slow_down()",
            "CREATE TABLE u (id bigint PRIMARY KEY, code text NOT NULL)",
            "CREATE UNIQUE INDEX u_code ON u (lower(code))");
      } else {
        s.exec(
            "CREATE TABLE slow (id INT PRIMARY KEY) ENGINE=InnoDB",
            "CREATE TRIGGER slow_down BEFORE INSERT ON slow FOR EACH ROW SET @x = SLEEP(1.5)",
            "CREATE TABLE u (id BIGINT PRIMARY KEY, code VARCHAR(20) NOT NULL, lc VARCHAR(20) AS"
                + " (lower(code)) VIRTUAL, UNIQUE KEY u_lc (lc)) ENGINE=InnoDB");
      }
      Txs x = new Txs(s.name(), 101);
      Workload.Tx t1 =
          x.begin()
              .insert("slow", row("id", i32(1)))
              .insert("u", row("id", i64(1), "code", text("X")))
              .delete("u", row("id", i64(1)))
              .commit();
      Workload.Tx t2 = x.begin().insert("u", row("id", i64(2), "code", text("x"))).commit();
      q.append(List.of(t1, t2));
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              parallel(method, "dsi_max_xacts_in_group", "1"),
              new RecordingSink(),
              new SimpleMeterRegistry())) {
        Awaits.applied(dsi, s, Map.of(101, t2.commitOqid()));
        assertThat(StreamShapesIT.rows(s, "SELECT id, code FROM u")).containsExactly("2,x");
        assertThat(dsi.counter(DsiCounter.DEADLOCKS)).isPositive();
        assertThat(dsi.state()).isEqualTo(DsiState.RUNNING);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void aConstraintViolationStopsAtTheRightTransaction(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_parstop");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(Workload.ddl(db).toArray(String[]::new));
      s.exec("INSERT INTO parent (id, code) VALUES (500, 'taken')");
      Txs x = new Txs(s.name(), 101);
      List<Workload.Tx> txs = new ArrayList<>();
      for (int i = 1; i <= 40; i++) {
        txs.add(x.begin().insert("parent", row("id", i64(i), "code", text("c" + i))).commit());
      }
      Workload.Tx bad =
          x.begin().insert("parent", row("id", i64(500), "code", text("dup"))).commit();
      txs.add(bad);
      for (int i = 41; i <= 80; i++) {
        txs.add(x.begin().insert("parent", row("id", i64(i), "code", text("c" + i))).commit());
      }
      q.append(txs);
      RecordingSink sink = new RecordingSink();
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              parallel(SerializationMethod.DEPENDENCY_AWARE),
              sink,
              new SimpleMeterRegistry())) {
        DsiFailure f = Awaits.down(dsi).failure().orElseThrow();
        assertThat(f.commitOqid()).contains(bad.commitOqid());
        assertThat(Replicate.lastCommits(s)).containsEntry(101, txs.get(39).commitOqid());
        assertThat(StreamShapesIT.rows(s, "SELECT count(*) FROM parent")).containsExactly("41");
        dsi.resumeSkippingTransaction();
        Awaits.applied(dsi, s, Map.of(101, txs.get(txs.size() - 1).commitOqid()));
        assertThat(StreamShapesIT.rows(s, "SELECT count(*) FROM parent")).containsExactly("81");
        assertThat(sink.logged)
            .singleElement()
            .satisfies(l -> assertThat(l.commands()).isEqualTo(bad.commands()));
      }
    }
  }
}
