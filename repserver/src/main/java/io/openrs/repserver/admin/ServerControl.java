package io.openrs.repserver.admin;

import io.openrs.config.param.ParameterValues;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.Profile;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueInfo;
import io.openrs.queue.StableQueue;
import io.openrs.queue.file.PartitionInfo;
import io.openrs.repserver.dsi.ReplicateDsis;
import io.openrs.repserver.monitor.StatsReporter;
import io.openrs.repserver.monitor.StatsSampler;
import io.openrs.repserver.origin.OriginPipeline;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The running server as the admin commands control and watch it (implemented by {@code
 * ReplicationServer}): its queues, pipelines and DSIs, and the counters. What the commands read or
 * change of the RSSD goes through the {@code Catalog} instead; this interface hands out neither the
 * RSSD nor the queue manager.
 */
public interface ServerControl {

  /** The server's parameters: the configuration file's, with the RSSD's values over them. */
  ParameterValues parameters();

  /** The configuration file's parameters alone (which ones it sets explicitly). */
  ParameterValues fileParameters();

  /** The stable queues and their readers ({@code admin who, sqm}, {@code admin disk_space}). */
  List<QueueInfo> queueInfos();

  /** Stable queue {@code id} ({@code sysadmin dump_queue} reads it). */
  Optional<StableQueue> queue(QueueId id);

  /** The partitions of the stable storage ({@code admin disk_space}). */
  List<PartitionInfo> partitions();

  /** The DSIs of the replicate connections. */
  ReplicateDsis dsis();

  /** Every origin pipeline, by connection id. */
  Map<Integer, OriginPipeline> origins();

  /** {@code admin stats}: the counters' readings. */
  StatsReporter stats();

  /** The background sampling of counters into the RSSD. */
  StatsSampler sampler();

  /** The server lease as this server holds it; empty without {@code server_lease_ms}. */
  Optional<io.openrs.repserver.lease.LeaseStatus> lease();

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
