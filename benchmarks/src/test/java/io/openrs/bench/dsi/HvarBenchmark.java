package io.openrs.bench.dsi;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.dsi.DsiConnection;
import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.DsiSettings;
import io.openrs.dsi.testkit.Awaits;
import io.openrs.dsi.testkit.Meters;
import io.openrs.dsi.testkit.OutboundQueueFixture;
import io.openrs.dsi.testkit.RecordingSink;
import io.openrs.dsi.testkit.Settings;
import io.openrs.dsi.testkit.TestDb;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * HVAR against continuous mode, from an outbound backlog into PostgreSQL, side by side in one run
 * (same queue, same replicate schema, emptied between modes):
 *
 * <ul>
 *   <li>(a) the realistic OLTP mix: 70% inserts, 20% updates, 10% deletes, 10 to 100 commands per
 *       transaction, rows of about 240 bytes ({@code bench.mix.commands}), over {@code
 *       bench.mix.tables} tables of the same shape (default 1), a row's table chosen by a hash of
 *       its key;
 *   <li>(b) pure inserts into the purchase table, transactions of 1,000 rows ({@code
 *       bench.insert.rows}), and the physical limit: a raw {@code COPY} of the same rows, encoded
 *       beforehand, into an empty table of the same definition;
 *   <li>(c) hot updates: 90% of the updates hit 2,000 of 100,000 rows ({@code bench.hot.commands}).
 * </ul>
 *
 * Run: {@code mvn -B -ntp -pl benchmarks -am verify -Dgroups=benchmark -DexcludedTestGroups=none
 * -Dit.test=HvarBenchmark -Dtest=skip -Dsurefire.failIfNoSpecifiedTests=false
 * -Dfailsafe.failIfNoSpecifiedTests=false}. Prints one line per run and the ratios.
 */
@Tag("benchmark")
class HvarBenchmark {
  private static final int MIX_SIZE = Integer.getInteger("bench.mix.commands", 200_000);
  private static final int MIX_TABLES = Integer.getInteger("bench.mix.tables", 1);
  private static final int INSERT_SIZE = Integer.getInteger("bench.insert.rows", 300_000);
  private static final int HOT_SIZE = Integer.getInteger("bench.hot.commands", 200_000);
  private static final int THREADS = Integer.getInteger("bench.hvar.threads", 1);

  /** Measured rounds after the warm-up (the machine is noisy: medians with min-max). */
  private static final int ROUNDS = Integer.getInteger("bench.rounds", 1);

  /**
   * How often the end of an apply is looked for in rs_lastcommit: far below the runs' length, so
   * the time measured is the apply's and not the poll's (100 ms made a 0.7 s run up to 15 % long).
   */
  private static final Duration DONE_POLL = Duration.ofMillis(5);

  private static final int REPLICATE = 201;

  private List<String> out = new ArrayList<>();
  private int mixCommands;
  private int insertRows;
  private int hotCommands;

  @Test
  @Timeout(7200)
  void hvarAgainstContinuousMode() throws Exception {
    // Warm-up: a fifth of each workload through both modes, so the JIT has compiled the paths of
    // both before anything is measured; not reported.
    mixCommands = MIX_SIZE / 5;
    insertRows = INSERT_SIZE / 5;
    hotCommands = HOT_SIZE / 5;
    String only = System.getProperty("bench.only", "abc");
    if (only.contains("a")) {
      mix();
    }
    if (only.contains("b")) {
      inserts();
    }
    if (only.contains("c")) {
      hot();
    }
    out = new ArrayList<>();
    mixCommands = MIX_SIZE;
    insertRows = INSERT_SIZE;
    hotCommands = HOT_SIZE;
    out.add(
        "HVAR with dsi_num_threads "
            + THREADS
            + ", "
            + ROUNDS
            + " round(s), (a) on "
            + MIX_TABLES
            + " table(s)");
    List<Double> mixRatio = new ArrayList<>();
    List<Double> insertRatio = new ArrayList<>();
    List<Double> copyRatio = new ArrayList<>();
    List<Double> binaryCopyRatio = new ArrayList<>();
    List<Double> hotRatio = new ArrayList<>();
    try {
      for (int round = 1; round <= ROUNDS; round++) {
        out.add("");
        out.add("round " + round);
        if (only.contains("a")) {
          double[] a = mix();
          mixRatio.add(a[1] / a[0]);
          out.add(
              String.format("(a) OLTP mix:    HVAR / continuous = %.2f (target 3)", a[1] / a[0]));
        }
        if (only.contains("b")) {
          double[] b = inserts();
          insertRatio.add(b[1] / b[0]);
          copyRatio.add(b[1] / b[2]);
          binaryCopyRatio.add(b[1] / b[3]);
          out.add(
              String.format("(b) inserts:     HVAR / continuous = %.2f (target 6)", b[1] / b[0]));
          out.add(
              String.format("(b) inserts:     HVAR / raw COPY = %.2f (target 0.8)", b[1] / b[2]));
          out.add(String.format("(b) inserts:     HVAR / raw binary COPY = %.2f", b[1] / b[3]));
        }
        if (only.contains("c")) {
          double[] c = hot();
          hotRatio.add(c[1] / c[0]);
          out.add(String.format("(c) hot updates: HVAR / continuous = %.2f", c[1] / c[0]));
        }
      }
      out.add("");
      out.add("medians (min-max) over " + ROUNDS + " round(s)");
      summary("(a) OLTP mix:    HVAR / continuous", mixRatio, "target 3");
      summary("(b) inserts:     HVAR / continuous", insertRatio, "target 6");
      summary("(b) inserts:     HVAR / raw COPY", copyRatio, "target 0.8");
      summary("(b) inserts:     HVAR / raw binary COPY", binaryCopyRatio, "");
      summary("(c) hot updates: HVAR / continuous", hotRatio, "");
    } finally {
      out.forEach(System.out::println);
    }
  }

