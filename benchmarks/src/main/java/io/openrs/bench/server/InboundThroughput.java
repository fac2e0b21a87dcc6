package io.openrs.bench.server;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.bench.ltl.RealisticMix;
import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.DatabaseRepDef;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RssdSettings;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.packed.PackedEncoder;
import io.openrs.ltl.text.LtlWriter;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.StableQueue;
import io.openrs.queue.file.FileQueueManager;
import io.openrs.queue.file.PartitionSpec;
import io.openrs.repserver.ReplicationServer;
import io.openrs.repserver.ServerSettings;
import io.openrs.wire.BatchAnswer;
import io.openrs.wire.LtlClient;
import io.openrs.wire.WireProtocol;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The inbound side's throughput on the LTL benchmark's realistic mix, with {@code sqm_write_flush
 * on}, against the stable queue's raw write throughput for the same commands measured in the same
 * run (rounds alternate, so each ratio compares neighbours):
 *
 * <ol>
 *   <li><b>raw queue</b>: the commands packed, appended to a bare queue (one producer, the same
 *       number of commands per append as per LTL batch), until the last is durable;
 *   <li><b>server, nrm_thread on</b> and <b>off</b>: an agent sends the commands as LTL batches of
 *       {@code batch} bytes over TCP (pipelined, 64 batches in flight) to a real server with an
 *       embedded RSSD; measured until the agent's truncation point reaches the last OQID (durable
 *       in the inbound queue) and until the outbound queue holds every command (through SQT and
 *       DIST).
 * </ol>
 *
 * The agent's waiting time is the mean time from sending a batch to its answer (client side) and
 * the server's {@code ExecBatchTime} (receipt to answer); the ratio off/on shows what NRM on its
 * own thread saves the agent.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.openrs.bench.server.InboundThroughput \
 *     [commands=300000] [rounds=3] [warmup=1] [batch=65536] [dir=/tmp/openrs-inbound]
 *     [exec_sqm_write_request_limit=&lt;bytes&gt;]
 * </pre>
 */
public final class InboundThroughput {

  private record Run(
      String what,
      double seconds,
      double durableSeconds,
      long commands,
      long bytes,
      double agentWaitMillis,
      double execBatchMillis) {
    double cmdsPerSecond() {
      return commands / seconds;
    }

    double durableCmdsPerSecond() {
      return commands / durableSeconds;
    }
  }

  /** Server override of exec_sqm_write_request_limit ("" = the default). */
  private static String writeRequestLimit = "";

  private InboundThroughput() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new HashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      a.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    int commands = Integer.parseInt(a.getOrDefault("commands", "300000"));
    int rounds = Integer.parseInt(a.getOrDefault("rounds", "3"));
    int batchBytes = Integer.parseInt(a.getOrDefault("batch", "65536"));
    Path dir = Path.of(a.getOrDefault("dir", "/tmp/openrs-inbound"));
    writeRequestLimit = a.getOrDefault("exec_sqm_write_request_limit", "");

    List<LtlCommand> mix = new RealisticMix(42).commands(commands);
    List<byte[]> batches = new ArrayList<>();
    List<Integer> perBatch = new ArrayList<>();
    long textBytes = render(mix, batchBytes, batches, perBatch);
    System.out.printf(
        Locale.ROOT,
        "workload: %d commands in %d LTL batches, %.1f MB of LTL text (%.0f B/command)%n",
        mix.size(),
        batches.size(),
        textBytes / 1e6,
        (double) textBytes / mix.size());
    Oqid last = ((LtlCommand.InTransaction) mix.get(mix.size() - 1)).oqid();

