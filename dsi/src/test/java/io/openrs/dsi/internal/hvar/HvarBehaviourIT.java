package io.openrs.dsi.internal.hvar;

import static io.openrs.dsi.testkit.Txs.i64;
import static io.openrs.dsi.testkit.Txs.row;
import static io.openrs.dsi.testkit.Txs.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.dsi.DsiConnection;
import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.DsiFailure;
import io.openrs.dsi.DsiSettings;
import io.openrs.dsi.DsiState;
import io.openrs.dsi.ErrorAction;
import io.openrs.dsi.LoggedTransaction;
import io.openrs.dsi.testkit.Awaits;
import io.openrs.dsi.testkit.OutboundQueueFixture;
import io.openrs.dsi.testkit.RecordingSink;
import io.openrs.dsi.testkit.Replicate;
import io.openrs.dsi.testkit.TestDb;
import io.openrs.dsi.testkit.Txs;
import io.openrs.dsi.testkit.Workload;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.Value;
import io.openrs.ltl.packed.OriginEnvelope;
import io.openrs.ltl.packed.PackedEncoder;
import io.openrs.runtime.CounterKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * HVAR's promises one at a time against the real databases: the net-change rules at the replicate,
 * unique values moving between rows, foreign-key order, dsi_compile_retry_threshold, exactly once
 * through a DSI killed in the middle of a group's apply, the failing command found exactly after a
 * group fails, dsi_retry 1, groups of one transaction under light load, and commands that cannot be
 * compiled applied in log order between groups.
 */
class HvarBehaviourIT {
  private static final int REPLICATE = 201;
  private static final String BIG = "toasted ".repeat(2_000);

  @TempDir Path dir;

  /** A running DSI with its registry. */
  private record Run(DsiConnection dsi, SimpleMeterRegistry reg, RecordingSink sink)
      implements AutoCloseable {
    long counter(DsiCounter c) {
      return c.kind() == CounterKind.SUMMARY ? Hvar.observations(reg, c) : Hvar.counter(reg, c);
    }

    @Override
    public void close() {
      dsi.close();
    }
  }

  private static Run start(TestDb.Scratch s, OutboundQueueFixture q, DsiSettings settings) {
    SimpleMeterRegistry reg = new SimpleMeterRegistry();
    RecordingSink sink = new RecordingSink();
    return new Run(
        DsiConnection.start(s.target(REPLICATE), q.queue(), settings, sink, reg), reg, sink);
  }

  private static String tableDdl(TestDb db) {
    return db == TestDb.POSTGRESQL
        ? "CREATE TABLE t (id bigint PRIMARY KEY, a bigint, b text, big text)"
        : "CREATE TABLE t (id BIGINT PRIMARY KEY, a BIGINT, b TEXT, big MEDIUMTEXT) ENGINE=InnoDB";
  }

  private static String nokeyDdl(TestDb db) {
    return db == TestDb.POSTGRESQL
        ? "CREATE TABLE nk (x bigint, y text)"
        : "CREATE TABLE nk (x BIGINT, y TEXT) ENGINE=InnoDB";
  }

  // ---- the rules, at the replicate -------------------------------------------------------------

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void theNetChangeOfOneGroupLeavesWhatTheCommandsLeave(TestDb db) throws Exception {
    for (String threshold : List.of("1", "20")) {
      try (TestDb.Scratch s = db.scratch("hvar_rules");
          OutboundQueueFixture q =
              new OutboundQueueFixture(dir.resolve("t" + threshold), REPLICATE)) {
        s.exec(tableDdl(db), nokeyDdl(db));
        for (int id = 3; id <= 7; id++) {
          s.exec(
              "INSERT INTO t VALUES (" + id + ", " + id + ", 'b" + id + "', '" + BIG + id + "')");
        }
        s.exec("INSERT INTO nk VALUES (1, 'x'), (1, 'x'), (2, 'y')");
        Txs x = new Txs(s.name(), 101);
        Workload.Tx tx =
            x.begin()
                // insert, then updates: one insert of the final image
                .insert("t", row("id", i64(1), "a", i64(1), "b", text("first")))
                .update("t", row("id", i64(1)), row("a", i64(11)))
                .update("t", row("id", i64(1)), row("b", text("last"), "big", Value.UNCHANGED))
                // insert, then delete: nothing
                .insert("t", row("id", i64(2), "a", i64(2)))
                .delete("t", row("id", i64(2)))
                // update, update: the union, last values
                .update("t", row("id", i64(3)), row("a", i64(30)))
                .update("t", row("id", i64(3)), row("b", text("b30"), "a", i64(31)))
                // update, then delete: a delete
                .update("t", row("id", i64(4)), row("a", i64(40)))
                .delete("t", row("id", i64(4)))
                // delete, then insert
                .delete("t", row("id", i64(5)))
                .insert("t", row("id", i64(5), "a", i64(50), "b", text("again")))
                // a primary key update whose image leaves the TOASTed column unchanged
                .update("t", row("id", i64(6)), row("id", i64(60), "big", Value.UNCHANGED))
                // an unchanged column keeps the replicate's value
                .update("t", row("id", i64(7)), row("a", i64(70), "big", Value.UNCHANGED))
                // rows without a primary key: counted per distinct row
                .insert("nk", row("x", i64(1), "y", text("x")))
                .delete("nk", row("x", i64(1), "y", text("x")))
                .delete("nk", row("x", i64(1), "y", text("x")))
                .update("nk", row("x", i64(2), "y", text("y")), row("x", i64(3), "y", text("z")))
                .commit();
        q.append(List.of(tx));
        try (Run r = start(s, q, Hvar.settings("dsi_bulk_threshold", threshold))) {
          Awaits.applied(r.dsi(), s, Map.of(101, tx.commitOqid()));
          // the TOASTed column: its length and last character (the id it was written for)
          assertThat(Hvar.rows(s, "SELECT id, a, b, LENGTH(big), RIGHT(big, 1) FROM t ORDER BY id"))
              .as("bulk threshold %s", threshold)
              .containsExactly(
                  "1,11,last,null,null",
                  "3,31,b30,16001,3",
                  "5,50,again,null,null",
                  "7,70,b7,16001,7",
                  "60,6,b6,16001,6");
          assertThat(Hvar.rows(s, "SELECT x, y FROM nk ORDER BY x, y"))
              .containsExactly("1,x", "3,z");
          assertThat(r.counter(DsiCounter.HVAR_NET_INSERTS)).isEqualTo(4); // 1, 5, 60, nk (3,z)
          assertThat(r.counter(DsiCounter.HVAR_NET_UPDATES)).isEqualTo(2); // 3, 7
          assertThat(r.counter(DsiCounter.HVAR_NET_DELETES)).isEqualTo(5); // 4, 5, 6, nk x2
          assertThat(r.counter(DsiCounter.HVAR_CMDS_COMPILED)).isEqualTo(tx.body().size());
          assertThat(r.counter(DsiCounter.HVAR_FALLBACKS)).isZero();
          assertThat(r.counter(DsiCounter.INSERTS_READ)).isEqualTo(4);
        }
      }
    }
  }

