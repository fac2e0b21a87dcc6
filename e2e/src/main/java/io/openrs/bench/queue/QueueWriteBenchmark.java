package io.openrs.bench.queue;

import io.openrs.queue.QueueId;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.StableQueue;
import io.openrs.queue.file.FileQueueManager;
import java.nio.file.Path;
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
    manager = BenchQueues.manager(dir);
    queue = manager.createQueue(QueueId.inbound(101), BenchQueues.settings(blockKiB, flush));
  }

  @TearDown(Level.Iteration)
  public void purge() throws Exception {
    queue.purge().get(5, TimeUnit.MINUTES);
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
