package io.openrs.bench.queue;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.WriteFlush;
import io.openrs.queue.file.FileQueueManager;
import io.openrs.queue.file.PartitionSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;

/** Shared setup: where benchmark queues live and how they are configured. */
final class BenchQueues {

  /** Message size of the write benchmarks, as the issue asks. */
  static final int MESSAGE_BYTES = 200;

  private BenchQueues() {}

  /** Benchmark directory: {@code -Dopenrs.bench.dir=...}, default {@code target/bench-queue}. */
  static Path newDirectory(String name) throws IOException {
    Path base = Path.of(System.getProperty("openrs.bench.dir", "target/bench-queue"));
    Path dir = Files.createDirectories(base).resolve(name + "-" + System.nanoTime());
    return Files.createDirectories(dir);
  }

  static FileQueueManager manager(Path dir) throws IOException {
    return manager(dir, new SimpleMeterRegistry());
  }

  static FileQueueManager manager(Path dir, MeterRegistry registry) throws IOException {
    return FileQueueManager.open(
        dir.resolve("state"),
        List.of(new PartitionSpec("bench", dir.resolve("p1"), 512L * 1024 * 1024 * 1024)),
        registry,
        Clock.SYSTEM);
  }

  /**
   * Settings for a write benchmark: the given block size and flush, default page size (4 blocks),
   * 64 MiB segments, and a write buffer of four pages so the writer can group-commit a full page
   * while producers fill the next.
   */
  static QueueSettings settings(int blockKiB, String flush) {
    int block = blockKiB * 1024;
    QueueSettings d = QueueSettings.defaults();
    return d.withBlockSizeBytes(block)
        .withWriteFlush(WriteFlush.parse(flush))
        .withWriteRequestLimitBytes(4L * block * d.pageSizeBlocks());
  }

  static void deleteRecursively(Path dir) {
    try {
      Files.walkFileTree(
          dir,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.delete(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
              Files.delete(d);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