  // ---- unique values moving between rows
  // ----------------------------------------------------------

  /** u(id, code unique); with {@code referenced}, a table whose foreign key points at u. */
  private static void uniqueTables(TestDb db, TestDb.Scratch s, boolean referenced)
      throws Exception {
    if (db == TestDb.POSTGRESQL) {
      s.exec("CREATE TABLE u (id bigint PRIMARY KEY, code text NOT NULL UNIQUE, n bigint)");
      if (referenced) {
        s.exec("CREATE TABLE uref (id bigint PRIMARY KEY, u_id bigint REFERENCES u(id))");
      }
    } else {
      s.exec(
          "CREATE TABLE u (id BIGINT PRIMARY KEY, code VARCHAR(20) NOT NULL UNIQUE, n BIGINT)"
              + " ENGINE=InnoDB");
      if (referenced) {
        s.exec(
            "CREATE TABLE uref (id BIGINT PRIMARY KEY, u_id BIGINT, FOREIGN KEY (u_id)"
                + " REFERENCES u(id)) ENGINE=InnoDB");
      }
    }
    s.exec("INSERT INTO u VALUES (1, 'a', 0), (2, 'b', 0)");
  }

  /** Row 1 takes row 2's code and row 2 takes row 1's: a, b become b, a. */
  private static Workload.Tx swap(Txs x) {
    return swap(x, "a", "b");
  }

