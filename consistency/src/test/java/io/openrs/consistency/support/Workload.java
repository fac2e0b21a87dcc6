package io.openrs.consistency.support;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The generated workload: concurrent clients, each a thread with its own connection and its own
 * {@link Random} (seed {@code seed + client}), running transactions of inserts, updates (of non-key
 * columns, of primary keys, of unique secondary keys by swapping them), deletes and multi-row
 * statements over every table of {@link Schema}; some transactions are large, some roll back.
 * Clients write mostly their own rows, so each keeps an exact model of what exists, and all of them
 * update a few shared "hot" rows (in key order) so their transactions interleave and wait on each
 * other.
 *
 * <p>Which transaction a client runs next depends only on its seed and its own committed model; a
 * transaction the database aborts (deadlock, serialization) is rolled back and counted.
 */
public final class Workload {
  private static final Logger LOG = LoggerFactory.getLogger(Workload.class);

  /** Hot rows: acct ids 1..HOT, owner 0, created by {@link #createHotRows}. */
  public static final int HOT = 8;

  /**
   * What to run.
   *
   * @param clients concurrent clients
   * @param transactionsPerClient transactions each client runs (committed or rolled back)
   * @param seed the seed; client {@code c} uses {@code seed + c}
   * @param rollbackOneIn about one transaction in this many rolls back (0: none)
   * @param largeTextOneIn about one value of {@code acct.big} in this many is a large text (65..100
   *     KiB)
   * @param largeTransactionOneIn about one transaction in this many inserts 50..300 rows
   * @param paceMillis pause of each client between its transactions (a rate, not a wait)
   * @param postgresOnly every database of the scenario is PostgreSQL (wider value domains)
   * @param keyUpdatesKeepLargeValues primary-key updates leave the large text columns as they are
   *     (unchanged TOAST values at a PostgreSQL primary); false: they also assign them a new value
   */
  public record Settings(
      int clients,
      int transactionsPerClient,
      long seed,
      int rollbackOneIn,
      int largeTextOneIn,
      int largeTransactionOneIn,
      long paceMillis,
      boolean postgresOnly,
      boolean keyUpdatesKeepLargeValues) {

    public Settings withTransactionsPerClient(int n) {
      return new Settings(
          clients,
          n,
          seed,
          rollbackOneIn,
          largeTextOneIn,
          largeTransactionOneIn,
          paceMillis,
          postgresOnly,
          keyUpdatesKeepLargeValues);
    }

    public Settings withLargeTextOneIn(int n) {
      return new Settings(
          clients,
          transactionsPerClient,
          seed,
          rollbackOneIn,
          n,
          largeTransactionOneIn,
          paceMillis,
          postgresOnly,
          keyUpdatesKeepLargeValues);
    }

    public Settings withPaceMillis(long ms) {
      return new Settings(
          clients,
          transactionsPerClient,
          seed,
          rollbackOneIn,
          largeTextOneIn,
          largeTransactionOneIn,
          ms,
          postgresOnly,
          keyUpdatesKeepLargeValues);
    }

    public Settings withKeyUpdatesKeepingLargeValues(boolean keep) {
      return new Settings(
          clients,
          transactionsPerClient,
          seed,
          rollbackOneIn,
          largeTextOneIn,
          largeTransactionOneIn,
          paceMillis,
          postgresOnly,
          keep);
    }

    public long transactions() {
      return (long) clients * transactionsPerClient;
    }
  }

  private final Database db;
  private final Settings settings;
  private final String s;
  private final AtomicLong committed = new AtomicLong();
  private final AtomicLong rolledBack = new AtomicLong();
  private final AtomicLong aborted = new AtomicLong();
  private final AtomicLong statements = new AtomicLong();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final List<Thread> threads = new ArrayList<>();
  private final Map<String, AtomicLong> opCounts = new ConcurrentHashMap<>();
  private volatile boolean stopRequested;

  public Workload(Database primary, Settings settings) {
    this.db = primary;
    this.settings = settings;
    this.s = primary.schema();
  }

  public Settings settings() {
    return settings;
  }

