package io.openrs.bench.queue;

import io.openrs.queue.QueueId;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueueReader;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.StableQueue;
import io.openrs.queue.WriteFlush;
import io.openrs.queue.file.FileQueueManager;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
 * Read throughput of one reader over a 256 MB backlog of 200-byte messages in 128 KiB blocks:
 * {@code source=cache} with {@code sqm_cache_size} larger than the backlog (every block from
 * memory), {@code source=disk} with no cache (every block read from the segment file and its CRC
 * checked; the files are in the OS page cache, so this is the read path's cost, not the device's).
 * Score = messages/s. When the reader reaches the end it is dropped and reopened at the start.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
public class QueueReadBenchmark {

  static final long BACKLOG_BYTES = 256L * 1024 * 1024;

  @Param({"cache", "disk"})
  public String source;

  private Path dir;
  private FileQueueManager manager;
  private StableQueue queue;
  private QueueReader reader;
  private long blocksAtStart;

  @Setup(Level.Trial)
  public void open() throws Exception {
    dir = BenchQueues.newDirectory("read-" + source);
    manager = BenchQueues.manager(dir);
    QueueSettings s =
        BenchQueues.settings(128, "off")
            .withWriteFlush(WriteFlush.OFF)
            .withCacheSizeBytes("cache".equals(source) ? 2 * BACKLOG_BYTES : 0);
    queue = manager.createQueue(QueueId.outbound(102), s);
    byte[] m = new byte[BenchQueues.MESSAGE_BYTES];
    List<byte[]> batch = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      batch.add(m);
    }
    long written = 0;
    while (written < BACKLOG_BYTES) {
      queue.appendAll(batch).get(1, TimeUnit.MINUTES);
      written += 1000L * BenchQueues.MESSAGE_BYTES;
    }
    reader = queue.openReader("DSI");
  }

  @TearDown(Level.Trial)
  public void close() {
    manager.close();
    BenchQueues.deleteRecursively(dir);
  }

  @Benchmark
  public QueueMessage read() {
    Optional<QueueMessage> m = reader.poll();
    if (m.isEmpty()) {
      reader.close();
      queue.dropReader("DSI");
      reader = queue.openReader("DSI");
      m = reader.poll();
    }
    return m.orElseThrow();
  }
}
