package io.openrs.bench.comparison;

import io.openrs.consistency.support.Admin;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 9's benchmark: our replication system in continuous, parallel (4 threads) and HVAR mode
 * against PostgreSQL's native logical replication (and Debezium's engine alone, the capture
 * ceiling), same cluster, same run, on three workloads, three measurements each:
 *
 * <ol>
 *   <li><b>end to end from a backlog</b>: the consumer stopped (our agent not running, the
 *       subscription disabled, Debezium's slot fresh), the workload written, then the consumer
 *       started and timed until the run's end marker is at the replicate; then the replicate is
 *       compared with the primary (row count and hash of every row, per table) and the run fails if
 *       they differ;
 *   <li><b>DSI stage</b> (ours only): the replicate connection suspended, the workload written and
 *       waited for in the outbound queue, then the connection resumed and timed until the end
 *       marker is applied;
 *   <li><b>lag under sustained load</b>: the workload at the primary's full rate for a time while
 *       {@link LagProbe} measures heartbeat rows from primary commit to replicate visibility.
 * </ol>
 *
 * <p>While one system is measured the others do not read the cluster's log ({@link Bystanders}).
 *
 * <p>Every system has its own primary and replicate database (copies of one template), so one
 * system's backlog never runs while another is measured. The systems' order rotates every round.
 * Sizes are system properties (see {@link #prop}); docs/performance.md has the command and figures.
 */
@Tag("benchmark")
class NativeComparisonBenchmark {
  private static final Logger LOG = LoggerFactory.getLogger(NativeComparisonBenchmark.class);
  private static final Duration CATCH_UP = Duration.ofMinutes(20);

  /**
   * Our modes; {@code kafka} is HVAR with the server's stable queues on Kafka ({@code queue_engine
   * = kafka}, one in-process KRaft broker started by the benchmark), not in the default list.
   */
  private static final List<String> OUR_MODES = List.of("continuous", "parallel", "hvar", "kafka");

  private static final List<String> DEFAULT_MODES = List.of("continuous", "parallel", "hvar");

  /** Native, then the modes of ours chosen with {@code bench.native.systems} (default: all). */
  private static final List<String> SYSTEMS = systems();

  private static List<String> systems() {
    List<String> chosen = new ArrayList<>(List.of("native"));
    for (String s :
        System.getProperty("bench.native.systems", String.join(",", DEFAULT_MODES)).split(",")) {
      String mode = s.trim();
      if (!OUR_MODES.contains(mode)) {
        throw new IllegalArgumentException(
            "bench.native.systems: '" + mode + "' is not one of " + OUR_MODES);
      }
      if (!chosen.contains(mode)) {
        chosen.add(mode);
      }
    }
    if (chosen.size() == 1) {
      throw new IllegalArgumentException("bench.native.systems names none of " + OUR_MODES);
    }
    return List.copyOf(chosen);
  }

  /** The report's rows: native, Debezium alone (measured with native), then our chosen modes. */
  private static final List<String> REPORTED = reported();

  private static List<String> reported() {
    List<String> rows = new ArrayList<>(SYSTEMS);
    rows.add(1, "debezium");
    return List.copyOf(rows);
  }

  // Like native's apply worker, which commits with synchronous_commit = off, our DSIs commit
  // without waiting for the replicate's WAL flush (dsi_synchronous_commit off); the outbound queue
  // is confirmed only behind the flush. -Dbench.native.syncCommit=on measures the default instead.
  private static final String SYNC = System.getProperty("bench.native.syncCommit", "off");

  /**
   * {@code VACUUM (ANALYZE)} of the replicate before each measurement, and of the primary too
   * before (3): this machine's PostgreSQL runs with {@code autovacuum = off}, so without it every
   * round applies to tables holding all earlier rounds' dead tuples, which no production cluster
   * does.
   */
  private static final boolean VACUUM =
      Boolean.parseBoolean(System.getProperty("bench.native.vacuum", "true"));

  /**
   * How (1) stops and starts our agent around the backlog. {@code resume} (the default): the agent
   * process keeps running; {@code suspend log transfer} disconnects it (its engine stops, its slot
   * holds the backlog) and {@code resume log transfer} starts the measurement, as a DBA stops and
   * starts log transfer and as native's subscription is disabled and enabled; Debezium alone also
   * runs in a JVM that earlier rounds warmed. {@code launch}: a new agent JVM every round, so every
   * round pays its start and its JIT warm-up (the behaviour before 2026-11-26's fourth session).
   */
  private static final String AGENT_START = agentStart();

  private static String agentStart() {
    String v = System.getProperty("bench.native.agentStart", "resume");
    if (!v.equals("resume") && !v.equals("launch")) {
      throw new IllegalArgumentException(
          "bench.native.agentStart: '" + v + "' is not resume or launch");
    }
    return v;
  }

  private static final Map<String, Map<String, String>> MODES =
      Map.of(
          "continuous",
          mode(),
          "parallel",
          mode("dsi_num_threads", "4", "dsi_serialization_method", "dependency_aware"),
          "hvar",
          mode("dsi_compile_enable", "on"),
          "kafka",
          mode("dsi_compile_enable", "on"));

  /** A mode's connection parameters: its own, plus what every mode of ours sets. */
  private static Map<String, String> mode(String... nameValues) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < nameValues.length; i += 2) {
      m.put(nameValues[i], nameValues[i + 1]);
    }
    m.put("dsi_rs_ticket_report", "on");
    m.put("dsi_synchronous_commit", SYNC);
    return m;
  }

  /**
   * Connection parameters for one of our modes, with {@code bench.native.<mode>.params} ({@code
   * name=value,...}) over its defaults, e.g. {@code -Dbench.native.hvar.params=dsi_num_threads=2}.
   */
  private static Map<String, String> modeParams(String mode) {
    Map<String, String> m = new LinkedHashMap<>(MODES.get(mode));
    String extra = System.getProperty("bench.native." + mode + ".params", "").trim();
    for (String nv : extra.isEmpty() ? new String[0] : extra.split(",")) {
      int eq = nv.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "bench.native." + mode + ".params: '" + nv + "' is not name=value");
      }
      m.put(nv.substring(0, eq).trim(), nv.substring(eq + 1).trim());
    }
    return m;
  }

  private final AtomicLong markers = new AtomicLong(1);

  /** workload | measurement | system -> samples. */
  private final Map<String, List<Double>> samples = new LinkedHashMap<>();

  private final List<String> notes = new ArrayList<>();
  private Path out;
  private String measures;
  private Duration lagWarmup;

  private static long prop(String name, long def) {
    return Long.getLong("bench.native." + name, def);
  }

  /**
   * Rounds run first and not recorded ({@code bench.native.warmupRounds}, default 0): every system,
   * every measurement, as a recorded round. Our server and agent run for days in production; in a
   * short run their JIT compilers take a third of the CPU of a first DSI stage
   * (docs/performance.md), which these rounds leave behind.
   */
  private static final int WARMUP_ROUNDS = (int) prop("warmupRounds", 0);

  /** False during warm-up rounds: their samples are dropped. */
  private boolean recording = true;

  private void sample(String workload, String measure, String system, double v) {
    if (!recording) {
      return;
    }
    samples.computeIfAbsent(workload + "|" + measure + "|" + system, k -> new ArrayList<>()).add(v);
  }

  /** CPU per row change of one measurement, by process group (see {@link CpuUse}). */
  private void cpu(BenchWorkload wl, String measure, String system, CpuUse used, long changes) {
    sample(
        wl.name(), "cpu agent " + measure, system, CpuUse.microsPerChange(used.agent(), changes));
    sample(
        wl.name(), "cpu server " + measure, system, CpuUse.microsPerChange(used.server(), changes));
    sample(
        wl.name(), "cpu pg " + measure, system, CpuUse.microsPerChange(used.postgres(), changes));
  }

  private void note(String s) {
    LOG.info("note: {}", s);
    notes.add(s);
  }

  /**
   * The start-up file lines that choose a system's stable queues: a partition of the file engine,
   * or for {@code kafka} the broker the benchmark started (replication factor 1, one broker).
   */
  private List<String> queueLines(String system) {
    if (!system.equals("kafka")) {
      return List.of("partition.p1 = p1 4g");
    }
    return List.of(
        "queue_engine = kafka",
        "kafka_bootstrap_servers = " + kafka.bootstrapServers(),
        "kafka_replication_factor = 1",
        "kafka_min_insync_replicas = 1",
        "kafka.producer.linger.ms = 1");
  }

  private io.openrs.queue.kafka.InProcessKafka kafka;

  @Test
  @Timeout(value = 4, unit = TimeUnit.HOURS)
  void againstNativeLogicalReplication() throws Exception {
    if (SYSTEMS.contains("kafka")) {
      kafka = io.openrs.queue.kafka.InProcessKafka.start(1);
    }
    try {
      compare();
    } finally {
      if (kafka != null) {
        kafka.close();
      }
    }
  }

  private void compare() throws Exception {
    int rounds = (int) prop("rounds", 2);
    measures = System.getProperty("bench.native.measures", "e2e,dsi,lag");
    Duration lag = Duration.ofSeconds(prop("lagSeconds", 5));
    lagWarmup = Duration.ofSeconds(prop("lagWarmupSeconds", 0));
    out = Path.of(System.getProperty("bench.native.out", "target/native-bench")).toAbsolutePath();
    Files.createDirectories(out);
    List<BenchWorkload> workloads = new ArrayList<>();
    String which = System.getProperty("bench.native.workloads", "a,b,c");
    if (which.contains("a")) {
      workloads.add(new BenchWorkload.Oltp(prop("a.commands", 10_000), 4));
    }
    if (which.contains("b")) {
      workloads.add(
          new BenchWorkload.Purchase(prop("b.rows", 20_000), 1000, (int) prop("b.clients", 1)));
    }
    if (which.contains("c")) {
      workloads.add(
          new BenchWorkload.Pgbench(
              (int) prop("c.scale", 10), prop("c.transactions", 2_000), 4, out));
    }
    long started = System.nanoTime();
    note(
        String.format(
            Locale.ROOT,
            "start %s, load average %s, rounds %d after %d warm-up round(s) not recorded, lag"
                + " runs of %d s after a warm-up of %d s,"
                + " VACUUM (ANALYZE) before each measurement: %s, agent started in (1) by: %s",
            Instant.now(),
            loadAverage(),
            rounds,
            WARMUP_ROUNDS,
            lag.toSeconds(),
            lagWarmup.toSeconds(),
            VACUUM,
            AGENT_START.equals("resume")
                ? "resume log transfer (one agent process per system)"
                : "a new agent process"));
    for (String s : SYSTEMS.subList(1, SYSTEMS.size())) {
      note(s + " connection parameters: " + modeParams(s));
    }
    int w = 0;
    for (BenchWorkload wl : workloads) {
      w++;
      note(wl.name() + ": " + wl.size());
      workload(wl, w, rounds, lag);
      note(wl.name() + " done at load average " + loadAverage());
    }
    note(
        String.format(
            Locale.ROOT,
            "end %s, load average %s, %.1f min",
            Instant.now(),
            loadAverage(),
            (System.nanoTime() - started) / 60e9));
    String report = report(workloads);
    Files.writeString(out.resolve("report.md"), report, StandardCharsets.UTF_8);
    LOG.info("\n{}", report);
    System.out.println(report);
  }

  private static void vacuum(BenchDb db) throws SQLException {
    if (VACUUM) {
      db.exec("VACUUM (ANALYZE)");
    }
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (Exception e) {
      return "?";
    }
  }

  // ---- one workload --------------------------------------------------------------------------

  private void workload(BenchWorkload wl, int w, int rounds, Duration lag) throws Exception {
    String stem =
        ("openrs_cs_" + ProcessHandle.current().pid() + "_nb" + w).toLowerCase(Locale.ROOT);
    List<AutoCloseable> closing = new ArrayList<>();
    Map<String, BenchDb[]> pairs = new LinkedHashMap<>();
    Map<String, OurSystem> ours = new LinkedHashMap<>();
    try {
      BenchDb template = BenchDb.create(stem + "_tmpl", stem);
      try {
        long t0 = System.nanoTime();
        wl.create(template);
        note(
            String.format(
                Locale.ROOT,
                "%s: template created in %.1f s",
                wl.name(),
                (System.nanoTime() - t0) / 1e9));
        for (String s : SYSTEMS) {
          BenchDb p = BenchDb.copyOf(template, stem + "_" + s.charAt(0) + "p");
          closing.add(p);
          BenchDb r = BenchDb.copyOf(template, stem + "_" + s.charAt(0) + "r");
          closing.add(r);
          pairs.put(s, new BenchDb[] {p, r});
        }
      } finally {
        template.close();
      }
      BenchDb[] n = pairs.get("native");
      NativeSystem nat = new NativeSystem(n[0], n[1]);
      closing.add(nat);
      nat.start();
      DebeziumDrain dbz =
          DebeziumDrain.start(n[0], nat.publication(), out.resolve("w" + w + "-debezium"));
      closing.add(dbz);
      long m0 = markers.getAndIncrement();
      n[0].writeMarker(m0);
      nat.awaitMarker(m0, CATCH_UP);
      // Our three systems start side by side (each a server and an agent JVM).
      List<java.util.concurrent.CompletableFuture<Void>> starting = new ArrayList<>();
      for (String s : SYSTEMS.subList(1, SYSTEMS.size())) {
        BenchDb[] pr = pairs.get(s);
        OurSystem o =
            new OurSystem(
                s, out.resolve("w" + w + "-" + s), pr[0], pr[1], modeParams(s), queueLines(s));
        closing.add(o);
        ours.put(s, o);
        long first = markers.getAndAdd(1000);
        starting.add(
            java.util.concurrent.CompletableFuture.runAsync(
                () -> {
                  try {
                    o.start(first);
                  } catch (Exception e) {
                    throw new java.util.concurrent.CompletionException(e);
                  }
                }));
      }
      for (java.util.concurrent.CompletableFuture<Void> f : starting) {
        f.join();
      }
      Bystanders bystanders = new Bystanders(nat, ours);
      selfCheck(wl, pairs.get(SYSTEMS.get(1)));
      for (int r = 1; r <= WARMUP_ROUNDS + rounds; r++) {
        List<String> order = rotate(SYSTEMS, r - 1);
        recording = r > WARMUP_ROUNDS;
        LOG.info(
            "{} round {} of {}{}, order {}, load {}",
            wl.name(),
            r,
            WARMUP_ROUNDS + rounds,
            recording ? "" : " (warm-up, not recorded)",
            order,
            loadAverage());
        // (1) end to end from a backlog
        for (String s : measures.contains("e2e") ? order : List.<String>of()) {
          BenchDb[] pr = pairs.get(s);
          if (s.equals("native")) {
            bystanders.pause(s, false);
            nat.disable();
            dbz.createSlot();
            long changes = wl.run(pr[0], r * 10 + 1, null);
            long m = markers.getAndIncrement();
            pr[0].writeMarker(m);
            boolean dbzFirst = r % 2 == 0;
            if (dbzFirst) {
              debezium(wl, dbz, m, changes);
            }
            vacuum(pr[1]);
            nat.awaitWorkerStartAllowed();
            CpuUse c0 = CpuUse.withoutOurs();
            long t0 = System.nanoTime();
            nat.enable();
            nat.awaitMarker(m, CATCH_UP);
            double sec = (System.nanoTime() - t0) / 1e9;
            sample(wl.name(), "e2e", s, changes / sec);
            cpu(wl, "e2e", s, CpuUse.withoutOurs().since(c0), changes);
            LOG.info("{} e2e native: {} changes in {} s", wl.name(), changes, sec);
            if (!dbzFirst) {
              debezium(wl, dbz, m, changes);
            }
            bystanders.resume(s, false);
          } else {
            OurSystem o = ours.get(s);
            bystanders.pause(s, false);
            boolean resume = AGENT_START.equals("resume");
            if (resume) {
              o.suspendLogTransfer();
            } else {
              o.stopAgent();
            }
            long changes = wl.run(pr[0], r * 10 + 1, null);
            long m = markers.getAndIncrement();
            pr[0].writeMarker(m);
            vacuum(pr[1]);
            o.admin().exec("admin stats, reset");
            CpuUse c0 = CpuUse.of(o);
            long t0 = System.nanoTime();
            Timeline timeline = Timeline.start(o.admin(), t0);
            long launchMs = 0;
            try {
              if (resume) {
                o.resumeLogTransfer();
              } else {
                launchMs = o.startAgent();
              }
              o.awaitMarker(m, CATCH_UP);
            } finally {
              timeline.stop(out.resolve("w" + w + "-r" + r + "-e2e-" + s + "-timeline.txt"));
            }
            double sec = (System.nanoTime() - t0) / 1e9;
            double startSec = resume ? timeline.firstArrivalSeconds() : launchMs / 1000.0;
            sample(wl.name(), "e2e", s, changes / sec);
            cpu(wl, "e2e", s, CpuUse.of(o).since(c0), changes);
            sample(wl.name(), "agent start s", s, startSec);
            LOG.info(
                "{} e2e {}: {} changes in {} s (first command at the server after {} s)",
                wl.name(),
                s,
                changes,
                sec,
                startSec);
            dumpStats(o.admin(), "w" + w + "-r" + r + "-e2e-" + s);
            bystanders.resume(s, false);
          }
          verify(wl, s, pr);
        }
        // (2) DSI stage
        for (String s : measures.contains("dsi") ? order : List.<String>of()) {
          if (s.equals("native")) {
            continue;
          }
          BenchDb[] pr = pairs.get(s);
          OurSystem o = ours.get(s);
          o.suspendConnection();
          long changes = wl.run(pr[0], r * 10 + 2, null);
          long m = markers.getAndIncrement();
          pr[0].writeMarker(m);
          o.awaitOutboundComplete(CATCH_UP);
          bystanders.pause(s, true);
          vacuum(pr[1]);
          o.admin().exec("admin stats, reset");
          CpuUse c0 = CpuUse.of(o);
          long t0 = System.nanoTime();
          o.resumeConnection();
          o.awaitMarker(m, CATCH_UP);
          double sec = (System.nanoTime() - t0) / 1e9;
          sample(wl.name(), "dsi", s, changes / sec);
          cpu(wl, "dsi", s, CpuUse.of(o).since(c0), changes);
          LOG.info("{} dsi {}: {} changes in {} s", wl.name(), s, changes, sec);
          dumpStats(o.admin(), "w" + w + "-r" + r + "-dsi-" + s);
          bystanders.resume(s, true); // after the CPU and the counters are read
        }
        // (3) lag under sustained load
        for (String s : measures.contains("lag") ? order : List.<String>of()) {
          BenchDb[] pr = pairs.get(s);
          OurSystem o = ours.get(s);
          bystanders.pause(s, false);
          if (!lagWarmup.isZero()) {
            // The same load, not recorded, so (3) starts with warm JITs, pools and caches; a
            // backlog the system could not drain during it counts in (3).
            long warm = wl.run(pr[0], r * 10 + 4, lagWarmup);
            LOG.info("{} lag {}: warm-up of {} changes", wl.name(), s, warm);
          }
          vacuum(pr[0]);
          vacuum(pr[1]);
          Thread ticket = null;
          if (o != null) {
            o.admin().exec("admin stats, reset");
            int round = r;
            ticket =
                new Thread(
                    () -> {
                      try {
                        TimeUnit.MILLISECONDS.sleep(lag.toMillis() / 2); // mid-run, not sync
                        o.ticket("lag", "w" + w + "r" + round);
                      } catch (Exception e) {
                        LOG.warn("rs_ticket failed", e);
                      }
                    });
            ticket.start();
          }
          LagProbe probe = new LagProbe(pr[0], pr[1], 10, 5);
          CpuUse c0 = o == null ? CpuUse.withoutOurs() : CpuUse.of(o);
          long t0 = System.nanoTime();
          Timeline timeline = o == null ? null : Timeline.start(o.admin(), t0);
          String lagStem = "w" + w + "-r" + r + "-lag-" + s;
          long changes;
          Histogram h;
          try {
            changes = wl.run(pr[0], r * 10 + 3, lag);
            double sec = (System.nanoTime() - t0) / 1e9;
            sample(wl.name(), "primary rate", s, changes / sec);
            h = probe.finish(CATCH_UP.toMillis());
            cpu(wl, "lag", s, (o == null ? CpuUse.withoutOurs() : CpuUse.of(o)).since(c0), changes);
          } finally {
            probe.close();
            if (timeline != null) {
              timeline.stop(out.resolve(lagStem + "-timeline.txt"));
            }
            Files.write(out.resolve(lagStem + "-heartbeats.txt"), probe.series());
          }
          if (ticket != null) {
            ticket.join();
          }
          Stats.Lag l = Stats.lag(h);
          sample(wl.name(), "lag p50", s, l.p50Ms());
          sample(wl.name(), "lag p99", s, l.p99Ms());
          sample(wl.name(), "lag max", s, l.maxMs());
          LOG.info("{} lag {}: {} ({} changes)", wl.name(), s, l, changes);
          bystanders.resume(s, false);
          if (o != null) {
            dumpStats(o.admin(), lagStem);
            String headers = "lag;w" + w + "r" + r;
            for (Map<String, String> t : o.tickets(10)) {
              if (recording && String.valueOf(t.get("headers")).startsWith(headers)) {
                note(wl.name() + " round " + r + " " + s + " lag rs_ticket: " + t);
              }
            }
          }
        }
      }
      for (String s : SYSTEMS) {
        BenchDb[] pr = pairs.get(s);
        long m = markers.getAndIncrement();
        pr[0].writeMarker(m);
        if (s.equals("native")) {
          nat.awaitMarker(m, CATCH_UP);
        } else {
          ours.get(s).awaitMarker(m, CATCH_UP);
        }
        verify(wl, s, pr);
      }
      note(wl.name() + ": every replicate equals its primary at the end");
    } finally {
      for (int i = closing.size() - 1; i >= 0; i--) {
        try {
          closing.get(i).close();
        } catch (Exception e) {
          LOG.warn("cleanup of {} failed", closing.get(i), e);
        }
      }
    }
  }

  /**
   * The systems not being measured. Every logical walsender decodes the whole cluster's WAL, so an
   * idle subscription or agent of another system would decode the measured system's backlog and
   * apply on the same two cores (in a DSI stage of (a), two such walsenders took 24 % of
   * PostgreSQL's CPU samples). While one system is measured the others stop reading: native's
   * subscription is disabled and our agents' log transfer suspended (for a DSI stage our own
   * agent's too: the backlog is in the outbound queue by then). Afterwards each reads what it
   * missed, up to a marker, and is waited for until its slot's restart point has passed that point
   * too: a slot restarts from its restart point, which moves only past a running-transactions
   * record its reader confirmed, so without the wait the next measurement of that system would
   * decode again everything written while it was paused (native's (b) lost two thirds of its rate
   * that way). In production the primary and the replicate are not one cluster.
   */
  private final class Bystanders {
    private final NativeSystem nat;
    private final Map<String, OurSystem> ours;

    Bystanders(NativeSystem nat, Map<String, OurSystem> ours) {
      this.nat = nat;
      this.ours = ours;
    }

    /** Stops every system's log reading but {@code measured}'s (and its own with {@code own}). */
    void pause(String measured, boolean own) throws SQLException {
      if (!measured.equals("native")) {
        nat.disable();
      }
      for (Map.Entry<String, OurSystem> e : ours.entrySet()) {
        if (own || !e.getKey().equals(measured)) {
          e.getValue().suspendLogTransferAndWait();
        }
      }
    }

    /** Undoes {@link #pause}; returns once each paused system is current, restart point too. */
    void resume(String measured, boolean own) throws SQLException {
      if (!measured.equals("native")) {
        nat.enable();
        catchUp("native", nat.primary(), m -> nat.awaitMarker(m, CATCH_UP));
      }
      for (Map.Entry<String, OurSystem> e : ours.entrySet()) {
        if (own || !e.getKey().equals(measured)) {
          OurSystem o = e.getValue();
          o.resumeLogTransfer();
          catchUp(e.getKey(), o.primary(), m -> o.awaitMarker(m, CATCH_UP));
        }
      }
    }

    /**
     * Writes a marker at {@code primary} and waits for it at the replicate ({@code arrival}), then
     * until the restart point of every active slot in the primary's database has passed the WAL
     * position after it. A temporary logical slot, created and dropped at once, makes PostgreSQL
     * log the running-transactions record the readers need to move past.
     */
    private void catchUp(String system, BenchDb primary, java.util.function.LongConsumer arrival)
        throws SQLException {
      long m = markers.getAndIncrement();
      primary.writeMarker(m);
      arrival.accept(m);
      String lsn = primary.scalar("SELECT pg_current_wal_lsn()");
      primary.scalar(
          "SELECT lsn FROM pg_create_logical_replication_slot('bench_snapshot_"
              + markers.getAndIncrement()
              + "', 'pgoutput', true)");
      try {
        primary.awaitTrue(
            "SELECT coalesce(bool_and(restart_lsn >= '"
                + lsn
                + "'::pg_lsn), true) FROM pg_replication_slots WHERE database = current_database()"
                + " AND active",
            Duration.ofSeconds(60));
      } catch (org.awaitility.core.ConditionTimeoutException e) {
        note(system + ": a slot's restart point did not pass " + lsn + " within 60 s");
      }
    }
  }

  private void debezium(BenchWorkload wl, DebeziumDrain dbz, long marker, long changes)
      throws Exception {
    CpuUse c0 = CpuUse.of(dbz);
    double[] d = dbz.drain(marker, CATCH_UP.toMillis());
    try {
      sample(wl.name(), "e2e", "debezium", changes / d[0]);
      // Read while the engine runs: its walsender's CPU would be lost once that process exits.
      cpu(wl, "e2e", "debezium", CpuUse.of(dbz).since(c0), changes);
    } finally {
      dbz.finish();
    }
    LOG.info("{} e2e debezium: {} change records in {} s", wl.name(), (long) d[1], d[0]);
  }

  /** The comparison must see a difference: one row changed at the replicate, then put back. */
  private void selfCheck(BenchWorkload wl, BenchDb[] pr) throws SQLException {
    verify(wl, "self-check", pr);
    String s = pr[1].schema();
    pr[1].exec(
        "UPDATE "
            + s
            + ".bench_marker SET note = note || 'x' WHERE id = (SELECT max(id) FROM "
            + s
            + ".bench_marker)");
    Map<String, String> d = Stats.differences(pr[0].digest(wl.tables()), pr[1].digest(wl.tables()));
    pr[1].exec(
        "UPDATE "
            + s
            + ".bench_marker SET note = 'marker' WHERE id = (SELECT max(id) FROM "
            + s
            + ".bench_marker)");
    if (!d.keySet().equals(java.util.Set.of("bench_marker"))) {
      throw new AssertionError("the comparison did not catch a changed row: " + d);
    }
    verify(wl, "self-check", pr);
  }

  private void verify(BenchWorkload wl, String system, BenchDb[] pr) throws SQLException {
    Map<String, String> d = Stats.differences(pr[0].digest(wl.tables()), pr[1].digest(wl.tables()));
    if (!d.isEmpty()) {
      throw new AssertionError(
          wl.name() + ", " + system + ": the replicate differs from the primary: " + d);
    }
  }

  private void dumpStats(Admin admin, String name) {
    try {
      StringBuilder b = new StringBuilder();
      for (Map<String, String> row : admin.rows("admin stats, \"all\"")) {
        b.append(row).append('\n');
      }
      b.append("--- who, sqm\n");
      for (Map<String, String> row : admin.rows("admin who, sqm")) {
        b.append(row).append('\n');
      }
      Files.writeString(out.resolve(name + ".txt"), b.toString(), StandardCharsets.UTF_8);
    } catch (Exception e) {
      LOG.warn("could not save the counters {}", name, e);
    }
  }

  static <T> List<T> rotate(List<T> l, int by) {
    List<T> r = new ArrayList<>();
    for (int i = 0; i < l.size(); i++) {
      r.add(l.get((i + by) % l.size()));
    }
    return r;
  }

  // ---- report ----------------------------------------------------------------------------------

  private Stats.Summary get(String w, String m, String s) {
    List<Double> l = samples.get(w + "|" + m + "|" + s);
    return l == null || l.isEmpty() ? null : Stats.summarize(l);
  }

  private String report(List<BenchWorkload> workloads) {
    StringBuilder b = new StringBuilder();
    b.append("Rates in row changes/s, lags in ms: median [min–max] over the rounds;")
        .append(" ratios are medians over native's median ((2) over native's (1)).\n\n");
    for (BenchWorkload wl : workloads) {
      String w = wl.name();
      b.append("### ").append(w).append(" — ").append(wl.size()).append("\n\n");
      b.append(
              "| system | (1) end to end | ratio | (2) DSI stage | ratio | (3) lag p50 | p99 | max |")
          .append(" primary rate during (3) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      Stats.Summary nat = get(w, "e2e", "native");
      for (String s : REPORTED) {
        Stats.Summary e2e = get(w, "e2e", s);
        Stats.Summary dsi = get(w, "dsi", s);
        b.append("| ").append(s).append(" | ");
        b.append(e2e == null ? "" : e2e.format("")).append(" | ");
        b.append(e2e == null || nat == null ? "" : Stats.num(e2e.ratioTo(nat))).append(" | ");
        b.append(dsi == null ? "" : dsi.format("")).append(" | ");
        b.append(dsi == null || nat == null ? "" : Stats.num(dsi.ratioTo(nat))).append(" | ");
        for (String m : List.of("lag p50", "lag p99", "lag max", "primary rate")) {
          Stats.Summary x = get(w, m, s);
          b.append(x == null ? "" : x.format("")).append(" | ");
        }
        b.append('\n');
      }
      b.append(
              "\nCPU per row change, µs, median over the rounds (agent: our agent's JVM, for"
                  + " Debezium alone its own JVM; server: our server's JVM; postgres: every process of"
                  + " the cluster, in (3) including the primary's workload):\n\n")
          .append("| system | (1) agent | (1) server | (1) postgres | (2) server | (2) postgres |")
          .append(" (3) agent | (3) server | (3) postgres |\n")
          .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      for (String s : REPORTED) {
        b.append("| ").append(s).append(" |");
        for (String m :
            List.of(
                "cpu agent e2e",
                "cpu server e2e",
                "cpu pg e2e",
                "cpu server dsi",
                "cpu pg dsi",
                "cpu agent lag",
                "cpu server lag",
                "cpu pg lag")) {
          Stats.Summary x = get(w, m, s);
          b.append(' ').append(x == null ? "" : Stats.num(x.median())).append(" |");
        }
        b.append('\n');
      }
      Stats.Summary start = get(w, "agent start s", SYSTEMS.get(1));
      if (start != null) {
        b.append(
                AGENT_START.equals("resume")
                    ? "\nFrom resume log transfer to the first command at the server, included in"
                        + " (1) for our modes ("
                    : "\nAgent JVM start, included in (1) for our modes (")
            .append(SYSTEMS.get(1))
            .append("): ")
            .append(start.format(" s"))
            .append('\n');
      }
      b.append('\n');
    }
    b.append("Raw samples:\n\n```\n");
    samples.forEach((k, v) -> b.append(k).append(" = ").append(v).append('\n'));
    b.append("```\n\nNotes:\n\n");
    notes.forEach(n -> b.append("* ").append(n).append('\n'));
    return b.toString();
  }
}
