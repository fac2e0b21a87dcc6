package io.openrs.repserver.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Clock;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.openrs.queue.QueueCounter;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueReader;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.StableQueue;
import io.openrs.queue.WriteFlush;
import io.openrs.queue.file.FileQueueManager;
import io.openrs.queue.file.PartitionSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real file queue with a reader registers only catalogued meters, Prometheus accepts every one,
 * and admin stats sees them move.
 */
class QueueMetersCatalogTest {

  @TempDir Path dir;

  @Test
  void aQueueAndItsReaderRegisterOnlyCataloguedMeters() throws Exception {
    CounterCatalog catalog = CounterCatalog.standard();
    PrometheusMeterRegistry registry = MonitorRegistries.prometheus(catalog, Clock.SYSTEM);
    List<String> refused = new ArrayList<>();
    registry.config().onMeterRegistrationFailed((id, reason) -> refused.add(id + ": " + reason));
    StatsReporter stats = new StatsReporter(registry, Clock.SYSTEM);
    try (FileQueueManager queues =
        FileQueueManager.open(
            dir.resolve("state"),
            List.of(new PartitionSpec("p1", dir.resolve("p1"), 64L * 1024 * 1024)),
            registry,
            Clock.SYSTEM)) {
      StableQueue q =
          queues.createQueue(
              QueueId.inbound(101),
              QueueSettings.defaults()
                  .withSegmentSizeBytes(QueueSettings.MIB)
                  .withWriteFlush(WriteFlush.OFF));
      q.append("hello".getBytes(StandardCharsets.UTF_8)).get(10, TimeUnit.SECONDS);
      try (QueueReader reader = q.openReader("SQT")) {
        assertThat(reader.poll(Duration.ofSeconds(10))).isPresent();

        int checked = CatalogCoverage.assertCatalogued(registry, catalog);
        assertThat(checked).isGreaterThanOrEqualTo(QueueCounter.values().length);
        assertThat(refused).isEmpty();

        assertThat(stats.report(Optional.of("SQM"), Optional.of("101:1")))
            .filteredOn(r -> r.counter().equals("CmdsWritten"))
            .singleElement()
            .satisfies(r -> assertThat(r.total()).isEqualTo(1));
        assertThat(stats.backlog()).extracting(StatsRow::counter).contains("SQMRBacklogSeg");
        assertThat(registry.scrape())
            .contains("openrs_cmds_written_total{instance_id=\"101:1\",module=\"SQM\"} 1")
            .contains(
                "openrs_cmds_read_total{instance_id=\"101:1\",module=\"SQMR\",reader=\"SQT\"} 1")
            .contains(
                "openrs_sqm_flushes_total{instance_id=\"101:1\",module=\"SQM\",reason=\"drained\"}")
            .contains("openrs_sqm_write_time_seconds_count{instance_id=\"101:1\",module=\"SQM\"}");
      }
    }
  }
}
