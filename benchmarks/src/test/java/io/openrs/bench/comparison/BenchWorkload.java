package io.openrs.bench.comparison;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The three workloads of issue 9. Each writes to a primary either a fixed amount (a backlog) or for
 * a time at the primary's full rate (lag). The same {@code run} number gives the same commands
 * (seeded), so every system meets the same workload; keys are unique per run, so runs accumulate in
 * one database.
 */
abstract class BenchWorkload {
  /** Tables every workload has: the end-of-run marker and the lag heartbeat. */
  static final List<String> COMMON = List.of("bench_marker", "bench_hb");

  abstract String name();

  /** Every table, for the comparison. */
  abstract List<String> tables();

  /** Creates the tables (and initial rows) in {@code db}. */
  void create(BenchDb db) throws Exception {
    String s = db.schema();
    db.exec(
        "CREATE TABLE " + s + ".bench_marker (id bigint PRIMARY KEY, note text)",
        "CREATE TABLE "
            + s
            + ".bench_hb (id bigserial PRIMARY KEY, t timestamptz NOT NULL DEFAULT"
            + " clock_timestamp())");
  }

  /**
   * Runs the workload's run {@code run} on {@code db}: the fixed size when {@code duration} is
   * null, else as much as it can until {@code duration} has passed (the size does not bound it
   * then: the lag measurement needs the primary's full rate for the whole time).
   *
   * @return row changes made
   */
  abstract long run(BenchDb db, int run, Duration duration) throws Exception;

  /** A short description of the fixed size, for the report. */
  abstract String size();

  static Properties batched() {
    Properties p = new Properties();
    p.setProperty("reWriteBatchedInserts", "true");
    return p;
  }

  static long deadline(Duration d) {
    return d == null ? Long.MAX_VALUE : System.nanoTime() + d.toNanos();
  }

