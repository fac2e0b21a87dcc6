package io.openrs.dsi;

import static io.openrs.dsi.testkit.Txs.i32;
import static io.openrs.dsi.testkit.Txs.i64;
import static io.openrs.dsi.testkit.Txs.row;
import static io.openrs.dsi.testkit.Txs.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.dsi.testkit.Awaits;
import io.openrs.dsi.testkit.OutboundQueueFixture;
import io.openrs.dsi.testkit.RecordingSink;
import io.openrs.dsi.testkit.Replicate;
import io.openrs.dsi.testkit.TestDb;
import io.openrs.dsi.testkit.Txs;
import io.openrs.dsi.testkit.Workload;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Value;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the outbound queue can hold and what the connection asks for: the unfinished-run rule,
 * incomplete runs, dsi_command_convert, snapshot upserts, DDL opt-in, tickets, suspend and resume.
 */
class StreamShapesIT {
  private static final int REPLICATE = 201;

  @TempDir Path dir;

  private static TestDb.Scratch prepare(TestDb db, String name) throws Exception {
    TestDb.Scratch s = db.scratch(name);
    s.exec(Workload.ddl(db).toArray(String[]::new));
    return s;
  }

  static List<String> rows(TestDb.Scratch s, String sql) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = s.connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          sb.append(i == 1 ? "" : ",").append(rs.getString(i));
        }
        out.add(sb.toString());
      }
    }
    return out;
  }

  private static DsiConnection start(
      TestDb.Scratch s, OutboundQueueFixture q, DsiSettings st, RecordingSink sink) {
    return DsiConnection.start(s.target(REPLICATE), q.queue(), st, sink, new SimpleMeterRegistry());
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void anUnfinishedRunIsDroppedAndItsRewriteApplied(TestDb db) throws Exception {
    try (TestDb.Scratch s = prepare(db, "dsi_unfinished");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      Txs x = new Txs(s.name(), 101);
      Workload.Tx t1 = x.begin().insert("parent", row("id", i64(1), "code", text("a"))).commit();
      q.append(List.of(t1));
      Txs again = new Txs(s.name(), 101);
      again.begin().insert("parent", row("id", i64(1), "code", text("a"))).commit(); // same OQIDs
      x.begin().insert("parent", row("id", i64(2), "code", text("b")));
      List<LtlCommand> cut = x.open(); // a crash cut this run
      Workload.Tx t2 = x.insert("parent", row("id", i64(3), "code", text("c"))).commit();
      q.append(101, cut);
      q.append(List.of(t2)); // DIST writes it again in full
      Workload.Tx t3 = x.begin().insert("parent", row("id", i64(4), "code", text("d"))).commit();
      q.append(List.of(t3));
      try (DsiConnection dsi = start(s, q, DsiSettings.defaults(), new RecordingSink())) {
        Awaits.applied(dsi, s, Map.of(101, t3.commitOqid()));
        assertThat(rows(s, "SELECT id FROM parent ORDER BY id"))
            .containsExactly("1", "2", "3", "4");
        assertThat(dsi.counter(DsiCounter.TRANS_DROPPED)).isEqualTo(1);
        Awaits.counted(() -> dsi.counter(DsiCounter.TRANS_UNGROUPED_COMMIT), 3);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void commandsWithoutTheirBeginStopTheConnectionUntilSkipped(TestDb db) throws Exception {
    try (TestDb.Scratch s = prepare(db, "dsi_incomplete");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      Txs x = new Txs(s.name(), 101);
      Workload.Tx t1 = x.begin().insert("parent", row("id", i64(1), "code", text("a"))).commit();
      List<LtlCommand> whole = t1.commands();
      q.append(101, whole.subList(1, whole.size())); // its begin is gone
      Workload.Tx t2 = x.begin().insert("parent", row("id", i64(2), "code", text("b"))).commit();
      q.append(List.of(t2));
      RecordingSink sink = new RecordingSink();
      try (DsiConnection dsi = start(s, q, DsiSettings.defaults(), sink)) {
        DsiFailure f = Awaits.down(dsi).failure().orElseThrow();
        assertThat(f.vendorCode()).isEqualTo(5186);
        assertThat(f.commitOqid()).isEmpty();
        dsi.resumeSkippingTransaction();
        Awaits.applied(dsi, s, Map.of(101, t2.commitOqid()));
        assertThat(rows(s, "SELECT id FROM parent")).containsExactly("2");
        assertThat(sink.logged)
            .singleElement()
            .satisfies(l -> assertThat(l.commands()).isEqualTo(whole.subList(1, whole.size())));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void commandConversions(TestDb db) throws Exception {
    try (TestDb.Scratch s = prepare(db, "dsi_convert");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(
          "INSERT INTO parent (id, code, name) VALUES (1, 'a', 'old'), (2, 'b', 'two')",
          "INSERT INTO nokey (a, b, c) VALUES (1, 'k', 1.00)");
      Txs x = new Txs(s.name(), 101);
      Workload.Tx t =
          x.begin()
              .insert("parent", row("id", i64(1), "code", text("a2"), "name", text("i2di")))
              .update(
                  "parent",
                  row("id", i64(2), "code", text("b"), "name", text("two")),
                  row("id", i64(2), "code", text("b2"), "name", Value.UNCHANGED))
              .delete("parent", row("id", i64(2)))
              .truncate("nokey")
              .insert("nokey", row("a", i32(5)))
              .commit();
      q.append(List.of(t));
      DsiSettings settings =
          ContinuousApplyIT.settings("dsi_command_convert", "i2di,u2di,d2none,t2none")
              .withTableCommandConvert(
                  Map.of(
                      s.name() + ".nokey",
                      Set.of(CommandConversion.I2NONE, CommandConversion.T2NONE)));
      try (DsiConnection dsi = start(s, q, settings, new RecordingSink())) {
        Awaits.applied(dsi, s, Map.of(101, t.commitOqid()));
        // i2di replaced row 1; u2di rewrote row 2 (name from the before image); d2none kept it
        assertThat(rows(s, "SELECT id, code, name FROM parent ORDER BY id"))
            .containsExactly("1,a2,i2di", "2,b2,two");
        // t2none and i2none (table level) on nokey
        assertThat(rows(s, "SELECT a FROM nokey")).containsExactly("1");
        assertThat(dsi.counter(DsiCounter.CONVERTED)).isEqualTo(5);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void snapshotRowsAreUpserted(TestDb db) throws Exception {
    try (TestDb.Scratch s = prepare(db, "dsi_snapshot");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec("INSERT INTO parent (id, code, name) VALUES (1, 'a', 'old')");
      Txs x = new Txs(s.name(), 101);
      Workload.Tx t =
          x.begin()
              .snapshot("parent", row("id", i64(1), "code", text("a"), "name", text("new")))
              .snapshot("parent", row("id", i64(2), "code", text("b"), "name", text("two")))
              .commit();
      q.append(List.of(t));
      try (DsiConnection dsi = start(s, q, DsiSettings.defaults(), new RecordingSink())) {
        Awaits.applied(dsi, s, Map.of(101, t.commitOqid()));
        assertThat(rows(s, "SELECT id, name FROM parent ORDER BY id"))
            .containsExactly("1,new", "2,two");
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void ddlIsAppliedOnlyWhereTheConnectionOptsIn(TestDb db) throws Exception {
    for (boolean apply : new boolean[] {false, true}) {
      try (TestDb.Scratch s = prepare(db, "dsi_ddl");
          OutboundQueueFixture q =
              new OutboundQueueFixture(dir.resolve(Boolean.toString(apply)), REPLICATE)) {
        Txs x = new Txs(s.name(), 101);
        Workload.Tx ddl =
            x.begin().ddl(Optional.of(s.name()), "ALTER TABLE nokey ADD extra integer").commit();
        Workload.Tx after =
            x.begin()
                .insert("nokey", apply ? row("a", i32(1), "extra", i32(42)) : row("a", i32(1)))
                .commit();
        q.append(List.of(ddl, after));
        try (DsiConnection dsi =
            start(s, q, DsiSettings.defaults().withApplyDdl(apply), new RecordingSink())) {
          Awaits.applied(dsi, s, Map.of(101, after.commitOqid()));
          if (apply) {
            assertThat(rows(s, "SELECT a, extra FROM nokey")).containsExactly("1,42");
            assertThat(dsi.counter(DsiCounter.DDL_READ)).isEqualTo(1);
          } else {
            assertThat(rows(s, "SELECT * FROM nokey")).containsExactly("1,null,null");
            assertThat(dsi.counter(DsiCounter.DDL_SKIPPED)).isEqualTo(1);
          }
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void suspendStopsAfterTheCurrentTransactionAndResumeGoesOn(TestDb db) throws Exception {
    try (TestDb.Scratch s = prepare(db, "dsi_suspend");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      Txs x = new Txs(s.name(), 101);
      Workload.Tx t1 =
          x.begin().insert("parent", row("id", i64(1), "code", text("a"))).ticket("t1").commit();
      q.append(List.of(t1));
      RecordingSink sink = new RecordingSink();
      try (DsiConnection dsi =
          start(s, q, ContinuousApplyIT.settings("dsi_rs_ticket_report", "on"), sink)) {
        Awaits.applied(dsi, s, Map.of(101, t1.commitOqid()));
        dsi.suspend();
        assertThat(dsi.state()).isEqualTo(DsiState.SUSPENDED);
        Workload.Tx t2 = x.begin().insert("parent", row("id", i64(2), "code", text("b"))).commit();
        q.append(List.of(t2));
        // suspend returned after the DSI's threads stopped: nothing more is applied
        assertThat(Replicate.lastCommits(s)).containsEntry(101, t1.commitOqid());
        dsi.resume();
        assertThat(dsi.state()).isEqualTo(DsiState.RUNNING);
        Awaits.applied(dsi, s, Map.of(101, t2.commitOqid()));
        assertThat(sink.tickets)
            .singleElement()
            .satisfies(t -> assertThat(t).startsWith("101 [t1] DSI=").contains("DSI_T=1;DSI_C=2"));
        assertThat(sink.states)
            .extracting(DsiState::status)
            .containsSubsequence(DsiState.Status.SUSPENDED, DsiState.Status.RUNNING);
      }
    }
  }
}
