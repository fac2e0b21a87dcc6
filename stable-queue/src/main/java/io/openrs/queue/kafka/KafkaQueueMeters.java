package io.openrs.queue.kafka;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.openrs.queue.QueueCounter;
import io.openrs.queue.QueueMeterBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Registers a Kafka queue's counters under the same names and tags as the file engine's ({@link
 * QueueCounter}, {@code module} SQM or SQMR, {@code instance} the queue id), so dashboards and
 * alerts work for either engine. The ones with a meaning here:
 *
 * <ul>
 *   <li>SQM {@code CmdsWritten}, {@code BytesWritten}: records and payload bytes Kafka
 *       acknowledged;
 *   <li>SQM {@code SQMWriteTime}: from the send to Kafka's acknowledgement, per record ({@code
 *       acks=all}: the replication to the in-sync replicas included);
 *   <li>SQM {@code SegsActive}: records the topic holds (segment fields count records with this
 *       engine, as in {@code admin who, sqm});
 *   <li>SQMR {@code CmdsRead}: records a reader returned; {@code SQMRReadTime}: its fetches from
 *       the brokers and the time spent in them; {@code SQMRBacklogSeg}: acknowledged records after
 *       its confirmed position.
 * </ul>
 *
 * Nothing on the hot paths touches Micrometer: the meters read the writer's and readers' own
 * counters. No meter asks the brokers anything.
 */
final class KafkaQueueMeters {

  private final MeterRegistry registry;
  private final QueueMeterBuilder meters;
  private final KafkaStableQueue queue;
  private final List<Meter> queueMeters = new ArrayList<>();
  private final Map<KafkaQueueReader, List<Meter>> readerMeters = new HashMap<>();

  KafkaQueueMeters(MeterRegistry registry, KafkaStableQueue queue, AcknowledgedWriter writer) {
    this.registry = registry;
    this.meters = new QueueMeterBuilder(registry);
    this.queue = queue;
    Tags tags = Tags.of("module", "SQM", "instance", queue.id().toString());
    queueMeters.add(
        counter(QueueCounter.CMDS_WRITTEN, tags, writer, w -> w.stats().recordsAcknowledged()));
    queueMeters.add(
        counter(QueueCounter.BYTES_WRITTEN, tags, writer, w -> w.stats().bytesAcknowledged()));
    queueMeters.add(
        timer(
            QueueCounter.SQM_WRITE_TIME,
            tags,
            writer,
            w -> w.stats().recordsAcknowledged(),
            w -> w.stats().acknowledgeNanos()));
    queueMeters.add(gauge(QueueCounter.SEGS_ACTIVE, tags, queue, KafkaStableQueue::recordsHeld));
  }

  void registerReader(KafkaQueueReader r) {
    Tags tags = Tags.of("module", "SQMR", "instance", queue.id().toString(), "reader", r.name());
    List<Meter> meters = new ArrayList<>();
    meters.add(counter(QueueCounter.CMDS_READ, tags, r, KafkaQueueReader::recordsRead));
    meters.add(
        timer(
            QueueCounter.SQMR_READ_TIME,
            tags,
            r,
            x -> x.fetcherStats().fetches(),
            x -> x.fetcherStats().fetchNanos()));
    meters.add(
        gauge(QueueCounter.SQMR_BACKLOG_SEG, tags, r, x -> queue.recordsAfterMark(x.name())));
    synchronized (readerMeters) {
      readerMeters.put(r, meters);
    }
  }

  void removeReader(KafkaQueueReader r) {
    List<Meter> meters;
    synchronized (readerMeters) {
      meters = readerMeters.remove(r);
    }
    if (meters != null) {
      meters.forEach(registry::remove);
    }
  }

  void removeAll() {
    queueMeters.forEach(registry::remove);
    queueMeters.clear();
    List<KafkaQueueReader> open;
    synchronized (readerMeters) {
      open = new ArrayList<>(readerMeters.keySet());
    }
    open.forEach(this::removeReader);
  }

  private <T> Meter counter(QueueCounter c, Tags tags, T obj, ToDoubleFunction<T> f) {
    return meters.counter(c, tags, obj, f);
  }

  private <T> Meter timer(
      QueueCounter c, Tags tags, T obj, ToLongFunction<T> count, ToDoubleFunction<T> nanos) {
    return meters.timer(c, tags, obj, count, nanos);
  }

  private <T> Meter gauge(QueueCounter c, Tags tags, T obj, ToDoubleFunction<T> f) {
    return meters.gauge(c, tags, obj, f);
  }
}
