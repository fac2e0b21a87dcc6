package io.openrs.demo;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The OLTP workload on the primary: an initial load of branches and accounts, then {@code clients}
 * threads running short banking transactions (transfers, deposits, new and closed accounts,
 * updates, history purges, a few deliberate rollbacks) until stopped. Each client draws from its
 * own {@code Random(seed, client)}, so the stream of choices is fixed by the seed; the interleaving
 * of clients is the database's.
 *
 * <p>Transactions take their row locks in one order (accounts by ascending key, then the branch),
 * so they do not deadlock each other; an error still only rolls the transaction back and is
 * counted.
 */
final class Workload {
  static final int BRANCHES = 10;
  private static final String[] OWNERS = {
    "Zoë Ångström", "Seán O'Brien", "Chloé \"Coco\" Martin", "李雷", "Ольга Петрова",
    "Nuño Pérez", "Ada Lovelace", "Grace Hopper", "Back\\Slash Ltd", "Émile 🦊 Zola"
  };
  private static final String[] CITIES = {
    "Walldorf",
    "Dublin",
    "Paris",
    "Shanghai",
    "Kraków",
    "São Paulo",
    "Zürich",
    "Århus",
    "Oslo",
    "Québec"
  };
  private static final String[] STATUSES = {"open", "frozen", "vip", "review"};

  /** What the workload did at the primary; counts only committed work except where named. */
  static final class Stats {
    final LongAdder committed = new LongAdder();
    final LongAdder rolledBack = new LongAdder();
    final LongAdder failed = new LongAdder();
    final LongAdder inserts = new LongAdder();
    final LongAdder updates = new LongAdder();
    final LongAdder deletes = new LongAdder();
    final AtomicReference<String> lastError = new AtomicReference<>();

    long rows() {
      return inserts.sum() + updates.sum() + deletes.sum();
    }
  }

  private final DemoSettings s;
  private final Stats stats = new Stats();
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean stopping;

  Workload(DemoSettings settings) {
    this.s = settings;
  }

  Stats stats() {
    return stats;
  }

  private Connection connect() throws DemoException {
    return DemoDatabases.open(s.primary(), s.primaryDatabase());
  }

  private String table(String name) {
    return s.source() == Source.POSTGRESQL ? "public." + name : name;
  }

  /** Inserts the branches and the accounts, in transactions of 200 rows. Returns the rows. */
  long initialLoad() throws DemoException {
    LocalDateTime now = now();
    try (Connection c = connect()) {
      c.setAutoCommit(false);
      try (PreparedStatement b =
          c.prepareStatement(
              "INSERT INTO "
                  + table("branches")
                  + " (branch_id, name, city, balance, opened) VALUES (?, ?, ?, ?, ?)")) {
        for (int i = 1; i <= BRANCHES; i++) {
          b.setInt(1, i);
          b.setString(2, "Branch " + i);
          b.setString(3, CITIES[i - 1]);
          b.setBigDecimal(4, BigDecimal.ZERO.setScale(2));
          b.setObject(5, now);
          b.addBatch();
        }
        b.executeBatch();
      }
      c.commit();
      stats.committed.increment();
      stats.inserts.add(BRANCHES);
      try (PreparedStatement a = c.prepareStatement(insertAccount())) {
        for (int id = 1; id <= s.accounts(); id++) {
          a.setLong(1, id);
          a.setInt(2, branchOf(id));
          a.setString(3, OWNERS[id % OWNERS.length] + " #" + id);
          a.setBigDecimal(4, new BigDecimal("1000.00"));
          a.setString(5, "open");
          a.setObject(6, now);
          a.addBatch();
          if (id % 200 == 0 || id == s.accounts()) {
            a.executeBatch();
            c.commit();
            stats.committed.increment();
          }
        }
      }
      stats.inserts.add(s.accounts());
    } catch (SQLException e) {
      throw new DemoException(
          "the initial load into " + s.primaryDatabase() + " failed: " + Checks.describe(e), e);
    }
    return BRANCHES + (long) s.accounts();
  }

  private String insertAccount() {
    return "INSERT INTO "
        + table("accounts")
        + " (account_id, branch_id, owner, balance, status, updated_at) VALUES (?, ?, ?, ?, ?, ?)";
  }

  private static int branchOf(long initialAccount) {
    return (int) ((initialAccount - 1) % BRANCHES) + 1;
  }

  /** Starts the clients. */
  void start() throws DemoException {
    for (int i = 0; i < s.clients(); i++) {
      Client client = new Client(i, connect());
      Thread t = new Thread(client, "openrs-demo-client-" + (i + 1));
      t.setDaemon(true);
      threads.add(t);
    }
    threads.forEach(Thread::start);
  }

