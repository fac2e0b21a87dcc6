package io.openrs.queue.file;

import io.micrometer.core.instrument.Clock;
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

/**
 * Registers a queue's counters from the {@link QueueCounter} catalogue as Micrometer function
 * meters reading the fields the writer and readers keep ({@link SqmStats}, {@link ReaderEntry}).
 * Nothing on the hot paths touches Micrometer.
 */
final class QueueMeters {

  private final MeterRegistry registry;
  private final QueueMeterBuilder meters;
  private final FileStableQueue queue;
  private final List<Meter> queueMeters = new ArrayList<>();
  private final Map<ReaderEntry, List<Meter>> readerMeters = new HashMap<>();

  QueueMeters(MeterRegistry registry, FileStableQueue queue) {
    this.registry = registry;
    this.meters = new QueueMeterBuilder(registry);
    this.queue = queue;
    Tags tags = Tags.of("module", "SQM", "instance", queue.id().toString());
    SqmStats s = queue.stats();
    counter(QueueCounter.CMDS_WRITTEN, tags, s, x -> x.cmdsWritten);
    counter(QueueCounter.BLOCKS_WRITTEN, tags, s, x -> x.blocksWritten);
    counter(QueueCounter.BLOCKS_FULL_WRITE, tags, s, x -> x.blocksFullWrite);
    counter(QueueCounter.BYTES_WRITTEN, tags, s, x -> x.bytesWritten);
    counter(QueueCounter.SQM_FLUSHES, tags.and("reason", "page_full"), s, x -> x.flushesPageFull);
    counter(QueueCounter.SQM_FLUSHES, tags.and("reason", "drained"), s, x -> x.flushesDrained);
    counter(
        QueueCounter.SQM_FLUSHES, tags.and("reason", "segment_end"), s, x -> x.flushesSegmentEnd);
    counter(QueueCounter.SEGS_ALLOCATED, tags, s, x -> x.segsAllocated);
    counter(QueueCounter.SEGS_DEALLOCATED, tags, s, x -> x.segsDeallocated);
    timer(QueueCounter.SQM_WRITE_TIME, tags, s, x -> x.writes, x -> x.writeNanos);
    Clock clock = queue.clock();
    timer(
        QueueCounter.SQM_WAIT_SEG_TIME,
        tags,
        s,
        x -> x.segWaitCount(),
        x -> x.segWaitNanos(clock.monotonicTime()));
    queueMeters.add(gauge(QueueCounter.SEGS_ACTIVE, tags, queue, q -> q.segments.size()));
    queueMeters.add(
        gauge(QueueCounter.SQM_BACKLOG_BYTES, tags, queue, FileStableQueue::backlogBytes));
  }

  void registerReader(ReaderEntry e) {
    Tags tags = Tags.of("module", "SQMR", "instance", queue.id().toString(), "reader", e.name);
    List<Meter> meters = new ArrayList<>();
    meters.add(counterMeter(QueueCounter.CMDS_READ, tags, e, x -> x.cmdsRead));
    meters.add(counterMeter(QueueCounter.BLOCKS_READ, tags, e, x -> x.blocksRead));
    meters.add(counterMeter(QueueCounter.BLOCKS_READ_CACHED, tags, e, x -> x.blocksReadCached));
    meters.add(counterMeter(QueueCounter.SLEEPS_WRITE_Q, tags, e, x -> x.sleepsWriteQ));
    meters.add(
        this.meters.timer(
            QueueCounter.SQMR_READ_TIME, tags, e, x -> x.diskReads, x -> x.diskReadNanos));
    meters.add(
        gauge(
            QueueCounter.SQMR_BACKLOG_BLOCK,
            tags,
            e,
            x -> queue.readerBacklogBlocks(x, queue.durableEnd())));
    meters.add(
        gauge(
            QueueCounter.SQMR_BACKLOG_SEG,
            tags,
            e,
            x ->
                x.confirmed()
                    .map(p -> Math.max(0, queue.writeSegment - p.segment()))
                    .orElse(queue.writeSegment - queue.firstSegment)));
    synchronized (readerMeters) {
      readerMeters.put(e, meters);
    }
  }

  void removeReader(ReaderEntry e) {
    List<Meter> meters;
    synchronized (readerMeters) {
      meters = readerMeters.remove(e);
    }
    if (meters != null) {
      meters.forEach(registry::remove);
    }
  }

  void removeAll() {
    queueMeters.forEach(registry::remove);
    queueMeters.clear();
    List<ReaderEntry> entries;
    synchronized (readerMeters) {
      entries = new ArrayList<>(readerMeters.keySet());
    }
    entries.forEach(this::removeReader);
  }

  private <T> void counter(QueueCounter c, Tags tags, T obj, ToDoubleFunction<T> f) {
    queueMeters.add(meters.counter(c, tags, obj, f));
  }

  private <T> Meter counterMeter(QueueCounter c, Tags tags, T obj, ToDoubleFunction<T> f) {
    return meters.counter(c, tags, obj, f);
  }

  private <T> void timer(
      QueueCounter c,
      Tags tags,
      T obj,
      java.util.function.ToLongFunction<T> count,
      ToDoubleFunction<T> totalNanos) {
    queueMeters.add(meters.timer(c, tags, obj, count, totalNanos));
  }

  private <T> Meter gauge(QueueCounter c, Tags tags, T obj, ToDoubleFunction<T> f) {
    return meters.gauge(c, tags, obj, f);
  }
}
