package io.openrs.repagent;

import io.openrs.wire.ClientTls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything one agent is started with (read by {@link AgentConfigFile}; every field is a parameter
 * of {@link AgentParameter}). Passwords are held as {@code char[]} and never printed.
 *
 * @param agentName names the agent in logs, its slot and publication
 * @param originServer dataserver part of the origin connection {@code ds.db} at the server
 * @param originDatabase database part of the origin connection
 * @param serverHost host of the server's LTL listener
 * @param serverPort its port
 * @param standbyServers further servers tried in turn after {@code serverHost:serverPort}
 * @param serverUser user the agent logs in to the server as
 * @param serverPassword that user's password
 * @param source the primary database
 * @param ltlBatchSizeBytes most bytes of LTL text per batch
 * @param scanBatchSize commands sent between two truncation requests
 * @param retryMinBackoff first wait before a reconnect
 * @param retryMaxBackoff longest wait between reconnects
 * @param rejectionRetryLimit rejections in a row of the same command before the agent stops
 * @param heartbeatInterval heartbeat interval (zero = no heartbeat)
 * @param scanSleepMax longest wait of the log reader for more changes before it hands over a batch
 * @param offsetFlushInterval how often the position is handed to the server and the log released
 * @param transactionBufferBytes bytes of one transaction held in memory before spilling
 * @param dataDirectory where spill files go
 * @param connectTimeout bound on connect plus handshake
 * @param debezium extra Debezium properties ({@code debezium.<name>} lines), applied last
 * @param tls TLS of the link to the server ({@code rs_tls} and its files)
 * @param compression compression methods offered to the server, most preferred first
 */
public record AgentSettings(
    String agentName,
    String originServer,
    String originDatabase,
    String serverHost,
    int serverPort,
    List<ServerAddress> standbyServers,
    String serverUser,
    char[] serverPassword,
    SourceSettings source,
    int ltlBatchSizeBytes,
    int scanBatchSize,
    Duration retryMinBackoff,
    Duration retryMaxBackoff,
    int rejectionRetryLimit,
    Duration heartbeatInterval,
    Duration scanSleepMax,
    Duration offsetFlushInterval,
    long transactionBufferBytes,
    Path dataDirectory,
    Duration connectTimeout,
    Map<String, String> debezium,
    ClientTls tls,
    List<String> compression) {

  public AgentSettings {
    Objects.requireNonNull(agentName, "agentName");
    Objects.requireNonNull(source, "source");
    debezium = Map.copyOf(debezium);
    Objects.requireNonNull(tls, "tls");
    compression = List.copyOf(compression);
    standbyServers = List.copyOf(standbyServers);
  }

  /** The servers the agent tries, in order: {@code rs_host:rs_port}, then the standbys. */
  public List<ServerAddress> servers() {
    List<ServerAddress> all = new java.util.ArrayList<>();
    all.add(new ServerAddress(serverHost, serverPort));
    all.addAll(standbyServers);
    return List.copyOf(all);
  }

  /**
   * The primary database.
   *
   * @param profile which connector
   * @param host primary host
   * @param port primary port
   * @param database the database (PostgreSQL) or the one database captured (MariaDB/MySQL, may be
   *     empty = all)
   * @param user the replication user
   * @param password its password
   * @param slotName PostgreSQL replication slot
   * @param publicationName PostgreSQL publication
   * @param heartbeatSchema schema (database) of the heartbeat table
   * @param heartbeatTable the heartbeat table
   * @param ticketSchema schema (database) of {@code rs_ticket} and its marker table
   * @param createTicket whether the agent creates {@code rs_ticket} when absent
   * @param serverId MariaDB/MySQL replica server id
   * @param tableIncludeList {@code schema.table} patterns ({@code %} = any run); empty = all
   * @param snapshot whether a first start reads the tables first
   * @param timetzAtUtc whether tables with {@code timetz} columns replicate, their values at UTC
   *     (PostgreSQL); else they are left out and reported
   */
  public record SourceSettings(
      SourceProfile profile,
      String host,
      int port,
      String database,
      String user,
      char[] password,
      String slotName,
      String publicationName,
      String heartbeatSchema,
      String heartbeatTable,
      String ticketSchema,
      boolean createTicket,
      long serverId,
      List<String> tableIncludeList,
      boolean snapshot,
      boolean timetzAtUtc) {
    public SourceSettings {
      Objects.requireNonNull(profile, "profile");
      tableIncludeList = List.copyOf(tableIncludeList);
    }

    /** Never prints the password. */
    @Override
    public String toString() {
      return "SourceSettings[profile="
          + profile.configName()
          + ", "
          + user
          + "@"
          + host
          + ":"
          + port
          + "/"
          + database
          + ", slot="
          + slotName
          + ", publication="
          + publicationName
          + ", heartbeat="
          + heartbeatSchema
          + "."
          + heartbeatTable
          + ", rs_ticket="
          + ticketSchema
          + (createTicket ? "" : " (not created)")
          + ", tables="
          + tableIncludeList
          + ", snapshot="
          + snapshot
          + (timetzAtUtc ? ", timetz at UTC" : "")
          + "]";
    }
  }

  /** {@code ds.db}. */
  public String origin() {
    return originServer + "." + originDatabase;
  }

  /** The same settings with {@code source} replaced (tests point an agent at another role). */
  public AgentSettings withSource(SourceSettings s) {
    return new AgentSettings(
        agentName,
        originServer,
        originDatabase,
        serverHost,
        serverPort,
        standbyServers,
        serverUser,
        serverPassword,
        s,
        ltlBatchSizeBytes,
        scanBatchSize,
        retryMinBackoff,
        retryMaxBackoff,
        rejectionRetryLimit,
        heartbeatInterval,
        scanSleepMax,
        offsetFlushInterval,
        transactionBufferBytes,
        dataDirectory,
        connectTimeout,
        debezium,
        tls,
        compression);
  }

  /** Never prints a password. */
  @Override
  public String toString() {
    return "AgentSettings[agent="
        + agentName
        + ", origin="
        + origin()
        + ", server="
        + serverUser
        + "@"
        + serverHost
        + ":"
        + serverPort
        + (standbyServers.isEmpty() ? "" : ", standby=" + standbyServers)
        + ", source="
        + source
        + ", ltl_batch_size="
        + ltlBatchSizeBytes
        + ", scan_batch_size="
        + scanBatchSize
        + ", tls="
        + tls
        + ", compression="
        + (compression.isEmpty() ? "off" : String.join(",", compression))
        + "]";
  }
}
