package io.openrs.bench.queue;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.StableQueue;
import io.openrs.queue.file.FileQueueManager;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Sustained write throughput of one queue: each operation hands one {@value
 * BenchQueues#MESSAGE_BYTES}-byte message to the queue; the bounded write buffer holds producers
 * back to what the writer makes durable, and each iteration ends by waiting for the last message to
 * be durable. Score = messages/s; MB/s = score * 200 / 1e6. Run with {@code -t 1} and {@code -t 4}
 * for one and four producer threads. Each iteration ends with a purge so the disk does not fill.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class QueueWriteBenchmark {

  @Param({"16", "64", "128", "256"})
  public int blockKiB;

  @Param({"on", "off"})
  public String flush;

  private Path dir;
  private FileQueueManager manager;
  private SimpleMeterRegistry registry;
  private long iterationStart;
  private double writeNanosAtStart;
  private double writesAtStart;
  private double fullAtStart;
  private double callsAtStart;
  private StableQueue queue;
  private final byte[] message = new byte[BenchQueues.MESSAGE_BYTES];

  /** Last future per producer thread, to wait for durability at the end of an iteration. */
  @State(Scope.Thread)
  public static class Producer {
    CompletableFuture<QueuePosition> last;

    @TearDown(Level.Iteration)
    public void drain() throws Exception {
      if (last != null) {
        last.get(5, TimeUnit.MINUTES);
      }
    }
  }

  @Setup(Level.Trial)
  public void open() throws Exception {
    dir = BenchQueues.newDirectory("write-" + blockKiB + "-" + flush);
    registry = new SimpleMeterRegistry();
    manager = BenchQueues.manager(dir, registry);
    queue = manager.createQueue(QueueId.inbound(101), BenchQueues.settings(blockKiB, flush));
  }

  @Setup(Level.Iteration)
  public void startIteration() {
    iterationStart = System.nanoTime();
    writeNanosAtStart = writeNanos();
    writesAtStart = counter("BlocksWritten");
    fullAtStart = counter("BlocksFullWrite");
    callsAtStart = timer().count();
  }

  /**
   * Prints how busy the writer thread kept the device during the iteration: the share of the wall
   * time it spent in write and force calls (SQMWriteTime), and how full the blocks were. These
   * figures do not depend on how fast the device happens to be at the moment.
   */
  @TearDown(Level.Iteration)
  public void purge() throws Exception {
    double wall = System.nanoTime() - iterationStart;
    double busy = writeNanos() - writeNanosAtStart;
    double blocks = counter("BlocksWritten") - writesAtStart;
    double full = counter("BlocksFullWrite") - fullAtStart;
    double calls = timer().count() - callsAtStart;
    System.out.printf(
        Locale.ROOT,
        "[sqm] %d KiB %s: writer in write+force %.1f%% of %.2f s, %.0f write calls of %.2f blocks,"
            + " %.1f%% of blocks full%n",
        blockKiB,
        flush,
        100 * busy / wall,
        wall / 1e9,
        calls,
        calls == 0 ? 0 : blocks / calls,
        blocks == 0 ? 0 : 100 * full / blocks);
    queue.purge().get(5, TimeUnit.MINUTES);
  }

  private FunctionTimer timer() {
    return registry.get("SQMWriteTime").functionTimer();
  }

  private double writeNanos() {
    return timer().totalTime(TimeUnit.NANOSECONDS);
  }

  private double counter(String name) {
    return registry.get(name).functionCounter().count();
  }

  @TearDown(Level.Trial)
  public void close() {
    manager.close();
    BenchQueues.deleteRecursively(dir);
  }

  @Benchmark
  public void append(Producer p) throws Exception {
    p.last = queue.append(message);
  }

  /** Messages per {@link #appendBatch} call, as an LTL batch handed over by the EXEC. */
  static final int BATCH = 100;

  private final java.util.List<byte[]> batch = java.util.Collections.nCopies(BATCH, message);

  /** Hands over {@value #BATCH} messages per call; the score is still messages/s. */
  @Benchmark
  @org.openjdk.jmh.annotations.OperationsPerInvocation(BATCH)
  public void appendBatch(Producer p) throws Exception {
    p.last = queue.appendAll(batch);
  }
}
