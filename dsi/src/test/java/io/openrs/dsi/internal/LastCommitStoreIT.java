package io.openrs.dsi.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.dsi.dialect.Dialect;
import io.openrs.dsi.testkit.TestDb;
import io.openrs.ltl.Oqid;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Reading {@code rs_lastcommit} after a reconnect, against the real databases. A DSIEXEC session
 * killed in the middle of its COMMIT may still commit at the replicate after the DSI reconnected
 * (found by {@code ParallelApplyIT.exactlyOnceWhenConnectionsAreKilled} on MariaDB: the reconnected
 * session read the row before the old commit, applied the transaction again and stopped on a
 * duplicate key). The read must wait for such a session and then see what it did.
 */
class LastCommitStoreIT {
  private static final int ORIGIN = 101;
  private static final Oqid COMMITTED = Oqid.ofLong(10, 12);
  private static final Oqid IN_FLIGHT = Oqid.ofLong(20, 12);
  private static final Duration WAIT = Duration.ofSeconds(30);

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void aReadWaitsForAnUnfinishedWriterAndSeesItsCommit(TestDb db) throws Exception {
    assertThat(readBeside(db, true, true)).contains(IN_FLIGHT);
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void aReadWaitsForAnUnfinishedWriterAndSeesItsRollback(TestDb db) throws Exception {
    assertThat(readBeside(db, true, false)).contains(COMMITTED);
  }

  /** The unfinished writer inserts the origin's first row (PostgreSQL: no row to lock yet). */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void aReadWaitsForAnUnfinishedFirstWriteOfAnOrigin(TestDb db) throws Exception {
    assertThat(readBeside(db, false, true)).contains(IN_FLIGHT);
  }

  /**
   * Commits {@link #COMMITTED} for the origin (when {@code earlier}), then writes {@link
   * #IN_FLIGHT} in a transaction left open (the killed session's), loads the store on another
   * connection, checks that the load waits on the open transaction's lock, ends that transaction
   * ({@code commit} or not) and returns what the load read.
   */
  private static Optional<Oqid> readBeside(TestDb db, boolean earlier, boolean commit)
      throws Exception {
    Dialect dialect = Dialect.forName(db.dialect());
    try (TestDb.Scratch s = db.scratch("dsi_lastc");
        Connection old = s.connect();
        Connection fresh = s.connect()) {
      old.setAutoCommit(false);
      fresh.setAutoCommit(false);
      dialect.createProgressTables(old, s.name(), 0);
      if (earlier) {
        upsert(dialect, s.name(), old, COMMITTED);
        old.commit();
      }
      upsert(dialect, s.name(), old, IN_FLIGHT);

      LastCommitStore store = new LastCommitStore(dialect, s.name());
      CompletableFuture<Optional<Oqid>> read =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  store.load(fresh);
                  return store.of(ORIGIN);
                } catch (SQLException e) {
                  throw new IllegalStateException(e);
                }
              });
      await().atMost(WAIT).until(() -> waitingOnLock(s) || read.isDone());
      assertThat(read).as("the read returned before the writer ended").isNotDone();
      if (commit) {
        old.commit();
      } else {
        old.rollback();
      }
      return read.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  private static void upsert(Dialect dialect, String schema, Connection c, Oqid oqid)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(dialect.lastCommitUpsert(schema))) {
      ps.setInt(1, ORIGIN);
      ps.setBytes(2, oqid.toBytes());
      dialect.bindInstant(ps, 3, Instant.parse("2026-11-27T00:00:00Z"));
      ps.executeUpdate();
    }
  }

  /** Whether a session waits for a row lock on this scratch's rs_lastcommit. */
  private static boolean waitingOnLock(TestDb.Scratch s) throws SQLException {
    String sql =
        s.db() == TestDb.POSTGRESQL
            ? "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                + " AND query LIKE '%"
                + s.name()
                + "%rs_lastcommit%'"
            : "SELECT count(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'"
                + " AND trx_query LIKE '%"
                + s.name()
                + "%rs_lastcommit%'";
    try (Connection c = s.connect();
        PreparedStatement ps = c.prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1) > 0;
    }
  }
}
