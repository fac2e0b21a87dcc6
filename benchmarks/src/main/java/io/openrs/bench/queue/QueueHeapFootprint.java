package io.openrs.bench.queue;

import io.openrs.queue.QueueId;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueueReader;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.StableQueue;
import io.openrs.queue.WriteFlush;
import io.openrs.queue.file.FileQueueManager;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Heap used by a queue holding a large backlog. Writes {@code backlogMiB} (default 10240: 10 GiB)
 * of 200-byte messages into one queue with {@code sqm_write_flush=off}, 128 KiB blocks and the
 * default {@code sqm_cache_size} (8 MiB; second argument in MiB), nobody confirming; closes it;
 * opens the manager and the queue again (recovery); then reads the whole backlog with one reader.
 * Measures the heap used after a full GC at each step and every 1 GiB of the read, and the direct
 * memory (page buffers). Deletes the files at the end. Not a JMH benchmark: it measures memory.
 *
 * <pre>
 * java -Xmx256m -Dopenrs.bench.dir=/tmp/openrs-bench -cp benchmarks/target/benchmarks.jar \
 *     io.openrs.bench.queue.QueueHeapFootprint [backlogMiB] [cacheMiB]
 * </pre>
 */
public final class QueueHeapFootprint {

  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
  private static final int BATCH = 1000;

  private QueueHeapFootprint() {}

  public static void main(String[] args) throws Exception {
    long backlogBytes = (args.length > 0 ? Long.parseLong(args[0]) : 10240L) << 20;
    long cacheBytes = (args.length > 1 ? Long.parseLong(args[1]) : 8L) << 20;
    QueueSettings s =
        BenchQueues.settings(128, "off")
            .withWriteFlush(WriteFlush.OFF)
            .withCacheSizeBytes(cacheBytes);
    QueueId id = QueueId.inbound(103);
    Path dir = BenchQueues.newDirectory("heap");
    System.out.printf(
        Locale.ROOT,
        "max heap %d MiB, backlog %d MiB of %d-byte messages, block_size 128 KiB, sqm_cache_size"
            + " %d MiB, sqm_segment_size %d MiB%n",
        Runtime.getRuntime().maxMemory() >> 20,
        backlogBytes >> 20,
        BenchQueues.MESSAGE_BYTES,
        cacheBytes >> 20,
        s.segmentSizeBytes() >> 20);
    try {
      long base = usedAfterGc();
      System.out.printf(
          Locale.ROOT, "%-48s %8.1f MiB%n", "baseline, nothing open", base / 1048576.0);
      long messages = backlogBytes / BenchQueues.MESSAGE_BYTES / BATCH * BATCH;
      write(dir, id, s, messages, base);
      report("everything closed", base);
      read(dir, id, s, messages, base);
      report("everything closed", base);
    } finally {
      BenchQueues.deleteRecursively(dir);
      System.out.println("deleted " + dir);
    }
  }

  /** Writes the backlog (in its own frame, so nothing of it stays reachable after). */
  private static void write(Path dir, QueueId id, QueueSettings s, long messages, long base)
      throws Exception {
    try (FileQueueManager manager = BenchQueues.manager(dir)) {
      StableQueue q = manager.createQueue(id, s);
      q.openReader("SQT").close(); // a reader that confirms nothing: everything is kept
      report("empty queue open", base);
      List<byte[]> batch = Collections.nCopies(BATCH, new byte[BenchQueues.MESSAGE_BYTES]);
      long start = System.nanoTime();
      CompletableFuture<?> last = null;
      for (long written = 0; written < messages; written += BATCH) {
        last = q.appendAll(batch);
      }
      last.get(10, TimeUnit.MINUTES);
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "wrote %d messages (%d MiB of messages) in %.1f s: %.0f MB/s, %d segments%n",
          messages,
          messages * BenchQueues.MESSAGE_BYTES >> 20,
          seconds,
          messages * BenchQueues.MESSAGE_BYTES / seconds / 1e6,
          q.info().segmentsActive());
      report("queue open with the whole backlog written", base);
    }
  }

  /** Reopens the queue (recovery) and reads the whole backlog with one reader. */
  private static void read(Path dir, QueueId id, QueueSettings s, long messages, long base)
      throws Exception {
    try (FileQueueManager manager = BenchQueues.manager(dir)) {
      long start = System.nanoTime();
      StableQueue q = manager.openQueue(id, s);
      System.out.printf(
          Locale.ROOT,
          "reopened (recovery) in %.2f s, last message %s%n",
          (System.nanoTime() - start) / 1e9,
          q.lastMessage().map(QueueMessage::position).orElse(null));
      report("queue reopened, backlog on disk", base);
      long maxReading = 0;
      long read = 0;
      long step =
          Math.max(1, Math.min(1L << 30, messages * BenchQueues.MESSAGE_BYTES / 4))
              / BenchQueues.MESSAGE_BYTES;
      start = System.nanoTime();
      try (QueueReader reader = q.openReader("SQT")) {
        Optional<QueueMessage> next;
        while ((next = reader.poll()).isPresent()) {
          read++;
          if (read % step == 0) {
            maxReading = Math.max(maxReading, usedAfterGc());
          }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(
            Locale.ROOT,
            "read %d messages in %.1f s (%.0f MB/s, with a full GC every %d MiB)%n",
            read,
            seconds,
            read * BenchQueues.MESSAGE_BYTES / seconds / 1e6,
            step * BenchQueues.MESSAGE_BYTES >> 20);
        System.out.printf(
            Locale.ROOT,
            "%-48s %8.1f MiB (+%.1f)%n",
            "max while reading (after GC)",
            maxReading / 1048576.0,
            (maxReading - base) / 1048576.0);
        report("after reading the whole backlog", base);
      }
      if (read != messages) {
        throw new IllegalStateException("read " + read + " messages, wrote " + messages);
      }
    }
  }

  private static long report(String what, long base) {
    long used = usedAfterGc();
    long direct =
        ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(b -> b.getName().equals("direct"))
            .mapToLong(BufferPoolMXBean::getMemoryUsed)
            .sum();
    System.out.printf(
        Locale.ROOT,
        "%-48s %8.1f MiB (+%.1f), direct %.1f MiB%n",
        what,
        used / 1048576.0,
        (used - base) / 1048576.0,
        direct / 1048576.0);
    return used;
  }

  private static long usedAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return MEMORY.getHeapMemoryUsage().getUsed();
  }
}