  /** Inserts the shared hot rows (acct 1..HOT, owner 0) in one transaction. */
  public void createHotRows() throws SQLException {
    Values v = new Values(new Random(settings.seed()), settings.postgresOnly());
    try (Connection c = db.connect()) {
      c.setAutoCommit(false);
      Client setup = new Client(0, v);
      for (long id = 1; id <= HOT; id++) {
        setup.insertAcct(c, id, 0);
        try (PreparedStatement ps =
            c.prepareStatement("UPDATE " + s + ".acct SET i = 0 WHERE id = ?")) {
          ps.setLong(1, id);
          ps.executeUpdate();
        }
      }
      c.commit();
    }
  }

  /** Starts the clients. */
  public Workload start() {
    for (int i = 1; i <= settings.clients(); i++) {
      int id = i;
      Thread t =
          new Thread(
              () -> {
                try {
                  new Client(
                          id, new Values(new Random(settings.seed() + id), settings.postgresOnly()))
                      .run();
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                  LOG.error("workload client {} failed", id, e);
                }
              },
              "cs-client-" + id);
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    return this;
  }

  /**
   * Asks the clients to stop after their transaction in hand (for workloads that run until the
   * scenario's faults are over; {@code transactionsPerClient} still bounds them).
   */
  public void stop() {
    stopRequested = true;
  }

  /** Transactions committed so far. */
  public long committed() {
    return committed.get();
  }

  public boolean running() {
    return threads.stream().anyMatch(Thread::isAlive);
  }

  /**
   * Waits for every client to finish.
   *
   * @throws AssertionError if a client failed (a statement the workload did not expect to fail)
   */
  public void await(long timeoutSeconds) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    for (Thread t : threads) {
      t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
      if (t.isAlive()) {
        throw new AssertionError("workload client " + t.getName() + " still running");
      }
    }
    checkFailure();
  }

  public void checkFailure() {
    Throwable f = failure.get();
    if (f != null) {
      throw new AssertionError("the workload failed (seed " + settings.seed() + ")", f);
    }
  }

  /** A one-line summary: transactions committed, rolled back, aborted, statements, per op. */
  public String summary() {
    return "committed "
        + committed.get()
        + ", rolled back "
        + rolledBack.get()
        + ", aborted by the database "
        + aborted.get()
        + ", statements "
        + statements.get()
        + ", ops "
        + new TreeMap<>(opCounts)
            .entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
  }

  // ---------------------------------------------------------------------------------------------

  private record StockKey(short wh, String sku, LocalDate dt) implements Comparable<StockKey> {
    @Override
    public int compareTo(StockKey o) {
      int c = Short.compare(wh, o.wh);
      if (c == 0) {
        c = sku.compareTo(o.sku);
      }
      return c != 0 ? c : dt.compareTo(o.dt);
    }
  }

  /** What one client knows exists (its own rows); copied at each transaction's start. */
  private static final class Model {
    TreeSet<Long> accts = new TreeSet<>();
    TreeMap<Long, String> orderEmails = new TreeMap<>();
    TreeMap<Long, TreeSet<Integer>> orderLines = new TreeMap<>();
    TreeSet<StockKey> stock = new TreeSet<>();
    TreeMap<Long, Integer> evt = new TreeMap<>();
    long nextId;
    long nextEvt;
    int nextEmail;

    Model copy() {
      Model m = new Model();
      m.accts = new TreeSet<>(accts);
      m.orderEmails = new TreeMap<>(orderEmails);
      orderLines.forEach((k, v) -> m.orderLines.put(k, new TreeSet<>(v)));
      m.stock = new TreeSet<>(stock);
      m.evt = new TreeMap<>(evt);
      m.nextId = nextId;
      m.nextEvt = nextEvt;
      m.nextEmail = nextEmail;
      return m;
    }
  }

  private static <T> T pick(Random r, java.util.Collection<T> from) {
    int n = r.nextInt(from.size());
    for (T t : from) {
      if (n-- == 0) {
        return t;
      }
    }
    throw new IllegalStateException();
  }