  /** Runs {@code clients} tasks on their own threads; the sum of their results. */
  static long parallel(
      int clients, java.util.function.IntFunction<java.util.concurrent.Callable<Long>> task)
      throws Exception {
    ExecutorService ex = Executors.newFixedThreadPool(clients);
    try {
      List<Future<Long>> fs = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        fs.add(ex.submit(task.apply(c)));
      }
      long sum = 0;
      for (Future<Long> f : fs) {
        sum += f.get();
      }
      return sum;
    } finally {
      ex.shutdownNow();
      ex.awaitTermination(30, TimeUnit.SECONDS);
    }
  }

  // ---- (a) --------------------------------------------------------------------------------------

  /**
   * (a) The OLTP mix: 10 tables, 70% inserts, 20% updates, 10% deletes by key, 10-100 commands per
   * transaction, rows of about 200-300 bytes, {@code clients} clients each updating and deleting
   * only rows it inserted in the same run.
   */
  static final class Oltp extends BenchWorkload {
    static final int TABLES = 10;
    private final long commands;
    private final int clients;

    Oltp(long commands, int clients) {
      this.commands = commands;
      this.clients = clients;
    }

    @Override
    String name() {
      return "(a) OLTP mix";
    }

    @Override
    String size() {
      return String.format("%,d commands, %d clients, 10 tables", commands, clients);
    }

    @Override
    List<String> tables() {
      List<String> t = new ArrayList<>(COMMON);
      for (int i = 0; i < TABLES; i++) {
        t.add("oltp_" + i);
      }
      return t;
    }

    @Override
    void create(BenchDb db) throws Exception {
      super.create(db);
      for (int i = 0; i < TABLES; i++) {
        db.exec(
            "CREATE TABLE "
                + db.schema()
                + ".oltp_"
                + i
                + " (id bigint PRIMARY KEY, client int NOT NULL, qty int NOT NULL, price"
                + " numeric(12,2) NOT NULL, created timestamp NOT NULL, status varchar(16) NOT NULL,"
                + " note varchar(240) NOT NULL)");
      }
    }

    @Override
    long run(BenchDb db, int run, Duration duration) throws Exception {
      long end = deadline(duration);
      long share = duration == null ? commands / clients : Long.MAX_VALUE;
      return parallel(clients, c -> () -> client(db, run, c, share, end));
    }

    private static String note(SplittableRandom r) {
      int n = 150 + r.nextInt(71);
      char[] ch = new char[n];
      for (int i = 0; i < n; i++) {
        ch[i] = (char) ('a' + r.nextInt(26));
      }
      return new String(ch);
    }

    private long client(BenchDb db, int run, int client, long share, long end) throws SQLException {
      SplittableRandom r = new SplittableRandom(run * 1000L + client);
      long base = (long) run * 10_000_000_000L + client * 1_000_000_000L;
      long next = 0;
      List<long[]> live = new ArrayList<>(); // {table, id}
      String s = db.schema();
      try (Connection c = db.connect(batched())) {
        c.setAutoCommit(false);
        PreparedStatement[] ins = new PreparedStatement[TABLES];
        PreparedStatement[] upd = new PreparedStatement[TABLES];
        PreparedStatement[] del = new PreparedStatement[TABLES];
        for (int t = 0; t < TABLES; t++) {
          ins[t] =
              c.prepareStatement(
                  "INSERT INTO "
                      + s
                      + ".oltp_"
                      + t
                      + " (id, client, qty, price, created, status, note) VALUES (?,?,?,?,?,?,?)");
          upd[t] =
              c.prepareStatement(
                  "UPDATE "
                      + s
                      + ".oltp_"
                      + t
                      + " SET qty = ?, price = ?, status = ?, note = ? WHERE id = ?");
          del[t] = c.prepareStatement("DELETE FROM " + s + ".oltp_" + t + " WHERE id = ?");
        }
        long done = 0;
        Timestamp created = Timestamp.valueOf("2026-01-01 00:00:00");
        while (done < share && System.nanoTime() < end) {
          int n = 10 + r.nextInt(91);
          boolean[] used = new boolean[3 * TABLES];
          for (int i = 0; i < n; i++) {
            int p = r.nextInt(100);
            if (p < 70 || live.isEmpty()) {
              int t = r.nextInt(TABLES);
              long id = base + next++;
              PreparedStatement ps = ins[t];
              ps.setLong(1, id);
              ps.setInt(2, client);
              ps.setInt(3, r.nextInt(1000));
              ps.setBigDecimal(4, java.math.BigDecimal.valueOf(r.nextInt(10_000_000), 2));
              ps.setTimestamp(5, new Timestamp(created.getTime() + r.nextInt(1_000_000_000)));
              ps.setString(6, "new");
              ps.setString(7, note(r));
              ps.addBatch();
              used[t] = true;
              live.add(new long[] {t, id});
            } else if (p < 90) {
              long[] row = live.get(r.nextInt(live.size()));
              int t = (int) row[0];
              PreparedStatement ps = upd[t];
              ps.setInt(1, r.nextInt(1000));
              ps.setBigDecimal(2, java.math.BigDecimal.valueOf(r.nextInt(10_000_000), 2));
              ps.setString(3, "updated");
              ps.setString(4, note(r));
              ps.setLong(5, row[1]);
              ps.addBatch();
              used[TABLES + t] = true;
            } else {
              int k = r.nextInt(live.size());
              long[] row = live.get(k);
              live.set(k, live.get(live.size() - 1));
              live.remove(live.size() - 1);
              int t = (int) row[0];
              del[t].setLong(1, row[1]);
              del[t].addBatch();
              used[2 * TABLES + t] = true;
            }
          }
          // Inserts first, then updates, then deletes: an update or delete only touches rows
          // inserted before it (a deleted row leaves the live list at once).
          for (int t = 0; t < TABLES; t++) {
            if (used[t]) {
              ins[t].executeBatch();
            }
          }
          for (int t = 0; t < TABLES; t++) {
            if (used[TABLES + t]) {
              upd[t].executeBatch();
            }
          }
          for (int t = 0; t < TABLES; t++) {
            if (used[2 * TABLES + t]) {
              del[t].executeBatch();
            }
          }
          c.commit();
          done += n;
        }
        return done;
      }
    }
  }

  // ---- (b) --------------------------------------------------------------------------------------

  /** (b) Pure inserts into the purchase table, {@code perTransaction} rows per transaction. */
  static final class Purchase extends BenchWorkload {
    private final long rows;
    private final int perTransaction;
    private final int clients;

    Purchase(long rows, int perTransaction, int clients) {
      this.rows = rows;
      this.perTransaction = perTransaction;
      this.clients = clients;
    }

    @Override
    String name() {
      return "(b) purchase inserts";
    }

    @Override
    String size() {
      return String.format(
          "%,d rows in transactions of %,d, %d client(s)", rows, perTransaction, clients);
    }

    @Override
    List<String> tables() {
      List<String> t = new ArrayList<>(COMMON);
      t.add("purchase");
      return t;
    }

    @Override
    void create(BenchDb db) throws Exception {
      super.create(db);
      db.exec(
          "CREATE TABLE "
              + db.schema()
              + ".purchase (emp_id INT NOT NULL, purch_id INT NOT NULL, cust_id INT NOT NULL, cost"
              + " NUMERIC(30,6) NOT NULL, order_date TIMESTAMP NOT NULL, notes VARCHAR(64), PRIMARY"
              + " KEY (emp_id, purch_id))");
    }

    @Override
    long run(BenchDb db, int run, Duration duration) throws Exception {
      long end = deadline(duration);
      long share = duration == null ? rows / clients : Long.MAX_VALUE;
      return parallel(
          clients,
          client ->
              () -> {
                SplittableRandom r = new SplittableRandom(run * 1000L + client);
                int emp = run * 100 + client;
                long done = 0;
                try (Connection c = db.connect(batched());
                    PreparedStatement ps =
                        c.prepareStatement(
                            "INSERT INTO "
                                + db.schema()
                                + ".purchase (emp_id, purch_id, cust_id, cost, order_date, notes)"
                                + " VALUES (?,?,?,?,?,?)")) {
                  c.setAutoCommit(false);
                  Timestamp t0 = Timestamp.valueOf("2026-01-01 00:00:00");
                  while (done < share && System.nanoTime() < end) {
                    for (int i = 0; i < perTransaction; i++) {
                      ps.setInt(1, emp);
                      ps.setInt(2, (int) done + i);
                      ps.setInt(3, r.nextInt(100_000));
                      ps.setBigDecimal(
                          4, java.math.BigDecimal.valueOf(r.nextLong(1_000_000_000L), 6));
                      ps.setTimestamp(5, new Timestamp(t0.getTime() + r.nextInt(1_000_000_000)));
                      ps.setString(6, "purchase " + (done + i) + " of employee " + emp);
                      ps.addBatch();
                    }
                    ps.executeBatch();
                    c.commit();
                    done += perTransaction;
                  }
                }
                return done;
              });
    }
  }

  // ---- (c) --------------------------------------------------------------------------------------

  /**
   * (c) pgbench's built-in tpcb-like script ({@code pgbench} binary), in the benchmark's schema
   * (through {@code PGOPTIONS=-c search_path=...}): per transaction 3 updates, 1 select, 1 insert.
   */
  static final class Pgbench extends BenchWorkload {
    private static final Pattern PROCESSED =
        Pattern.compile("number of transactions actually processed: (\\d+)");
    private final int scale;
    private final long transactions;
    private final int clients;
    private final Path logDir;

    Pgbench(int scale, long transactions, int clients, Path logDir) {
      this.scale = scale;
      this.transactions = transactions;
      this.clients = clients;
      this.logDir = logDir;
    }

    @Override
    String name() {
      return "(c) pgbench tpcb-like";
    }

    @Override
    String size() {
      return String.format(
          "scale %d, %,d transactions (%,d row changes), %d clients",
          scale, transactions, 4 * transactions, clients);
    }

    @Override
    List<String> tables() {
      List<String> t = new ArrayList<>(COMMON);
      t.addAll(
          List.of("pgbench_accounts", "pgbench_branches", "pgbench_tellers", "pgbench_history"));
      return t;
    }

    @Override
    void create(BenchDb db) throws Exception {
      super.create(db);
      pgbench(db, List.of("-i", "-q", "-s", Integer.toString(scale)), "init");
    }

    @Override
    long run(BenchDb db, int run, Duration duration) throws Exception {
      List<String> args =
          new ArrayList<>(List.of("-n", "-b", "tpcb-like", "-c", "" + clients, "-j", "2"));
      if (duration == null) {
        args.addAll(List.of("-t", Long.toString(transactions / clients)));
      } else {
        args.addAll(List.of("-T", Long.toString(Math.max(1, duration.toSeconds()))));
      }
      String out = pgbench(db, args, "run" + run);
      Matcher m = PROCESSED.matcher(out);
      if (!m.find()) {
        throw new IllegalStateException("pgbench printed no transaction count:\n" + out);
      }
      return 4 * Long.parseLong(m.group(1));
    }

    private String pgbench(BenchDb db, List<String> args, String what) throws Exception {
      List<String> cmd =
          new ArrayList<>(List.of("pgbench", "-h", BenchDb.HOST, "-p", "5432", "-U", BenchDb.USER));
      cmd.addAll(args);
      cmd.add(db.name());
      Path log = logDir.resolve("pgbench-" + db.name() + "-" + what + ".log");
      ProcessBuilder pb =
          new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
      pb.environment().put("PGPASSWORD", BenchDb.PASSWORD);
      pb.environment().put("PGOPTIONS", "-c search_path=" + db.schema());
      Process p = pb.start();
      if (!p.waitFor(30, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IllegalStateException("pgbench did not finish in 30 min: " + cmd);
      }
      String out = Files.readString(log, StandardCharsets.UTF_8);
      if (p.exitValue() != 0) {
        throw new IllegalStateException(
            "pgbench failed (" + p.exitValue() + "): " + cmd + "\n" + out);
      }
      return out;
    }
  }
}
