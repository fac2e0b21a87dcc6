package io.openrs.dsi;

import static io.openrs.dsi.testkit.Txs.i64;
import static io.openrs.dsi.testkit.Txs.row;
import static io.openrs.dsi.testkit.Txs.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.dsi.testkit.Awaits;
import io.openrs.dsi.testkit.OutboundQueueFixture;
import io.openrs.dsi.testkit.RecordingSink;
import io.openrs.dsi.testkit.Replicate;
import io.openrs.dsi.testkit.TestDb;
import io.openrs.dsi.testkit.Txs;
import io.openrs.dsi.testkit.Workload;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Error classes and actions: a constraint violation stops the connection with the failing
 * transaction's OQID, statement and message; skip hands the whole transaction to the exceptions
 * log; ignore, log and retry actions; row-count validation.
 */
class ErrorActionsIT {
  private static final int REPLICATE = 201;

  @TempDir Path dir;

  /** T1 fine, T2 inserts a key the replicate already has (between two good rows), T3 fine. */
  private static List<Workload.Tx> stream(Txs x) {
    return List.of(
        x.begin()
            .insert("parent", row("id", i64(1), "code", text("a"), "name", text("one")))
            .commit(),
        x.begin()
            .insert("parent", row("id", i64(3), "code", text("b"), "name", text("three")))
            .insert("parent", row("id", i64(2), "code", text("x"), "name", text("dup")))
            .insert("parent", row("id", i64(4), "code", text("c"), "name", text("four")))
            .commit(),
        x.begin()
            .insert("parent", row("id", i64(5), "code", text("e"), "name", text("five")))
            .commit());
  }

  private static List<Long> parentIds(TestDb.Scratch s) throws Exception {
    List<Long> ids = new ArrayList<>();
    try (Connection c = s.connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT id FROM parent ORDER BY id")) {
      while (rs.next()) {
        ids.add(rs.getLong(1));
      }
    }
    return ids;
  }

