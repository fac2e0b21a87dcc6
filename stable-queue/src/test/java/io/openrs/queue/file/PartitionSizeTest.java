package io.openrs.queue.file;

import static io.openrs.queue.file.QueueFixture.Q;
import static io.openrs.queue.file.QueueFixture.SMALL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Clock;
import io.openrs.queue.InvalidSettingException;
import io.openrs.queue.QueueId;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition smaller than one segment never holds one: its writers would wait forever (the first
 * write of a server with only such partitions never finished). It is refused where it meets a
 * segment size, naming the partition, its size and the segment size.
 */
class PartitionSizeTest {

  static final long MIB = 1024L * 1024;

  @TempDir Path dir;

  @Test
  void aQueueWhoseSegmentDoesNotFitAPartitionIsRefusedNamingBoth() throws Exception {
    try (QueueFixture fx = new QueueFixture(dir, MIB, Clock.SYSTEM)) {
      assertThatThrownBy(() -> fx.manager.createQueue(Q, SMALL.withSegmentSizeBytes(4 * MIB)))
          .isInstanceOf(InvalidSettingException.class)
          .hasMessageContaining("partition size = '1048576'")
          .hasMessageContaining("at least one segment of 4194304 bytes (sqm_segment_size)")
          .hasMessageContaining("partition p1");
      assertThat(fx.manager.queueIds()).isEmpty();
      // A segment that fits is accepted.
      assertThat(fx.manager.createQueue(Q, SMALL).info().queue()).isEqualTo(Q);
    }
  }

  @Test
  void aPartitionAddedLaterMustHoldASegmentOfTheQueuesKnown() throws Exception {
    try (QueueFixture fx = new QueueFixture(dir, 64 * MIB, Clock.SYSTEM)) {
      fx.manager.createQueue(Q, SMALL.withSegmentSizeBytes(4 * MIB));
      assertThatThrownBy(
              () -> fx.manager.addPartition(new PartitionSpec("p2", dir.resolve("p2"), 2 * MIB)))
          .isInstanceOf(InvalidSettingException.class)
          .hasMessageContaining("partition size = '2097152'")
          .hasMessageContaining("4194304 bytes (sqm_segment_size) in partition p2");
      assertThat(fx.manager.partitions()).extracting(PartitionInfo::name).containsExactly("p1");
      fx.manager.addPartition(new PartitionSpec("p3", dir.resolve("p3"), 4 * MIB));
      assertThat(fx.manager.partitions()).extracting(PartitionInfo::name).contains("p3");
    }
  }

  @Test
  void reopeningQueuesWithSegmentsLargerThanAPartitionIsRefused() throws Exception {
    QueueId q = QueueId.outbound(7);
    try (QueueFixture fx = new QueueFixture(dir, 64 * MIB, Clock.SYSTEM)) {
      fx.manager.createQueue(q, SMALL.withSegmentSizeBytes(8 * MIB)).close();
    }
    try (QueueFixture small = new QueueFixture(dir, 4 * MIB, Clock.SYSTEM)) {
      assertThatThrownBy(() -> small.manager.openQueue(q, SMALL.withSegmentSizeBytes(8 * MIB)))
          .isInstanceOf(InvalidSettingException.class)
          .hasMessageContaining("8388608 bytes (sqm_segment_size) in partition p1");
    }
  }
}
