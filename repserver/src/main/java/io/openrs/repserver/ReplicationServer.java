package io.openrs.repserver;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.openrs.config.param.ParameterValues;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.ConnectionState;
import io.openrs.config.rssd.Locator;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.Rssd;
import io.openrs.config.rssd.StsCache;
import io.openrs.ltl.Oqid;
import io.openrs.pgwire.PgServer;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueInfo;
import io.openrs.queue.QueueManager;
import io.openrs.queue.StableQueue;
import io.openrs.queue.file.PartitionInfo;
import io.openrs.repserver.admin.AdminService;
import io.openrs.repserver.admin.ServerControl;
import io.openrs.repserver.catalog.Catalog;
import io.openrs.repserver.dist.Distributor;
import io.openrs.repserver.dist.OutboundQueue;
import io.openrs.repserver.dsi.ReplicateDsis;
import io.openrs.repserver.dsi.StoredErrorClasses;
import io.openrs.repserver.exec.LtlListener;
import io.openrs.repserver.exec.OriginGate;
import io.openrs.repserver.monitor.OriginMeters;
import io.openrs.repserver.monitor.PrometheusEndpoint;
import io.openrs.repserver.monitor.StatsReporter;
import io.openrs.repserver.monitor.StatsSampler;
import io.openrs.repserver.origin.LocatorKeeper;
import io.openrs.repserver.origin.OriginPipeline;
import io.openrs.repserver.origin.OriginState;
import io.openrs.repserver.origin.PipelineSettings;
import io.openrs.repserver.origin.QueueScan;
import io.openrs.repserver.rules.ReplicationRules;
import io.openrs.runtime.ThreadNames;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replication server: the RSSD and its STS cache, the stable queues, one inbound pipeline per
 * origin (EXEC hand-off, NRM, inbound queue, SQT/DIST), one outbound queue per connection, and the
 * LTL listener.
 *
 * <p>It is the composition root: it builds the {@link Catalog} (the one door for RSSD changes) and
 * hands it, with itself as the {@link ServerControl} of connections, log transfer and distributors,
 * to the admin port's {@link AdminService}. A method that changes state persists it in the RSSD
 * (through the catalog) before it returns.
 *
 * <p>Start with {@link #start}; {@link #close} is the graceful shutdown (agents told, NRM drains
 * what EXEC accepted, SQT/DIST stop, locators saved, queues close after their writers finish).
 */
