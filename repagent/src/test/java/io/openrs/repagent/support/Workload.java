package io.openrs.repagent.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Transactions on the primary whose commit order is known: each committed transaction inserts its
 * rows into {@code items} and, as its last statement, bumps the one row of {@code commit_seq}. The
 * row lock on that counter makes the counter's value the transaction's position in commit order
 * (the next transaction gets the row only after this one committed). Some transactions roll back
 * instead.
 */
public final class Workload {

  /** A committed transaction: its tag, rows, and position in commit order. */
  public record Committed(String tag, int rows, long seq) {}

  private final String schema;
  private final List<Committed> committed = Collections.synchronizedList(new ArrayList<>());
  private final List<String> rolledBack = Collections.synchronizedList(new ArrayList<>());

  public Workload(String schema) {
    this.schema = schema;
  }

  public static void createTables(String schema) throws SQLException {
    TestPostgres.exec(
        "CREATE TABLE " + schema + ".items (tx text, i int, payload text, PRIMARY KEY (tx, i))",
        "CREATE TABLE " + schema + ".commit_seq (k int PRIMARY KEY, n bigint NOT NULL)",
        "INSERT INTO " + schema + ".commit_seq VALUES (1, 0)");
  }

  public List<Committed> committed() {
    synchronized (committed) {
      return new ArrayList<>(committed);
    }
  }

  public List<String> rolledBack() {
    synchronized (rolledBack) {
      return new ArrayList<>(rolledBack);
    }
  }

  /** Runs one transaction on {@code c} (autocommit off). */
  public void transaction(Connection c, String tag, int rows, boolean rollback)
      throws SQLException {
    try (PreparedStatement ins =
        c.prepareStatement("INSERT INTO " + schema + ".items VALUES (?, ?, ?)")) {
      for (int i = 0; i < rows; i++) {
        ins.setString(1, tag);
        ins.setInt(2, i);
        ins.setString(3, "row " + i + " of " + tag);
        ins.executeUpdate();
      }
    }
    if (rollback) {
      c.rollback();
      rolledBack.add(tag);
      return;
    }
    long seq;
    try (Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "UPDATE " + schema + ".commit_seq SET n = n + 1 WHERE k = 1 RETURNING n")) {
      r.next();
      seq = r.getLong(1);
    }
    c.commit();
    committed.add(new Committed(tag, rows, seq));
  }

  /**
   * Runs transactions on {@code threads} connections until {@code stop} is set or each thread ran
   * {@code perThread} (when positive); about one in {@code rollbackEvery} rolls back.
   */
  public List<Thread> start(
      int threads, int perThread, int maxRows, int rollbackEvery, long seed, AtomicBoolean stop) {
    return start(threads, perThread, maxRows, rollbackEvery, seed, stop, 0);
  }

  /** As above, pausing {@code paceMillis} between transactions (a rate limit, not a wait). */
  public List<Thread> start(
      int threads,
      int perThread,
      int maxRows,
      int rollbackEvery,
      long seed,
      AtomicBoolean stop,
      long paceMillis) {
    List<Thread> out = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      Random random = new Random(seed + t);
      Thread th =
          new Thread(
              () -> {
                try (Connection c = TestPostgres.connect()) {
                  c.setAutoCommit(false);
                  for (int n = 0; !stop.get() && (perThread <= 0 || n < perThread); n++) {
                    transaction(
                        c,
                        "t" + id + "-" + n,
                        1 + random.nextInt(maxRows),
                        rollbackEvery > 0 && random.nextInt(rollbackEvery) == 0);
                    if (paceMillis > 0) {
                      java.util.concurrent.locks.LockSupport.parkNanos(paceMillis * 1_000_000L);
                    }
                  }
                } catch (SQLException e) {
                  throw new IllegalStateException(e);
                }
              },
              "workload-" + t);
      th.start();
      out.add(th);
    }
    return out;
  }
}