  private static final String[] REGIONS = {"EU", "US", "APAC", "LATAM"};
  private static final String[] STATUS = {"new", "paid", "shipped", "returned", "cancelled"};

  /** One client: its thread, connection, random and model. */
  private final class Client {
    final int id;
    final Values v;
    final Random r;
    Model model = new Model();
    Model draft;

    Client(int id, Values v) {
      this.id = id;
      this.v = v;
      this.r = v.random();
      model.nextId = id * 1_000_000_000L;
      model.nextEvt = id * 1_000_000_000L;
    }

    void run() throws SQLException {
      try (Connection c = db.connect()) {
        c.setAutoCommit(false);
        for (int n = 0;
            n < settings.transactionsPerClient() && failure.get() == null && !stopRequested;
            n++) {
          transaction(c, n);
          if (settings.paceMillis() > 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(settings.paceMillis()));
          }
        }
      }
    }

    void transaction(Connection c, int n) throws SQLException {
      draft = model.copy();
      boolean rollback = settings.rollbackOneIn() > 0 && v.chance(settings.rollbackOneIn());
      try {
        if (settings.largeTransactionOneIn() > 0 && v.chance(settings.largeTransactionOneIn())) {
          largeTransaction(c);
        } else {
          int ops = 1 + r.nextInt(5);
          for (int i = 0; i < ops; i++) {
            op(c);
          }
        }
        if (rollback) {
          c.rollback();
          rolledBack.incrementAndGet();
        } else {
          c.commit();
          model = draft;
          committed.incrementAndGet();
        }
      } catch (SQLException e) {
        try {
          c.rollback();
        } catch (SQLException ignored) {
          // the connection is gone; the next statement says so
        }
        if (retryable(e)) {
          aborted.incrementAndGet();
          LOG.info("client {}: transaction {} aborted by the database: {}", id, n, e.getMessage());
        } else {
          throw new SQLException(
              "client " + id + ", transaction " + n + ": " + e.getMessage(), e.getSQLState(), e);
        }
      }
    }

    boolean retryable(SQLException e) {
      String state = e.getSQLState();
      return "40P01".equals(state)
          || "40001".equals(state)
          || e.getErrorCode() == 1213
          || e.getErrorCode() == 1205;
    }

    void count(String op) {
      opCounts.computeIfAbsent(op, k -> new AtomicLong()).incrementAndGet();
    }

    void op(Connection c) throws SQLException {
      int p = r.nextInt(100);
      if (p < 12) {
        insertAcct(c, draft.nextId++, id);
      } else if (p < 24) {
        updateAcct(c);
      } else if (p < 28) {
        updateAcctKey(c);
      } else if (p < 32) {
        deleteAcct(c);
      } else if (p < 37) {
        hot(c);
      } else if (p < 45) {
        insertOrder(c);
      } else if (p < 50) {
        updateOrder(c);
      } else if (p < 53) {
        swapEmails(c);
      } else if (p < 60) {
        updateLine(c);
      } else if (p < 63) {
        updateLineKey(c);
      } else if (p < 66) {
        insertOrDeleteLine(c);
      } else if (p < 70) {
        deleteOrder(c);
      } else if (p < 80) {
        stock(c);
      } else {
        evt(c);
      }
    }

    // --- acct: every type, large text, primary-key updates -------------------------------------

    void insertAcct(Connection c, long acctId, int owner) throws SQLException {
      Schema.Table t = Schema.ACCT;
      List<Object> values = new ArrayList<>();
      for (Schema.Column col : t.columns()) {
        if (col.name().equals("id")) {
          values.add(acctId);
        } else if (col.name().equals("owner")) {
          values.add(owner);
        } else if (col.name().equals("big")) {
          values.add(big());
        } else {
          values.add(v.of(col, 8));
        }
      }
      insert(c, t, values);
      if (draft != null && owner != 0) {
        draft.accts.add(acctId);
      }
      count("acct.insert");
    }

    Object big() {
      if (settings.largeTextOneIn() > 0 && v.chance(settings.largeTextOneIn())) {
        return v.largeText(v.between(65, 100));
      }
      return v.chance(3) ? null : v.text(r.nextInt(300), Integer.MAX_VALUE);
    }

