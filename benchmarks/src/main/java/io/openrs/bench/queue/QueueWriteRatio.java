package io.openrs.bench.queue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The write-throughput ratios of {@code docs/performance.md} from one JMH run. For each flush
 * policy and block size it runs, in {@code rounds} rounds, the physical limit ({@link
 * PhysicalLimitBenchmark}, one thread) and then the queue ({@link QueueWriteBenchmark}) with 1 and
 * 4 producers, back to back. The device's force time drifts by tens of percent within minutes on a
 * virtual disk, so each ratio is taken within its round (queue MB/s over the limit measured just
 * before) and the table shows the median over the rounds and the range. MB/s of the queue counts
 * message bytes (200 per message); of the limit, chunk bytes.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar -Dopenrs.bench.dir=/tmp/openrs-bench \
 *     io.openrs.bench.queue.QueueWriteRatio [blocks=16,64,128,256] [flush=on,off] [rounds=3] \
 *     [files=keep] [threads=1,4] [method=append] [warmup=2] [iterations=3] [seconds=3]
 * </pre>
 */
public final class QueueWriteRatio {

  private QueueWriteRatio() {}

  public static void main(String[] args) throws RunnerException {
    Map<String, String> a = new LinkedHashMap<>();
    a.put("blocks", "16,64,128,256");
    a.put("flush", "on,off");
    a.put("rounds", "3");
    a.put("files", "keep");
    a.put("threads", "1,4");
    a.put("method", "append");
    a.put("warmup", "2");
    a.put("iterations", "3");
    a.put("seconds", "3");
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      if (kv.length != 2 || !a.containsKey(kv[0])) {
        throw new IllegalArgumentException("unknown argument " + arg + ", known: " + a.keySet());
      }
      a.put(kv[0], kv[1]);
    }
    System.out.println("QueueWriteRatio " + a);
    Runs runs =
        new Runs(
            System.getProperty("openrs.bench.dir", "target/bench-queue"),
            Integer.parseInt(a.get("warmup")),
            Integer.parseInt(a.get("iterations")),
            Integer.parseInt(a.get("seconds")));
    int rounds = Integer.parseInt(a.get("rounds"));
    List<String> files = list(a.get("files"));
    List<Integer> threads = list(a.get("threads")).stream().map(Integer::parseInt).toList();
    String method = a.get("method");
    List<String> rows = new ArrayList<>();
    for (String flush : list(a.get("flush"))) {
      for (String block : list(a.get("blocks"))) {
        double chunk = Integer.parseInt(block) * 1024.0 * PhysicalLimitBenchmark.PAGE_BLOCKS;
        Map<String, List<Double>> limits = new LinkedHashMap<>();
        Map<Integer, List<Double>> queue = new LinkedHashMap<>();
        Map<String, List<Double>> ratios = new LinkedHashMap<>();
        for (int r = 0; r < rounds; r++) {
          for (String f : files) {
            double mbs = runs.limit(block, flush, f) * chunk / 1e6;
            limits.computeIfAbsent(f, k -> new ArrayList<>()).add(mbs);
          }
          for (int t : threads) {
            double mbs = runs.queue(method, block, flush, t) * BenchQueues.MESSAGE_BYTES / 1e6;
            queue.computeIfAbsent(t, k -> new ArrayList<>()).add(mbs);
            for (String f : files) {
              List<Double> l = limits.get(f);
              ratios
                  .computeIfAbsent(t + "/" + f, k -> new ArrayList<>())
                  .add(mbs / l.get(l.size() - 1));
            }
          }
        }
        for (int t : threads) {
          StringBuilder row =
              new StringBuilder(
                  String.format(
                      Locale.ROOT,
                      "| %s | %d | %s KiB | %s | %.2f M | %s |",
                      method,
                      t,
                      block,
                      flush,
                      median(queue.get(t)) / BenchQueues.MESSAGE_BYTES,
                      spread(queue.get(t), "%.0f")));
          for (String f : files) {
            row.append(
                String.format(
                    Locale.ROOT,
                    " %s | **%s** |",
                    spread(limits.get(f), "%.0f"),
                    spread(ratios.get(t + "/" + f), "%.2f")));
          }
          rows.add(row.toString());
          System.out.println(row);
        }
      }
    }
    System.out.println();
    StringBuilder header =
        new StringBuilder("| producer call | threads | block | flush | messages/s | MB/s |");
    StringBuilder rule = new StringBuilder("|---|---|---|---|---|---|");
    for (String f : files) {
      header.append(" limit MB/s (").append(f).append(") | ratio (").append(f).append(") |");
      rule.append("---|---|");
    }
    System.out.println("Median over " + rounds + " rounds [min..max]:");
    System.out.println(header);
    System.out.println(rule);
    rows.forEach(System.out::println);
  }

  private static List<String> list(String csv) {
    return Arrays.asList(csv.split(","));
  }

  private static double median(List<Double> v) {
    List<Double> s = v.stream().sorted().toList();
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  /** "median [min..max]" (just the value for one round). */
  private static String spread(List<Double> v, String format) {
    String m = String.format(Locale.ROOT, format, median(v));
    if (v.size() == 1) {
      return m;
    }
    double min = v.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    double max = v.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    return m
        + " ["
        + String.format(Locale.ROOT, format, min)
        + ".."
        + String.format(Locale.ROOT, format, max)
        + "]";
  }

  /** Runs one benchmark in its own fork and returns its score (operations per second). */
  private record Runs(String dir, int warmupSeconds, int iterations, int seconds) {

    double limit(String block, String flush, String files) throws RunnerException {
      return run("PhysicalLimitBenchmark.writeChunk", block, flush, files, 1);
    }

    double queue(String method, String block, String flush, int threads) throws RunnerException {
      return run("QueueWriteBenchmark." + method, block, flush, null, threads);
    }

    private double run(String benchmark, String block, String flush, String files, int threads)
        throws RunnerException {
      ChainedOptionsBuilder o =
          new OptionsBuilder()
              .include("io.openrs.bench.queue." + benchmark + "$")
              .param("blockKiB", block)
              .param("flush", flush)
              .threads(threads)
              .forks(1)
              .warmupIterations(1)
              .warmupTime(TimeValue.seconds(warmupSeconds))
              .measurementIterations(iterations)
              .measurementTime(TimeValue.seconds(seconds))
              .jvmArgsAppend("-Dopenrs.bench.dir=" + dir);
      if (files != null) {
        o = o.param("files", files);
      }
      RunResult r = new Runner(o.build()).runSingle();
      return r.getPrimaryResult().getScore();
    }
  }
}