  private void summary(String what, List<Double> ratios, String target) {
    if (ratios.isEmpty()) {
      return;
    }
    List<Double> sorted = new ArrayList<>(ratios);
    java.util.Collections.sort(sorted);
    int n = sorted.size();
    double median =
        n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    out.add(
        String.format(
            "%s = %.2f (%.2f-%.2f)%s",
            what,
            median,
            sorted.get(0),
            sorted.get(n - 1),
            target.isEmpty() ? "" : " (" + target + ")"));
  }

  private static DsiSettings continuous() {
    return settings("dsi_compile_enable", "off");
  }

  private static DsiSettings hvar() {
    List<String> params = new ArrayList<>(List.of("dsi_num_threads", Integer.toString(THREADS)));
    // -Dbench.hvar.params=name=value,name=value: further connection parameters for HVAR's runs
    for (String nv : System.getProperty("bench.hvar.params", "").split(",")) {
      if (!nv.isBlank()) {
        String[] kv = nv.split("=", 2);
        params.add(kv[0].trim());
        params.add(kv[1].trim());
      }
    }
    return settings(params.toArray(String[]::new));
  }

  /**
   * The catalogue's connection defaults, {@code dsi_compile_enable on}, then {@code nameValues}.
   */
  private static DsiSettings settings(String... nameValues) {
    List<String> all = new ArrayList<>(List.of("dsi_compile_enable", "on"));
    all.addAll(List.of(nameValues));
    return Settings.connection(all.toArray(String[]::new));
  }