  private TestDb.Scratch prepare(TestDb db, String name) throws Exception {
    TestDb.Scratch s = db.scratch(name);
    s.exec(Workload.ddl(db).toArray(String[]::new));
    s.exec("INSERT INTO parent (id, code, name) VALUES (2, 'pre', 'already here')");
    return s;
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void aConstraintViolationStopsAndSkipHandsTheTransactionToTheLog(TestDb db) throws Exception {
    try (TestDb.Scratch s = prepare(db, "dsi_stop");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      Txs x = new Txs(s.name(), 101);
      List<Workload.Tx> txs = stream(x);
      q.append(txs);
      RecordingSink sink = new RecordingSink();
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              DsiSettings.defaults(),
              sink,
              new SimpleMeterRegistry())) {
        DsiState down = Awaits.down(dsi);
        DsiFailure f = down.failure().orElseThrow();
        assertThat(f.commitOqid()).contains(txs.get(1).commitOqid());
        assertThat(f.originConnectionId()).isEqualTo(101);
        assertThat(f.statement()).contains("INSERT INTO").contains("parent").contains("(2, 'x'");
        assertThat(f.message().toLowerCase()).contains("duplicate");
        assertThat(f.sqlState()).hasValueSatisfying(st -> assertThat(st).startsWith("23"));
        assertThat(f.action()).isEqualTo(ErrorAction.STOP_REPLICATION);
        assertThat(parentIds(s)).containsExactly(1L, 2L);
        assertThat(Replicate.lastCommits(s)).containsEntry(101, txs.get(0).commitOqid());
        assertThat(sink.states).contains(down);

        // resume without fixing anything: the same transaction fails again
        dsi.resume();
        assertThat(Awaits.down(dsi).failure().orElseThrow().commitOqid())
            .contains(txs.get(1).commitOqid());

        dsi.resumeSkippingTransaction();
        Awaits.applied(dsi, s, Map.of(101, txs.get(2).commitOqid()));
        assertThat(parentIds(s)).containsExactly(1L, 2L, 5L);
        assertThat(sink.logged).hasSize(1);
        LoggedTransaction logged = sink.logged.get(0);
        assertThat(logged.reason()).isEqualTo(LoggedTransaction.Reason.SKIPPED);
        assertThat(logged.commands()).isEqualTo(txs.get(1).commands());
        assertThat(logged.commitOqid()).contains(txs.get(1).commitOqid());
        assertThat(logged.originConnectionId()).isEqualTo(101);
        assertThat(logged.replicateConnectionId()).isEqualTo(REPLICATE);
        assertThat(dsi.counter(DsiCounter.TRANS_LOGGED)).isEqualTo(1);
        assertThat(dsi.state()).isEqualTo(DsiState.RUNNING);
      }
      // a restart reading everything again applies neither the skipped transaction nor any
      q.queue().dropReader("DSI");
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              DsiSettings.defaults(),
              sink,
              new SimpleMeterRegistry())) {
        org.awaitility.Awaitility.await().until(() -> dsi.counter(DsiCounter.TRANS_IGNORED) == 3);
        assertThat(dsi.state()).isEqualTo(DsiState.RUNNING);
        assertThat(parentIds(s)).containsExactly(1L, 2L, 5L);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void resumeSkippingARunningConnectionIsRefused(TestDb db) throws Exception {
    try (TestDb.Scratch s = prepare(db, "dsi_skiprun");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE);
        DsiConnection dsi =
            DsiConnection.start(
                s.target(REPLICATE),
                q.queue(),
                DsiSettings.defaults(),
                new RecordingSink(),
                new SimpleMeterRegistry())) {
      assertThatThrownBy(dsi::resumeSkippingTransaction)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("suspend");
    }
  }

  private static String duplicateCode(TestDb db) {
    return db == TestDb.POSTGRESQL ? "23505" : "1062";
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void ignoreRollsBackOnlyTheFailingStatement(TestDb db) throws Exception {
    try (TestDb.Scratch s = prepare(db, "dsi_ignore");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      List<Workload.Tx> txs = stream(new Txs(s.name(), 101));
      q.append(txs);
      DsiSettings settings =
          DsiSettings.defaults()
              .withErrorClass(ErrorClass.none().with(duplicateCode(db), ErrorAction.IGNORE));
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              settings,
              new RecordingSink(),
              new SimpleMeterRegistry())) {
        Awaits.applied(dsi, s, Map.of(101, txs.get(2).commitOqid()));
        assertThat(parentIds(s)).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(dsi.counter(DsiCounter.ERRORS_IGNORED)).isEqualTo(1);
      }
      try (Connection c = s.connect();
          Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT code FROM parent WHERE id = 2")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo("pre");
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void logWritesTheTransactionAndContinues(TestDb db) throws Exception {
    try (TestDb.Scratch s = prepare(db, "dsi_log");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      List<Workload.Tx> txs = stream(new Txs(s.name(), 101));
      q.append(txs);
      // a SQLSTATE class: every integrity violation
      DsiSettings settings =
          DsiSettings.defaults().withErrorClass(ErrorClass.none().with("23", ErrorAction.LOG));
      RecordingSink sink = new RecordingSink();
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE), q.queue(), settings, sink, new SimpleMeterRegistry())) {
        Awaits.applied(dsi, s, Map.of(101, txs.get(2).commitOqid()));
        assertThat(parentIds(s)).containsExactly(1L, 2L, 5L);
        assertThat(sink.logged)
            .singleElement()
            .satisfies(
                l -> {
                  assertThat(l.reason()).isEqualTo(LoggedTransaction.Reason.ERROR_ACTION);
                  assertThat(l.commands()).isEqualTo(txs.get(1).commands());
                  assertThat(l.error().toLowerCase()).contains("duplicate");
                });
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void retryLogRetriesCommandRetryTimesThenLogs(TestDb db) throws Exception {
    try (TestDb.Scratch s = prepare(db, "dsi_retry");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      List<Workload.Tx> txs = stream(new Txs(s.name(), 101));
      q.append(txs);
      DsiSettings settings =
          ContinuousApplyIT.settings("command_retry", "2")
              .withErrorClass(ErrorClass.none().with(duplicateCode(db), ErrorAction.RETRY_LOG));
      RecordingSink sink = new RecordingSink();
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE), q.queue(), settings, sink, new SimpleMeterRegistry())) {
        Awaits.applied(dsi, s, Map.of(101, txs.get(2).commitOqid()));
        assertThat(dsi.counter(DsiCounter.TRANS_RETRIED)).isEqualTo(2);
        assertThat(sink.logged).hasSize(1);
        assertThat(parentIds(s)).containsExactly(1L, 2L, 5L);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void anUpdateOfAMissingRowStopsUnlessValidationIsOff(TestDb db) throws Exception {
    for (boolean validate : new boolean[] {true, false}) {
      try (TestDb.Scratch s = prepare(db, "dsi_rowcount");
          OutboundQueueFixture q =
              new OutboundQueueFixture(dir.resolve(Boolean.toString(validate)), REPLICATE)) {
        Txs x = new Txs(s.name(), 101);
        Workload.Tx t =
            x.begin()
                .update("parent", row("id", i64(99)), row("id", i64(99), "name", text("ghost")))
                .commit();
        q.append(List.of(t));
        DsiSettings settings =
            ContinuousApplyIT.settings("dsi_row_count_validation", validate ? "on" : "off");
        try (DsiConnection dsi =
            DsiConnection.start(
                s.target(REPLICATE),
                q.queue(),
                settings,
                new RecordingSink(),
                new SimpleMeterRegistry())) {
          if (validate) {
            DsiFailure f = Awaits.down(dsi).failure().orElseThrow();
            assertThat(f.vendorCode()).isEqualTo(5185);
            assertThat(f.statement()).startsWith("UPDATE");
            assertThat(f.message()).contains("touched 0 rows, expected 1");
          } else {
            Awaits.applied(dsi, s, Map.of(101, t.commitOqid()));
          }
        }
      }
    }
  }
}
