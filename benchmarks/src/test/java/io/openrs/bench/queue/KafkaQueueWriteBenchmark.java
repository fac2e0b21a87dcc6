package io.openrs.bench.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.queue.QueueId;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.StableQueue;
import io.openrs.queue.kafka.InProcessKafka;
import io.openrs.queue.kafka.KafkaEngineConfig;
import io.openrs.queue.kafka.KafkaQueueManager;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stable queue's write rate on Kafka against Kafka's own producer performance tool ({@code
 * org.apache.kafka.tools.ProducerPerformance}, what {@code kafka-producer-perf-test.sh} runs), on
 * the same in-process KRaft broker, with the same record size and count and the same durability
 * ({@code acks=all}, idempotence on), side by side in each round; the order alternates by round.
 *
 * <p>Ours: one {@code KafkaStableQueue}, {@code append} of each message without waiting (as NRM
 * writes an inbound queue), then the last acknowledgement awaited. The tool runs in a child JVM (as
 * it does from its script), unthrottled ({@code --throughput -1}), its own default batching.
 *
 * <p>Sizes: {@code bench.kafka.records} (default 200000), {@code bench.kafka.recordBytes} (200),
 * {@code bench.kafka.rounds} (3). Figures and the command are in docs/performance.md.
 */
@Tag("benchmark")
class KafkaQueueWriteBenchmark {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaQueueWriteBenchmark.class);

  private static final int RECORDS = Integer.getInteger("bench.kafka.records", 200_000);
  private static final int RECORD_BYTES = Integer.getInteger("bench.kafka.recordBytes", 200);
  private static final int ROUNDS = Integer.getInteger("bench.kafka.rounds", 3);

  /** The tool's summary line: "N records sent, X records/sec (Y MB/sec), ...". */
  private static final Pattern TOOL_SUMMARY =
      Pattern.compile("(\\d+) records sent, ([\\d.]+) records/sec \\(([\\d.]+) MB/sec\\)");

  /** One side's figures: messages per second, and CPU per message (µs), the broker's included. */
  private record Rate(double perSecond, double cpuMicrosPerMessage) {}

  /** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
  private static final double TICKS_PER_SECOND = 100.0;

  @Test
  void queueWritesAgainstKafkasProducerPerformanceTool() throws Exception {
    List<Double> ratios = new ArrayList<>();
    try (InProcessKafka kafka = InProcessKafka.start(1);
        KafkaQueueManager queues =
            KafkaQueueManager.open(
                KafkaEngineConfig.singleBroker("BENCH_RS", kafka.bootstrapServers()))) {
      ours(queues, 0); // warm-up of this JVM's side, not counted (the tool's JVM warms in its run)
      for (int round = 1; round <= ROUNDS; round++) {
        Rate ours;
        Rate tool;
        if (round % 2 == 1) {
          ours = ours(queues, round);
          tool = tool(kafka, round);
        } else {
          tool = tool(kafka, round);
          ours = ours(queues, round);
        }
        double ratio = ours.perSecond() / tool.perSecond();
        ratios.add(ratio);
        LOG.warn(
            "round {}: queue {} msg/s ({} µs CPU/msg), tool {} msg/s ({} µs CPU/msg); ratio {}",
            round,
            Math.round(ours.perSecond()),
            String.format("%.1f", ours.cpuMicrosPerMessage()),
            Math.round(tool.perSecond()),
            String.format("%.1f", tool.cpuMicrosPerMessage()),
            String.format("%.2f", ratio));
      }
    }
    List<Double> sorted = ratios.stream().sorted().toList();
    LOG.warn(
        "Kafka queue writes / producer performance tool, {} records of {} bytes: median ratio {}"
            + " (rounds {})",
        RECORDS,
        RECORD_BYTES,
        String.format("%.2f", sorted.get(sorted.size() / 2)),
        ratios.stream().map(r -> String.format("%.2f", r)).toList());
    assertThat(ratios).hasSize(ROUNDS);
  }

  private static Rate ours(KafkaQueueManager queues, int round) throws Exception {
    StableQueue q = queues.createQueue(QueueId.inbound(100 + round), QueueSettings.defaults());
    byte[][] messages = new byte[1024][];
    Random random = new Random(round);
    for (int i = 0; i < messages.length; i++) {
      messages[i] = new byte[RECORD_BYTES];
      random.nextBytes(messages[i]);
    }
    long cpu0 = processCpuNanos();
    long t0 = System.nanoTime();
    CompletableFuture<?> last = null;
    for (int i = 0; i < RECORDS; i++) {
      last = q.append(messages[i % messages.length]);
    }
    last.get(5, TimeUnit.MINUTES);
    long wall = System.nanoTime() - t0;
    long cpu = processCpuNanos() - cpu0;
    queues.dropQueue(QueueId.inbound(100 + round));
    return new Rate(RECORDS / (wall / 1e9), cpu / 1e3 / RECORDS);
  }

  private static Rate tool(InProcessKafka kafka, int round) throws Exception {
    String topic = "bench-tool-" + round;
    try (var admin =
        org.apache.kafka.clients.admin.Admin.create(
            java.util.Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      admin
          .createTopics(
              List.of(
                  new org.apache.kafka.clients.admin.NewTopic(topic, 1, (short) 1)
                      .configs(java.util.Map.of("min.insync.replicas", "1"))))
          .all()
          .get(1, TimeUnit.MINUTES);
    }
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                java,
                "-Xmx512m",
                "-cp",
                System.getProperty("java.class.path"),
                "org.apache.kafka.tools.ProducerPerformance",
                "--topic",
                topic,
                "--num-records",
                Integer.toString(RECORDS),
                "--record-size",
                Integer.toString(RECORD_BYTES),
                "--throughput",
                "-1",
                "--producer-props",
                "bootstrap.servers=" + kafka.bootstrapServers(),
                "acks=all",
                "enable.idempotence=true")
            .redirectErrorStream(true)
            .start();
    long brokerCpu0 = processCpuNanos();
    long[] toolTicks = {0};
    Thread sampler =
        new Thread(
            () -> {
              Path stat = Path.of("/proc", Long.toString(p.pid()), "stat");
              while (p.isAlive()) {
                try {
                  String[] f = Files.readString(stat).split("\\) ", 2)[1].split(" ");
                  // fields 14 and 15 of the line (utime, stime) are 12 and 13 after "(comm) "
                  toolTicks[0] = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                  Thread.sleep(50);
                } catch (Exception e) {
                  return;
                }
              }
            },
            "bench-tool-cpu");
    sampler.setDaemon(true);
    sampler.start();
    String summary = null;
    StringBuilder out = new StringBuilder();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        out.append(line).append('\n');
        Matcher m = TOOL_SUMMARY.matcher(line);
        if (m.find() && Long.parseLong(m.group(1)) == RECORDS) {
          summary = line;
        }
      }
    }
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException("the producer performance tool did not finish:\n" + out);
    }
    sampler.join(1000);
    long brokerCpu = processCpuNanos() - brokerCpu0;
    double toolCpuNanos = toolTicks[0] / TICKS_PER_SECOND * 1e9;
    if (summary == null) {
      throw new IllegalStateException("no summary line from the tool:\n" + out);
    }
    Matcher m = TOOL_SUMMARY.matcher(summary);
    m.find();
    LOG.info("tool: {}", summary);
    return new Rate(Double.parseDouble(m.group(2)), (toolCpuNanos + brokerCpu) / 1e3 / RECORDS);
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
