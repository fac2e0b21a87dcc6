package io.openrs.repserver.origin;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.queue.StableQueue;
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
import io.openrs.repserver.sqt.SqtStats;
import io.openrs.repserver.sqt.TransactionSorter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
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
  private final PipelineCounters.Published published;
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
   * @param publish publishes the pipeline's counters (as meters) until it closes
   */
  public OriginPipeline(
      OriginState state,
      StableQueue inbound,
      LocatorKeeper locator,
      Optional<Oqid> lastWritten,
      ReplicationRules rules,
      java.util.function.BiFunction<InboundRereader, DistStats, Distributor> distributorFactory,
      PipelineSettings settings,
      java.util.function.Function<PipelineCounters, PipelineCounters.Published> publish) {
    this.state = state;
    this.inbound = inbound;
    this.settings = settings;
    this.locator = locator;
    this.rules = rules;
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
    this.published =
        publish.apply(
            new PipelineCounters(
                state.name(),
                execStats,
                nrmStats,
                sqtStats,
                distStats,
                locator,
                this::agentConnected,
                () -> state.agentReport().map(AgentReport::tablesLeftOut).orElse(0L)));
    distStats.newReplicate = published::replicateAdded;
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
        nrm.shutdown(Duration.ofSeconds(30));
      }
      SqtDistThread t = sqtDist;
      t.shutdown(Duration.ofSeconds(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    locator.save();
    published.close();
    LOG.info("origin {} stopped", state.name());
  }
}