    void updateAcct(Connection c) throws SQLException {
      if (draft.accts.isEmpty()) {
        insertAcct(c, draft.nextId++, id);
        return;
      }
      long acctId = pick(r, draft.accts);
      List<Schema.Column> cols = new ArrayList<>(Schema.ACCT.columns().subList(2, 17));
      Collections.shuffle(cols, r);
      cols = cols.subList(0, 1 + r.nextInt(4));
      List<Object> values = new ArrayList<>();
      for (Schema.Column col : cols) {
        values.add(col.name().equals("big") ? big() : v.of(col, 6));
      }
      update(c, Schema.ACCT, cols, values, List.of("id"), List.of(acctId), 1);
      count("acct.update");
    }

    void updateAcctKey(Connection c) throws SQLException {
      if (draft.accts.isEmpty()) {
        return;
      }
      long old = pick(r, draft.accts);
      long now = draft.nextId++;
      List<Schema.Column> cols = new ArrayList<>();
      List<Object> values = new ArrayList<>();
      cols.add(Schema.ACCT.column("id"));
      values.add(now);
      if (r.nextBoolean()) {
        Schema.Column extra = Schema.ACCT.columns().get(2 + r.nextInt(14));
        cols.add(extra);
        values.add(v.of(extra, 6));
      }
      if (!settings.keyUpdatesKeepLargeValues()) {
        cols.add(Schema.ACCT.column("big"));
        values.add(big());
      }
      update(c, Schema.ACCT, cols, values, List.of("id"), List.of(old), 1);
      draft.accts.remove(old);
      draft.accts.add(now);
      count("acct.key_update");
    }

    void deleteAcct(Connection c) throws SQLException {
      if (draft.accts.isEmpty()) {
        return;
      }
      long acctId = pick(r, draft.accts);
      exec(c, "DELETE FROM " + s + ".acct WHERE id = ?", 1, acctId);
      draft.accts.remove(acctId);
      count("acct.delete");
    }

    /** Shared rows, in key order (no deadlock between clients, but lock waits). */
    void hot(Connection c) throws SQLException {
      long a = 1 + r.nextInt(HOT);
      long b = 1 + r.nextInt(HOT);
      for (long h : new TreeSet<>(List.of(a, b))) {
        try (PreparedStatement ps =
            c.prepareStatement("UPDATE " + s + ".acct SET i = i + 1, ts = ?, v = ? WHERE id = ?")) {
          bind(ps, 1, Schema.ACCT.column("ts"), v.of(Schema.ACCT.column("ts"), 0));
          ps.setString(2, "client " + id);
          ps.setLong(3, h);
          check(ps.executeUpdate(), 1, "hot " + h);
        }
      }
      count("acct.hot");
    }

    // --- orders and order_line: foreign key, unique email, composite key ------------------------

    void insertOrder(Connection c) throws SQLException {
      long orderId = draft.nextId++;
      String email = "c" + id + "-" + (draft.nextEmail++) + "@example.com";
      insert(
          c,
          Schema.ORDERS,
          Arrays.asList(
              orderId,
              id,
              email,
              v.chance(10) ? (Object) null : REGIONS[r.nextInt(REGIONS.length)],
              v.numeric(12, 2),
              v.of(Schema.ORDERS.column("placed"), 10),
              STATUS[r.nextInt(STATUS.length)]));
      draft.orderEmails.put(orderId, email);
      TreeSet<Integer> lines = new TreeSet<>();
      draft.orderLines.put(orderId, lines);
      int n = r.nextInt(5);
      for (int i = 1; i <= n; i++) {
        insertLine(c, orderId, i);
        lines.add(i);
      }
      count("orders.insert");
    }

    void insertLine(Connection c, long orderId, int lineNo) throws SQLException {
      insert(
          c,
          Schema.ORDER_LINE,
          Arrays.asList(
              orderId,
              lineNo,
              v.word(1 + r.nextInt(20)),
              r.nextInt(1000),
              v.numeric(10, 2),
              v.chance(5)
                  ? (Object) null
                  : v.chance(10) ? v.largeText(2 + r.nextInt(4)) : v.text(r.nextInt(80), 80)));
    }

