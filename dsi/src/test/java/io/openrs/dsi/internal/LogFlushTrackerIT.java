package io.openrs.dsi.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import io.openrs.dsi.DsiErrorSink;
import io.openrs.dsi.DsiSettings;
import io.openrs.dsi.DsiState;
import io.openrs.dsi.LoggedTransaction;
import io.openrs.dsi.dialect.Dialect;
import io.openrs.dsi.testkit.TestDb;
import io.openrs.queue.QueuePosition;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * With {@code dsi_synchronous_commit off} the outbound queue is confirmed only up to what the
 * replicate has flushed, and a position read from the replicate says something about a commit only
 * if the replicate did not restart in between. Found by {@code ReplicateRestartIT} (continuous
 * mode, {@code dsi_synchronous_commit off}) in a CI run: the tracker opened its connection lazily,
 * at its first check; when the replicate crashed after the run's first commit and came back before
 * that check, the tracker read the new server's log position, vouched for the lost commit, the
 * queue was confirmed past it, and the DSI stopped on a delete that found no row. These tests run
 * against the local PostgreSQL and need no crash: a tracker must not vouch for a commit counted
 * before its connection was open, nor open a second connection in the same run, and no DSIEXEC
 * session of the run may connect after its first commit.
 */
class LogFlushTrackerIT {
  private static final QueuePosition FIRST = new QueuePosition(0, 1, 0);
  private static final QueuePosition SECOND = new QueuePosition(0, 2, 0);

  @Test
  void aTrackerOpenedBeforeTheFirstCommitVouchesForItOnceFlushed() throws Exception {
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("dsi_flush");
        Run run = new Run(s)) {
      assertThat(run.tracker.confirmable()).isNull(); // opens the connection: nothing done yet
      run.ctx.done(transactionEndingAt(FIRST));
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> FIRST.equals(run.tracker.confirmable()));
      assertThat(run.restarts.get()).isZero();
    }
  }

  @Test
  void aTrackerOpenedAfterTheFirstCommitRestartsTheRunInsteadOfVouching() throws Exception {
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("dsi_flush");
        Run run = new Run(s)) {
      run.ctx.done(transactionEndingAt(FIRST)); // a commit before the tracker's first call
      assertThat(run.tracker.confirmable()).isNull();
      assertThat(run.restarts.get()).isEqualTo(1);
      // Later calls in the same run, past the check interval, neither vouch nor open another.
      staysFor(() -> run.tracker.confirmable() == null && flushConnections(s) == 0);
      assertThat(run.restarts.get()).isEqualTo(1);
    }
  }

  @Test
  void aTrackerThatLostItsConnectionNeverOpensAnotherInTheSameRun() throws Exception {
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("dsi_flush");
        Run run = new Run(s)) {
      assertThat(run.tracker.confirmable()).isNull();
      run.ctx.done(transactionEndingAt(FIRST));
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> FIRST.equals(run.tracker.confirmable()));
      assertThat(terminateFlushConnections(s)).isEqualTo(1);
      run.ctx.done(transactionEndingAt(SECOND));
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(20))
          .until(
              () -> {
                assertThat(run.tracker.confirmable()).isEqualTo(FIRST);
                return run.restarts.get() == 1;
              });
      staysFor(() -> FIRST.equals(run.tracker.confirmable()) && flushConnections(s) == 0);
    }
  }

  /**
   * A DSIEXEC session of an asynchronous-commit run must not connect after the run's first commit:
   * the pool may open that connection after a crash that lost the commit, and rs_lastcommit would
   * then skip the lost commit once the session commits a later one.
   */
  @Test
  void aSessionConnectingAfterTheFirstCommitRestartsTheRun() throws Exception {
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("dsi_flush");
        Run run = new Run(s)) {
      ReplicateSession before = new ReplicateSession(run.ctx, 1);
      before.connect(); // at the run's start: nothing done yet
      assertThat(before.connected()).isTrue();
      run.ctx.done(transactionEndingAt(FIRST));
      ReplicateSession after = new ReplicateSession(run.ctx, 2);
      assertThatThrownBy(after::connect).isInstanceOf(ReplicateSession.Stopping.class);
      assertThat(after.connected()).isFalse();
      assertThat(run.restarts.get()).isEqualTo(1);
    }
  }

  /** {@code condition} holds at every poll for three check intervals of the tracker. */
  private static void staysFor(Callable<Boolean> condition) {
    Duration span = LogFlushTracker.INTERVAL.multipliedBy(3);
    await()
        .during(span)
        .atMost(span.plusSeconds(5))
        .pollInterval(Duration.ofMillis(10))
        .until(condition);
  }

  private static SourceTransaction transactionEndingAt(QueuePosition last) {
    return SourceTransaction.incomplete(1, 101, List.of(), last, last, 0);
  }

  private static String applicationName(TestDb.Scratch s) {
    return "openrs-dsi-flush " + s.target(201).name();
  }

  /** The tracker's sessions at the replicate now. */
  private static int flushConnections(TestDb.Scratch s) throws Exception {
    return countFlushSessions(s, "pid");
  }

  /** Terminates the tracker's sessions, as a crash of the replicate would; how many there were. */
  private static int terminateFlushConnections(TestDb.Scratch s) throws Exception {
    return countFlushSessions(s, "pg_terminate_backend(pid)");
  }

  /** Counts {@code expression} over the tracker's sessions in {@code pg_stat_activity}. */
  private static int countFlushSessions(TestDb.Scratch s, String expression) throws Exception {
    try (Connection c = s.connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT count(*) FROM (SELECT "
                    + expression
                    + " FROM pg_stat_activity WHERE application_name = '"
                    + applicationName(s)
                    + "') t")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** One DSI run's context and tracker, asynchronous commits, against a scratch database. */
  private static final class Run implements AutoCloseable {
    final AtomicInteger restarts = new AtomicInteger();
    final HikariDataSource pool;
    final RunContext ctx;
    final LogFlushTracker tracker;

    Run(TestDb.Scratch s) {
      var target = s.target(201);
      HikariConfig hc = new HikariConfig();
      hc.setJdbcUrl(target.jdbcUrl());
      hc.setUsername(target.user());
      hc.setPassword(target.password());
      hc.setMaximumPoolSize(2);
      hc.setMinimumIdle(0);
      pool = new HikariDataSource(hc);
      DsiSettings settings =
          DsiSettings.from(
              ParameterValues.defaults(Scope.CONNECTION).with("dsi_synchronous_commit", "off"));
      ctx =
          new RunContext(
              target,
              Dialect.forName(target.dialect()),
              settings,
              new DsiMeters(new SimpleMeterRegistry(), target.name()),
              new DsiErrorSink() {
                @Override
                public void logTransaction(LoggedTransaction transaction) {}

                @Override
                public void stateChanged(DsiState state) {}
              },
              pool,
              Clock.systemUTC(),
              false,
              failure -> {},
              restarts::incrementAndGet,
              io.openrs.dsi.OriginProfiles.unknown());
      tracker = new LogFlushTracker(ctx);
      assertThat(ctx.asynchronousCommit()).isTrue();
    }

    @Override
    public void close() {
      tracker.close();
      pool.close();
    }
  }
}
