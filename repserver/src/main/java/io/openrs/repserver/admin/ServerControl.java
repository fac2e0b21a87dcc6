package io.openrs.repserver.admin;

import io.openrs.config.param.ParameterValues;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.DatabaseRepDef;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.Rssd;
import io.openrs.config.rssd.StsCache;
import io.openrs.config.rssd.UserRole;
import io.openrs.queue.file.FileQueueManager;
import io.openrs.repserver.dsi.ReplicateDsis;
import io.openrs.repserver.monitor.StatsReporter;
import io.openrs.repserver.monitor.StatsSampler;
import io.openrs.repserver.origin.OriginPipeline;
import java.io.IOException;
import java.util.List;
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

  /** The connection {@code ds.db}, or an error naming it. */
  ConnectionDef requireConnection(String dataserver, String database);

  /** {@code create connection}: a primary (with log transfer) or replicate database. */
  ConnectionDef createConnection(
      String dataserver,
      String database,
      Profile profile,
      boolean logTransfer,
      Map<String, String> properties)
      throws IOException;

  /** {@code alter connection ... set p to 'v'}. */
  void setConnectionProperty(String dataserver, String database, String key, String value);

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

  /** {@code create replication definition}. */
  void createRepDef(RepDef d);

  /** {@code alter replication definition}. */
  void alterRepDef(RepDef changed);

  /** {@code drop replication definition}. */
  void dropRepDef(String name);

  /** {@code create database replication definition}. */
  void createDatabaseRepDef(DatabaseRepDef d);

  /** {@code drop database replication definition}. */
  void dropDatabaseRepDef(String name);

  /**
   * {@code create subscription}, {@code with materialization} when {@code materialize}.
   *
   * @return notices for the DBA
   */
  List<String> createSubscription(
      String name,
      String repDefName,
      boolean databaseLevel,
      String replicateDataserver,
      String replicateDatabase,
      Optional<String> whereClause,
      boolean materialize);

  /** {@code drop subscription}. */
  void dropSubscription(String name, String replicateDataserver, String replicateDatabase);

  /** {@code create user}. */
  void createUser(String name, UserRole role, char[] password);
}