    void updateOrder(Connection c) throws SQLException {
      if (draft.orderEmails.isEmpty()) {
        insertOrder(c);
        return;
      }
      long orderId = pick(r, draft.orderEmails.keySet());
      List<Schema.Column> cols = new ArrayList<>();
      List<Object> values = new ArrayList<>();
      if (r.nextBoolean()) {
        cols.add(Schema.ORDERS.column("status"));
        values.add(STATUS[r.nextInt(STATUS.length)]);
      }
      if (r.nextBoolean()) {
        cols.add(Schema.ORDERS.column("amount"));
        values.add(v.numeric(12, 2));
      }
      if (cols.isEmpty() || r.nextInt(3) == 0) {
        cols.add(Schema.ORDERS.column("region"));
        values.add(v.chance(8) ? null : REGIONS[r.nextInt(REGIONS.length)]);
      }
      if (v.chance(4)) {
        String email = "c" + id + "-" + (draft.nextEmail++) + "@example.com";
        cols.add(Schema.ORDERS.column("email"));
        values.add(email);
        draft.orderEmails.put(orderId, email);
      }
      update(c, Schema.ORDERS, cols, values, List.of("id"), List.of(orderId), 1);
      count("orders.update");
    }

    /** Swaps the unique emails of two orders through a temporary value (three updates). */
    void swapEmails(Connection c) throws SQLException {
      if (draft.orderEmails.size() < 2) {
        insertOrder(c);
        return;
      }
      long a = pick(r, draft.orderEmails.keySet());
      long b;
      do {
        b = pick(r, draft.orderEmails.keySet());
      } while (b == a);
      String ea = draft.orderEmails.get(a);
      String eb = draft.orderEmails.get(b);
      String sql = "UPDATE " + s + ".orders SET email = ? WHERE id = ?";
      exec(c, sql, 1, "swap-c" + id + "-" + draft.nextEmail++, a);
      exec(c, sql, 1, ea, b);
      exec(c, sql, 1, eb, a);
      draft.orderEmails.put(a, eb);
      draft.orderEmails.put(b, ea);
      count("orders.swap_unique");
    }

    Map.Entry<Long, TreeSet<Integer>> orderWithLines() {
      List<Map.Entry<Long, TreeSet<Integer>>> with =
          draft.orderLines.entrySet().stream().filter(e -> !e.getValue().isEmpty()).toList();
      return with.isEmpty() ? null : with.get(r.nextInt(with.size()));
    }

    void updateLine(Connection c) throws SQLException {
      Map.Entry<Long, TreeSet<Integer>> o = orderWithLines();
      if (o == null) {
        insertOrder(c);
        return;
      }
      if (r.nextInt(3) == 0) {
        // One statement, several rows.
        exec(
            c,
            "UPDATE " + s + ".order_line SET qty = qty + 1 WHERE order_id = ?",
            o.getValue().size(),
            o.getKey());
        count("order_line.update_many");
        return;
      }
      int line = pick(r, o.getValue());
      List<Schema.Column> cols = new ArrayList<>();
      List<Object> values = new ArrayList<>();
      cols.add(Schema.ORDER_LINE.column("qty"));
      values.add(v.chance(6) ? null : r.nextInt(1000));
      if (r.nextBoolean()) {
        cols.add(Schema.ORDER_LINE.column("price"));
        values.add(v.numeric(10, 2));
      }
      if (v.chance(3)) {
        cols.add(Schema.ORDER_LINE.column("note"));
        values.add(v.chance(4) ? null : v.text(r.nextInt(200), 200));
      }
      update(
          c,
          Schema.ORDER_LINE,
          cols,
          values,
          List.of("order_id", "line_no"),
          List.of(o.getKey(), line),
          1);
      count("order_line.update");
    }

