package io.openrs.repserver.monitor;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.openrs.repserver.dist.DistStats;
import io.openrs.repserver.origin.LocatorKeeper;
import io.openrs.repserver.origin.PipelineCounters;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * One origin's {@link ServerCounter}s as Micrometer meters, tagged {@code module} and {@code
 * instance} (the origin); DIST's per-replicate counters add {@code replicate}. Registered when the
 * origin's pipeline starts and removed when it closes.
 */
public final class OriginMeters implements PipelineCounters.Published {

  private final MeterRegistry registry;
  private final PipelineCounters counters;
  private final IntFunction<String> replicateName;
  private final List<Meter> meters = new CopyOnWriteArrayList<>();

  private OriginMeters(
      MeterRegistry registry, PipelineCounters counters, IntFunction<String> replicateName) {
    this.registry = registry;
    this.counters = counters;
    this.replicateName = replicateName;
  }

  /**
   * Registers the origin's counters.
   *
   * @param replicateName the name of a replicate connection, by id (the {@code replicate} tag)
   */
  public static OriginMeters register(
      MeterRegistry registry, PipelineCounters counters, IntFunction<String> replicateName) {
    OriginMeters m = new OriginMeters(registry, counters, replicateName);
    m.registerAll();
    return m;
  }

  private void registerAll() {
    String instance = counters.instance();
    var execStats = counters.exec();
    var nrmStats = counters.nrm();
    var sqtStats = counters.sqt();
    DistStats distStats = counters.dist();
    gauge(
        ServerCounter.AGENT_CONNECTED,
        instance,
        counters,
        c -> c.agentConnected().getAsBoolean() ? 1 : 0);
    gauge(
        ServerCounter.TABLES_NOT_REPLICATED,
        instance,
        counters,
        c -> c.tablesNotReplicated().getAsLong());
    counter(ServerCounter.CMDS_RECV, instance, execStats, s -> s.cmdsRecv.sum());
    counter(ServerCounter.BYTES_RECEIVED, instance, execStats, s -> s.bytesReceived.sum());
    counter(ServerCounter.BATCHES_REJECTED, instance, execStats, s -> s.batchesRejected.sum());
    timer(
        ServerCounter.EXEC_BATCH_TIME,
        instance,
        execStats,
        s -> s.batches.sum(),
        s -> s.batchNanos.sum());
    timer(
        ServerCounter.EXEC_NRM_WAIT_TIME,
        instance,
        execStats,
        s -> s.nrmWaits.sum(),
        s -> s.nrmWaitNanos.sum());
    timer(
        ServerCounter.RA_WRITE_WAITS_TIME,
        instance,
        nrmStats,
        s -> s.writeWaits,
        s -> s.writeWaitNanos);
    counter(
        ServerCounter.LINK_BYTES_RECEIVED, instance, execStats, s -> s.link.wireBytesReceived());
    counter(
        ServerCounter.LINK_FRAME_BYTES_RECEIVED,
        instance,
        execStats,
        s -> s.link.frameBytesReceived());
    counter(ServerCounter.LINK_BYTES_SENT, instance, execStats, s -> s.link.wireBytesSent());
    counter(ServerCounter.LINK_FRAME_BYTES_SENT, instance, execStats, s -> s.link.frameBytesSent());
    counter(ServerCounter.UPDS_RSLOCATER, instance, counters.locator(), LocatorKeeper::updates);
    counter(ServerCounter.CMDS_NO_REPDEF, instance, nrmStats, s -> s.cmdsNoRepdef);
    counter(ServerCounter.DUPLICATES, instance, nrmStats, s -> s.duplicates);
    counter(ServerCounter.COLUMNS_DROPPED, instance, nrmStats, s -> s.columnsDropped);
    counter(ServerCounter.OPEN_TRANS_ADD, instance, sqtStats, s -> s.openTrans);
    counter(ServerCounter.CLOSED_TRANS_ADD, instance, sqtStats, s -> s.closedTrans);
    counter(ServerCounter.ROLLED_BACK_TRANS, instance, sqtStats, s -> s.rolledBackTrans);
    counter(ServerCounter.TRANS_REMOVED, instance, sqtStats, s -> s.transRemoved);
    gauge(ServerCounter.CACHE_MEM_USED, instance, sqtStats, s -> s.cacheMemUsed);
    gauge(ServerCounter.CACHE_MEM_MAX, instance, sqtStats, s -> s.cacheMemMax);
    gauge(ServerCounter.CMDS_MAX_TRAN, instance, sqtStats, s -> s.largestTranCmds);
    counter(ServerCounter.CMDS_REREAD, instance, sqtStats, s -> s.cmdsReread);
    meters.add(
        FunctionCounter.builder(
                ServerCounter.DIST_CMDS_READ.counterName(), distStats, s -> s.cmdsRead)
            .tags(Tags.of("module", "DIST", "instance", instance, "reader", "DIST"))
            .description(ServerCounter.DIST_CMDS_READ.description())
            .register(registry));
    counter(ServerCounter.TRANS_PROCESSED, instance, distStats, s -> s.transProcessed);
    counter(ServerCounter.CMDS_NO_SUBSCRIBER, instance, distStats, s -> s.cmdsNoSubscriber);
    counter(ServerCounter.RS_TICKET, instance, distStats, s -> s.tickets);
    timer(
        ServerCounter.DIST_OUTBOUND_WAIT_TIME,
        instance,
        distStats,
        s -> s.outboundWaits,
        s -> s.outboundWaitNanos);
  }

  /** Registers DIST's per-replicate counters for a replicate this origin feeds. */
  @Override
  public void replicateAdded(int replicateId) {
    DistStats distStats = counters.dist();
    Tags tags =
        Tags.of(
            "module",
            "DIST",
            "instance",
            counters.instance(),
            "replicate",
            replicateName.apply(replicateId));
    meters.add(
        FunctionCounter.builder(
                ServerCounter.CMDS_DISTRIBUTED.counterName(),
                distStats,
                s -> value(s.cmdsDistributed.get(replicateId)))
            .tags(tags)
            .description(ServerCounter.CMDS_DISTRIBUTED.description())
            .register(registry));
    meters.add(
        FunctionCounter.builder(
                ServerCounter.TRANS_DISTRIBUTED.counterName(),
                distStats,
                s -> value(s.transDistributed.get(replicateId)))
            .tags(tags)
            .description(ServerCounter.TRANS_DISTRIBUTED.description())
            .register(registry));
  }

  @Override
  public void close() {
    meters.forEach(registry::remove);
  }

  private static double value(LongAdder a) {
    return a == null ? 0 : a.sum();
  }

  private <T> void counter(ServerCounter c, String instance, T obj, ToDoubleFunction<T> f) {
    meters.add(
        FunctionCounter.builder(c.counterName(), obj, f)
            .tags(Tags.of("module", c.module().name(), "instance", instance))
            .description(c.description())
            .register(registry));
  }

  private <T> void gauge(ServerCounter c, String instance, T obj, ToDoubleFunction<T> f) {
    meters.add(
        Gauge.builder(c.counterName(), obj, f)
            .tags(Tags.of("module", c.module().name(), "instance", instance))
            .description(c.description())
            .register(registry));
  }

  private <T> void timer(
      ServerCounter c, String instance, T obj, ToLongFunction<T> count, ToDoubleFunction<T> nanos) {
    meters.add(
        FunctionTimer.builder(c.counterName(), obj, count, nanos, TimeUnit.NANOSECONDS)
            .tags(Tags.of("module", c.module().name(), "instance", instance))
            .description(c.description())
            .register(registry));
  }
}
