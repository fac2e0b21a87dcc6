package io.openrs.repserver.origin;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.queue.StableQueue;
import io.openrs.repserver.ServerCounter;
import io.openrs.repserver.dist.DistStats;
import io.openrs.repserver.dist.Distributor;
import io.openrs.repserver.nrm.InboundWriter;
import io.openrs.repserver.nrm.NormalizationException;
import io.openrs.repserver.nrm.Normalizer;
import io.openrs.repserver.nrm.NrmRequestQueue;
import io.openrs.repserver.nrm.NrmStats;
import io.openrs.repserver.nrm.NrmThread;
import io.openrs.repserver.rules.ReplicationRules;
import io.openrs.repserver.sqt.InboundRereader;
import io.openrs.repserver.sqt.SqtDistThread;
import io.openrs.repserver.sqt.SqtStats;
import io.openrs.repserver.sqt.TransactionSorter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything the server runs for one origin (a primary connection with log transfer): its state and
 * locator, the hand-off from EXEC, the NRM thread, the inbound queue, and the SQT/DIST thread.
 *
 * <p>At most one agent session holds the origin at a time ({@link #claim}).
 */
public final class OriginPipeline implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(OriginPipeline.class);

  private final OriginState state;
  private final StableQueue inbound;
  private final PipelineSettings settings;
  private final LocatorKeeper locator;
  private final NrmRequestQueue requests;
  private final InboundWriter writer;
  private final NrmThread nrm;
  private final Distributor distributor;
  private final ReplicationRules rules;
  private final MeterRegistry registry;
  private final List<Meter> meters = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final ExecStats execStats = new ExecStats();
  private final NrmStats nrmStats = new NrmStats();
  private final SqtStats sqtStats = new SqtStats();
  private final DistStats distStats;
  private final AtomicReference<Object> session = new AtomicReference<>();
  private final AtomicReference<Consumer<String>> kickAgent = new AtomicReference<>();
  private volatile SqtDistThread sqtDist;
  private volatile Optional<String> distStopped = Optional.empty();

  /**
   * Builds and starts the pipeline's threads.
   *
   * @param distributorFactory builds the origin's DIST given its rereader and stats
   */
  public OriginPipeline(
      OriginState state,
      StableQueue inbound,
      LocatorKeeper locator,
      Optional<Oqid> lastWritten,
      ReplicationRules rules,
      java.util.function.BiFunction<InboundRereader, DistStats, Distributor> distributorFactory,
      PipelineSettings settings,
      MeterRegistry registry,
      java.util.function.IntFunction<String> replicateName) {
    this.state = state;
    this.inbound = inbound;
    this.settings = settings;
    this.locator = locator;
    this.rules = rules;
    this.registry = registry;
    this.requests = new NrmRequestQueue(settings.execNrmRequestLimitBytes());
    this.writer =
        new InboundWriter(
            state,
            inbound,
            new Normalizer(state.connectionId(), rules, nrmStats),
            nrmStats,
            lastWritten,
            this::contradiction,
            this::kick);
    this.distStats = new DistStats();
    distStats.newReplicate = id -> registerReplicate(id, replicateName.apply(id));
    this.distributor =
        distributorFactory.apply(new InboundRereader(inbound, 1024, sqtStats), distStats);
    this.nrm =
        settings.nrmThread()
            ? new NrmThread(
                state.name(),
                requests,
                writer,
                reason -> {
                  if (state.stopLogTransfer(reason)) {
                    kick(reason);
                  }
                })
            : null;
    registerMeters();
    if (nrm != null) {
      nrm.start();
    }
    startSqtDist();
  }

  private void startSqtDist() {
    SqtDistThread t =
        new SqtDistThread(
            state.name(),
            inbound,
            new TransactionSorter(inbound.id().toString(), settings.sqtMaxCacheBytes(), sqtStats),
            distributor,
            reason -> distStopped = Optional.of(reason));
    distStopped = Optional.empty();
    sqtDist = t;
    t.start();
  }

  private void contradiction(NormalizationException e) {
    kick("log transfer from " + state.name() + " stopped: " + e.getMessage());
  }

  private void kick(String reason) {
    requests.clear();
    Consumer<String> kick = kickAgent.get();
    if (kick != null) {
      kick.accept(reason);
    }
  }

  public OriginState state() {
    return state;
  }

  public ExecStats execStats() {
    return execStats;
  }

  public SqtStats sqtStats() {
    return sqtStats;
  }

  public DistStats distStats() {
    return distStats;
  }

  public StableQueue inbound() {
    return inbound;
  }

  public LocatorKeeper locator() {
    return locator;
  }

  /**
   * Lets one agent session hold the origin.
   *
   * @param kick how to disconnect that agent when log transfer stops
   * @return false when another session holds it
   */
  public boolean claim(Object agentSession, Consumer<String> kick) {
    if (session.compareAndSet(null, agentSession)) {
      kickAgent.set(kick);
      return true;
    }
    return false;
  }

  /** The session is gone. */
  public void release(Object agentSession) {
    if (session.compareAndSet(agentSession, null)) {
      kickAgent.set(null);
    }
  }

  /** Whether an agent is connected. */
  public boolean agentConnected() {
    return session.get() != null;
  }

  /** Whether normalization runs on its own thread ({@code nrm_thread}). */
  public boolean nrmThread() {
    return nrm != null;
  }

  /** Hands parsed commands to NRM (see {@link NrmRequestQueue#offer}). */
  public boolean offer(List<LtlCommand.InTransaction> commands, long textBytes, Runnable onSpace) {
    return requests.offer(new NrmRequestQueue.Request(commands, textBytes), onSpace);
  }

  /**
   * Normalizes and writes inline ({@code nrm_thread off}), on the caller's thread.
   *
   * @return false when log transfer stopped
   */
  public boolean writeInline(List<LtlCommand.InTransaction> commands) throws InterruptedException {
    synchronized (writer) {
      return writer.write(commands);
    }
  }

  /** Stops log transfer (the agent is disconnected with the reason). */
  public void suspendLogTransfer(String reason) {
    if (state.stopLogTransfer(reason)) {
      requests.clear();
      Consumer<String> kick = kickAgent.get();
      if (kick != null) {
        kick.accept(reason);
      }
    }
  }

  /** {@code resume log transfer}: the agent may connect again and resend. */
  public void resumeLogTransfer() {
    state.resumeLogTransfer();
  }

  /** Whether the NRM thread runs (false when nrm_thread is off or it died). */
  public boolean nrmAlive() {
    return nrm != null && nrm.isAlive();
  }

  /** Whether the SQT/DIST thread runs. */
  public boolean sqtDistAlive() {
    SqtDistThread t = sqtDist;
    return t != null && t.isAlive();
  }

  /** Why DIST stopped, if it did. */
  public Optional<String> distributorStopped() {
    return distStopped;
  }

  /** {@code resume distributor}: restarts SQT/DIST from the oldest unfinished transaction. */
  public synchronized void resumeDistributor() throws InterruptedException {
    SqtDistThread t = sqtDist;
    if (t != null && t.isAlive()) {
      return;
    }
    if (t != null) {
      t.join();
    }
    startSqtDist();
  }

  /**
   * Graceful stop: NRM writes what EXEC handed it, SQT/DIST stops, the locator is saved. The
   * inbound queue is closed by its owner.
   */
  @Override
  public void close() {
    try {
      if (nrm != null) {
        nrm.shutdown();
        nrm.join(TimeUnit.SECONDS.toMillis(30));
      }
      SqtDistThread t = sqtDist;
      t.shutdown();
      t.join(TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    locator.save();
    meters.forEach(registry::remove);
    LOG.info("origin {} stopped", state.name());
  }

  // ---- counters --------------------------------------------------------------------------

  private void registerMeters() {
    String instance = state.name();
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
    counter(ServerCounter.UPDS_RSLOCATER, instance, locator, LocatorKeeper::updates);
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
  private void registerReplicate(int replicateId, String replicateName) {
    Tags tags = Tags.of("module", "DIST", "instance", state.name(), "replicate", replicateName);
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

  private static double value(java.util.concurrent.atomic.LongAdder a) {
    return a == null ? 0 : a.sum();
  }

  private <T> void counter(ServerCounter c, String instance, T obj, ToDoubleFunction<T> f) {
    meters.add(
        FunctionCounter.builder(c.counterName(), obj, f)
            .tags(Tags.of("module", c.module(), "instance", instance))
            .description(c.description())
            .register(registry));
  }

  private <T> void gauge(ServerCounter c, String instance, T obj, ToDoubleFunction<T> f) {
    meters.add(
        Gauge.builder(c.counterName(), obj, f)
            .tags(Tags.of("module", c.module(), "instance", instance))
            .description(c.description())
            .register(registry));
  }

  private <T> void timer(
      ServerCounter c,
      String instance,
      T obj,
      java.util.function.ToLongFunction<T> count,
      ToDoubleFunction<T> nanos) {
    meters.add(
        FunctionTimer.builder(c.counterName(), obj, count, nanos, TimeUnit.NANOSECONDS)
            .tags(Tags.of("module", c.module(), "instance", instance))
            .description(c.description())
            .register(registry));
  }
}