    void updateLineKey(Connection c) throws SQLException {
      Map.Entry<Long, TreeSet<Integer>> o = orderWithLines();
      if (o == null) {
        return;
      }
      int line = pick(r, o.getValue());
      int now = o.getValue().last() + 1 + r.nextInt(3);
      if (settings.keyUpdatesKeepLargeValues()) {
        exec(
            c,
            "UPDATE " + s + ".order_line SET line_no = ? WHERE order_id = ? AND line_no = ?",
            1,
            now,
            o.getKey(),
            line);
      } else {
        exec(
            c,
            "UPDATE "
                + s
                + ".order_line SET line_no = ?, note = ? WHERE order_id = ? AND line_no = ?",
            1,
            now,
            v.text(r.nextInt(80), 80),
            o.getKey(),
            line);
      }
      o.getValue().remove(line);
      o.getValue().add(now);
      count("order_line.key_update");
    }

    void insertOrDeleteLine(Connection c) throws SQLException {
      if (draft.orderLines.isEmpty()) {
        insertOrder(c);
        return;
      }
      long orderId = pick(r, draft.orderLines.keySet());
      TreeSet<Integer> lines = draft.orderLines.get(orderId);
      if (lines.isEmpty() || r.nextBoolean()) {
        int no = lines.isEmpty() ? 1 : lines.last() + 1;
        insertLine(c, orderId, no);
        lines.add(no);
        count("order_line.insert");
      } else {
        int line = pick(r, lines);
        exec(
            c,
            "DELETE FROM " + s + ".order_line WHERE order_id = ? AND line_no = ?",
            1,
            orderId,
            line);
        lines.remove(line);
        count("order_line.delete");
      }
    }

    /** Children first (one statement), then the parent. */
    void deleteOrder(Connection c) throws SQLException {
      if (draft.orderEmails.isEmpty()) {
        return;
      }
      long orderId = pick(r, draft.orderEmails.keySet());
      exec(
          c,
          "DELETE FROM " + s + ".order_line WHERE order_id = ?",
          draft.orderLines.get(orderId).size(),
          orderId);
      exec(c, "DELETE FROM " + s + ".orders WHERE id = ?", 1, orderId);
      draft.orderEmails.remove(orderId);
      draft.orderLines.remove(orderId);
      count("orders.delete");
    }

    // --- stock: a composite key of three types ------------------------------------------------

    StockKey newStockKey() {
      StockKey k;
      do {
        k = new StockKey((short) id, v.word(1 + r.nextInt(20)), v.date());
      } while (draft.stock.contains(k));
      return k;
    }

    void insertStock(Connection c, StockKey k) throws SQLException {
      insert(
          c,
          Schema.STOCK,
          Arrays.asList(
              k.wh(),
              k.sku(),
              k.dt(),
              r.nextInt(100_000),
              v.numeric(9, 3),
              v.chance(4) ? (Object) null : v.text(r.nextInt(40), 40)));
      draft.stock.add(k);
    }

    void stock(Connection c) throws SQLException {
      int p = r.nextInt(10);
      if (draft.stock.isEmpty() || p < 3) {
        insertStock(c, newStockKey());
        count("stock.insert");
        return;
      }
      StockKey k = pick(r, draft.stock);
      List<String> key = List.of("wh", "sku", "dt");
      List<Object> keyValues = List.of(k.wh(), k.sku(), k.dt());
      if (p < 7) {
        Schema.Table t = Schema.STOCK;
        update(
            c,
            t,
            List.of(t.column("qty"), t.column("reserved")),
            List.of(r.nextInt(100_000), v.numeric(9, 3)),
            key,
            keyValues,
            1);
        count("stock.update");
      } else if (p < 9) {
        StockKey now;
        do {
          now = new StockKey(k.wh(), k.sku(), v.date());
        } while (draft.stock.contains(now));
        update(
            c,
            Schema.STOCK,
            List.of(Schema.STOCK.column("dt")),
            List.of(now.dt()),
            key,
            keyValues,
            1);
        draft.stock.remove(k);
        draft.stock.add(now);
        count("stock.key_update");
      } else {
        exec(
            c,
            "DELETE FROM " + s + ".stock WHERE wh = ? AND sku = ? AND dt = ?",
            1,
            k.wh(),
            k.sku(),
            k.dt());
        draft.stock.remove(k);
        count("stock.delete");
      }
    }

