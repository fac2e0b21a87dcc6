package io.openrs.repserver;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.openrs.config.param.ParameterValues;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.ConnectionState;
import io.openrs.config.rssd.DatabaseRepDef;
import io.openrs.config.rssd.Locator;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.Rssd;
import io.openrs.config.rssd.StsCache;
import io.openrs.config.rssd.UserRole;
import io.openrs.config.secret.PrivateFiles;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.packed.OriginEnvelope;
import io.openrs.ltl.packed.PackedDecoder;
import io.openrs.ltl.packed.PackedFormatException;
import io.openrs.pgwire.PgServer;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.StableQueue;
import io.openrs.queue.WriteFlush;
import io.openrs.queue.file.FileQueueManager;
import io.openrs.queue.file.PartitionSpec;
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
import io.openrs.repserver.rules.ReplicationRules;
import io.openrs.runtime.ThreadNames;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 * <p>Its public methods are the Java API the admin commands call: connections, replication
 * definitions, subscriptions, log transfer and distributor control. A method that changes state
 * persists it in the RSSD before it returns.
 *
 * <p>Start with {@link #start}; {@link #close} is the graceful shutdown (agents told, NRM drains
 * what EXEC accepted, SQT/DIST stop, locators saved, queues close after their writers finish).
 */
public final class ReplicationServer implements ServerControl, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ReplicationServer.class);

  /** The first administrator's name. */
  public static final String ADMIN_USER = "sa";

  private final ServerSettings settings;
  private final ParameterValues parameters;
  private final MeterRegistry registry;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final Rssd rssd;
  private final StsCache sts;
  private final ReplicationRules rules;
  private final Catalog catalog;
  private final FileQueueManager queues;
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

  private ReplicationServer(ServerSettings settings, MeterRegistry registry) throws IOException {
    this.settings = settings;
    this.registry = registry;
    PrivateFiles.createDirectories(settings.directory());
    Path lockFile = settings.directory().resolve("repserver.lock");
    lockChannel =
        FileChannel.open(
            lockFile,
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
            PrivateFiles.fileAttributes(lockFile));
    lock = lockChannel.tryLock();
    if (lock == null) {
      lockChannel.close();
      throw new IOException(
          "another server is running in " + settings.directory() + " (repserver.lock is held)");
    }
    Rssd opened = null;
    FileQueueManager q = null;
    try {
      opened = ServerFiles.openRssd(settings);
      this.rssd = opened;
      this.parameters = layerRssdValues(settings.parameters(), rssd);
      ParameterValues p = parameters;
      // sqm_segment_size may come from the RSSD: every partition must hold one segment of it.
      for (PartitionSpec partition : settings.partitions()) {
        partition.requireRoomForSegment(p.getLong("sqm_segment_size"));
      }
      this.sts = new StsCache(rssd, p.getInt("sts_cachesize"), fullyCachedTables(p), registry);
      this.rules = new ReplicationRules(rssd, sts);
      this.catalog = new Catalog(rssd, rules, parameters, this::replicateSubscribed, this);
      ensureAdministrator();
      q =
          FileQueueManager.open(
              settings.directory().resolve("queues"),
              settings.partitions(),
              registry,
              Clock.SYSTEM);
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
      if (opened != null) {
        opened.close();
      }
      lock.release();
      lockChannel.close();
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
   * exit, for {@code bin/repserver}).
   */
  public static ReplicationServer start(
      ServerSettings settings, MeterRegistry registry, Runnable onShutdown) throws IOException {
    ReplicationServer s = new ReplicationServer(settings, registry);
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
      s.stats = new StatsReporter(registry, Clock.SYSTEM);
      s.admin = PgServer.start(PortSettings.admin(settings, p), new AdminService(s, onShutdown));
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

  /**
   * Values set by admin commands and saved in the RSSD ({@code rs_config}) win over the start-up
   * file's, except the parameters only the file may set.
   */
  private static ParameterValues layerRssdValues(ParameterValues file, Rssd rssd) {
    Map<String, String> saved = new HashMap<>();
    for (Map.Entry<String, String> e : rssd.config().serverValues().entrySet()) {
      file.catalog()
          .find(e.getKey())
          .filter(param -> !param.configFileOnly())
          .ifPresent(param -> saved.put(param.name(), e.getValue()));
    }
    if (saved.isEmpty()) {
      return file;
    }
    LOG.info("server parameters saved in the RSSD override the configuration file: {}", saved);
    return ParameterValues.of(file.catalog(), file.scope(), saved).over(file);
  }

  /** The server's effective parameter values (RSSD over the configuration file over defaults). */
  @Override
  public ParameterValues parameters() {
    return parameters;
  }

  private static Set<String> fullyCachedTables(ParameterValues p) {
    Set<String> tables = new HashSet<>();
    String prefix = "sts_full_cache_";
    for (Map.Entry<String, String> e : p.effectiveValues().entrySet()) {
      if (e.getKey().startsWith(prefix) && p.getBoolean(e.getKey())) {
        tables.add(e.getKey().substring(prefix.length()));
      }
    }
    return tables;
  }

  private void ensureAdministrator() {
    if (!rssd.users().all().isEmpty()) {
      return;
    }
    char[] password =
        settings
            .initialAdminPassword()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "the RSSD has no user yet: give the first administrator's password"
                            + " (configuration admin_password_env / admin_password_file, or the"
                            + " environment variable OPENRS_ADMIN_PASSWORD); there is no built-in"
                            + " default"));
    catalog.createUser(ADMIN_USER, UserRole.ADMIN, password);
    LOG.info("created administrator {} in the RSSD", ADMIN_USER);
  }

  private void recover() throws IOException {
    for (ConnectionDef c : rssd.connections().all()) {
      openOutbound(c);
    }
    scanOutboundQueues();
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

  private QueueSettings queueSettings(boolean outboundQueue) {
    ParameterValues p = parameters;
    return QueueSettings.defaults()
        .withBlockSizeBytes(p.getInt("block_size"))
        .withPageSizeBlocks(p.getInt("sqm_page_size"))
        .withWriteFlush(WriteFlush.valueOf(p.getString("sqm_write_flush").toUpperCase(Locale.ROOT)))
        .withCacheSizeBytes(p.getLong("sqm_cache_size"))
        .withWriteRequestLimitBytes(
            p.getLong(
                outboundQueue ? "md_sqm_write_request_limit" : "exec_sqm_write_request_limit"))
        .withSegmentSizeBytes(p.getLong("sqm_segment_size"))
        .withMaxMessageBytes(p.getInt("sqm_max_message_size"));
  }

  private OutboundQueue openOutbound(ConnectionDef c) {
    return outbound.computeIfAbsent(
        c.id(),
        id ->
            new OutboundQueue(
                id, c.name(), queues.openOrCreateQueue(QueueId.outbound(id), queueSettings(true))));
  }

  /**
   * Learns, per outbound queue, the last commit of each origin it holds, so a transaction re-read
   * from an inbound queue after a restart is not written to it twice.
   */
  private void scanOutboundQueues() {
    PackedDecoder decoder = new PackedDecoder();
    for (OutboundQueue q : outbound.values()) {
      io.openrs.queue.QueuePosition after = null;
      while (true) {
        List<QueueMessage> chunk =
            after == null ? q.queue().dumpFromStart(4096) : q.queue().dump(after, 4097);
        int first = after == null ? 0 : 1;
        if (chunk.size() <= first) {
          break;
        }
        for (QueueMessage m : chunk.subList(first, chunk.size())) {
          try {
            int origin = OriginEnvelope.originOf(m.payload());
            Optional<LtlCommand> c = OriginEnvelope.commandOf(m.payload(), decoder);
            if (c.isPresent() && c.get() instanceof LtlCommand.Commit commit) {
              heldByOrigin
                  .computeIfAbsent(origin, k -> new HashMap<>())
                  .put(q.replicateConnectionId(), commit.oqid());
            }
          } catch (PackedFormatException e) {
            throw new IllegalStateException(
                "outbound queue " + q.queue().id() + " holds a damaged message at " + m.position(),
                e);
          }
        }
        after = chunk.get(chunk.size() - 1).position();
      }
    }
  }

  private OriginPipeline startOrigin(ConnectionDef c) throws IOException {
    StableQueue inbound = queues.openOrCreateQueue(QueueId.inbound(c.id()), queueSettings(false));
    Optional<Oqid> lastWritten = lastOqid(inbound);
    Optional<Locator> stored = rssd.locators().find(c.id());
    Optional<Oqid> storedOqid = stored.filter(l -> l.oqid().length > 0).map(l -> Oqid.of(l.oqid()));
    Optional<Oqid> durable = max(lastWritten, storedOqid);
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
                        rssdWriter.execute(() -> catalog.materializationsCompleted(c.id(), ids))),
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

  private static Optional<Oqid> lastOqid(StableQueue inbound) {
    Optional<QueueMessage> last = inbound.lastMessage();
    if (last.isEmpty()) {
      return Optional.empty();
    }
    try {
      Optional<LtlCommand> c = new PackedDecoder().decode(last.get().payload());
      if (c.isPresent() && c.get() instanceof LtlCommand.InTransaction t) {
        return Optional.of(t.oqid());
      }
      return Optional.empty();
    } catch (PackedFormatException e) {
      throw new IllegalStateException(
          "the last message of inbound queue "
              + inbound.id()
              + " at "
              + last.get().position()
              + " is damaged",
          e);
    }
  }

  private static Optional<Oqid> max(Optional<Oqid> a, Optional<Oqid> b) {
    if (a.isEmpty()) {
      return b;
    }
    if (b.isEmpty()) {
      return a;
    }
    return a.get().compareTo(b.get()) >= 0 ? a : b;
  }

  /**
   * Hands {@code sqm_warning_thr1}, {@code sqm_warning_thr2} and {@code sqm_warning_thr_ind} to the
   * stable device manager: at start, then every 5 s (they take effect immediately, so a value set
   * by {@code configure replication server} is read from the RSSD).
   */
  private void applySpaceWarnings() {
    try {
      Map<String, String> saved = rssd.config().serverValues();
      int[] thr = new int[3];
      String[] names = {"sqm_warning_thr1", "sqm_warning_thr2", "sqm_warning_thr_ind"};
      for (int i = 0; i < names.length; i++) {
        String v = saved.get(names[i]);
        thr[i] = v != null ? Integer.parseInt(v.trim()) : parameters.getInt(names[i]);
      }
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

  // ---- the catalog: definitions, users, connection settings (package catalog) ----------------

  /** The one door for changes to replication definitions, users and connection settings. */
  @Override
  public Catalog catalog() {
    return catalog;
  }

  /** {@code create replication definition}: see {@link Catalog#createRepDef}. */
  public void createRepDef(RepDef d) {
    catalog.createRepDef(d);
  }

  /** {@code alter replication definition}: see {@link Catalog#alterRepDef}. */
  public void alterRepDef(RepDef changed) {
    catalog.alterRepDef(changed);
  }

  /** {@code create database replication definition}: see {@link Catalog#createDatabaseRepDef}. */
  public void createDatabaseRepDef(DatabaseRepDef d) {
    catalog.createDatabaseRepDef(d);
  }

  /** {@code drop replication definition}: see {@link Catalog#dropRepDef}. */
  public void dropRepDef(String name) {
    catalog.dropRepDef(name);
  }

  /** {@code drop database replication definition}. */
  public void dropDatabaseRepDef(String name) {
    catalog.dropDatabaseRepDef(name);
  }

  /** {@code alter connection ... set p to 'v'}: see {@link Catalog#setConnectionProperty}. */
  public void setConnectionProperty(String dataserver, String database, String key, String value) {
    catalog.setConnectionProperty(dataserver, database, key, value);
  }

  /** The connection {@code ds.db}, or an error naming it. */
  public ConnectionDef requireConnection(String dataserver, String database) {
    return catalog.requireConnection(dataserver, database);
  }

  /** {@code create user}. */
  public void createUser(String name, UserRole role, char[] password) {
    catalog.createUser(name, role, password);
  }

  /** {@code create subscription}: see {@link Catalog#createSubscription}. */
  public List<String> createSubscription(
      String name,
      String repDefName,
      boolean databaseLevel,
      String replicateDataserver,
      String replicateDatabase,
      Optional<String> whereClause) {
    return catalog.createSubscription(
        name, repDefName, databaseLevel, replicateDataserver, replicateDatabase, whereClause);
  }

  /**
   * {@code create subscription ... with materialization}: see {@link Catalog#createSubscription}.
   */
  public List<String> createSubscription(
      String name,
      String repDefName,
      boolean databaseLevel,
      String replicateDataserver,
      String replicateDatabase,
      Optional<String> whereClause,
      boolean materialize) {
    return catalog.createSubscription(
        name,
        repDefName,
        databaseLevel,
        replicateDataserver,
        replicateDatabase,
        whereClause,
        materialize);
  }

  /** {@code drop subscription}. */
  public void dropSubscription(String name, String replicateDataserver, String replicateDatabase) {
    catalog.dropSubscription(name, replicateDataserver, replicateDatabase);
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
        rssd.connections().create(dataserver, database, profile, logTransfer, properties);
    rules.changed();
    openOutbound(c);
    if (logTransfer) {
      startOrigin(c);
    }
    return c;
  }

  /** The connection {@code ds.db}. */
  @Override
  public Optional<ConnectionDef> connection(String dataserver, String database) {
    return sts.connection(dataserver, database);
  }

  /** {@code create database replication definition}. */

  /** The id of a subscription's snapshot request: short, and the same whenever computed. */

  /** The replicate connection {@code ds.db} of subscription {@code name}. */

  /** {@code drop subscription}. */

  /**
   * {@code drop connection}: refused while definitions or subscriptions use it (the RSSD names
   * them) or while an agent is connected; its queues are dropped with it.
   */
  @Override
  public synchronized void dropConnection(String dataserver, String database) throws IOException {
    ConnectionDef c = requireConnection(dataserver, database);
    OriginPipeline p = origins.get(c.id());
    if (p != null && p.agentConnected()) {
      throw new IllegalStateException(
          "connection "
              + c.name()
              + " has a replication agent connected; suspend log transfer first");
    }
    rssd.connections().drop(c.id());
    rules.changed();
    dsis.drop(c.id());
    if (p != null) {
      origins.remove(c.id());
      p.close();
      queues.dropQueue(QueueId.inbound(c.id()));
    }
    if (outbound.remove(c.id()) != null) {
      queues.dropQueue(QueueId.outbound(c.id()));
    }
  }

  /**
   * {@code suspend connection to ds.db}: the DSI of the connection stops applying after the
   * transaction in hand; returns when it has.
   */
  @Override
  public void suspendConnection(String dataserver, String database) {
    ConnectionDef c = requireConnection(dataserver, database);
    rssd.connections().setState(c.id(), ConnectionState.SUSPENDED);
    dsis.suspend(c.id());
  }

  /**
   * {@code resume connection to ds.db}: the DSI applies again, with the connection's parameters.
   */
  public void resumeConnection(String dataserver, String database) {
    resumeConnection(dataserver, database, false);
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
    ConnectionDef c = requireConnection(dataserver, database);
    dsis.resume(c, openOutbound(c).queue(), skipTransaction);
    rssd.connections().setState(c.id(), ConnectionState.ACTIVE);
  }

  /** The DSIs of the replicate connections. */
  @Override
  public ReplicateDsis dsis() {
    return dsis;
  }

  /** {@code drop replication definition}: refused while a subscription uses it. */

  /** {@code drop database replication definition}. */

  /** The connection {@code ds.db}, or an error naming it. */

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
    rssd.connections().setLogTransferState(p.state().connectionId(), ConnectionState.SUSPENDED);
    p.suspendLogTransfer("log transfer suspended by an administrator");
  }

  /** {@code resume log transfer from ds.db}. */
  @Override
  public void resumeLogTransfer(String dataserver, String database) {
    OriginPipeline p = requireOrigin(dataserver, database);
    rssd.connections().setLogTransferState(p.state().connectionId(), ConnectionState.ACTIVE);
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

  /** Creates a user with a salted SCRAM-SHA-256 verifier of {@code password}. */

  /** The port the LTL listener is bound to. */
  public int ltlPort() {
    return listener.port();
  }

  @Override
  public Rssd rssd() {
    return rssd;
  }

  @Override
  public StsCache sts() {
    return sts;
  }

  @Override
  public FileQueueManager queues() {
    return queues;
  }

  @Override
  public ParameterValues fileParameters() {
    return settings.parameters();
  }

  public ServerSettings settings() {
    return settings;
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** {@code ltl_tls} and its files. */
  /** The admin port (PostgreSQL protocol) bound. */
  public int adminPort() {
    return admin.port();
  }

  /** What {@code admin stats} shows. */
  @Override
  public StatsReporter stats() {
    return stats;
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
    if (listener != null) {
      listener.close();
    }
    if (admin != null) {
      admin.close();
    }
    if (sampler != null) {
      sampler.close();
    }
    if (prometheus != null) {
      prometheus.close();
    }
    if (dsis != null) {
      dsis.close();
    }
    for (OriginPipeline p : origins.values()) {
      p.close();
    }
    if (rssdWriter != null) {
      rssdWriter.shutdown();
      try {
        rssdWriter.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (queues != null) {
      queues.close();
    }
    if (rssd != null) {
      rssd.close();
    }
    try {
      lock.release();
      lockChannel.close();
    } catch (IOException e) {
      LOG.warn(
          "could not release {}: {}", settings.directory().resolve("repserver.lock"), e.toString());
    }
    LOG.info("replication server {} stopped", settings.name());
  }
}