  private static Workload.Tx swap(Txs x, String one, String two) {
    return x.begin()
        .update("u", row("id", i64(1)), row("code", text("tmp")))
        .update("u", row("id", i64(2)), row("code", text(one)))
        .update("u", row("id", i64(1)), row("code", text(two), "n", i64(1)))
        .commit();
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void uniqueValuesSwappedInsideAGroupEndRightThroughTheFallback(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("hvar_swap");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      uniqueTables(db, s, true);
      Workload.Tx tx = swap(new Txs(s.name(), 101));
      q.append(List.of(tx));
      try (Run r = start(s, q, Hvar.settings())) {
        Awaits.applied(r.dsi(), s, Map.of(101, tx.commitOqid()));
        assertThat(Hvar.rows(s, "SELECT id, code, n FROM u ORDER BY id"))
            .containsExactly("1,b,1", "2,a,0");
        assertThat(r.counter(DsiCounter.HVAR_FALLBACKS)).isEqualTo(1);
        Awaits.counted(() -> r.counter(DsiCounter.TRANS_UNGROUPED_COMMIT), 1);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void onATableNoForeignKeyReferencesUniqueMovesAreADeleteAndAnInsert(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("hvar_swapdi");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      uniqueTables(db, s, false);
      Workload.Tx tx = swap(new Txs(s.name(), 101));
      q.append(List.of(tx));
      try (Run r = start(s, q, Hvar.settings())) {
        Awaits.applied(r.dsi(), s, Map.of(101, tx.commitOqid()));
        assertThat(Hvar.rows(s, "SELECT id, code, n FROM u ORDER BY id"))
            .containsExactly("1,b,1", "2,a,0");
        assertThat(r.counter(DsiCounter.HVAR_FALLBACKS)).isZero();
        assertThat(r.counter(DsiCounter.HVAR_NET_DELETES)).isEqualTo(2);
        assertThat(r.counter(DsiCounter.HVAR_NET_INSERTS)).isEqualTo(2);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void afterRetryThresholdFailuresATableIsAppliedInContinuousMode(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("hvar_retry");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      uniqueTables(db, s, true);
      Txs x = new Txs(s.name(), 101);
      try (Run r = start(s, q, Hvar.settings("dsi_compile_retry_threshold", "2"))) {
        for (int i = 1; i <= 3; i++) {
          Workload.Tx tx = i % 2 == 1 ? swap(x) : swap(x, "b", "a");
          q.append(List.of(tx)); // one at a time: each is a group of its own
          Awaits.applied(r.dsi(), s, Map.of(101, tx.commitOqid()));
        }
        assertThat(r.counter(DsiCounter.HVAR_FALLBACKS)).isEqualTo(2);
        assertThat(r.counter(DsiCounter.HVAR_TABLES_CONTINUOUS)).isEqualTo(1);
        assertThat(r.counter(DsiCounter.HVAR_TRANS_CONTINUOUS)).isEqualTo(1);
        assertThat(Hvar.rows(s, "SELECT id, code, n FROM u ORDER BY id"))
            .containsExactly("1,b,1", "2,a,0");
      }
      // a new run (resume) compiles the table again
      try (Run r = start(s, q, Hvar.settings("dsi_compile_retry_threshold", "2"))) {
        Workload.Tx tx = x.begin().update("u", row("id", i64(2)), row("n", i64(5))).commit();
        q.append(List.of(tx));
        Awaits.applied(r.dsi(), s, Map.of(101, tx.commitOqid()));
        assertThat(r.counter(DsiCounter.HVAR_TRANS_CONTINUOUS)).isZero();
        Awaits.counted(() -> r.counter(DsiCounter.HVAR_NET_UPDATES), 1); // booked after its commit
      }
    }
  }

  // ---- foreign keys
  // ------------------------------------------------------------------------------

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void parentsAreInsertedFirstAndDeletedLast(TestDb db) throws Exception {
    for (String threshold : List.of("1", "20")) {
      try (TestDb.Scratch s = db.scratch("hvar_fk");
          OutboundQueueFixture q =
              new OutboundQueueFixture(dir.resolve("t" + threshold), REPLICATE)) {
        s.exec(Workload.ddl(db).toArray(String[]::new));
        s.exec(
            "INSERT INTO parent (id, code) VALUES (1, 'p1')",
            "INSERT INTO child (parent_id, line, qty) VALUES (1, 1, 5)");
        Txs x = new Txs(s.name(), 101);
        // The group touches child before parent; with foreign keys enforced at the replicate
        // (MariaDB; PostgreSQL with dsi_keep_triggers on) only parent-first inserts and
        // child-first deletes work set-based.
        Workload.Tx t1 =
            x.begin()
                .delete("child", row("parent_id", i64(1), "line", Txs.i32(1)))
                .delete("parent", row("id", i64(1)))
                .commit();
        Workload.Tx t2 =
            x.begin()
                .insert("parent", row("id", i64(2), "code", text("p2")))
                .insert("child", row("parent_id", i64(2), "line", Txs.i32(1), "qty", Txs.i32(7)))
                .commit();
        q.append(List.of(t1, t2));
        try (Run r = start(s, q, Hvar.settings("dsi_bulk_threshold", threshold))) {
          Awaits.applied(r.dsi(), s, Map.of(101, t2.commitOqid()));
          assertThat(Hvar.rows(s, "SELECT id, code FROM parent")).containsExactly("2,p2");
          assertThat(Hvar.rows(s, "SELECT parent_id, line, qty FROM child"))
              .containsExactly("2,1,7");
          assertThat(r.counter(DsiCounter.HVAR_FALLBACKS)).isZero();
        }
      }
    }
  }

  // ---- inserts ahead of the group ---------------------------------------------------------------

  /** {@code n} transactions of 100 inserts into t from key {@code from}, notes of 400 bytes. */
  private static List<Workload.Tx> inserts(Txs x, long from, int n) {
    List<Workload.Tx> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      x.begin();
      for (long k = from + i * 100L; k < from + (i + 1) * 100L; k++) {
        x.insert("t", row("id", i64(k), "a", i64(k), "b", text("n".repeat(400)), "big", text("")));
      }
      out.add(x.commit());
    }
    return out;
  }

  /**
   * New keys' inserts go to the replicate while the group still compiles (PostgreSQL: a COPY fed
   * transaction by transaction): later commands of the group on those keys (update, delete and
   * insert again, a key move) apply after them, and a transaction that cannot be compiled after its
   * inserts were encoded leaves none of them in the group (it is applied once, in continuous mode).
   */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void newKeysGoAheadAndLaterCommandsOnThemApplyAfter(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("hvar_ahead");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(tableDdl(db));
      Txs x = new Txs(s.name(), 101);
      List<Workload.Tx> txs = new ArrayList<>(inserts(x, 1, 20)); // keys 1..2000, 800 KB
      txs.add(
          x.begin()
              .update("t", row("id", i64(1)), row("a", i64(-1)))
              .delete("t", row("id", i64(2)))
              .insert("t", row("id", i64(2), "a", i64(7), "b", text("again"), "big", text("")))
              .update("t", row("id", i64(3)), row("id", i64(9003)))
              .delete("t", row("id", i64(4)))
              .commit());
      // encoded, then dropped: the snapshot row cannot be compiled, so the transaction is not
      x.begin();
      for (long k = 3001; k <= 3100; k++) {
        x.insert("t", row("id", i64(k), "a", i64(k), "b", text("c"), "big", text("")));
      }
      txs.add(
          x.snapshot("t", row("id", i64(5), "a", i64(55), "b", text("s"), "big", text("")))
              .commit());
      txs.addAll(inserts(x, 4001, 5));
      q.append(txs);
      try (Run r = start(s, q, Hvar.settings())) {
        Awaits.applied(r.dsi(), s, Map.of(101, txs.get(txs.size() - 1).commitOqid()));
        assertThat(Hvar.rows(s, "SELECT count(*), sum(a) FROM t"))
            // 1..2000, then a of 1 to -1, 2 deleted and inserted with 7, 4 deleted; 3001..3100
            // and 5's a to 55 in continuous mode; 4001..4500
            .containsExactly("2599," + (2_001_000 - 2 - 2 + 7 - 4 + 305_050 + 50 + 2_125_250));
        assertThat(
                Hvar.rows(
                    s, "SELECT id, a, b FROM t WHERE id IN (1, 2, 3, 4, 5, 9003) ORDER BY id"))
            .containsExactly(
                "1,-1," + "n".repeat(400), "2,7,again", "5,55,s", "9003,3," + "n".repeat(400));
        assertThat(r.counter(DsiCounter.HVAR_FALLBACKS)).isZero();
        assertThat(r.counter(DsiCounter.HVAR_TRANS_CONTINUOUS)).isEqualTo(1);
      }
    }
  }

  /**
   * A key inserted ahead that the replicate already holds fails the group's load: the group is
   * rolled back and applied again in continuous mode, which stops at the failing transaction.
   */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void aKeyInsertedAheadThatTheReplicateHoldsFailsTheGroupExactly(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("hvar_ahead_dup");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(tableDdl(db), "INSERT INTO t (id, a) VALUES (1050, 0)");
      Txs x = new Txs(s.name(), 101);
      List<Workload.Tx> txs = new ArrayList<>(inserts(x, 1, 10)); // 1..1000
      Workload.Tx bad = inserts(x, 1001, 1).get(0); // 1001..1100 holds 1050
      txs.add(bad);
      txs.addAll(inserts(x, 2001, 10));
      q.append(txs);
      try (Run r = start(s, q, Hvar.settings())) {
        DsiFailure f = Awaits.down(r.dsi()).failure().orElseThrow();
        assertThat(f.commitOqid()).contains(bad.commitOqid());
        assertThat(Replicate.lastCommits(s)).containsEntry(101, txs.get(9).commitOqid());
        assertThat(Hvar.rows(s, "SELECT count(*) FROM t")).containsExactly("1001");
        assertThat(r.counter(DsiCounter.HVAR_FALLBACKS)).isPositive();
      }
    }
  }

  /**
   * PostgreSQL loads new keys with a binary COPY where it knows every column's type; a value of
   * another kind than its column (text for an integer column: the primary's column is text) is not
   * converted by the binary encoding, so that group is applied again in continuous mode, where
   * PostgreSQL converts it, and the table's later groups load as text: one fallback in all.
   */
  @org.junit.jupiter.api.Test
  void aValueTheBinaryLoadDoesNotWriteTurnsTheTableToTextLoadsAfterOneFallback() throws Exception {
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("hvar_binary");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec("CREATE TABLE t (id bigint PRIMARY KEY, a bigint, code int)");
      Txs x = new Txs(s.name(), 101);
      List<Workload.Tx> txs = new ArrayList<>();
      for (int g = 0; g < 5; g++) {
        x.begin();
        for (long k = g * 100L + 1; k <= (g + 1) * 100L; k++) {
          x.insert("t", row("id", i64(k), "a", i64(k), "code", text(Long.toString(k * 3))));
        }
        txs.add(x.commit());
      }
      q.append(txs);
      // groups of one transaction each
      try (Run r = start(s, q, Hvar.maxCmds(Hvar.settings(), 100))) {
        Awaits.applied(r.dsi(), s, Map.of(101, txs.get(txs.size() - 1).commitOqid()));
        assertThat(Hvar.rows(s, "SELECT count(*), sum(a), sum(code) FROM t"))
            .containsExactly("500,125250,375750");
        assertThat(r.counter(DsiCounter.HVAR_FALLBACKS)).isEqualTo(1);
        assertThat(r.counter(DsiCounter.HVAR_GROUP_CMDS)).isGreaterThanOrEqualTo(4);
      }
    }
  }