  /** Asks the clients to stop after their current transaction and waits for them. */
  void stop() {
    stopping = true;
    for (Thread t : threads) {
      try {
        t.join(30_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * Calls {@code rs_ticket('demo', h2)} at the primary in a transaction of its own (the function or
   * procedure the agent created). Throws when it does not exist yet.
   */
  void ticket(Connection c, String h2) throws SQLException {
    String sql =
        s.source() == Source.POSTGRESQL
            ? "SELECT public.rs_ticket(?, ?)"
            : "CALL rs_ticket(?, ?, NULL, NULL)";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, "demo");
      ps.setString(2, h2);
      ps.execute();
    }
  }

  /** A connection for tickets, autocommit on. */
  Connection ticketConnection() throws DemoException {
    return connect();
  }

  static LocalDateTime now() {
    return LocalDateTime.now().truncatedTo(ChronoUnit.MICROS);
  }

  /** One client: its own connection, random stream and keys. */
  private final class Client implements Runnable {
    private final int index;
    private final Connection c;
    private final Random random;
    private final List<long[]> ownAccounts = new ArrayList<>(); // {id, branch}
    private final ArrayDeque<Long> ownHistory = new ArrayDeque<>();
    private long nextAccount;
    private long nextHistory;
    private final PreparedStatement addBalance;
    private final PreparedStatement addBranchBalance;
    private final PreparedStatement insertHistory;
    private final PreparedStatement insertAccount;
    private final PreparedStatement updateAccount;
    private final PreparedStatement updateBranch;
    private final PreparedStatement deleteHistoryOf;
    private final PreparedStatement deleteAccount;
    private final PreparedStatement purge;

    Client(int index, Connection c) throws DemoException {
      this.index = index;
      this.c = c;
      this.random = new Random(s.seed() * 1_000_003L + index);
      try {
        c.setAutoCommit(false);
        addBalance =
            c.prepareStatement(
                "UPDATE "
                    + table("accounts")
                    + " SET balance = balance + ?, updated_at = ? WHERE account_id = ?");
        addBranchBalance =
            c.prepareStatement(
                "UPDATE " + table("branches") + " SET balance = balance + ? WHERE branch_id = ?");
        insertHistory =
            c.prepareStatement(
                "INSERT INTO "
                    + table("history")
                    + " (history_id, account_id, amount, kind, note, created_at)"
                    + " VALUES (?, ?, ?, ?, ?, ?)");
        insertAccount = c.prepareStatement(insertAccount());
        updateAccount =
            c.prepareStatement(
                "UPDATE "
                    + table("accounts")
                    + " SET owner = ?, status = ?, updated_at = ? WHERE account_id = ?");
        updateBranch =
            c.prepareStatement("UPDATE " + table("branches") + " SET city = ? WHERE branch_id = ?");
        deleteHistoryOf =
            c.prepareStatement("DELETE FROM " + table("history") + " WHERE account_id = ?");
        deleteAccount =
            c.prepareStatement("DELETE FROM " + table("accounts") + " WHERE account_id = ?");
        purge =
            c.prepareStatement(
                "DELETE FROM " + table("history") + " WHERE history_id IN (?, ?, ?, ?, ?)");
      } catch (SQLException e) {
        throw new DemoException("cannot prepare the workload: " + Checks.describe(e), e);
      }
    }

    @Override
    public void run() {
      long intervalNanos = s.rate() > 0 ? 1_000_000_000L * s.clients() / s.rate() : 0;
      long next = System.nanoTime();
      try (c) {
        while (!stopping) {
          if (intervalNanos > 0) {
            next += intervalNanos;
            long wait = next - System.nanoTime();
            if (wait > 0) {
              LockSupport.parkNanos(wait);
            }
          }
          one();
        }
      } catch (SQLException e) {
        stats.lastError.set(Checks.describe(e));
      }
    }

    private void one() {
      int[] counts = new int[3]; // inserts, updates, deletes of this transaction
      int r = random.nextInt(100);
      try {
        boolean commit = true;
        if (r < 45) {
          transfer(counts);
        } else if (r < 60) {
          deposit(counts);
        } else if (r < 70) {
          openAccounts(r < 62 ? 20 : 1, counts);
        } else if (r < 78) {
          updateAccount(counts);
        } else if (r < 85) {
          purgeHistory(counts);
        } else if (r < 90) {
          closeAccount(counts);
        } else if (r < 97) {
          updateBranch(counts);
        } else {
          deposit(counts);
          commit = false;
        }
        if (commit) {
          c.commit();
          stats.committed.increment();
          stats.inserts.add(counts[0]);
          stats.updates.add(counts[1]);
          stats.deletes.add(counts[2]);
        } else {
          c.rollback();
          stats.rolledBack.increment();
        }
      } catch (SQLException e) {
        stats.failed.increment();
        stats.lastError.set(Checks.describe(e));
        try {
          c.rollback();
        } catch (SQLException ignored) {
          // the connection is broken: the next statement reports it
        }
      }
    }

    private long initialAccount() {
      return 1 + random.nextInt(s.accounts());
    }

    private BigDecimal amount() {
      return BigDecimal.valueOf(1 + random.nextInt(99_999), 2);
    }

    private long historyId() {
      return (nextHistory++) * s.clients() + index + 1;
    }

    private void history(long account, BigDecimal amount, String kind, String note, int[] counts)
        throws SQLException {
      long id = historyId();
      insertHistory.setLong(1, id);
      insertHistory.setLong(2, account);
      insertHistory.setBigDecimal(3, amount);
      insertHistory.setString(4, kind);
      insertHistory.setString(5, note);
      insertHistory.setObject(6, now());
      insertHistory.executeUpdate();
      ownHistory.add(id);
      counts[0]++;
    }

    private void add(long account, BigDecimal amount, int[] counts) throws SQLException {
      addBalance.setBigDecimal(1, amount);
      addBalance.setObject(2, now());
      addBalance.setLong(3, account);
      counts[1] += addBalance.executeUpdate();
    }

    /** Moves money between two accounts, locking them in key order, with a history row each. */
    private void transfer(int[] counts) throws SQLException {
      long a = initialAccount();
      long b = initialAccount();
      if (a == b) {
        b = a % s.accounts() + 1;
      }
      BigDecimal x = amount();
      long first = Math.min(a, b);
      long second = Math.max(a, b);
      add(first, first == a ? x.negate() : x, counts);
      add(second, second == a ? x.negate() : x, counts);
      history(a, x.negate(), "transfer", "to account " + b + " — ✓", counts);
      history(
          b, x, "transfer", "from account " + a + "\nref 'T" + random.nextInt(1000) + "'", counts);
    }

    /** Money in: the account, then its branch's balance, and a history row. */
    private void deposit(int[] counts) throws SQLException {
      long a = initialAccount();
      BigDecimal x = amount();
      add(a, x, counts);
      addBranchBalance.setBigDecimal(1, x);
      addBranchBalance.setInt(2, branchOf(a));
      counts[1] += addBranchBalance.executeUpdate();
      history(a, x, "deposit", null, counts);
    }

    /** New accounts of this client, each with an opening history row. */
    private void openAccounts(int n, int[] counts) throws SQLException {
      LocalDateTime now = now();
      for (int i = 0; i < n; i++) {
        long id = s.accounts() + 1 + (nextAccount++) * s.clients() + index;
        int branch = 1 + random.nextInt(BRANCHES);
        BigDecimal opening = amount();
        insertAccount.setLong(1, id);
        insertAccount.setInt(2, branch);
        insertAccount.setString(3, OWNERS[random.nextInt(OWNERS.length)]);
        insertAccount.setBigDecimal(4, opening);
        insertAccount.setString(5, "open");
        insertAccount.setObject(6, now);
        insertAccount.executeUpdate();
        counts[0]++;
        ownAccounts.add(new long[] {id, branch});
        history(id, opening, "open", "welcome, " + OWNERS[random.nextInt(OWNERS.length)], counts);
      }
    }

    private void updateAccount(int[] counts) throws SQLException {
      long a =
          ownAccounts.isEmpty() || random.nextBoolean()
              ? initialAccount()
              : ownAccounts.get(random.nextInt(ownAccounts.size()))[0];
      updateAccount.setString(1, OWNERS[random.nextInt(OWNERS.length)] + " (" + a + ")");
      updateAccount.setString(2, STATUSES[random.nextInt(STATUSES.length)]);
      updateAccount.setObject(3, now());
      updateAccount.setLong(4, a);
      counts[1] += updateAccount.executeUpdate();
    }

    /** Deletes this client's five oldest history rows (some may be gone already). */
    private void purgeHistory(int[] counts) throws SQLException {
      for (int i = 1; i <= 5; i++) {
        Long id = ownHistory.poll();
        purge.setLong(i, id == null ? -1 : id);
      }
      counts[2] += purge.executeUpdate();
    }

    /** Deletes one of this client's accounts and its history (the foreign key's children). */
    private void closeAccount(int[] counts) throws SQLException {
      if (ownAccounts.isEmpty()) {
        openAccounts(1, counts);
        return;
      }
      long[] account = ownAccounts.remove(random.nextInt(ownAccounts.size()));
      deleteHistoryOf.setLong(1, account[0]);
      counts[2] += deleteHistoryOf.executeUpdate();
      deleteAccount.setLong(1, account[0]);
      counts[2] += deleteAccount.executeUpdate();
    }

    private void updateBranch(int[] counts) throws SQLException {
      updateBranch.setString(1, CITIES[random.nextInt(CITIES.length)]);
      updateBranch.setInt(2, 1 + random.nextInt(BRANCHES));
      counts[1] += updateBranch.executeUpdate();
    }
  }

  /** Runs {@code sql} on a new connection to the primary (used by tests and diagnostics). */
  void exec(String sql) throws DemoException, SQLException {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }
}