    int warmup = Integer.parseInt(a.getOrDefault("warmup", "1"));
    for (int w = 0; w < warmup; w++) {
      rawQueue(dir, mix, perBatch);
      server(dir, "warmup", true, mix.size(), batches, last);
      server(dir, "warmup", false, mix.size(), batches, last);
      System.out.println("warmup round " + (w + 1) + " done (not counted)");
    }
    List<Run> raw = new ArrayList<>();
    List<Run> on = new ArrayList<>();
    List<Run> off = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      raw.add(rawQueue(dir, mix, perBatch));
      if (r % 2 == 0) {
        on.add(server(dir, "nrm_thread on", true, mix.size(), batches, last));
        off.add(server(dir, "nrm_thread off", false, mix.size(), batches, last));
      } else {
        off.add(server(dir, "nrm_thread off", false, mix.size(), batches, last));
        on.add(server(dir, "nrm_thread on", true, mix.size(), batches, last));
      }
      for (Run run : List.of(raw.get(r), on.get(r), off.get(r))) {
        System.out.printf(
            Locale.ROOT,
            "round %d %-15s durable %8.0f cmds/s  through DIST %8.0f cmds/s  agent wait %7.3f ms"
                + "  ExecBatchTime %7.3f ms%n",
            r + 1,
            run.what(),
            run.durableCmdsPerSecond(),
            run.cmdsPerSecond(),
            run.agentWaitMillis(),
            run.execBatchMillis());
      }
    }
    Run rawM = median(raw, Run::durableCmdsPerSecond);
    Run onM = median(on, Run::durableCmdsPerSecond);
    Run offM = median(off, Run::durableCmdsPerSecond);
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "median of %d rounds (%d commands, sqm_write_flush on, block_size 128 KiB):%n",
        rounds,
        mix.size());
    System.out.printf(
        Locale.ROOT,
        "  raw queue append (packed, %.0f B/cmd):   %9.0f cmds/s%n",
        (double) rawM.bytes() / rawM.commands(),
        rawM.durableCmdsPerSecond());
    for (Run m : List.of(onM, offM)) {
      System.out.printf(
          Locale.ROOT,
          "  server, %-15s durable inbound: %9.0f cmds/s (%.2f of raw)  through SQT+DIST: %9.0f"
              + " cmds/s (%.2f of raw)%n",
          m.what(),
          m.durableCmdsPerSecond(),
          m.durableCmdsPerSecond() / rawM.durableCmdsPerSecond(),
          m.cmdsPerSecond(),
          m.cmdsPerSecond() / rawM.durableCmdsPerSecond());
    }
    Run onW = median(on, Run::agentWaitMillis);
    Run offW = median(off, Run::agentWaitMillis);
    Run onE = median(on, Run::execBatchMillis);
    Run offE = median(off, Run::execBatchMillis);
    System.out.printf(
        Locale.ROOT,
        "  agent wait per batch: nrm_thread on %.3f ms, off %.3f ms (off/on %.1fx);"
            + " ExecBatchTime on %.3f ms, off %.3f ms (off/on %.1fx)%n",
        onW.agentWaitMillis(),
        offW.agentWaitMillis(),
        offW.agentWaitMillis() / onW.agentWaitMillis(),
        onE.execBatchMillis(),
        offE.execBatchMillis(),
        offE.execBatchMillis() / onE.execBatchMillis());
  }

  private static long render(
      List<LtlCommand> mix, int batchBytes, List<byte[]> batches, List<Integer> perBatch) {
    LtlWriter writer = new LtlWriter();
    StringBuilder b = new StringBuilder(batchBytes + 1024);
    long total = 0;
    int n = 0;
    for (LtlCommand c : mix) {
      String line = writer.toText(c) + "\n";
      if (b.length() + line.length() > batchBytes && n > 0) {
        byte[] bytes = b.toString().getBytes(StandardCharsets.UTF_8);
        batches.add(bytes);
        perBatch.add(n);
        total += bytes.length;
        b.setLength(0);
        n = 0;
      }
      b.append(line);
      n++;
    }
    byte[] bytes = b.toString().getBytes(StandardCharsets.UTF_8);
    batches.add(bytes);
    perBatch.add(n);
    return total + bytes.length;
  }

  private static Run rawQueue(Path dir, List<LtlCommand> mix, List<Integer> perBatch)
      throws Exception {
    clean(dir);
    PackedEncoder encoder = new PackedEncoder();
    List<List<byte[]>> appends = new ArrayList<>();
    long bytes = 0;
    int i = 0;
    for (int n : perBatch) {
      List<byte[]> group = new ArrayList<>(n);
      for (int k = 0; k < n; k++) {
        byte[] p = encoder.encode(mix.get(i++));
        bytes += p.length;
        group.add(p);
      }
      appends.add(group);
    }
    try (FileQueueManager m =
        FileQueueManager.open(
            dir.resolve("raw"),
            List.of(new PartitionSpec("p1", dir.resolve("raw-p1"), 64L << 30)),
            new SimpleMeterRegistry(),
            Clock.SYSTEM)) {
      StableQueue q = m.openOrCreateQueue(QueueId.inbound(1), QueueSettings.defaults());
      long start = System.nanoTime();
      CompletableFuture<?> lastWrite = null;
      for (List<byte[]> group : appends) {
        lastWrite = q.appendAll(group);
      }
      lastWrite.get(10, TimeUnit.MINUTES);
      double s = (System.nanoTime() - start) / 1e9;
      return new Run("raw queue", s, s, mix.size(), bytes, 0, 0);
    }
  }

  private static Run server(
      Path dir, String what, boolean nrmThread, long commands, List<byte[]> batches, Oqid last)
      throws Exception {
    clean(dir);
    MeterRegistry registry = new SimpleMeterRegistry();
    Map<String, String> p = new HashMap<>();
    p.put("ltl_port", "0");
    p.put("admin_port", "0");
    p.put("listen_address", "127.0.0.1");
    p.put("sqm_write_flush", "on");
    p.put("nrm_thread", nrmThread ? "on" : "off");
    if (!writeRequestLimit.isEmpty()) {
      p.put("exec_sqm_write_request_limit", writeRequestLimit);
    }
    ServerSettings settings =
        new ServerSettings(
            "BENCH_RS",
            dir.resolve("server"),
            ParameterValues.of(Scope.SERVER, p),
            List.of(new PartitionSpec("p1", dir.resolve("server-p1"), 64L << 30)),
            RssdSettings.embedded(dir.resolve("server")),
            Optional.of("bench-password".toCharArray()));
    try (ReplicationServer server = ReplicationServer.start(settings, registry)) {
      ConnectionDef primary =
          server.createConnection("pds", "pdb", Profile.POSTGRESQL, true, Map.of());
      ConnectionDef replicate =
          server.createConnection("rds", "rdb", Profile.POSTGRESQL, false, Map.of());
      server
          .catalog()
          .createDatabaseRepDef(new DatabaseRepDef("all", primary.id(), List.of(), List.of()));
      server
          .catalog()
          .subscriptions()
          .create("all_sub", "all", true, "rds", "rdb", Optional.empty());
      FunctionCounter outboundWritten =
          registry
              .find("CmdsWritten")
              .tag("module", "SQM")
              .tag("instance", QueueId.outbound(replicate.id()).toString())
              .functionCounter();
      try (LtlClient client =
          LtlClient.connect(
              "127.0.0.1",
              server.ltlPort(),
              new LtlCommand.Connect(
                  "pds",
                  "pdb",
                  WireProtocol.MIN_VERSION,
                  WireProtocol.MAX_VERSION,
                  "sa",
                  "bench-password",
                  Optional.of("bench")),
              Duration.ofSeconds(30))) {
        AtomicLong waitNanos = new AtomicLong();
        long start = System.nanoTime();
        List<CompletableFuture<BatchAnswer>> answers = new ArrayList<>(batches.size());
        for (byte[] b : batches) {
          long sent = System.nanoTime();
          CompletableFuture<BatchAnswer> f = client.sendBatch(b);
          f.thenRun(() -> waitNanos.addAndGet(System.nanoTime() - sent));
          answers.add(f);
        }
        for (CompletableFuture<BatchAnswer> f : answers) {
          if (!(f.get(10, TimeUnit.MINUTES) instanceof BatchAnswer.Accepted)) {
            throw new IllegalStateException("a batch was rejected: " + f.get());
          }
        }
        while (!client.truncation().get(1, TimeUnit.MINUTES).equals(Optional.of(last))) {
          Thread.onSpinWait();
        }
        double durable = (System.nanoTime() - start) / 1e9;
        while (outboundWritten.count() < commands) {
          Thread.sleep(1);
        }
        double all = (System.nanoTime() - start) / 1e9;
        FunctionTimer exec = registry.find("ExecBatchTime").functionTimer();
        return new Run(
            what,
            all,
            durable,
            commands,
            0,
            waitNanos.get() / 1e6 / batches.size(),
            exec.mean(TimeUnit.MILLISECONDS));
      }
    }
  }

  private static Run median(List<Run> runs, java.util.function.ToDoubleFunction<Run> key) {
    List<Run> sorted = new ArrayList<>(runs);
    sorted.sort(Comparator.comparingDouble(key));
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