public final class ReplicationServer implements ServerControl, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ReplicationServer.class);

  /** The exit status of a server process that lost the server lease (EX_TEMPFAIL). */
  public static final int LEASE_LOST_EXIT = 75;

  /** The first administrator's name. */
  public static final String ADMIN_USER = "sa";

  private final ServerSettings settings;
  private final ParameterValues parameters;
  private final MeterRegistry registry;
  private final ServerClaim claim;
  private final Rssd rssd;
  private final StsCache sts;
  private final ReplicationRules rules;
  private final Catalog catalog;
  private final ServerQueues queues;
  private final ScheduledExecutorService rssdWriter;
  private final ReplicateDsis dsis;
  private final Map<Integer, OriginPipeline> origins = new ConcurrentHashMap<>();
  private final Map<Integer, OutboundQueue> outbound = new ConcurrentHashMap<>();
  private final Map<Integer, Map<Integer, Oqid>> heldByOrigin = new HashMap<>();
  private volatile LtlListener listener;
  private volatile PrometheusEndpoint prometheus;
  private volatile PgServer admin;
  private StatsReporter stats;
  private StatsSampler sampler;
  private volatile boolean closing;

  private ReplicationServer(ServerSettings settings, MeterRegistry registry, Runnable onLeaseLost)
      throws IOException {
    this.settings = settings;
    this.registry = registry;
    try {
      this.claim = ServerClaim.take(settings, onLeaseLost);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while waiting for the server lease");
    }
    ServerQueues q = null;
    try {
      this.rssd = claim.rssd();
      this.parameters = EffectiveParameters.layerRssdValues(settings.parameters(), rssd);
      ParameterValues p = parameters;
      this.sts =
          new StsCache(
              rssd, p.getInt("sts_cachesize"), EffectiveParameters.fullyCachedTables(p), registry);
      this.rules = new ReplicationRules(rssd, sts);
      this.catalog = new Catalog(rssd, sts, rules, parameters, this::replicateSubscribed);
      if (catalog.ensureAdministrator(ADMIN_USER, settings.initialAdminPassword())) {
        LOG.info("created administrator {} in the RSSD", ADMIN_USER);
      }
      q =
          ServerQueues.open(
              settings,
              p,
              registry,
              claim.lease().map(l -> (java.util.function.BooleanSupplier) l::held));
      this.queues = q;
      this.dsis =
          new ReplicateDsis(
              rssd,
              parameters,
              registry,
              name -> rssd.errorClasses().find(name).map(StoredErrorClasses::toDsi));
      this.rssdWriter =
          Executors.newSingleThreadScheduledExecutor(
              ThreadNames.factory("repserver", "rssd", "writer"));
    } catch (RuntimeException | IOException e) {
      if (q != null) {
        q.close();
      }
      claim.close();
      throw e;
    }
  }

  /**
   * Starts a server: recovers its queues and origins and opens the LTL listener and the admin port.
   * The admin command {@code shutdown} closes it on a new thread.
   */
  public static ReplicationServer start(ServerSettings settings, MeterRegistry registry)
      throws IOException {
    ReplicationServer[] started = new ReplicationServer[1];
    return started[0] = start(settings, registry, () -> started[0].close());
  }

  /**
   * Starts a server whose admin command {@code shutdown} runs {@code onShutdown} (the process's
   * exit, for {@code bin/repserver}). With {@code server_lease_ms} it first waits for the server
   * lease, and halts the process at once ({@link #LEASE_LOST_EXIT}) when it loses it.
   */
  public static ReplicationServer start(
      ServerSettings settings, MeterRegistry registry, Runnable onShutdown) throws IOException {
    return start(settings, registry, onShutdown, () -> Runtime.getRuntime().halt(LEASE_LOST_EXIT));
  }

  /**
   * As {@link #start(ServerSettings, MeterRegistry, Runnable)}, with {@code onLeaseLost} run when
   * the server lease is lost: it must stop the server at once, writing nothing more (a graceful
   * close would save locators over the new active server's).
   */
  public static ReplicationServer start(
      ServerSettings settings, MeterRegistry registry, Runnable onShutdown, Runnable onLeaseLost)
      throws IOException {
    ReplicationServer s = new ReplicationServer(settings, registry, onLeaseLost);
    try {
      s.recover();
      ParameterValues p = s.parameters;
      s.listener =
          LtlListener.start(
              PortSettings.ltl(settings, p),
              new OriginGate(s.sts, s.origins::get, () -> s.closing),
              s.rssdWriter);
      s.rssdWriter.scheduleWithFixedDelay(s::saveLocators, 1, 1, TimeUnit.SECONDS);
      s.applySpaceWarnings();
      s.rssdWriter.scheduleWithFixedDelay(s::applySpaceWarnings, 5, 5, TimeUnit.SECONDS);
      s.rssdWriter.scheduleWithFixedDelay(
          s.queues::logAcknowledgementWaits, 5, 5, TimeUnit.SECONDS);
      s.stats = new StatsReporter(registry, Clock.SYSTEM);
      s.admin =
          PgServer.start(
              PortSettings.admin(settings, p), new AdminService(s.catalog, s, onShutdown));
      s.sampler = new StatsSampler(s.stats, s.rssd.counterSamples(), s.rssdWriter);
      int prometheusPort = p.getInt("prometheus_port");
      if (prometheusPort != 0 && registry instanceof PrometheusMeterRegistry prometheusRegistry) {
        s.prometheus =
            PrometheusEndpoint.start(
                p.getString("listen_address"), prometheusPort, prometheusRegistry);
      }
      LOG.info(
          "replication server {} started: LTL port {}, {} origins, {} connections",
          settings.name(),
          s.listener.port(),
          s.origins.size(),
          s.outbound.size());
      return s;
    } catch (RuntimeException | IOException e) {
      s.close();
      throw e;
    }
  }

  // ---- start-up ------------------------------------------------------------------------------

  /** The server's effective parameter values (RSSD over the configuration file over defaults). */
  @Override
  public ParameterValues parameters() {
    return parameters;
  }

  private void recover() throws IOException {
    for (ConnectionDef c : rssd.connections().all()) {
      openOutbound(c);
    }
    heldByOrigin.putAll(QueueScan.lastCommits(outbound.values()));
    for (ConnectionDef c : rssd.connections().all()) {
      if (c.logTransfer()) {
        startOrigin(c);
      }
    }
    for (ConnectionDef c : rssd.connections().all()) {
      if (!rssd.subscriptions().forReplicate(c.id()).isEmpty()) {
        try {
          dsis.ensure(c, openOutbound(c).queue());
        } catch (RuntimeException e) {
          LOG.error("the DSI of connection {} cannot start: {}", c.name(), e.getMessage());
        }
      }
    }
  }

  private OutboundQueue openOutbound(ConnectionDef c) {
    return outbound.computeIfAbsent(
        c.id(),
        id ->
            new OutboundQueue(
                id,
                c.name(),
                queues
                    .manager()
                    .openOrCreateQueue(
                        QueueId.outbound(id),
                        EffectiveParameters.queueSettings(parameters, true))));
  }

  private OriginPipeline startOrigin(ConnectionDef c) throws IOException {
    StableQueue inbound =
        queues
            .manager()
            .openOrCreateQueue(
                QueueId.inbound(c.id()), EffectiveParameters.queueSettings(parameters, false));
    Optional<Oqid> lastWritten = QueueScan.lastOqid(inbound);
    Optional<Locator> stored = rssd.locators().find(c.id());
    Optional<Oqid> storedOqid = stored.filter(l -> l.oqid().length > 0).map(l -> Oqid.of(l.oqid()));
    Optional<Oqid> durable = QueueScan.later(lastWritten, storedOqid);
    OriginState state = new OriginState(c.id(), c.name(), durable);
    if (c.logTransferState() == ConnectionState.SUSPENDED) {
      state.stopLogTransfer("log transfer is suspended (resume log transfer)");
    }
    ParameterValues p = parameters;
    Map<Integer, Oqid> held = heldByOrigin.getOrDefault(c.id(), Map.of());
    OriginPipeline pipeline =
        new OriginPipeline(
            state,
            inbound,
            new LocatorKeeper(state, rssd.locators(), stored),
            durable,
            rules,
            (rereader, stats) ->
                new Distributor(
                    c.id(),
                    rules,
                    this::outboundFor,
                    rereader,
                    stats,
                    held,
                    ids ->
                        rssdWriter.execute(
                            () -> catalog.subscriptions().materializationsCompleted(c.id(), ids))),
            new PipelineSettings(
                p.getBoolean("nrm_thread"),
                p.getLong("exec_nrm_request_limit"),
                p.getLong("sqt_max_cache_size")),
            counters ->
                OriginMeters.register(
                    registry, counters, replicateId -> outboundFor(replicateId).replicateName()));
    origins.put(c.id(), pipeline);
    LOG.info(
        "origin {} (connection {}) recovered: truncation point {}",
        c.name(),
        c.id(),
        durable.map(Oqid::toString).orElse("none"));
    return pipeline;
  }

  private OutboundQueue outboundFor(int replicateId) {
    OutboundQueue q = outbound.get(replicateId);
    if (q == null) {
      ConnectionDef c =
          rssd.connections()
              .find(replicateId)
              .orElseThrow(
                  () -> new IllegalStateException("no connection " + replicateId + " in the RSSD"));
      q = openOutbound(c);
    }
    return q;
  }

  /**
   * Hands {@code sqm_warning_thr1}, {@code sqm_warning_thr2} and {@code sqm_warning_thr_ind} to the
   * file engine (Kafka has none): at start, then every 5 s (they take effect immediately, so a
   * value set by {@code configure replication server} is read from the RSSD).
   */
  private void applySpaceWarnings() {
    try {
      int[] thr = EffectiveParameters.spaceWarnings(parameters, rssd);
      queues.setSpaceWarnings(thr[0], thr[1], thr[2]);
    } catch (RuntimeException e) {
      LOG.warn("cannot apply the stable storage warning thresholds: {}", e.toString());
    }
  }

  private void saveLocators() {
    for (OriginPipeline p : origins.values()) {
      p.locator().save();
    }
  }

  // ---- the catalog -----------------------------------------------------------------------------

  /** The one door for changes to the RSSD's catalog, and what the admin commands read of it. */
  public Catalog catalog() {
    return catalog;
  }

  /**
   * A replicate connection got a subscription: its outbound queue is opened and its DSI started.
   *
   * @return a notice when the DSI cannot start yet
   */
  private List<String> replicateSubscribed(ConnectionDef replicate) {
    OutboundQueue q = openOutbound(replicate);
    try {
      dsis.ensure(replicate, q.queue());
      return List.of();
    } catch (RuntimeException e) {
      return List.of(
          "the DSI of "
              + replicate.name()
              + " cannot start yet: "
              + e.getMessage()
              + "; fix it with alter connection, then resume connection to "
              + replicate.name());
    }
  }

  // ---- the Java API the admin commands call ----------------------------------------------------

  /** {@code create connection}: a primary (with log transfer) or replicate database. */
  @Override
  public synchronized ConnectionDef createConnection(
      String dataserver,
      String database,
      Profile profile,
      boolean logTransfer,
      Map<String, String> properties)
      throws IOException {
    ConnectionDef c =
        catalog.createConnection(dataserver, database, profile, logTransfer, properties);
    openOutbound(c);
    if (logTransfer) {
      startOrigin(c);
    }
    return c;
  }

  /**
   * {@code drop connection}: refused while definitions or subscriptions use it (the RSSD names
   * them) or while an agent is connected; its queues are dropped with it.
   */
  @Override
  public synchronized void dropConnection(String dataserver, String database) throws IOException {
    ConnectionDef c = catalog.requireConnection(dataserver, database);
    OriginPipeline p = origins.get(c.id());
    if (p != null && p.agentConnected()) {
      throw new IllegalStateException(
          "connection "
              + c.name()
              + " has a replication agent connected; suspend log transfer first");
    }
    catalog.dropConnection(c.id());
    dsis.drop(c.id());
    if (p != null) {
      origins.remove(c.id());
      p.close();
      queues.manager().dropQueue(QueueId.inbound(c.id()));
    }
    if (outbound.remove(c.id()) != null) {
      queues.manager().dropQueue(QueueId.outbound(c.id()));
    }
  }

  /**
   * {@code suspend connection to ds.db}: the DSI of the connection stops applying after the
   * transaction in hand; returns when it has.
   */
  @Override
  public void suspendConnection(String dataserver, String database) {
    ConnectionDef c = catalog.requireConnection(dataserver, database);
    catalog.setConnectionState(c.id(), ConnectionState.SUSPENDED);
    dsis.suspend(c.id());
  }

  /**
   * {@code resume connection to ds.db [skip transaction]}: with {@code skipTransaction} the first
   * transaction not yet applied (the failing one of a DSI that is down) goes, whole, to the
   * exceptions log instead of the replicate.
   *
   * @throws IllegalStateException for a skip while the DSI is applying
   */
  @Override
  public void resumeConnection(String dataserver, String database, boolean skipTransaction) {
    ConnectionDef c = catalog.requireConnection(dataserver, database);
    dsis.resume(c, openOutbound(c).queue(), skipTransaction);
    catalog.setConnectionState(c.id(), ConnectionState.ACTIVE);
  }

  /** The DSIs of the replicate connections. */
  @Override
  public ReplicateDsis dsis() {
    return dsis;
  }

  /** Every origin pipeline, by connection id. */
  @Override
  public Map<Integer, OriginPipeline> origins() {
    return java.util.Collections.unmodifiableMap(origins);
  }

  /**
   * {@code suspend log transfer from ds.db}: disconnects the agent and refuses it until resumed.
   */
  @Override
  public void suspendLogTransfer(String dataserver, String database) {
    OriginPipeline p = requireOrigin(dataserver, database);
    catalog.setLogTransferState(p.state().connectionId(), ConnectionState.SUSPENDED);
    p.suspendLogTransfer("log transfer suspended by an administrator");
  }

  /** {@code resume log transfer from ds.db}. */
  @Override
  public void resumeLogTransfer(String dataserver, String database) {
    OriginPipeline p = requireOrigin(dataserver, database);
    catalog.setLogTransferState(p.state().connectionId(), ConnectionState.ACTIVE);
    p.resumeLogTransfer();
  }

  /** {@code resume distributor ds.db}: restarts a stopped DIST from its oldest unfinished work. */
  @Override
  public void resumeDistributor(String dataserver, String database) throws InterruptedException {
    requireOrigin(dataserver, database).resumeDistributor();
  }

  /** The pipeline of origin {@code ds.db}. */
  public Optional<OriginPipeline> origin(String dataserver, String database) {
    return sts.connection(dataserver, database).map(c -> origins.get(c.id()));
  }

  private OriginPipeline requireOrigin(String dataserver, String database) {
    return origin(dataserver, database)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "no origin "
                        + dataserver
                        + "."
                        + database
                        + " (a connection with log transfer)"));
  }

  /** The RSSD locator row of origin {@code ds.db} (its last saved OQID and resume blob). */
  public Locator locatorOf(String dataserver, String database) {
    OriginPipeline p = requireOrigin(dataserver, database);
    return rssd.locators()
        .find(p.state().connectionId())
        .orElseThrow(
            () -> new IllegalStateException("no locator saved yet for " + p.state().name()));
  }

  /** The outbound queue of a replicate connection. */
  public Optional<StableQueue> outboundQueue(String dataserver, String database) {
    return sts.connection(dataserver, database)
        .map(c -> outbound.get(c.id()))
        .map(OutboundQueue::queue);
  }

  /** The port the LTL listener is bound to. */
  public int ltlPort() {
    return listener.port();
  }

  /** The RSSD (tests and tools read it; changes go through {@link #catalog()}). */
  public Rssd rssd() {
    return rssd;
  }

  /** The stable queues, on the engine of {@code queue_engine}. */
  public QueueManager queues() {
    return queues.manager();
  }

  @Override
  public List<QueueInfo> queueInfos() {
    return queues.manager().queueInfos();
  }

  @Override
  public Optional<StableQueue> queue(QueueId id) {
    return queues.manager().queue(id);
  }

  @Override
  public List<PartitionInfo> partitions() {
    return queues.partitions();
  }

  @Override
  public ParameterValues fileParameters() {
    return settings.parameters();
  }

  /** The admin port (PostgreSQL protocol) bound. */
  public int adminPort() {
    return admin.port();
  }

  /** What {@code admin stats} shows. */
  @Override
  public StatsReporter stats() {
    return stats;
  }

  @Override
  public Optional<io.openrs.repserver.lease.LeaseStatus> lease() {
    return claim.lease().map(io.openrs.repserver.lease.ServerLease::status);
  }

  /** {@code admin stats, ..., save, ...}: samples counters to the RSSD. */
  @Override
  public StatsSampler sampler() {
    return sampler;
  }

  /** The Prometheus endpoint's port, when one runs. */
  public java.util.OptionalInt prometheusPort() {
    PrometheusEndpoint e = prometheus;
    return e == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(e.port());
  }

  /** Graceful shutdown; a later call waits for the first to finish, then returns. */
  @Override
  public synchronized void close() {
    if (closing) {
      return;
    }
    closing = true;
    closeEach(listener, admin, sampler, prometheus, dsis);
    origins.values().forEach(OriginPipeline::close);
    if (rssdWriter != null) {
      rssdWriter.shutdown();
      try {
        rssdWriter.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    closeEach(queues);
    claim.close();
    LOG.info("replication server {} stopped", settings.name());
  }

  /** Closes each part that was opened, in order; a failure is logged and the next closed. */
  private static void closeEach(AutoCloseable... parts) {
    for (AutoCloseable part : parts) {
      if (part != null) {
        try {
          part.close();
        } catch (Exception e) {
          LOG.warn("closing {} failed: {}", part.getClass().getSimpleName(), e.toString());
        }
      }
    }
  }
}