    // --- evt: no primary key, identical rows ----------------------------------------------------

    List<Object> evtRow(long k) {
      String msg = v.text(r.nextInt(60), 60).stripTrailing();
      return List.of(
          k, id, msg, v.of(Schema.EVT.column("happened"), 0), v.numeric(10, 2), r.nextBoolean());
    }

    void evt(Connection c) throws SQLException {
      int p = r.nextInt(10);
      if (draft.evt.isEmpty() || p < 4) {
        long k = draft.nextEvt++;
        List<Object> row = evtRow(k);
        int copies = v.chance(4) ? 2 : 1;
        for (int i = 0; i < copies; i++) {
          insert(c, Schema.EVT, row);
        }
        draft.evt.put(k, copies);
        count(copies == 2 ? "evt.insert_twice" : "evt.insert");
        return;
      }
      long k = pick(r, draft.evt.keySet());
      String one =
          db.kind() == Kind.POSTGRESQL
              ? " WHERE ctid = (SELECT ctid FROM " + s + ".evt WHERE k = ? LIMIT 1)"
              : " WHERE k = ? LIMIT 1";
      if (p < 7) {
        try (PreparedStatement ps =
            c.prepareStatement("UPDATE " + s + ".evt SET msg = ?, amount = ?" + one)) {
          ps.setString(1, v.text(r.nextInt(60), 60).stripTrailing());
          ps.setBigDecimal(2, v.numeric(10, 2));
          ps.setLong(3, k);
          check(ps.executeUpdate(), 1, "evt update " + k);
        }
        count("evt.update_one");
      } else if (p < 9) {
        exec(c, "DELETE FROM " + s + ".evt" + one, 1, k);
        int left = draft.evt.get(k) - 1;
        if (left == 0) {
          draft.evt.remove(k);
        } else {
          draft.evt.put(k, left);
        }
        count("evt.delete_one");
      } else {
        List<Long> ks = new ArrayList<>();
        int expected = 0;
        for (int i = 0; i < 1 + r.nextInt(8) && !draft.evt.isEmpty(); i++) {
          long x = pick(r, draft.evt.keySet());
          expected += draft.evt.remove(x);
          ks.add(x);
        }
        String in = ks.stream().map(x -> "?").collect(Collectors.joining(", "));
        exec(c, "DELETE FROM " + s + ".evt WHERE k IN (" + in + ")", expected, ks.toArray());
        count("evt.delete_many");
      }
    }

