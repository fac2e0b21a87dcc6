package io.openrs.bench.dsi;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.dsi.DsiConnection;
import io.openrs.dsi.DsiSettings;
import io.openrs.dsi.SerializationMethod;
import io.openrs.dsi.testkit.Awaits;
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
import java.time.Instant;
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
 * Apply rate from an outbound backlog into PostgreSQL: the realistic mix (70% inserts, 20% updates,
 * 10% deletes, 10-100 commands per transaction, rows of about 240 bytes) with 1, 2, 4 and 8
 * threads, as a ratio to continuous mode; and, for inserts only, the bulk path against row-by-row
 * batches. Run with {@code mvn -pl benchmarks -am verify -Dgroups=benchmark
 * -DexcludedTestGroups=none -Dit.test=ApplyRateBenchmark -Dtest=skip
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false
 * -Dbench.commands=200000}. Prints one line per configuration.
 */
@Tag("benchmark")
class ApplyRateBenchmark {
  private static final int COMMANDS = Integer.getInteger("bench.commands", 100_000);

  @Test
  @Timeout(3600)
  void applyRate() throws Exception {
    List<String> out = new ArrayList<>();
    double serial = run("mix", 1, false, 0.7, out);
    for (int threads : new int[] {2, 4, 8}) {
      double r = run("mix", threads, false, 0.7, out);
      out.add(String.format("  threads %d / serial = %.2f", threads, r / serial));
    }
    double rows = run("inserts", 1, false, 1.0, out);
    double bulk = run("inserts", 1, true, 1.0, out);
    out.add(String.format("  inserts: bulk / rows = %.2f", bulk / rows));
    out.forEach(System.out::println);
  }

  /**
   * The mix with 4 threads under each serialization method, and with one of the 4 threads kept for
   * large transactions (above 50 commands: about half of the transactions here).
   */
  @Test
  @Timeout(3600)
  void serializationMethodsAndLargeThreads() throws Exception {
    List<String> out = new ArrayList<>();
    double serial = run("mix", 1, false, 0.7, out);
    for (SerializationMethod m : SerializationMethod.values()) {
      double r = run("mix " + m.label(), 4, false, 0.7, m, 0, 50, out);
      out.add(String.format("  %s / serial = %.2f", m.label(), r / serial));
    }
    double large =
        run("mix large", 4, false, 0.7, SerializationMethod.DEPENDENCY_AWARE, 1, 50, out);
    out.add(String.format("  dependency_aware, 1 large thread / serial = %.2f", large / serial));
    out.forEach(System.out::println);
  }

  /** Applies a generated backlog; returns commands per second. */
  private static double run(
      String name, int threads, boolean bulk, double insertShare, List<String> out)
      throws Exception {
    return run(name, threads, bulk, insertShare, SerializationMethod.DEPENDENCY_AWARE, 0, 100, out);
  }

  /** Applies a generated backlog; returns commands per second. */
  private static double run(
      String name,
      int threads,
      boolean bulk,
      double insertShare,
      SerializationMethod method,
      int largeThreads,
      long largeSize,
      List<String> out)
      throws Exception {
    Path dir = Files.createTempDirectory("dsi-bench");
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("dsi_bench");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, 201)) {
      s.exec(
          "CREATE TABLE orders (order_id bigint PRIMARY KEY, customer_id integer, amount"
              + " numeric(12,2), status text, note text, created timestamptz)");
      Random r = new Random(1);
      List<Long> live = new ArrayList<>();
      long nextId = 1;
      long oqid = 1;
      long tran = 1;
      int commands = 0;
      Oqid last = null;
      TableName t = new TableName(s.name(), "orders");
      while (commands < COMMANDS) {
        TranId tid = TranId.ofLong(tran++);
        List<LtlCommand> tx = new ArrayList<>();
        tx.add(new LtlCommand.Begin(tid, Oqid.ofLong(oqid++, 12), Instant.EPOCH, Optional.empty()));
        int n = 10 + r.nextInt(91);
        for (int i = 0; i < n; i++) {
          double p = r.nextDouble();
          if (p < insertShare || live.size() < 100) {
            long id = nextId++;
            live.add(id);
            tx.add(new LtlCommand.Insert(tid, Oqid.ofLong(oqid++, 12), t, false, row(id, r)));
          } else if (p < insertShare + (1 - insertShare) * 2 / 3) {
            long id = live.get(r.nextInt(live.size()));
            tx.add(
                new LtlCommand.Update(
                    tid,
                    Oqid.ofLong(oqid++, 12),
                    t,
                    List.of(new Column("order_id", new Value.Int64(id))),
                    row(id, r)));
          } else {
            long id = live.remove(r.nextInt(live.size()));
            tx.add(
                new LtlCommand.Delete(
                    tid,
                    Oqid.ofLong(oqid++, 12),
                    t,
                    List.of(new Column("order_id", new Value.Int64(id)))));
          }
        }
        Oqid commit = Oqid.ofLong(oqid++, 12);
        tx.add(new LtlCommand.Commit(tid, commit, Instant.EPOCH));
        q.append(101, tx);
        last = commit;
        commands += n;
      }
      DsiSettings settings =
          Settings.connection(
                  "dsi_num_threads",
                  Integer.toString(threads),
                  "dsi_bulk_copy",
                  bulk ? "on" : "off",
                  "dsi_sqt_max_cache_size",
                  Long.toString(64L << 20),
                  "dsi_num_large_xact_threads",
                  Integer.toString(largeThreads),
                  "dsi_large_xact_size",
                  Long.toString(largeSize))
              .withSerializationMethod(method);
      long start = System.nanoTime();
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(201), q.queue(), settings, new RecordingSink(), new SimpleMeterRegistry())) {
        Awaits.applied(dsi, s, Map.of(101, last));
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      double rate = commands / seconds;
      out.add(
          String.format(
              "%-8s threads=%d bulk=%-5s %,d commands in %.1f s: %,.0f commands/s",
              name, threads, bulk, commands, seconds, rate));
      return rate;
    }
  }

  private static List<Column> row(long id, Random r) {
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
}
