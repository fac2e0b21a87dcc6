package io.openrs.bench.server;

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
import io.openrs.ltl.text.LtlWriter;
import io.openrs.queue.file.PartitionSpec;
import io.openrs.repserver.ReplicationServer;
import io.openrs.repserver.ServerSettings;
import io.openrs.wire.BatchAnswer;
import io.openrs.wire.ClientTls;
import io.openrs.wire.LtlClient;
import io.openrs.wire.LtlClientSettings;
import io.openrs.wire.LtlCompression;
import io.openrs.wire.WireProtocol;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Issue 28's transport benchmark: the LTL link with TLS and with compression, side by side with
 * plaintext in one run. An agent ({@link LtlClient}) sends the LTL benchmark's realistic mix
 * ({@link RealisticMix}) as batches of {@code batch} bytes, pipelined, to a real server in the same
 * JVM ({@code sqm_write_flush} as given, default {@code on}; {@code ltl_tls on} with a certificate
 * made by {@code openssl} at start, {@code ltl_compression any}), one link variant after another;
 * rounds alternate the order. Each run is timed until the agent's truncation point reaches the last
 * OQID (everything durable in the inbound queue), and reports:
 *
 * <ul>
 *   <li>commands per second and its ratio to plaintext in the same round (median over rounds);
 *   <li>CPU per command: the process's CPU time (agent and server together, {@code
 *       OperatingSystemMXBean.getProcessCpuTime}) over the run, divided by the commands;
 *   <li>bytes on the wire per command and the compression ratio (frame bytes / wire bytes, from
 *       {@link LtlClient#linkBytes()}: what the agent sent).
 * </ul>
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.openrs.bench.server.LinkTransportBenchmark \
 *     [commands=200000] [rounds=3] [warmup=1] [batch=65536] [flush=on] \
 *     [variants=plain,tls,lz4,zstd,tls+lz4,tls+zstd] [dir=/tmp/openrs-link]
 * </pre>
 */
public final class LinkTransportBenchmark {

  private static final String PASSWORD = "bench-password";

  /** One way of carrying the link. */
  private record Variant(String name, boolean tls, LtlCompression compression) {
    static Variant parse(String name) {
      boolean tls = name.startsWith("tls");
      String method = name.replaceFirst("^tls\\+?", "");
      LtlCompression c =
          method.isEmpty() || method.equals("plain")
              ? LtlCompression.NONE
              : LtlCompression.byName(method)
                  .orElseThrow(() -> new IllegalArgumentException("unknown variant " + name));
      return new Variant(name, tls, c);
    }
  }

  private record Run(
      String variant, double seconds, long commands, long cpuNanos, long frameBytes, long wire) {
    double cmdsPerSecond() {
      return commands / seconds;
    }

    double cpuMicrosPerCommand() {
      return cpuNanos / 1e3 / commands;
    }
  }

  private LinkTransportBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new HashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      a.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    int commands = Integer.parseInt(a.getOrDefault("commands", "200000"));
    int rounds = Integer.parseInt(a.getOrDefault("rounds", "3"));
    int warmup = Integer.parseInt(a.getOrDefault("warmup", "1"));
    int batchBytes = Integer.parseInt(a.getOrDefault("batch", "65536"));
    String flush = a.getOrDefault("flush", "on");
    Path dir = Path.of(a.getOrDefault("dir", "/tmp/openrs-link"));
    List<Variant> variants = new ArrayList<>();
    for (String v : a.getOrDefault("variants", "plain,tls,lz4,zstd,tls+lz4,tls+zstd").split(",")) {
      variants.add(Variant.parse(v.strip()));
    }
    if (!variants.get(0).name().equals("plain")) {
      throw new IllegalArgumentException("the first variant must be plain: ratios are to it");
    }
    clean(dir);
    Path pki = Files.createDirectories(dir.resolve("pki"));
    Certificates certs = Certificates.create(pki);

    List<LtlCommand> mix = new RealisticMix(42).commands(commands);
    List<byte[]> batches = render(mix, batchBytes);
    long textBytes = batches.stream().mapToLong(b -> b.length).sum();
    Oqid last = ((LtlCommand.InTransaction) mix.get(mix.size() - 1)).oqid();
    System.out.printf(
        Locale.ROOT,
        "workload: %d commands in %d LTL batches of <= %d bytes, %.1f MB of LTL text (%.0f"
            + " B/command); sqm_write_flush %s%n",
        mix.size(),
        batches.size(),
        batchBytes,
        textBytes / 1e6,
        (double) textBytes / mix.size(),
        flush);

    for (int w = 0; w < warmup; w++) {
      for (Variant v : variants) {
        run(dir, certs, flush, v, mix.size(), batches, last);
      }
      System.out.println("warmup round " + (w + 1) + " done (not counted)");
    }
    Map<String, List<Run>> runs = new LinkedHashMap<>();
    Map<String, List<Double>> ratios = new LinkedHashMap<>();
    for (int r = 0; r < rounds; r++) {
      List<Variant> order = new ArrayList<>(variants);
      if (r % 2 == 1) {
        java.util.Collections.reverse(order);
      }
      Map<String, Run> round = new HashMap<>();
      for (Variant v : order) {
        Run run = run(dir, certs, flush, v, mix.size(), batches, last);
        round.put(v.name(), run);
        runs.computeIfAbsent(v.name(), k -> new ArrayList<>()).add(run);
        System.out.printf(
            Locale.ROOT,
            "round %d %-9s %8.0f cmds/s  %6.2f us CPU/cmd  %6.1f wire B/cmd  ratio %5.2f%n",
            r + 1,
            v.name(),
            run.cmdsPerSecond(),
            run.cpuMicrosPerCommand(),
            (double) run.wire() / run.commands(),
            (double) run.frameBytes() / run.wire());
      }
      double plain = round.get("plain").cmdsPerSecond();
      for (Variant v : variants) {
        ratios
            .computeIfAbsent(v.name(), k -> new ArrayList<>())
            .add(round.get(v.name()).cmdsPerSecond() / plain);
      }
    }
    summary(variants, runs, ratios, rounds, mix.size(), flush);
  }

  private static void summary(
      List<Variant> variants,
      Map<String, List<Run>> runs,
      Map<String, List<Double>> ratios,
      int rounds,
      int commands,
      String flush) {
    double plainCpu = median(runs.get("plain"), Run::cpuMicrosPerCommand).cpuMicrosPerCommand();
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "median of %d rounds, %d commands, sqm_write_flush %s:%n",
        rounds,
        commands,
        flush);
    System.out.printf(
        Locale.ROOT,
        "  %-9s %10s %9s %12s %12s %12s %9s%n",
        "variant",
        "cmds/s",
        "of plain",
        "CPU us/cmd",
        "CPU change",
        "wire B/cmd",
        "ratio");
    for (Variant v : variants) {
      Run m = median(runs.get(v.name()), Run::cmdsPerSecond);
      double cpu = median(runs.get(v.name()), Run::cpuMicrosPerCommand).cpuMicrosPerCommand();
      List<Double> rs = new ArrayList<>(ratios.get(v.name()));
      rs.sort(Double::compare);
      System.out.printf(
          Locale.ROOT,
          "  %-9s %10.0f %9.2f %12.2f %+11.0f%% %12.1f %9.2f%n",
          v.name(),
          m.cmdsPerSecond(),
          rs.get(rs.size() / 2),
          cpu,
          100 * (cpu / plainCpu - 1),
          (double) m.wire() / m.commands(),
          (double) m.frameBytes() / m.wire());
    }
  }

  /** One variant: a fresh server, one agent connection, every batch until durable. */
  private static Run run(
      Path dir,
      Certificates certs,
      String flush,
      Variant v,
      long commands,
      List<byte[]> batches,
      Oqid last)
      throws Exception {
    Path d = dir.resolve("run");
    clean(d);
    Map<String, String> p = new HashMap<>();
    p.put("ltl_port", "0");
    p.put("admin_port", "0");
    p.put("prometheus_port", "0");
    p.put("listen_address", "127.0.0.1");
    p.put("sqm_write_flush", flush);
    p.put("ltl_tls", "on");
    p.put("ltl_tls_certificate", certs.certificate().toString());
    p.put("ltl_tls_private_key", certs.key().toString());
    p.put("ltl_compression", "any");
    ServerSettings settings =
        new ServerSettings(
            "BENCH_RS",
            d.resolve("server"),
            ParameterValues.of(Scope.SERVER, p),
            List.of(new PartitionSpec("p1", d.resolve("server-p1"), 64L << 30)),
            RssdSettings.embedded(d.resolve("server")),
            Optional.of(PASSWORD.toCharArray()));
    try (ReplicationServer server = ReplicationServer.start(settings, new SimpleMeterRegistry())) {
      ConnectionDef primary =
          server.createConnection("pds", "pdb", Profile.POSTGRESQL, true, Map.of());
      server.createConnection("rds", "rdb", Profile.POSTGRESQL, false, Map.of());
      server
          .catalog()
          .createDatabaseRepDef(new DatabaseRepDef("all", primary.id(), List.of(), List.of()));
      server
          .catalog()
          .subscriptions()
          .create("all_sub", "all", true, "rds", "rdb", Optional.empty());
      ClientTls tls =
          v.tls()
              ? new ClientTls(
                  ClientTls.Mode.VERIFY_FULL,
                  Optional.of(certs.ca()),
                  Optional.empty(),
                  Optional.empty())
              : ClientTls.OFF;
      LtlCommand.Connect hello =
          new LtlCommand.Connect(
              "pds",
              "pdb",
              WireProtocol.VERSION_4,
              WireProtocol.MAX_VERSION,
              "sa",
              Optional.of(PASSWORD),
              Optional.of("bench"),
              v.compression() == LtlCompression.NONE
                  ? List.of()
                  : List.of(v.compression().configName()));
      long cpuStart = processCpuNanos();
      long start = System.nanoTime();
      try (LtlClient client =
          LtlClient.connect(
              LtlClientSettings.defaults("localhost", server.ltlPort())
                  .withConnectTimeout(Duration.ofSeconds(30))
                  .withTls(tls),
              hello)) {
        if (client.welcome().compression() != v.compression()
            || client.tlsProtocol().isPresent() != v.tls()) {
          throw new IllegalStateException("variant " + v + " not negotiated: " + client);
        }
        List<CompletableFuture<BatchAnswer>> answers = new ArrayList<>(batches.size());
        for (byte[] b : batches) {
          answers.add(client.sendBatch(b));
        }
        for (CompletableFuture<BatchAnswer> f : answers) {
          if (!(f.get(10, TimeUnit.MINUTES) instanceof BatchAnswer.Accepted)) {
            throw new IllegalStateException("a batch was rejected: " + f.get());
          }
        }
        while (!client.truncation().get(1, TimeUnit.MINUTES).equals(Optional.of(last))) {
          Thread.onSpinWait();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long cpu = processCpuNanos() - cpuStart;
        return new Run(
            v.name(),
            seconds,
            commands,
            cpu,
            client.linkBytes().frameBytesSent(),
            client.linkBytes().wireBytesSent());
      }
    }
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static List<byte[]> render(List<LtlCommand> mix, int batchBytes) {
    LtlWriter writer = new LtlWriter();
    List<byte[]> batches = new ArrayList<>();
    StringBuilder b = new StringBuilder(batchBytes + 1024);
    for (LtlCommand c : mix) {
      String line = writer.toText(c) + "\n";
      if (b.length() + line.length() > batchBytes && b.length() > 0) {
        batches.add(b.toString().getBytes(StandardCharsets.UTF_8));
        b.setLength(0);
      }
      b.append(line);
    }
    batches.add(b.toString().getBytes(StandardCharsets.UTF_8));
    return batches;
  }

  private static <T> T median(List<T> runs, java.util.function.ToDoubleFunction<T> key) {
    List<T> sorted = new ArrayList<>(runs);
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

  /** A CA and a server certificate for {@code localhost}, made with {@code openssl}. */
  private record Certificates(Path ca, Path certificate, Path key) {
    static Certificates create(Path dir) throws IOException, InterruptedException {
      Files.writeString(dir.resolve("server.ext"), "subjectAltName=DNS:localhost\n");
      openssl(
          dir,
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-sha256",
          "-days",
          "2",
          "-subj",
          "/CN=bench-ca",
          "-keyout",
          "ca.key",
          "-out",
          "ca.crt");
      openssl(
          dir,
          "req",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-sha256",
          "-subj",
          "/CN=localhost",
          "-keyout",
          "server.key",
          "-out",
          "server.csr");
      openssl(
          dir,
          "x509",
          "-req",
          "-in",
          "server.csr",
          "-CA",
          "ca.crt",
          "-CAkey",
          "ca.key",
          "-CAcreateserial",
          "-days",
          "2",
          "-sha256",
          "-extfile",
          "server.ext",
          "-out",
          "server.crt");
      return new Certificates(
          dir.resolve("ca.crt"), dir.resolve("server.crt"), dir.resolve("server.key"));
    }

    private static void openssl(Path dir, String... args) throws IOException, InterruptedException {
      List<String> command = new ArrayList<>(List.of("openssl"));
      command.addAll(List.of(args));
      Process p =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("openssl.log").toFile())
              .start();
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IOException(
            "openssl "
                + String.join(" ", args)
                + " failed: "
                + Files.readString(dir.resolve("openssl.log")));
      }
    }
  }
}