    /** 50..300 rows in one transaction (evt, stock), through JDBC batches. */
    void largeTransaction(Connection c) throws SQLException {
      int rows = v.between(50, 300);
      String sql =
          "INSERT INTO "
              + s
              + ".evt ("
              + Schema.columnList(Schema.EVT)
              + ") VALUES (?, ?, ?, ?, ?, ?)";
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        for (int i = 0; i < rows; i++) {
          long k = draft.nextEvt++;
          List<Object> row = evtRow(k);
          for (int j = 0; j < row.size(); j++) {
            bind(ps, j + 1, Schema.EVT.columns().get(j), row.get(j));
          }
          ps.addBatch();
          draft.evt.put(k, 1);
        }
        ps.executeBatch();
        statements.addAndGet(rows);
      }
      for (int i = 0; i < rows / 10; i++) {
        insertStock(c, newStockKey());
      }
      count("large_transaction");
    }

    // --- statements ----------------------------------------------------------------------------

    void insert(Connection c, Schema.Table t, List<Object> values) throws SQLException {
      String marks = t.columns().stream().map(x -> "?").collect(Collectors.joining(", "));
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO "
                  + s
                  + "."
                  + t.name()
                  + " ("
                  + Schema.columnList(t)
                  + ") VALUES ("
                  + marks
                  + ")")) {
        for (int i = 0; i < values.size(); i++) {
          bind(ps, i + 1, t.columns().get(i), values.get(i));
        }
        check(ps.executeUpdate(), 1, "insert into " + t.name());
      }
    }

    void update(
        Connection c,
        Schema.Table t,
        List<Schema.Column> cols,
        List<Object> values,
        List<String> key,
        List<Object> keyValues,
        int rows)
        throws SQLException {
      String set = cols.stream().map(x -> x.name() + " = ?").collect(Collectors.joining(", "));
      String where = key.stream().map(x -> x + " = ?").collect(Collectors.joining(" AND "));
      try (PreparedStatement ps =
          c.prepareStatement("UPDATE " + s + "." + t.name() + " SET " + set + " WHERE " + where)) {
        int i = 1;
        for (int j = 0; j < cols.size(); j++) {
          bind(ps, i++, cols.get(j), values.get(j));
        }
        for (int j = 0; j < key.size(); j++) {
          bind(ps, i++, t.column(key.get(j)), keyValues.get(j));
        }
        check(ps.executeUpdate(), rows, "update of " + t.name() + " " + keyValues);
      }
    }

    void exec(Connection c, String sql, int rows, Object... params) throws SQLException {
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        for (int i = 0; i < params.length; i++) {
          Object p = params[i];
          if (p instanceof LocalDate d) {
            ps.setObject(i + 1, d);
          } else {
            ps.setObject(i + 1, p);
          }
        }
        check(ps.executeUpdate(), rows, sql + " " + java.util.Arrays.toString(params));
      }
    }

    void check(int actual, int expected, String what) {
      statements.incrementAndGet();
      if (actual != expected) {
        throw new IllegalStateException(
            "client "
                + id
                + ": "
                + what
                + " touched "
                + actual
                + " rows, the model expected "
                + expected);
      }
    }
  }

  /** Binds {@code value} for column {@code c} the way each driver takes that type. */
  void bind(PreparedStatement ps, int i, Schema.Column c, Object value) throws SQLException {
    boolean pg = db.kind() == Kind.POSTGRESQL;
    if (value == null) {
      ps.setNull(i, sqlType(c, pg));
      return;
    }
    if (value instanceof Short x) {
      ps.setShort(i, x);
    } else if (value instanceof Integer x) {
      ps.setInt(i, x);
    } else if (value instanceof Long x) {
      ps.setLong(i, x);
    } else if (value instanceof BigDecimal x) {
      ps.setBigDecimal(i, x);
    } else if (value instanceof Double x) {
      ps.setDouble(i, x);
    } else if (value instanceof Float x) {
      ps.setFloat(i, x);
    } else if (value instanceof Boolean x) {
      ps.setBoolean(i, x);
    } else if (value instanceof OffsetDateTime x) {
      if (pg) {
        ps.setObject(i, x);
      } else {
        ps.setObject(i, x.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime());
      }
    } else if (value instanceof UUID x) {
      if (pg) {
        ps.setObject(i, x);
      } else {
        ps.setString(i, x.toString());
      }
    } else if (value instanceof String x) {
      ps.setString(i, x);
    } else if (value instanceof byte[] x) {
      ps.setBytes(i, x);
    } else {
      ps.setObject(i, value);
    }
  }

  private static int sqlType(Schema.Column c, boolean pg) {
    switch (c.type()) {
      case SMALLINT:
        return Types.SMALLINT;
      case INT:
        return Types.INTEGER;
      case BIGINT:
        return Types.BIGINT;
      case NUMERIC:
        return Types.NUMERIC;
      case DOUBLE:
        return Types.DOUBLE;
      case REAL:
        return Types.REAL;
      case BOOL:
        return pg ? Types.BOOLEAN : Types.BIT;
      case DATE:
        return Types.DATE;
      case TIME:
        return Types.TIME;
      case TIMESTAMP:
        return Types.TIMESTAMP;
      case TIMESTAMPTZ:
        return pg ? Types.TIMESTAMP_WITH_TIMEZONE : Types.TIMESTAMP;
      case BYTES:
        return pg ? Types.BINARY : Types.BLOB;
      case UUID:
        return pg ? Types.OTHER : Types.VARCHAR;
      default:
        return Types.VARCHAR;
    }
  }
}