  // ---- failures --------------------------------------------------------------------------------

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void theFallbackFindsTheFailingTransactionExactly(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("hvar_stop");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(Workload.ddl(db).toArray(String[]::new));
      s.exec("INSERT INTO parent (id, code) VALUES (500, 'taken')");
      Txs x = new Txs(s.name(), 101);
      List<Workload.Tx> txs = new ArrayList<>();
      for (int i = 1; i <= 30; i++) {
        txs.add(x.begin().insert("parent", row("id", i64(i), "code", text("c" + i))).commit());
      }
      Workload.Tx bad = x.begin().insert("parent", row("id", i64(500), "code", text("d"))).commit();
      txs.add(bad);
      for (int i = 31; i <= 60; i++) {
        txs.add(x.begin().insert("parent", row("id", i64(i), "code", text("c" + i))).commit());
      }
      q.append(txs);
      try (Run r = start(s, q, Hvar.settings("dsi_bulk_threshold", "5"))) {
        DsiFailure f = Awaits.down(r.dsi()).failure().orElseThrow();
        assertThat(f.commitOqid()).contains(bad.commitOqid());
        assertThat(f.statement()).contains("INSERT INTO");
        assertThat(Replicate.lastCommits(s)).containsEntry(101, txs.get(29).commitOqid());
        assertThat(Hvar.rows(s, "SELECT count(*) FROM parent")).containsExactly("31");
        assertThat(r.counter(DsiCounter.HVAR_FALLBACKS)).isPositive();
        r.dsi().resumeSkippingTransaction();
        Awaits.applied(r.dsi(), s, Map.of(101, txs.get(txs.size() - 1).commitOqid()));
        assertThat(Hvar.rows(s, "SELECT count(*) FROM parent")).containsExactly("61");
        assertThat(r.sink().logged)
            .singleElement()
            .satisfies(l -> assertThat(l.reason()).isEqualTo(LoggedTransaction.Reason.SKIPPED));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void withDsiRetryOneAFailedGroupSuspendsTheConnection(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("hvar_dsiretry");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      uniqueTables(db, s, true);
      Workload.Tx tx = swap(new Txs(s.name(), 101));
      q.append(List.of(tx));
      try (Run r = start(s, q, Hvar.settings("dsi_retry", "1"))) {
        DsiState down = Awaits.down(r.dsi());
        assertThat(down.failure().orElseThrow().message()).contains("dsi_retry is 1");
        assertThat(down.failure().orElseThrow().commitOqid()).contains(tx.commitOqid());
        assertThat(Hvar.rows(s, "SELECT id, code, n FROM u ORDER BY id"))
            .containsExactly("1,a,0", "2,b,0");
      }
    }
  }

  /**
   * The DSI's session is terminated while a group waits inside its transaction (a trigger sleeps on
   * a row in the middle of the group): the replicate holds no part of the group, and after the
   * reconnect the group is applied once.
   */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void aSessionKilledInTheMiddleOfAGroupLeavesNoHalfGroupAndNoDuplicate(TestDb db)
      throws Exception {
    try (TestDb.Scratch s = db.scratch("hvar_kill");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(tableDdl(db), nokeyDdl(db));
      slowTable(s);
      Txs x = new Txs(s.name(), 101);
      List<Workload.Tx> txs = new ArrayList<>();
      for (int i = 1; i <= 50; i++) {
        txs.add(
            x.begin()
                .insert("t", row("id", i64(i), "a", i64(i)))
                .insert("nk", row("x", i64(i), "y", text("n")))
                .commit());
      }
      txs.add(x.begin().insert("slow", row("id", i64(1))).commit());
      for (int i = 1; i <= 50; i++) {
        txs.add(x.begin().update("t", row("id", i64(i)), row("a", i64(-i))).commit());
      }
      // The whole backlog is waiting before the DSI starts, so it is one group.
      q.append(txs);
      Oqid last = txs.get(txs.size() - 1).commitOqid();
      try (Run r = start(s, q, Hvar.settings("dsi_bulk_threshold", "10"))) {
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> sleeping(s) && Hvar.killDsiSessions(s) > 0);
        // killed inside the group's transaction: nothing of it is there
        assertThat(Hvar.rows(s, "SELECT count(*) FROM t")).containsExactly("0");
        assertThat(Replicate.lastCommits(s)).isEmpty();
        Awaits.applied(r.dsi(), s, Map.of(101, last));
        assertThat(Hvar.rows(s, "SELECT count(*), sum(a) FROM t")).containsExactly("50,-1275");
        assertThat(Hvar.rows(s, "SELECT count(*) FROM nk")).containsExactly("50");
        assertThat(Hvar.rows(s, "SELECT count(*) FROM slow")).containsExactly("1");
        assertThat(r.counter(DsiCounter.RECONNECTS)).isPositive();
        assertThat(r.counter(DsiCounter.HVAR_FALLBACKS)).isZero();
      }
      // read again from the start: everything is already there
      q.queue().dropReader("DSI");
      try (Run r = start(s, q, Hvar.settings())) {
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> r.counter(DsiCounter.TRANS_IGNORED) == txs.size());
        assertThat(Hvar.rows(s, "SELECT count(*), sum(a) FROM t")).containsExactly("50,-1275");
        assertThat(Hvar.rows(s, "SELECT count(*) FROM nk")).containsExactly("50");
        assertThat(r.counter(DsiCounter.HVAR_CMDS_COMPILED)).isZero();
      }
    }
  }

  /**
   * HVAR compiles the next group while the last one applies: with a group held at the replicate (a
   * row lock the test holds), the next one (new keys, which go ahead, and an update of one of the
   * held group's new keys) is compiled and handed over, and no third is compiled (one group
   * applies, one waits); its new rows wait for the session. Once the lock goes both commit, in
   * order.
   */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void theNextGroupCompilesWhileTheLastOneApplies(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("hvar_overlap");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(tableDdl(db), "INSERT INTO t (id, a) VALUES (1, 0)");
      Txs x = new Txs(s.name(), 101);
      List<Workload.Tx> held = new ArrayList<>(inserts(x, 1001, 3)); // 1001..1300
      held.add(x.begin().update("t", row("id", i64(1)), row("a", i64(1))).commit());
      try (java.sql.Connection holder = lockingRowOne(s)) {
        q.append(held);
        try (Run r = start(s, q, Hvar.settings())) {
          await().atMost(Duration.ofSeconds(60)).until(() -> waitingForLock(s));
          long closed = r.counter(DsiCounter.HVAR_GROUP_CMDS);
          List<Workload.Tx> next = new ArrayList<>(inserts(x, 2001, 3)); // 2001..2300
          next.add(x.begin().update("t", row("id", i64(1300)), row("a", i64(-1))).commit());
          next.addAll(inserts(x, 3001, 2)); // 3001..3200
          q.append(next.subList(0, 4));
          await()
              .atMost(Duration.ofSeconds(60))
              .until(() -> r.counter(DsiCounter.HVAR_GROUP_CMDS) == closed + 1);
          q.append(next.subList(4, next.size())); // waits: one group applies, one is handed over
          await()
              .atMost(Duration.ofSeconds(60))
              .until(
                  () ->
                      Hvar.counter(r.reg(), DsiCounter.CMDS_READ)
                          == 309 + 513); // with begins, commits
          assertThat(r.counter(DsiCounter.HVAR_GROUP_CMDS)).isEqualTo(closed + 1);
          assertThat(waitingForLock(s)).isTrue();
          assertThat(Replicate.lastCommits(s)).isEmpty();
          holder.rollback();
          Awaits.applied(r.dsi(), s, Map.of(101, next.get(next.size() - 1).commitOqid()));
          assertThat(Hvar.rows(s, "SELECT count(*), sum(a) FROM t"))
              // 1 (a 1), 1001..1300 with 1300's a -1, 2001..2300, 3001..3200
              .containsExactly("801," + (1 + 345_150 - 1300 - 1 + 645_150 + 620_100));
          assertThat(r.counter(DsiCounter.HVAR_FALLBACKS)).isZero();
          assertThat(r.counter(DsiCounter.HVAR_TRANS_CONTINUOUS)).isZero();
        }
      }
    }
  }

  /**
   * With two DSIEXEC threads, the next group's new keys go ahead on the second session while the
   * first group is not committed, except a key the first group holds: the first group deletes key 1
   * (held: the test locks the row), the next inserts key 1 again. Had that insert gone ahead it
   * would have met the row still there and failed its group (a fallback); it waits for the group's
   * apply instead.
   */
  @org.junit.jupiter.api.Test
  void withTwoThreadsAKeyAnEarlierGroupHoldsDoesNotGoAhead() throws Exception {
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("hvar_ahead2");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(tableDdl(TestDb.POSTGRESQL), "INSERT INTO t (id, a) VALUES (1, 0), (2, 0)");
      Txs x = new Txs(s.name(), 101);
      List<Workload.Tx> held =
          List.of(
              x.begin()
                  .update("t", row("id", i64(2)), row("a", i64(3)))
                  .delete("t", row("id", i64(1)))
                  .commit());
      try (java.sql.Connection holder = lockingRowOne(s)) {
        q.append(held);
        try (Run r = start(s, q, Hvar.settings("dsi_num_threads", "2"))) {
          await().atMost(Duration.ofSeconds(60)).until(() -> waitingForLock(s));
          List<Workload.Tx> next = List.of(keyOneAgainAndNewKeys(x));
          q.append(next);
          // a session that does not wait inserted into t (new keys went ahead of the first group),
          // or the group failed
          await()
              .atMost(Duration.ofSeconds(60))
              .until(() -> insertedAhead(s) || r.counter(DsiCounter.HVAR_FALLBACKS) > 0);
          assertThat(r.counter(DsiCounter.HVAR_FALLBACKS)).isZero();
          assertThat(insertedAhead(s)).isTrue();
          assertThat(waitingForLock(s)).isTrue();
          assertThat(Replicate.lastCommits(s)).isEmpty();
          holder.rollback();
          Awaits.applied(r.dsi(), s, Map.of(101, next.get(next.size() - 1).commitOqid()));
          assertThat(Hvar.rows(s, "SELECT count(*), sum(a) FROM t"))
              .containsExactly("302," + (5 + 3 + 345_150));
          assertThat(Hvar.rows(s, "SELECT b FROM t WHERE id = 1")).containsExactly("again");
          assertThat(r.counter(DsiCounter.HVAR_FALLBACKS)).isZero();
        }
      }
    }
  }

  /**
   * With two DSIEXEC threads, a transaction applied in continuous mode (a snapshot row is not
   * compiled) that deletes key 1, held by a row lock; the next group inserts key 1 again with new
   * keys. The compiler does not know the continuous transaction's keys, so none of the group's rows
   * go ahead until it is done: no fallback.
   */
  @org.junit.jupiter.api.Test
  void withTwoThreadsNothingGoesAheadOfATransactionInContinuousMode() throws Exception {
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("hvar_ahead_cont");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(tableDdl(TestDb.POSTGRESQL), "INSERT INTO t (id, a) VALUES (1, 0)");
      Txs x = new Txs(s.name(), 101);
      List<Workload.Tx> held =
          List.of(
              x.begin()
                  .delete("t", row("id", i64(1)))
                  .snapshot("t", row("id", i64(2), "a", i64(2), "b", text("s"), "big", text("")))
                  .commit());
      try (java.sql.Connection holder = lockingRowOne(s)) {
        q.append(held);
        try (Run r = start(s, q, Hvar.settings("dsi_num_threads", "2"))) {
          await().atMost(Duration.ofSeconds(60)).until(() -> waitingForLock(s));
          Workload.Tx next = keyOneAgainAndNewKeys(x);
          q.append(List.of(next));
          // the group is compiled and handed over, and waits
          await()
              .atMost(Duration.ofSeconds(60))
              .until(() -> r.counter(DsiCounter.HVAR_GROUP_CMDS) == 1);
          assertThat(insertedAhead(s)).isFalse();
          assertThat(waitingForLock(s)).isTrue();
          holder.rollback();
          Awaits.applied(r.dsi(), s, Map.of(101, next.commitOqid()));
          assertThat(Hvar.rows(s, "SELECT count(*), sum(a) FROM t"))
              .containsExactly("302," + (5 + 2 + 345_150));
          assertThat(r.counter(DsiCounter.HVAR_FALLBACKS)).isZero();
          assertThat(r.counter(DsiCounter.HVAR_TRANS_CONTINUOUS)).isEqualTo(1);
        }
      }
    }
  }

  /** True while a DSI session that waits for no lock has inserted into {@code t}, uncommitted. */
  private static boolean insertedAhead(TestDb.Scratch s) throws Exception {
    return !Hvar.rows(
            s,
            "SELECT l.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE"
                + " a.application_name = 'openrs-dsi rds."
                + s.name()
                + "' AND l.relation = 't'::regclass AND l.mode = 'RowExclusiveLock' AND"
                + " a.wait_event_type IS DISTINCT FROM 'Lock'")
        .isEmpty();
  }

  /** True while a DSI session waits for a row lock. */
  private static boolean waitingForLock(TestDb.Scratch s) throws Exception {
    if (s.db() == TestDb.POSTGRESQL) {
      return !Hvar.rows(
              s,
              "SELECT pid FROM pg_stat_activity WHERE application_name = 'openrs-dsi rds."
                  + s.name()
                  + "' AND wait_event_type = 'Lock'")
          .isEmpty();
    }
    return !Hvar.rows(
            s,
            "SELECT t.trx_id FROM information_schema.innodb_trx t JOIN"
                + " information_schema.processlist p ON p.id = t.trx_mysql_thread_id WHERE"
                + " t.trx_state = 'LOCK WAIT' AND p.db = '"
                + s.name()
                + "'")
        .isEmpty();
  }

  /**
   * Two DSIEXEC threads and small groups, so that while one group sleeps in a trigger on one
   * session the next is loaded on the other, its new rows inserted ahead and uncommitted: every DSI
   * session (and the compiler's catalog connection) is terminated. After the reconnects each group
   * is applied once: nothing lost, nothing twice (the keyless table counts every row).
   */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void withTwoThreadsSessionsKilledBetweenGroupsLoseNothingAndApplyNothingTwice(TestDb db)
      throws Exception {
    try (TestDb.Scratch s = db.scratch("hvar_kill2");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(tableDdl(db), nokeyDdl(db));
      slowTable(s);
      Txs x = new Txs(s.name(), 101);
      List<Workload.Tx> txs = new ArrayList<>();
      for (int i = 1; i <= 60; i++) {
        if (i == 20) {
          txs.add(x.begin().insert("slow", row("id", i64(1))).commit());
        }
        x.begin().insert("nk", row("x", i64(i), "y", text("n")));
        for (int k = 0; k < 10; k++) {
          long id = i * 100L + k;
          x.insert("t", row("id", i64(id), "a", i64(id), "b", text("x"), "big", text("")));
        }
        txs.add(x.commit());
      }
      for (int i = 1; i <= 60; i++) {
        txs.add(x.begin().update("t", row("id", i64(i * 100L)), row("a", i64(-i))).commit());
      }
      q.append(txs);
      Oqid last = txs.get(txs.size() - 1).commitOqid();
      DsiSettings settings = Hvar.maxCmds(Hvar.settings("dsi_num_threads", "2"), 60);
      try (Run r = start(s, q, settings)) {
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> sleeping(s) && Hvar.killDsiSessions(s) > 0);
        Awaits.applied(r.dsi(), s, Map.of(101, last));
        assertThat(Hvar.rows(s, "SELECT count(*), sum(a) FROM t"))
            // 600 rows; the 60 updated ones' a from i * 100 to -i
            .containsExactly("600," + (sumOfIds() - 183_000 - 1_830));
        assertThat(Hvar.rows(s, "SELECT count(*), sum(x) FROM nk")).containsExactly("60,1830");
        assertThat(Hvar.rows(s, "SELECT count(*) FROM slow")).containsExactly("1");
        assertThat(r.counter(DsiCounter.RECONNECTS)).isPositive();
      }
    }
  }

  /** The sum of the ids {@code i * 100 + k}, i in 1..60, k in 0..9. */
  private static long sumOfIds() {
    long sum = 0;
    for (int i = 1; i <= 60; i++) {
      for (int k = 0; k < 10; k++) {
        sum += i * 100L + k;
      }
    }
    return sum;
  }

  /** A table {@code slow} whose inserts sleep 2 s in a trigger. */
  private static void slowTable(TestDb.Scratch s) throws Exception {
    if (s.db() == TestDb.POSTGRESQL) {
      s.exec(
          "CREATE TABLE slow (id bigint PRIMARY KEY)",
          "CREATE FUNCTION slow_down() RETURNS trigger LANGUAGE plpgsql AS"
              + " $$ BEGIN PERFORM pg_sleep(2); RETURN NEW; END $$",
          "CREATE TRIGGER slow_down BEFORE INSERT ON slow FOR EACH ROW EXECUTE FUNCTION"
              + " slow_down()");
    } else {
      s.exec(
          "CREATE TABLE slow (id BIGINT PRIMARY KEY) ENGINE=InnoDB",
          "CREATE TRIGGER slow_down BEFORE INSERT ON slow FOR EACH ROW SET @x = SLEEP(2)");
    }
  }

  /** A connection in a transaction holding a lock on row 1 of {@code t} (roll back to release). */
  private static java.sql.Connection lockingRowOne(TestDb.Scratch s) throws Exception {
    java.sql.Connection c = s.connect();
    c.setAutoCommit(false);
    try (java.sql.Statement st = c.createStatement()) {
      st.executeQuery("SELECT a FROM t WHERE id = 1 FOR UPDATE").close();
    }
    return c;
  }

  /** One transaction, so one group: key 1 inserted again (a 5), and new keys 1001..1300. */
  private static Workload.Tx keyOneAgainAndNewKeys(Txs x) {
    x.begin().insert("t", row("id", i64(1), "a", i64(5), "b", text("again"), "big", text("")));
    for (long k = 1001; k <= 1300; k++) {
      x.insert("t", row("id", i64(k), "a", i64(k), "b", text("n".repeat(400)), "big", text("")));
    }
    return x.commit();
  }

  /** True while a DSI session sleeps in the trigger. */
  private static boolean sleeping(TestDb.Scratch s) throws Exception {
    if (s.db() == TestDb.POSTGRESQL) {
      return !Hvar.rows(
              s,
              "SELECT pid FROM pg_stat_activity WHERE application_name = 'openrs-dsi rds."
                  + s.name()
                  + "' AND wait_event = 'PgSleep'")
          .isEmpty();
    }
    return !Hvar.rows(
            s,
            "SELECT id FROM information_schema.processlist WHERE db = '"
                + s.name()
                + "' AND state = 'User sleep'")
        .isEmpty();
  }

  /**
   * DSI-S only frames a row command; the compiler is where its body is first read. A row whose text
   * is not UTF-8 (its frame intact) stops the connection with an error naming the transaction and
   * its commit OQID; nothing of it or after it is applied.
   */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void aRowWhoseBodyDoesNotReadStopsTheConnectionNamingItsTransaction(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("hvar_unreadable");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(tableDdl(db));
      Txs x = new Txs(s.name(), 101);
      Workload.Tx good = x.begin().insert("t", row("id", i64(1), "b", text("fine"))).commit();
      Workload.Tx bad = x.begin().insert("t", row("id", i64(2), "b", text("caf\u00e9"))).commit();
      Workload.Tx after = x.begin().insert("t", row("id", i64(3), "b", text("later"))).commit();
      q.append(List.of(good));
      PackedEncoder encoder = new PackedEncoder();
      List<byte[]> messages = new ArrayList<>();
      for (var c : bad.commands()) {
        byte[] m = OriginEnvelope.pack(bad.origin(), c, encoder);
        if (c instanceof LtlCommand.Insert) {
          int at = indexOf(m, new byte[] {(byte) 0xC3, (byte) 0xA9});
          assertThat(at).isPositive();
          m[at + 1] = 'x'; // é's second byte: C3 is now followed by no continuation byte
        }
        messages.add(m);
      }
      q.queue().appendAll(messages).get();
      q.append(List.of(after));
      try (Run r = start(s, q, Hvar.settings())) {
        DsiState down = Awaits.down(r.dsi());
        DsiFailure f = down.failure().orElseThrow();
        assertThat(f.message()).contains("does not read").contains("UTF-8");
        assertThat(f.commitOqid()).contains(bad.commitOqid());
        assertThat(f.action()).isEqualTo(ErrorAction.STOP_REPLICATION);
        assertThat(Hvar.rows(s, "SELECT count(*) FROM t WHERE id >= 2")).containsExactly("0");
      }
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  // ---- adaptive groups
  // ---------------------------------------------------------------------------

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void underLightLoadEachTransactionIsAGroupOfItsOwn(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("hvar_light");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(tableDdl(db));
      Txs x = new Txs(s.name(), 101);
      try (Run r = start(s, q, Hvar.settings())) {
        for (int i = 1; i <= 5; i++) {
          Workload.Tx tx = x.begin().insert("t", row("id", i64(i), "a", i64(i))).commit();
          q.append(List.of(tx));
          Awaits.applied(r.dsi(), s, Map.of(101, tx.commitOqid()));
        }
        assertThat(r.counter(DsiCounter.HVAR_GROUP_CMDS)).isEqualTo(5);
        assertThat(r.counter(DsiCounter.HVAR_CLOSED_EMPTY)).isEqualTo(5);
        Awaits.counted(() -> r.counter(DsiCounter.TRAN_GROUPS_COMMIT), 5);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void groupsCloseAtTheNetChangeDatabasesSizeAndAtMaxCommands(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("hvar_sizes");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(tableDdl(db));
      Txs x = new Txs(s.name(), 101);
      List<Workload.Tx> txs = new ArrayList<>();
      for (int i = 1; i <= 30; i++) {
        txs.add(
            x.begin()
                .insert("t", row("id", i64(2 * i), "a", i64(i)))
                .insert("t", row("id", i64(2 * i + 1), "a", i64(i)))
                .commit());
      }
      q.append(txs.subList(0, 10));
      // 100 bytes of net rows and transactions: every group closes after its first transaction
      DsiSettings tiny = Hvar.settings();
      tiny = tiny.withHvar(tiny.hvar().withCdbMaxSizeBytes(100));
      try (Run r = start(s, q, tiny)) {
        Awaits.applied(r.dsi(), s, Map.of(101, txs.get(9).commitOqid()));
        assertThat(r.counter(DsiCounter.HVAR_CLOSED_CDB_SIZE)).isEqualTo(10);
        assertThat(r.counter(DsiCounter.HVAR_GROUP_CMDS)).isEqualTo(10);
      }
      q.append(txs.subList(10, 30));
      // at most 6 commands: groups of three transactions
      try (Run r = start(s, q, Hvar.maxCmds(Hvar.settings(), 6))) {
        Awaits.applied(r.dsi(), s, Map.of(101, txs.get(29).commitOqid()));
        assertThat(r.counter(DsiCounter.HVAR_CLOSED_MAX_CMDS)).isPositive();
        assertThat(r.counter(DsiCounter.HVAR_GROUP_CMDS)).isGreaterThanOrEqualTo(7);
        assertThat(Hvar.rows(s, "SELECT count(*) FROM t")).containsExactly("60");
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void commandsThatCannotBeCompiledRunInLogOrderBetweenGroups(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("hvar_nocompile");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(tableDdl(db), nokeyDdl(db));
      Txs x = new Txs(s.name(), 101);
      List<Workload.Tx> txs =
          List.of(
              x.begin().insert("nk", row("x", i64(1), "y", text("before"))).commit(),
              x.begin().insert("t", row("id", i64(1), "a", i64(1))).commit(),
              x.begin().truncate("nk").commit(),
              x.begin().insert("nk", row("x", i64(2), "y", text("after"))).commit(),
              x.begin().ddl(Optional.of(s.name()), "ALTER TABLE t ADD COLUMN c bigint").commit(),
              x.begin().insert("t", row("id", i64(2), "a", i64(2), "c", i64(22))).commit(),
              x.begin().update("t", row("id", i64(1)), row("c", i64(11))).commit());
      q.append(txs);
      DsiSettings settings = Hvar.settings().withApplyDdl(true);
      try (Run r = start(s, q, settings)) {
        Awaits.applied(r.dsi(), s, Map.of(101, txs.get(txs.size() - 1).commitOqid()));
        assertThat(Hvar.rows(s, "SELECT x, y FROM nk")).containsExactly("2,after");
        assertThat(Hvar.rows(s, "SELECT id, a, c FROM t ORDER BY id"))
            .containsExactly("1,1,11", "2,2,22");
        assertThat(r.counter(DsiCounter.HVAR_TRANS_CONTINUOUS)).isEqualTo(2);
        assertThat(r.counter(DsiCounter.HVAR_CLOSED_NO_COMPILE)).isEqualTo(2);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void commandConversionsApplyToTheNetRows(TestDb db) throws Exception {
    try (TestDb.Scratch s = db.scratch("hvar_convert");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(tableDdl(db));
      s.exec("INSERT INTO t VALUES (1, 1, 'old', '" + BIG + "'), (2, 2, 'two', NULL)");
      Txs x = new Txs(s.name(), 101);
      Workload.Tx tx =
          x.begin()
              // i2di: an insert of a key the replicate has replaces the row
              .insert("t", row("id", i64(1), "a", i64(10), "b", text("new")))
              // u2di: delete and insert of the whole row, the rest from the replicate's row
              .update("t", row("id", i64(2)), row("a", i64(20), "big", Value.UNCHANGED))
              .commit();
      q.append(List.of(tx));
      try (Run r = start(s, q, Hvar.settings("dsi_command_convert", "i2di,u2di"))) {
        Awaits.applied(r.dsi(), s, Map.of(101, tx.commitOqid()));
        assertThat(Hvar.rows(s, "SELECT id, a, b, big IS NULL FROM t ORDER BY id"))
            .containsExactly(
                db == TestDb.POSTGRESQL ? "1,10,new,t" : "1,10,new,1",
                db == TestDb.POSTGRESQL ? "2,20,two,t" : "2,20,two,1");
        assertThat(r.counter(DsiCounter.CONVERTED)).isEqualTo(2);
        assertThat(r.counter(DsiCounter.HVAR_FALLBACKS)).isZero();
      }
    }
  }
}
