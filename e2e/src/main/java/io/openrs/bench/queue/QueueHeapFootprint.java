package io.openrs.bench.queue;

import io.openrs.queue.QueueId;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueueReader;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.StableQueue;
import io.openrs.queue.WriteFlush;
import io.openrs.queue.file.FileQueueManager;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Heap used by a queue holding a large backlog: writes {@code backlogMiB} (default 2048) of
 * 200-byte messages into one queue (128 KiB blocks, default {@code sqm_cache_size} 8 MiB, no reader
 * confirming), then measures the heap after a full GC, then reads the whole backlog with one reader
 * (from disk; only the last 8 MiB are cached) and measures again. Not a JMH benchmark: it measures
 * memory, not time.
 *
 * <pre>
 * java -Xmx512m -cp e2e/target/benchmarks.jar io.openrs.bench.queue.QueueHeapFootprint [backlogMiB]
 * </pre>
 */
public final class QueueHeapFootprint {

  private QueueHeapFootprint() {}

  public static void main(String[] args) throws Exception {
    long backlogBytes = (args.length > 0 ? Long.parseLong(args[0]) : 2048L) * 1024 * 1024;
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    Path dir = BenchQueues.newDirectory("heap");
    long before = usedHeapAfterGc(memory);
    try (FileQueueManager manager = BenchQueues.manager(dir)) {
      QueueSettings s = BenchQueues.settings(128, "off").withWriteFlush(WriteFlush.OFF);
      StableQueue q = manager.createQueue(QueueId.inbound(103), s);
      QueueReader reader = q.openReader("SQT");
      byte[] m = new byte[BenchQueues.MESSAGE_BYTES];
      List<byte[]> batch = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        batch.add(m);
      }
      long start = System.nanoTime();
      long written = 0;
      while (written < backlogBytes) {
        q.appendAll(batch).get(1, TimeUnit.MINUTES);
        written += 1000L * BenchQueues.MESSAGE_BYTES;
      }
      double writeSeconds = (System.nanoTime() - start) / 1e9;
      long afterWrite = usedHeapAfterGc(memory);
      start = System.nanoTime();
      long read = 0;
      Optional<QueueMessage> next;
      while ((next = reader.poll()).isPresent()) {
        read++;
      }
      double readSeconds = (System.nanoTime() - start) / 1e9;
      long afterRead = usedHeapAfterGc(memory);
      System.out.printf(
          "backlog %d MiB (%d messages of %d bytes), %d segments, sqm_cache_size %d MiB%n",
          backlogBytes >> 20,
          read,
          BenchQueues.MESSAGE_BYTES,
          q.info().segmentsActive(),
          s.cacheSizeBytes() >> 20);
      System.out.printf(
          "write %.1f s (%.0f MB/s), read %.1f s (%.0f MB/s)%n",
          writeSeconds, written / writeSeconds / 1e6, readSeconds, written / readSeconds / 1e6);
      System.out.printf(
          "heap used after GC: empty %.1f MiB, with backlog %.1f MiB (+%.1f), after reading it"
              + " all %.1f MiB (+%.1f)%n",
          before / 1048576.0,
          afterWrite / 1048576.0,
          (afterWrite - before) / 1048576.0,
          afterRead / 1048576.0,
          (afterRead - before) / 1048576.0);
      reader.close();
    } finally {
      BenchQueues.deleteRecursively(dir);
    }
  }

  private static long usedHeapAfterGc(MemoryMXBean memory) {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return memory.getHeapMemoryUsage().getUsed();
  }
}
