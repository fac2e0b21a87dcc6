package io.openrs.queue.file;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.WriteFlush;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** A manager over a temporary directory with one partition, for tests. */
final class QueueFixture implements AutoCloseable {

  static final QueueId Q = QueueId.inbound(101);

  /** Small layout: 16 KiB blocks, 1 MiB segments (64 blocks), flush off for speed. */
  static final QueueSettings SMALL =
      QueueSettings.defaults()
          .withBlockSizeBytes(16 * 1024)
          .withPageSizeBlocks(4)
          .withSegmentSizeBytes(1024 * 1024)
          .withCacheSizeBytes(256 * 1024)
          .withWriteRequestLimitBytes(256 * 1024)
          .withWriteFlush(WriteFlush.OFF);

  final Path root;
  final MeterRegistry registry;
  final Clock clock;
  final long partitionLimitBytes;
  FileQueueManager manager;

  QueueFixture(Path root) throws IOException {
    this(root, 1024L * 1024 * 1024, Clock.SYSTEM);
  }

  QueueFixture(Path root, long partitionLimitBytes, Clock clock) throws IOException {
    this.root = root;
    this.registry = new SimpleMeterRegistry();
    this.clock = clock;
    this.partitionLimitBytes = partitionLimitBytes;
    this.manager = openManager();
  }

  Path stateDir() {
    return root.resolve("state");
  }

  Path partitionDir() {
    return root.resolve("p1");
  }

  FileQueueManager openManager() throws IOException {
    return FileQueueManager.open(
        stateDir(),
        List.of(new PartitionSpec("p1", partitionDir(), partitionLimitBytes)),
        registry,
        clock);
  }

  /** Closes every queue and reopens the manager, as a restart would. */
  void restart() throws IOException {
    manager.close();
    manager = openManager();
  }

  Path segmentFile(QueueId q, long segment) {
    return partitionDir().resolve(SegmentFiles.segmentFileName(q, segment));
  }

  @Override
  public void close() {
    manager.close();
  }
}
