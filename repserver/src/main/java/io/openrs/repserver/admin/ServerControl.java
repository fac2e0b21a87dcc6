package io.openrs.repserver.admin;

import io.openrs.config.param.ParameterValues;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.Rssd;
import io.openrs.config.rssd.StsCache;
import io.openrs.queue.file.FileQueueManager;
import io.openrs.repserver.catalog.Catalog;
import io.openrs.repserver.dsi.ReplicateDsis;
import io.openrs.repserver.monitor.StatsReporter;
import io.openrs.repserver.monitor.StatsSampler;
import io.openrs.repserver.origin.OriginPipeline;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * The server as the admin commands reach it (implemented by {@code ReplicationServer}): the admin
 * package depends on this interface, never on the server class, so the server can build the admin
 * service without a package cycle.
 */
public interface ServerControl {

  /** The server's parameters: the configuration file's, with the RSSD's values over them. */
  ParameterValues parameters();

  /** The configuration file's parameters alone (which ones it sets explicitly). */
  ParameterValues fileParameters();

  /** The one door for changes to definitions, users and connection settings. */
  Catalog catalog();

  /** The RSSD. */
  Rssd rssd();

  /** The STS cache over the RSSD (what the server reads on its hot paths). */
  StsCache sts();

  /** The connection {@code ds.db}, from the STS cache. */
  Optional<ConnectionDef> connection(String dataserver, String database);

  /** The stable queues. */
  FileQueueManager queues();

  /** The DSIs of the replicate connections. */
  ReplicateDsis dsis();

  /** Every origin pipeline, by connection id. */
  Map<Integer, OriginPipeline> origins();

  /** {@code admin stats}: the counters' readings. */
  StatsReporter stats();

  /** The background sampling of counters into the RSSD. */
  StatsSampler sampler();

  /** {@code create connection}: a primary (with log transfer) or replicate database. */
  ConnectionDef createConnection(
      String dataserver,
      String database,
      Profile profile,
      boolean logTransfer,
      Map<String, String> properties)
      throws IOException;

  /** {@code drop connection}. */
  void dropConnection(String dataserver, String database) throws IOException;

  /** {@code suspend connection}. */
  void suspendConnection(String dataserver, String database);

  /** {@code resume connection ... skip transaction} when {@code skipTransaction}. */
  void resumeConnection(String dataserver, String database, boolean skipTransaction);

  /** {@code suspend log transfer from ds.db}. */
  void suspendLogTransfer(String dataserver, String database);

  /** {@code resume log transfer from ds.db}. */
  void resumeLogTransfer(String dataserver, String database);

  /** {@code resume distributor ds.db}. */
  void resumeDistributor(String dataserver, String database) throws InterruptedException;
}