  /** Applies the queue's backlog with {@code settings}; commands (or rows) per second. */
  private double apply(
      String name,
      TestDb.Scratch s,
      OutboundQueueFixture q,
      DsiSettings settings,
      Oqid last,
      long commands)
      throws Exception {
    try {
      q.queue().dropReader("DSI"); // the next mode reads the backlog again from its start
    } catch (IllegalArgumentException first) {
      // the first mode: no reader yet
    }
    SimpleMeterRegistry reg = new SimpleMeterRegistry();
    long start = System.nanoTime();
    String detail = "";
    // When DSI-S had read the whole backlog: the reader's share of the time (measurement only).
    long[] readAt = new long[1];
    Thread sampler =
        new Thread(
            () -> {
              long seen = -1;
              while (!Thread.currentThread().isInterrupted()) {
                long n = Meters.counter(reg, DsiCounter.CMDS_READ);
                if (n != seen) {
                  seen = n;
                  readAt[0] = System.nanoTime();
                }
                try {
                  Thread.sleep(20);
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
    sampler.setDaemon(true);
    long end;
    try (DsiConnection dsi =
        DsiConnection.start(s.target(REPLICATE), q.queue(), settings, new RecordingSink(), reg)) {
      sampler.start();
      Awaits.applied(dsi, s, Map.of(101, last), DONE_POLL);
      end = System.nanoTime(); // the DSI's close (its sessions, pool) is not the apply's time
      sampler.interrupt();
      sampler.join();
      detail = String.format(" [read in %.1f s]", (readAt[0] - start) / 1e9);
      if (settings.hvar().enable()) {
        detail =
            String.format(
                " [read in %.1f s; groups %d, net rows %d/%d/%d, fallbacks %d; compile %.1f s,"
                    + " load %.1f s, apply %.1f s, commit %.1f s]",
                (readAt[0] - start) / 1e9,
                Meters.observations(reg, DsiCounter.HVAR_GROUP_CMDS),
                Meters.counter(reg, DsiCounter.HVAR_NET_INSERTS),
                Meters.counter(reg, DsiCounter.HVAR_NET_UPDATES),
                Meters.counter(reg, DsiCounter.HVAR_NET_DELETES),
                Meters.counter(reg, DsiCounter.HVAR_FALLBACKS),
                seconds(reg, DsiCounter.HVAR_COMPILE_TIME),
                seconds(reg, DsiCounter.HVAR_LOAD_TIME),
                seconds(reg, DsiCounter.HVAR_APPLY_TIME),
                seconds(reg, DsiCounter.HVAR_COMMIT_TIME));
      }
    }
    double secs = (end - start) / 1e9;
    double rate = commands / secs;
    out.add(
        String.format(
            "%-32s %,9d commands in %6.1f s: %,10.0f commands/s%s",
            name, commands, secs, rate, detail));
    return rate;
  }

  private static double seconds(SimpleMeterRegistry reg, DsiCounter c) {
    return reg.find(c.counterName()).timers().stream()
        .mapToDouble(t -> t.totalTime(java.util.concurrent.TimeUnit.SECONDS))
        .sum();
  }

  /** A backlog writer: transactions of origin 101 with increasing OQIDs. */
  private static final class Backlog {
    final OutboundQueueFixture q;
    long oqid = 1;
    long tran = 1;
    Oqid last;
    long commands;

    Backlog(OutboundQueueFixture q) {
      this.q = q;
      q.queue().openReader("BENCH").close(); // never confirms: the queue keeps the backlog
    }

    TranId begin(List<LtlCommand> tx) {
      TranId t = TranId.ofLong(tran++);
      tx.add(new LtlCommand.Begin(t, next(), Instant.EPOCH, Optional.empty()));
      return t;
    }

    Oqid next() {
      return Oqid.ofLong(oqid++, 12);
    }

    void commit(TranId t, List<LtlCommand> tx) throws Exception {
      last = next();
      tx.add(new LtlCommand.Commit(t, last, Instant.EPOCH));
      commands += tx.size() - 2;
      q.append(101, tx);
    }
  }

  // ---- (a) the OLTP mix -------------------------------------------------------------------------

  private double[] mix() throws Exception {
    Path dir = Files.createTempDirectory("hvar-bench-a");
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("hvar_bench_a");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      List<TableName> tables = new ArrayList<>();
      for (int i = 0; i < MIX_TABLES; i++) {
        String name = MIX_TABLES == 1 ? "orders" : "orders_" + i;
        s.exec(
            "CREATE TABLE "
                + name
                + " (order_id bigint PRIMARY KEY, customer_id integer, amount numeric(12,2),"
                + " status text, note text, created timestamptz)");
        tables.add(new TableName(s.name(), name));
      }
      Backlog b = new Backlog(q);
      Random r = new Random(1);
      List<Long> live = new ArrayList<>();
      long nextId = 1;
      while (b.commands < mixCommands) {
        List<LtlCommand> tx = new ArrayList<>();
        TranId id = b.begin(tx);
        int n = 10 + r.nextInt(91);
        for (int i = 0; i < n; i++) {
          double p = r.nextDouble();
          if (p < 0.7 || live.size() < 100) {
            long k = nextId++;
            live.add(k);
            tx.add(new LtlCommand.Insert(id, b.next(), tableOf(tables, k), false, order(k, r)));
          } else if (p < 0.9) {
            long k = live.get(r.nextInt(live.size()));
            tx.add(
                new LtlCommand.Update(
                    id, b.next(), tableOf(tables, k), key("order_id", k), order(k, r)));
          } else {
            long k = live.remove(r.nextInt(live.size()));
            tx.add(new LtlCommand.Delete(id, b.next(), tableOf(tables, k), key("order_id", k)));
          }
        }
        b.commit(id, tx);
      }
      double cont = apply("(a) mix, continuous", s, q, continuous(), b.last, b.commands);
      for (TableName t : tables) {
        s.exec("TRUNCATE " + t.table(), "VACUUM ANALYZE " + t.table());
      }
      s.exec("DELETE FROM rs_lastcommit");
      double hv = apply("(a) mix, HVAR", s, q, hvar(), b.last, b.commands);
      return new double[] {cont, hv};
    }
  }

  /** A key's table: keys are spread over the tables by a hash of the key. */
  private static TableName tableOf(List<TableName> tables, long k) {
    return tables.get((int) Long.remainderUnsigned(k * 0x9E3779B97F4A7C15L >>> 17, tables.size()));
  }

  private static List<Column> key(String name, long k) {
    return List.of(new Column(name, new Value.Int64(k)));
  }

  private static List<Column> order(long id, Random r) {
    return List.of(
        new Column("order_id", new Value.Int64(id)),
        new Column("customer_id", new Value.Int32(r.nextInt(100_000))),
        new Column("amount", new Value.Decimal(BigDecimal.valueOf(r.nextInt(10_000_000), 2))),
        new Column("status", new Value.Text(r.nextBoolean() ? "shipped" : "open")),
        new Column(
            "note", new Value.Text("order note " + Long.toString(r.nextLong(), 36).repeat(7))),
        new Column(
            "created",
            new Value.TimestampTz(
                OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC)
                    .plusSeconds(r.nextInt(10_000_000)))));
  }

  // ---- (b) pure inserts, and the raw COPY
  // ---------------------------------------------------------

  private static final String PURCHASE =
      " (emp_id INT, purch_id INT, cust_id INT, cost NUMERIC(30,6), order_date TIMESTAMP, notes"
          + " VARCHAR(64), PRIMARY KEY (emp_id, purch_id))";

  private double[] inserts() throws Exception {
    Path dir = Files.createTempDirectory("hvar-bench-b");
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("hvar_bench_b");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec("CREATE TABLE purchase" + PURCHASE, "CREATE TABLE purchase_raw" + PURCHASE);
      Backlog b = new Backlog(q);
      Random r = new Random(2);
      TableName t = new TableName(s.name(), "purchase");
      List<List<Value>> rows = new ArrayList<>(insertRows);
      int emp = 1;
      int purch = 0;
      while (b.commands < insertRows) {
        List<LtlCommand> tx = new ArrayList<>();
        TranId id = b.begin(tx);
        for (int i = 0; i < 1000; i++) {
          if (++purch > 5000) {
            emp++;
            purch = 1;
          }
          List<Value> row =
              List.of(
                  new Value.Int32(emp),
                  new Value.Int32(purch),
                  new Value.Int32(r.nextInt(1_000_000)),
                  new Value.Decimal(BigDecimal.valueOf(r.nextLong() % 1_000_000_000_000L, 6)),
                  new Value.Timestamp(
                      LocalDateTime.of(2026, 1, 1, 0, 0).plusSeconds(r.nextInt(30_000_000))),
                  new Value.Text("purchase notes " + Long.toString(r.nextLong(), 36)));
          rows.add(row);
          List<Column> cols = new ArrayList<>(6);
          String[] names = {"emp_id", "purch_id", "cust_id", "cost", "order_date", "notes"};
          for (int k = 0; k < 6; k++) {
            cols.add(new Column(names[k], row.get(k)));
          }
          tx.add(new LtlCommand.Insert(id, b.next(), t, false, cols));
        }
        b.commit(id, tx);
      }
      s.exec("VACUUM ANALYZE purchase");
      double raw = rawCopy(s, rows, false);
      s.exec("TRUNCATE purchase_raw");
      double rawBinary = rawCopy(s, rows, true);
      readOnly(q, b.commands);
      double cont = apply("(b) inserts, continuous", s, q, continuous(), b.last, b.commands);
      s.exec("TRUNCATE purchase", "DELETE FROM rs_lastcommit", "VACUUM ANALYZE purchase");
      double hv = apply("(b) inserts, HVAR", s, q, hvar(), b.last, b.commands);
      return new double[] {cont, hv, raw, rawBinary};
    }
  }

  /**
   * What reading alone costs: the backlog read from the queue and decoded, on one thread, as DSI-S
   * does before it hands transactions on (informative: the end-to-end rate cannot pass it).
   */
  private void readOnly(OutboundQueueFixture q, long commands) throws Exception {
    io.openrs.ltl.packed.PackedDecoder decoder = new io.openrs.ltl.packed.PackedDecoder();
    long start = System.nanoTime();
    long n = 0;
    try (io.openrs.queue.QueueReader r = q.queue().openReader("READ_ONLY")) {
      while (true) {
        Optional<io.openrs.queue.QueueMessage> m = r.poll();
        if (m.isEmpty()) {
          break;
        }
        io.openrs.ltl.packed.OriginEnvelope.commandOf(m.get().payload(), decoder);
        n++;
      }
    }
    q.queue().dropReader("READ_ONLY");
    double secs = (System.nanoTime() - start) / 1e9;
    out.add(
        String.format(
            "%-32s %,9d messages in %6.1f s: %,10.0f commands/s (read and decode only)",
            "(b) queue read + decode", n, secs, commands / secs));
  }

  /**
   * COPY of the rows, encoded beforehand by the dialect's encoder (text, or binary as HVAR's
   * inserts ahead use it), into an empty purchase table: rows per second. The clock runs from the
   * COPY's start to its commit, on a connection opened before.
   */
  private double rawCopy(TestDb.Scratch s, List<List<Value>> rows, boolean binary)
      throws Exception {
    io.openrs.dsi.dialect.PostgresDialect pg = new io.openrs.dsi.dialect.PostgresDialect();
    long start;
    try (Connection c = s.connect()) {
      TableName t = new TableName(s.name(), "purchase_raw");
      io.openrs.dsi.dialect.TableMeta meta = pg.describe(c, t);
      int capacity = rows.size() * 80;
      io.openrs.dsi.dialect.RowStream.Encoder enc =
          (binary ? pg.rowEncoder(meta, capacity) : pg.rowEncoder(capacity)).orElseThrow();
      for (List<Value> row : rows) {
        enc.row(row.toArray(Value[]::new));
      }
      List<String> columns = meta.columns().stream().map(x -> x.name()).toList();
      c.setAutoCommit(false);
      start = System.nanoTime();
      io.openrs.dsi.dialect.RowStream copy =
          pg.openRowStream(c, pg.qualified(t), columns, enc).orElseThrow();
      for (int off = 0; off < enc.length(); off += 1 << 16) {
        copy.write(enc.array(), off, Math.min(1 << 16, enc.length() - off));
      }
      long n = copy.end();
      c.commit();
      if (n != rows.size()) {
        throw new AssertionError("COPY loaded " + n + " rows of " + rows.size());
      }
    }
    double secs = (System.nanoTime() - start) / 1e9;
    double rate = rows.size() / secs;
    out.add(
        String.format(
            "%-32s %,9d rows     in %6.1f s: %,10.0f rows/s",
            binary ? "(b) raw binary COPY (encoded before)" : "(b) raw COPY (encoded before)",
            rows.size(),
            secs,
            rate));
    return rate;
  }

  // ---- (c) hot updates
  // ----------------------------------------------------------------------------

  private double[] hot() throws Exception {
    Path dir = Files.createTempDirectory("hvar-bench-c");
    int rowsTotal = 100_000;
    int hotRows = 2_000;
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("hvar_bench_c");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      String table =
          "CREATE TABLE account (id bigint PRIMARY KEY, balance numeric(18,2) NOT NULL, ops"
              + " integer NOT NULL, updated timestamptz, note text)";
      String fill =
          "INSERT INTO account SELECT g, 0, 0, NULL, 'account ' || g FROM generate_series(1, "
              + rowsTotal
              + ") g";
      s.exec(table, fill, "VACUUM ANALYZE account");
      Backlog b = new Backlog(q);
      Random r = new Random(3);
      TableName t = new TableName(s.name(), "account");
      while (b.commands < hotCommands) {
        List<LtlCommand> tx = new ArrayList<>();
        TranId id = b.begin(tx);
        int n = 10 + r.nextInt(91);
        for (int i = 0; i < n; i++) {
          long k = r.nextInt(10) < 9 ? 1 + r.nextInt(hotRows) : 1 + r.nextInt(rowsTotal);
          List<Column> after =
              List.of(
                  new Column("id", new Value.Int64(k)),
                  new Column(
                      "balance", new Value.Decimal(BigDecimal.valueOf(r.nextInt(1_000_000), 2))),
                  new Column("ops", new Value.Int32(r.nextInt(1000))),
                  new Column(
                      "updated",
                      new Value.TimestampTz(
                          OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC)
                              .plusSeconds(r.nextInt(10_000_000)))));
          tx.add(new LtlCommand.Update(id, b.next(), t, key("id", k), after));
        }
        b.commit(id, tx);
      }
      double cont = apply("(c) hot updates, continuous", s, q, continuous(), b.last, b.commands);
      s.exec("TRUNCATE account", fill, "DELETE FROM rs_lastcommit", "VACUUM ANALYZE account");
      double hv = apply("(c) hot updates, HVAR", s, q, hvar(), b.last, b.commands);
      return new double[] {cont, hv};
    }
  }
}
