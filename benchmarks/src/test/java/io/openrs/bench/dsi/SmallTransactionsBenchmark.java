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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Continuous mode on small OLTP transactions (pgbench's tpcb-like shape: two account updates, one
 * branch update on 10 hot rows, one history insert), the shape where a replicate round trip per
 * statement and a log flush per commit cost the most: {@code dsi_synchronous_commit} on against
 * off, alternating, in one run. Run with {@code mvn -pl benchmarks -am verify -Dgroups=benchmark
 * -DexcludedTestGroups=none -Dit.test=SmallTransactionsBenchmark -Dtest=skip
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false
 * [-Dbench.small.transactions=20000 -Dbench.small.rounds=3]}.
 */
@Tag("benchmark")
class SmallTransactionsBenchmark {
  private static final int TRANSACTIONS = Integer.getInteger("bench.small.transactions", 20_000);
  private static final int ROUNDS = Integer.getInteger("bench.small.rounds", 3);
  private static final int ACCOUNTS = 100_000;

  @Test
  @Timeout(3600)
  void synchronousCommitOnAndOff() throws Exception {
    List<String> out = new ArrayList<>();
    List<Double> ratios = new ArrayList<>();
    // The first run of a JVM is up to 1.4 times slower (JIT, caches): one unreported run each way.
    run(true, new ArrayList<>());
    run(false, new ArrayList<>());
    for (int round = 1; round <= ROUNDS; round++) {
      boolean offFirst = round % 2 == 0;
      double on = 0;
      double off = 0;
      for (int k = 0; k < 2; k++) {
        boolean sync = offFirst == (k == 1);
        double r = run(sync, out);
        if (sync) {
          on = r;
        } else {
          off = r;
        }
      }
      ratios.add(off / on);
      out.add(String.format(Locale.ROOT, "round %d: off / on = %.2f", round, off / on));
    }
    ratios.sort(Double::compare);
    out.add(
        String.format(
            Locale.ROOT,
            "dsi_synchronous_commit off / on: median %.2f [%.2f-%.2f] over %d rounds",
            ratios.get(ratios.size() / 2),
            ratios.get(0),
            ratios.get(ratios.size() - 1),
            ratios.size()));
    out.forEach(System.out::println);
  }

  /** Applies the backlog in continuous mode; returns commands per second. */
  private static double run(boolean synchronousCommit, List<String> out) throws Exception {
    Path dir = Files.createTempDirectory("dsi-small-bench");
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("dsi_small");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, 201)) {
      s.exec(
          "CREATE TABLE accounts (aid integer PRIMARY KEY, bid integer, abalance integer,"
              + " filler char(84))",
          "CREATE TABLE branches (bid integer PRIMARY KEY, bbalance integer, filler char(88))",
          "CREATE TABLE history (hid bigint PRIMARY KEY, tid integer, bid integer, aid integer,"
              + " delta integer, mtime timestamptz, filler char(22))",
          "INSERT INTO accounts SELECT g, g % 10, 0, '' FROM generate_series(1, "
              + ACCOUNTS
              + ") g",
          "INSERT INTO branches SELECT g, 0, '' FROM generate_series(0, 9) g");
      TableName accounts = new TableName(s.name(), "accounts");
      TableName branches = new TableName(s.name(), "branches");
      TableName history = new TableName(s.name(), "history");
      Random r = new Random(7);
      int[] balance = new int[ACCOUNTS + 1];
      int[] branch = new int[10];
      long oqid = 1;
      Oqid last = null;
      int commands = 0;
      List<LtlCommand> chunk = new ArrayList<>(); // appended 1,000 transactions at a time
      for (long t = 1; t <= TRANSACTIONS; t++) {
        TranId tid = TranId.ofLong(t);
        List<LtlCommand> tx = new ArrayList<>();
        tx.add(new LtlCommand.Begin(tid, Oqid.ofLong(oqid++, 12), Instant.EPOCH, Optional.empty()));
        int delta = r.nextInt(10_001) - 5000;
        int a = 1 + r.nextInt(ACCOUNTS);
        int b = 1 + r.nextInt(ACCOUNTS);
        for (int aid : new int[] {a, b}) {
          balance[aid] += aid == a ? delta : -delta;
          tx.add(
              new LtlCommand.Update(
                  tid,
                  Oqid.ofLong(oqid++, 12),
                  accounts,
                  List.of(new Column("aid", new Value.Int32(aid))),
                  List.of(
                      new Column("aid", new Value.Int32(aid)),
                      new Column("bid", new Value.Int32(aid % 10)),
                      new Column("abalance", new Value.Int32(balance[aid])),
                      new Column("filler", new Value.Text("")))));
        }
        int bid = a % 10;
        branch[bid] += delta;
        tx.add(
            new LtlCommand.Update(
                tid,
                Oqid.ofLong(oqid++, 12),
                branches,
                List.of(new Column("bid", new Value.Int32(bid))),
                List.of(
                    new Column("bid", new Value.Int32(bid)),
                    new Column("bbalance", new Value.Int32(branch[bid])),
                    new Column("filler", new Value.Text("")))));
        tx.add(
            new LtlCommand.Insert(
                tid,
                Oqid.ofLong(oqid++, 12),
                history,
                false,
                List.of(
                    new Column("hid", new Value.Int64(t)),
                    new Column("tid", new Value.Int32(r.nextInt(100))),
                    new Column("bid", new Value.Int32(bid)),
                    new Column("aid", new Value.Int32(a)),
                    new Column("delta", new Value.Int32(delta)),
                    new Column(
                        "mtime",
                        new Value.TimestampTz(
                            OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC)
                                .plusSeconds(t))),
                    new Column("filler", new Value.Text("")))));
        Oqid commit = Oqid.ofLong(oqid++, 12);
        tx.add(new LtlCommand.Commit(tid, commit, Instant.EPOCH));
        chunk.addAll(tx);
        if (t % 1000 == 0 || t == TRANSACTIONS) {
          q.append(101, chunk);
          chunk.clear();
        }
        last = commit;
        commands += 4;
      }
      DsiSettings settings =
          Settings.connection(
              "dsi_synchronous_commit",
              synchronousCommit ? "on" : "off",
              "dsi_sqt_max_cache_size",
              Long.toString(64L << 20));
      long start = System.nanoTime();
      long batches;
      long commandBatches;
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      try (DsiConnection dsi =
          DsiConnection.start(s.target(201), q.queue(), settings, new RecordingSink(), registry)) {
        Awaits.applied(dsi, s, Map.of(101, last));
        batches = Meters.counter(registry, DsiCounter.BATCH);
        commandBatches = Meters.counter(registry, DsiCounter.COMMAND_BATCHES);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      double rate = commands / seconds;
      out.add(
          String.format(
              Locale.ROOT,
              "dsi_synchronous_commit %-3s %,d commands in %.1f s: %,.0f commands/s (%,d round"
                  + " trips for statements, %,d of them command batches; load %s)",
              synchronousCommit ? "on" : "off",
              commands,
              seconds,
              rate,
              batches,
              commandBatches,
              Files.readString(Path.of("/proc/loadavg")).split(" ")[0]));
      return rate;
    }
  }
}
