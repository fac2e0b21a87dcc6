package io.openrs.bench.agent;

import io.debezium.embedded.Connect;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.DatabaseRepDef;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RssdSettings;
import io.openrs.queue.QueueCounter;
import io.openrs.queue.QueueId;
import io.openrs.queue.file.PartitionSpec;
import io.openrs.repagent.AgentConfigFile;
import io.openrs.repagent.AgentSettings;
import io.openrs.repagent.LogReaderProperties;
import io.openrs.repagent.RepAgent;
import io.openrs.repserver.ReplicationServer;
import io.openrs.repserver.ServerSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Issue 6's benchmark: the replication agent draining a backlog of the realistic mix from
 * PostgreSQL's log into a real server (durably, {@code sqm_write_flush on}), as a ratio to
 * Debezium's embedded engine alone draining the same backlog into a consumer that counts and
 * discards records; and the effect of {@code ltl_batch_size} on the agent.
 *
 * <p>Each round: a fresh schema with an {@code orders} table (RealisticMix's row shape), a
 * publication for it, and one pgoutput slot per consumer, all created <em>before</em> the workload,
 * so every consumer starts at the same WAL position and reads the same backlog; then the backlog
 * ({@link OrdersBacklog}, one commit per transaction); then each consumer drains it in turn (the
 * order alternates between rounds):
 *
 * <ul>
 *   <li><b>Debezium alone</b>: {@code DebeziumEngine.create(Connect.class)} with the connector
 *       properties the agent uses ({@code PostgresDialect} and {@code AgentSession}: pgoutput,
 *       {@code lsn.flush.mode=connector}, precise decimals, microsecond times, bytes, transaction
 *       metadata on), memory offsets flushed every second; timed from the engine's start until it
 *       has handed over every data change of {@code orders}.
 *   <li><b>the agent</b>, once per {@code ltl_batch_size}: a server started in this JVM (embedded
 *       RSSD, {@code sqm_write_flush on}, origin {@code pds.pdb} with log transfer, a database
 *       replication definition and a subscription, as {@code InboundThroughput}), the agent
 *       embedded ({@link RepAgent}) with its own pre-created slot; timed from {@code start()} until
 *       the origin's inbound queue has made durable exactly {@code changes + 2 × transactions}
 *       commands (its {@code CmdsWritten} meter counts durable messages: every change plus each
 *       transaction's begin and commit).
 * </ul>
 *
 * The agent runs without a heartbeat ({@code heartbeat_interval_ms=0}: the heartbeat table would be
 * one more table in the publication and one more writer during the drain); everything else is its
 * defaults. Slots, publication and schema are dropped at the end of each round, also on failure or
 * interrupt.
 *
 * <p>The default backlog (20,000 transactions, ~1.05 million changes, ~220 MB of WAL) takes
 * Debezium alone 10-30 s to drain on the 2-core development machine.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.openrs.bench.agent.AgentDrainBenchmark \
 *     [transactions=20000] [rounds=1] [warmup=1] [warmupTransactions=transactions/10] \
 *     [sizes=16384,65536,1048576] [dir=/tmp/openrs-agentdrain] [seed=42] \
 *     [server.<parameter>=<value> ...] [debezium.<property>=<value> ...]
 * </pre>
 *
 * <p>{@code debezium.<property>} is given to both engines: Debezium alone's and the agent's (as the
 * agent's own {@code debezium.<property>} configuration lines).
 */
public final class AgentDrainBenchmark {

  private static final String HOST = "127.0.0.1";
  private static final int PORT = 5432;
  private static final String DATABASE = "openrs_test";
  private static final String USER = "openrs";
  private static final String PASSWORD = "openrs";
  private static final String URL = "jdbc:postgresql://" + HOST + ":" + PORT + "/" + DATABASE;
  private static final String RS_PASSWORD = "bench-password";
  private static final long TIMEOUT_NANOS = TimeUnit.MINUTES.toNanos(10);

  /** Server parameters given as {@code server.<name>=<value>}, over the benchmark's own. */
  private static final Map<String, String> SERVER_PARAMETERS = new HashMap<>();

  /** Debezium properties given as {@code debezium.<name>=<value>}, for both engines. */
  private static final Map<String, String> DEBEZIUM_PROPERTIES = new HashMap<>();

  /** One consumer's drain of one backlog. */
  private record Drain(
      String what,
      double seconds,
      long changes,
      double recvWaitMillis,
      long recvFrames,
      double sendWaitMillis,
      long batches,
      long bytes) {
    double changesPerSecond() {
      return changes / seconds;
    }
  }

  private AgentDrainBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new HashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      a.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    int transactions = Integer.parseInt(a.getOrDefault("transactions", "20000"));
    int rounds = Integer.parseInt(a.getOrDefault("rounds", "1"));
    int warmup = Integer.parseInt(a.getOrDefault("warmup", "1"));
    a.forEach(
        (k, v) -> {
          if (k.startsWith("server.")) {
            SERVER_PARAMETERS.put(k.substring("server.".length()), v);
          }
          if (k.startsWith("debezium.")) {
            DEBEZIUM_PROPERTIES.put(k.substring("debezium.".length()), v);
          }
        });
    if (!SERVER_PARAMETERS.isEmpty()) {
      System.out.println("server parameters besides sqm_write_flush on: " + SERVER_PARAMETERS);
    }
    if (!DEBEZIUM_PROPERTIES.isEmpty()) {
      System.out.println("Debezium properties of both engines: " + DEBEZIUM_PROPERTIES);
    }
    long seed = Long.parseLong(a.getOrDefault("seed", "42"));
    Path dir = Path.of(a.getOrDefault("dir", "/tmp/openrs-agentdrain"));
    List<Integer> sizes = new ArrayList<>();
    for (String s : a.getOrDefault("sizes", "16384,65536,1048576").split(",")) {
      sizes.add(Integer.parseInt(s.trim()));
    }

    // A warm-up backlog is a tenth of a measured one unless given: the JIT keeps compiling the
    // server's and the agent's code through the first full-size drains after small warm-ups.
    int warmupTransactions =
        Integer.parseInt(
            a.getOrDefault(
                "warmupTransactions", Integer.toString(Math.max(50, transactions / 10))));
    for (int w = 0; w < warmup; w++) {
      round(dir, "warmup", warmupTransactions, seed + 1000 + w, sizes, true);
      System.out.println("warmup round " + (w + 1) + " done (not counted)");
    }
    Map<String, List<Drain>> all = new LinkedHashMap<>();
    for (int r = 0; r < rounds; r++) {
      List<Drain> drains =
          round(dir, "round " + (r + 1), transactions, seed + r, sizes, r % 2 == 0);
      for (Drain d : drains) {
        all.computeIfAbsent(d.what(), k -> new ArrayList<>()).add(d);
      }
    }

    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "median of %d round(s), %d transactions per backlog, sqm_write_flush on:%n",
        rounds,
        transactions);
    Drain bare = median(all.get("debezium alone"));
    System.out.printf(
        Locale.ROOT, "  %-26s %9.0f changes/s%n", "debezium alone", bare.changesPerSecond());
    for (int size : sizes) {
      Drain d = median(all.get(agentLabel(size)));
      System.out.printf(
          Locale.ROOT,
          "  %-26s %9.0f changes/s  agent/bare %.2f  ra_sum_io_recv_wait %9.0f ms over %d"
              + " ra_io_recv (%.2f ms each), %d batches, %.1f KiB/batch%n",
          d.what(),
          d.changesPerSecond(),
          d.changesPerSecond() / bare.changesPerSecond(),
          d.recvWaitMillis(),
          d.recvFrames(),
          d.recvWaitMillis() / Math.max(1, d.recvFrames()),
          d.batches(),
          d.bytes() / 1024.0 / Math.max(1, d.batches()));
    }
  }

  private static String agentLabel(int size) {
    return "agent ltl_batch_size "
        + (size % (1 << 20) == 0 ? (size >> 20) + " MiB" : (size >> 10) + " KiB");
  }

  /** One backlog, drained by every consumer in turn. */
  private static List<Drain> round(
      Path dir, String name, int transactions, long seed, List<Integer> sizes, boolean bareFirst)
      throws Exception {
    String schema = "agentdrain_" + ProcessHandle.current().pid();
    String publication = schema + "_pub";
    String bareSlot = schema + "_bare";
    List<String> slots = new ArrayList<>(List.of(bareSlot));
    for (int size : sizes) {
      slots.add(agentSlot(schema, size));
    }
    Cleanup cleanup = new Cleanup(schema, publication, slots);
    Thread hook = new Thread(cleanup::run, "agentdrain-cleanup");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      exec(
          "DROP SCHEMA IF EXISTS " + schema + " CASCADE",
          "CREATE SCHEMA " + schema,
          OrdersBacklog.createTable(schema),
          "DROP PUBLICATION IF EXISTS " + publication,
          "CREATE PUBLICATION " + publication + " FOR TABLE " + schema + ".orders");
      cleanup.dropSlots();
      try (Connection c = connect();
          PreparedStatement ps =
              c.prepareStatement("SELECT pg_create_logical_replication_slot(?, 'pgoutput')")) {
        for (String slot : slots) {
          ps.setString(1, slot);
          ps.execute();
        }
      }
      OrdersBacklog.Counts counts;
      long walBytes;
      long genStart = System.nanoTime();
      try (Connection c = connect()) {
        long before = walLsn(c);
        counts = new OrdersBacklog(seed).write(c, schema, transactions);
        walBytes = walLsn(c) - before;
      }
      double genSeconds = (System.nanoTime() - genStart) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "%s: backlog of %d transactions, %d changes (%d inserts, %d updates, %d deletes),"
              + " %.1f MB of WAL, written in %.1f s%n",
          name,
          counts.transactions(),
          counts.changes(),
          counts.inserts(),
          counts.updates(),
          counts.deletes(),
          walBytes / 1e6,
          genSeconds);

      List<Drain> drains = new ArrayList<>();
      List<Integer> order = new ArrayList<>(sizes);
      if (!bareFirst) {
        java.util.Collections.reverse(order);
      }
      if (bareFirst) {
        drains.add(report(name, bare(schema, publication, bareSlot, counts)));
      }
      for (int size : order) {
        drains.add(report(name, agent(dir, schema, publication, size, counts)));
      }
      if (!bareFirst) {
        drains.add(report(name, bare(schema, publication, bareSlot, counts)));
      }
      return drains;
    } finally {
      cleanup.run();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // Shutting down: the hook runs (and finds the work done).
      }
    }
  }

  private static Drain report(String round, Drain d) {
    System.out.printf(
        Locale.ROOT,
        "%s %-26s %6.2f s  %9.0f changes/s%s%n",
        round,
        d.what(),
        d.seconds(),
        d.changesPerSecond(),
        d.what().startsWith("agent")
            ? String.format(
                Locale.ROOT,
                "  ra_sum_io_recv_wait %.0f ms, ra_io_recv %d, ra_sum_io_send_wait %.0f ms,"
                    + " %d batches, %.1f MB",
                d.recvWaitMillis(),
                d.recvFrames(),
                d.sendWaitMillis(),
                d.batches(),
                d.bytes() / 1e6)
            : "");
    return d;
  }

  private static String agentSlot(String schema, int size) {
    return schema + "_a" + size;
  }

  // ---- Debezium alone --------------------------------------------------------------------------

  /**
   * The agent's log reader properties ({@link LogReaderProperties}, from the same parameters as the
   * agent's but its own slot), with offsets in memory.
   */
  private static Properties bareProperties(String schema, String publication, String slot) {
    Path unused = Path.of(System.getProperty("java.io.tmpdir"), "agentdrain-bare"); // no files
    Properties p =
        LogReaderProperties.of(
            agentSettings(agentParameters("bare", schema, publication, slot, 1), unused));
    p.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
    p.setProperty("offset.flush.interval.ms", "1000");
    p.setProperty("offset.flush.timeout.ms", "10000");
    p.setProperty("errors.max.retries", "0");
    return p;
  }

  /** The agent's parameters ({@code rs_port} unused by Debezium alone). */
  private static Map<String, String> agentParameters(
      String agentName, String schema, String publication, String slot, int rsPort) {
    Map<String, String> m = new HashMap<>();
    m.put("agent_name", agentName);
    m.put("origin", "pds.pdb");
    m.put("rs_host", "127.0.0.1");
    m.put("rs_port", Integer.toString(rsPort));
    m.put("rs_user", "sa");
    m.put("rs_password_env", "RS_PW");
    m.put("source_profile", "postgresql");
    m.put("source_host", HOST);
    m.put("source_port", Integer.toString(PORT));
    m.put("source_database", DATABASE);
    m.put("source_user", USER);
    m.put("source_password_env", "PG_PW");
    m.put("slot_name", slot);
    m.put("publication_name", publication);
    m.put("table_include_list", schema + ".orders");
    m.put("heartbeat_interval_ms", "0");
    DEBEZIUM_PROPERTIES.forEach((k, v) -> m.put("debezium." + k, v));
    return m;
  }

  private static AgentSettings agentSettings(Map<String, String> parameters, Path dir) {
    Map<String, String> m = new HashMap<>(parameters);
    m.put("data_directory", dir.resolve("agent").toString());
    return AgentConfigFile.fromMap(
        "benchmark",
        m,
        env -> env.equals("RS_PW") ? RS_PASSWORD : env.equals("PG_PW") ? PASSWORD : null,
        dir);
  }

  private static Drain bare(
      String schema, String publication, String slot, OrdersBacklog.Counts counts)
      throws Exception {
    AtomicLong seen = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    DebeziumEngine<ChangeEvent<SourceRecord, SourceRecord>> engine =
        DebeziumEngine.create(Connect.class)
            .using(bareProperties(schema, publication, slot))
            .notifying(
                (records, committer) -> {
                  long n = 0;
                  for (ChangeEvent<SourceRecord, SourceRecord> e : records) {
                    if (isOrdersChange(e.value())) {
                      n++;
                    }
                    committer.markProcessed(e);
                  }
                  committer.markBatchFinished();
                  seen.addAndGet(n);
                })
            .using(
                (success, message, error) -> {
                  if (!success) {
                    failure.compareAndSet(
                        null, error != null ? error : new IllegalStateException(message));
                  }
                })
            .build();
    ExecutorService executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "agentdrain-bare-engine");
              t.setDaemon(true);
              return t;
            });
    try {
      long start = System.nanoTime();
      executor.execute(engine);
      while (seen.get() < counts.changes()) {
        if (failure.get() != null) {
          throw new IllegalStateException("Debezium stopped", failure.get());
        }
        if (System.nanoTime() - start > TIMEOUT_NANOS) {
          throw new IllegalStateException(
              "Debezium saw " + seen.get() + " of " + counts.changes() + " changes in 10 min");
        }
        Thread.sleep(1);
      }
      double s = (System.nanoTime() - start) / 1e9;
      return new Drain("debezium alone", s, counts.changes(), 0, 0, 0, 0, 0);
    } finally {
      engine.close();
      executor.shutdown();
      if (!executor.awaitTermination(60, TimeUnit.SECONDS)) {
        executor.shutdownNow();
      }
    }
  }

  private static boolean isOrdersChange(SourceRecord r) {
    if (!(r.value() instanceof Struct v) || v.schema().field("op") == null) {
      return false;
    }
    String op = v.getString("op");
    return (op.equals("c") || op.equals("u") || op.equals("d"))
        && "orders".equals(v.getStruct("source").getString("table"));
  }

  // ---- the agent -------------------------------------------------------------------------------

  private static Drain agent(
      Path dir, String schema, String publication, int size, OrdersBacklog.Counts counts)
      throws Exception {
    Path d = dir.resolve("agent-" + size);
    clean(d);
    MeterRegistry registry = new SimpleMeterRegistry();
    Map<String, String> p = new HashMap<>();
    p.put("ltl_port", "0");
    p.put("admin_port", "0");
    p.put("prometheus_port", "0");
    p.put("listen_address", "127.0.0.1");
    p.put("sqm_write_flush", "on");
    p.putAll(SERVER_PARAMETERS);
    ServerSettings settings =
        new ServerSettings(
            "BENCH_RS",
            d.resolve("server"),
            ParameterValues.of(Scope.SERVER, p),
            List.of(new PartitionSpec("p1", d.resolve("server-p1"), 64L << 30)),
            RssdSettings.embedded(d.resolve("server")),
            Optional.of(RS_PASSWORD.toCharArray()));
    try (ReplicationServer server = ReplicationServer.start(settings, registry)) {
      ConnectionDef primary =
          server.createConnection("pds", "pdb", Profile.POSTGRESQL, true, Map.of());
      server.createConnection("rds", "rdb", Profile.POSTGRESQL, false, Map.of());
      server
          .catalog()
          .createDatabaseRepDef(
              new DatabaseRepDef("all", primary.id(), List.of(schema + ".%"), List.of()));
      server
          .catalog()
          .subscriptions()
          .create("all_sub", "all", true, "rds", "rdb", Optional.empty());
      String inbound = QueueId.inbound(primary.id()).toString();
      long target = counts.changes() + 2 * counts.transactions();

      String agentName = "bench_" + size;
      Map<String, String> m =
          agentParameters(
              agentName, schema, publication, agentSlot(schema, size), server.ltlPort());
      m.put("ltl_batch_size", Integer.toString(size));
      AgentSettings agentSettings = agentSettings(m, d);
      RepAgent agent = new RepAgent(agentSettings, registry);
      try {
        long start = System.nanoTime();
        agent.start();
        long written = 0;
        FunctionCounter inboundWritten = null;
        while (written < target) {
          if (agent.state() == RepAgent.State.FAILED) {
            throw new IllegalStateException("the agent failed", agent.failure().orElse(null));
          }
          if (System.nanoTime() - start > TIMEOUT_NANOS) {
            throw new IllegalStateException(
                "the inbound queue holds " + written + " of " + target + " commands after 10 min");
          }
          Thread.sleep(1);
          if (inboundWritten == null) { // looked up once: a registry search per poll costs CPU
            inboundWritten = cmdsWrittenCounter(registry, inbound);
          }
          written = inboundWritten == null ? 0 : (long) inboundWritten.count();
        }
        double s = (System.nanoTime() - start) / 1e9;
        double recvWait = agentCounter(registry, agentName, "ra_sum_io_recv_wait");
        long recv = (long) agentCounter(registry, agentName, "ra_io_recv");
        double sendWait = agentCounter(registry, agentName, "ra_sum_io_send_wait");
        long batches = (long) agentCounter(registry, agentName, "ra_batches_sent");
        long bytes = (long) agentCounter(registry, agentName, "ra_bytes_sent");
        Thread.sleep(500);
        long after = cmdsWritten(registry, inbound);
        System.out.println("  stable queues after the drain: " + queueWrites(registry));
        if (after != target) {
          throw new IllegalStateException(
              "the inbound queue holds "
                  + after
                  + " commands, expected exactly "
                  + target
                  + " (changes + begin and commit of each transaction)");
        }
        return new Drain(
            agentLabel(size), s, counts.changes(), recvWait, recv, sendWait, batches, bytes);
      } finally {
        agent.close();
      }
    }
  }

  private static long cmdsWritten(MeterRegistry registry, String inbound) {
    FunctionCounter c = cmdsWrittenCounter(registry, inbound);
    return c == null ? 0 : (long) c.count();
  }

  private static FunctionCounter cmdsWrittenCounter(MeterRegistry registry, String inbound) {
    return sqmCounter(registry, QueueCounter.CMDS_WRITTEN, inbound);
  }

  /** Stable queue {@code queue}'s counter {@code counter}, or null before the queue exists. */
  private static FunctionCounter sqmCounter(
      MeterRegistry registry, QueueCounter counter, String queue) {
    return registry
        .find(counter.counterName())
        .tag("module", "SQM")
        .tag("instance", queue)
        .functionCounter();
  }

  /**
   * Per stable queue: write calls (each forced, {@code sqm_write_flush on}), blocks written, of
   * them full, and bytes passed to the write calls; what the queue writers cost in the kernel.
   */
  private static String queueWrites(MeterRegistry registry) {
    StringBuilder b = new StringBuilder();
    for (FunctionCounter blocks :
        registry
            .find(QueueCounter.BLOCKS_WRITTEN.counterName())
            .tag("module", "SQM")
            .functionCounters()) {
      String q = blocks.getId().getTag("instance");
      double full = sqmCounter(registry, QueueCounter.BLOCKS_FULL_WRITE, q).count();
      double bytes = sqmCounter(registry, QueueCounter.BYTES_WRITTEN, q).count();
      var writes =
          registry
              .find(QueueCounter.SQM_WRITE_TIME.counterName())
              .tag("instance", q)
              .functionTimer();
      b.append(
          String.format(
              Locale.ROOT,
              "%s %d writes, %d blocks (%d full), %.1f MB written; ",
              q,
              writes == null ? -1 : (long) writes.count(),
              (long) blocks.count(),
              (long) full,
              bytes / 1e6));
    }
    return b.toString();
  }

  private static double agentCounter(MeterRegistry registry, String agent, String name) {
    FunctionCounter c = registry.find(name).tag("agent", agent).functionCounter();
    if (c == null) {
      throw new IllegalStateException("no counter " + name + " for agent " + agent);
    }
    return c.count();
  }

  // ---- PostgreSQL ------------------------------------------------------------------------------

  private static Connection connect() throws SQLException {
    return DriverManager.getConnection(URL, USER, PASSWORD);
  }

  private static void exec(String... sql) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String q : sql) {
        s.execute(q);
      }
    }
  }

  private static long walLsn(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")) {
      r.next();
      return r.getLong(1);
    }
  }

  /** Drops a round's slots, publication and schema once (from the round or the shutdown hook). */
  private static final class Cleanup {
    private final String schema;
    private final String publication;
    private final List<String> slots;
    private boolean done;

    Cleanup(String schema, String publication, List<String> slots) {
      this.schema = schema;
      this.publication = publication;
      this.slots = slots;
    }

    synchronized void run() {
      if (done) {
        return;
      }
      done = true;
      try {
        dropSlots();
      } catch (Exception e) {
        System.err.println("cleanup: dropping the slots " + slots + ": " + e);
      }
      try {
        exec(
            "DROP PUBLICATION IF EXISTS " + publication,
            "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      } catch (SQLException e) {
        System.err.println("cleanup: dropping " + publication + " and " + schema + ": " + e);
      }
    }

    /** Drops the slots that exist, ending a walsender that still holds one. */
    void dropSlots() throws SQLException, InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      for (String slot : slots) {
        while (true) {
          try (Connection c = connect();
              PreparedStatement q =
                  c.prepareStatement(
                      "SELECT active_pid FROM pg_replication_slots WHERE slot_name = ?")) {
            q.setString(1, slot);
            try (ResultSet r = q.executeQuery()) {
              if (!r.next()) {
                break;
              }
              int pid = r.getInt(1);
              try (Statement s = c.createStatement()) {
                if (!r.wasNull()) {
                  s.execute("SELECT pg_terminate_backend(" + pid + ")");
                }
                s.execute("SELECT pg_drop_replication_slot('" + slot + "')");
              }
              break;
            } catch (SQLException e) {
              if (System.nanoTime() > deadline) {
                throw e;
              }
              Thread.sleep(100);
            }
          }
        }
      }
    }
  }

  private static Drain median(List<Drain> runs) {
    List<Drain> sorted = new ArrayList<>(runs);
    sorted.sort(Comparator.comparingDouble(Drain::changesPerSecond));
    return sorted.get(sorted.size() / 2);
  }

  private static void clean(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(f);
        }
      }
    }
    Files.createDirectories(dir);
  }
}
