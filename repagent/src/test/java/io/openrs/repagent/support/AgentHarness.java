package io.openrs.repagent.support;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.DatabaseRepDef;
import io.openrs.config.rssd.Profile;
import io.openrs.ltl.LtlCommand;
import io.openrs.repagent.AgentConfigFile;
import io.openrs.repagent.AgentSettings;
import io.openrs.repagent.RepAgent;
import io.openrs.repserver.ReplicationServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A PostgreSQL primary schema, a real server in this JVM with origin {@code pg1.sales} (a
 * database-level replication definition over the schema, subscribed by replicate {@code rds.rdb}),
 * and agents reading the primary: what the end-to-end tests need.
 */
public final class AgentHarness implements AutoCloseable {

  public static final String DS = "pg1";
  public static final String DB = "sales";

  public final Path dir;
  public final String schema;
  public final String agentName;
  public final String slot;
  public final String publication;
  public final MeterRegistry registry = new SimpleMeterRegistry();
  public ReplicationServer server;
  private final Map<String, String> serverOverrides = new HashMap<>();
  private long partitionBytes = 2L * 1024 * 1024 * 1024;
  private final List<RepAgent> agents = new ArrayList<>();

  public final boolean mariadb;

  /** A harness over a fresh PostgreSQL schema. */
  public AgentHarness(Path dir) throws Exception {
    this(dir, false);
  }

  /** A harness over a fresh PostgreSQL schema or MariaDB database. */
  public AgentHarness(Path dir, boolean mariadb) throws Exception {
    this.dir = dir;
    this.mariadb = mariadb;
    this.schema = TestPostgres.unique("rat");
    this.agentName = schema;
    this.slot = "openrs_" + agentName;
    this.publication = "openrs_" + agentName;
    if (mariadb) {
      TestMariaDb.exec("DROP DATABASE IF EXISTS " + schema, "CREATE DATABASE " + schema);
    } else {
      TestPostgres.exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE", "CREATE SCHEMA " + schema);
    }
  }

  public AgentHarness serverOverride(String name, String value) {
    serverOverrides.put(name, value);
    return this;
  }

  /** The server's partition size (2 GiB unless set). */
  public AgentHarness partitionBytes(long bytes) {
    partitionBytes = bytes;
    return this;
  }

  /** Starts the server, creating origin and replicate on the first start. */
  public ReplicationServer startServer() throws Exception {
    boolean first = server == null && !dir.resolve("server").toFile().exists();
    server = TestServer.start(dir.resolve("server"), serverOverrides, partitionBytes);
    if (first) {
      ConnectionDef primary =
          server.createConnection(
              DS, DB, mariadb ? Profile.MARIADB : Profile.POSTGRESQL, true, Map.of());
      server.createConnection("rds", "rdb", Profile.POSTGRESQL, false, Map.of());
      server
          .catalog()
          .createDatabaseRepDef(
              new DatabaseRepDef("all_rd", primary.id(), List.of(schema + ".%"), List.of()));
      server
          .catalog()
          .subscriptions()
          .create("all_sub", "all_rd", true, "rds", "rdb", Optional.empty());
    }
    return server;
  }

  public void stopServer() {
    if (server != null) {
      server.close();
      server = null;
    }
  }

  /** Agent parameters for this harness; {@code overrides} win. */
  public Map<String, String> agentConfig(Map<String, String> overrides) {
    Map<String, String> m = new HashMap<>();
    m.put("agent_name", agentName);
    m.put("origin", DS + "." + DB);
    m.put("rs_host", "127.0.0.1");
    m.put("rs_port", Integer.toString(server.ltlPort()));
    m.put("rs_user", "sa");
    m.put("rs_password_env", "RS_PW");
    if (mariadb) {
      m.put("source_profile", "mariadb");
      m.put("source_host", TestMariaDb.HOST);
      m.put("source_port", Integer.toString(TestMariaDb.PORT));
      m.put("source_database", schema);
      m.put("source_user", TestMariaDb.USER);
    } else {
      m.put("source_profile", "postgresql");
      m.put("source_host", TestPostgres.HOST);
      m.put("source_port", Integer.toString(TestPostgres.PORT));
      m.put("source_database", TestPostgres.DATABASE);
      m.put("source_user", TestPostgres.USER);
    }
    m.put("source_password_env", "PG_PW");
    m.put("table_include_list", schema + ".%");
    m.put("heartbeat_table", schema + ".openrs_heartbeat");
    m.put("heartbeat_interval_ms", "500");
    m.put("offset_flush_interval_ms", "200");
    m.put("retry_min_backoff_ms", "100");
    m.put("retry_max_backoff_ms", "1000");
    m.put("data_directory", dir.resolve("agent").toString());
    m.putAll(overrides);
    return m;
  }

  public AgentSettings settings(Map<String, String> overrides) {
    return AgentConfigFile.fromMap(
        "test",
        agentConfig(overrides),
        name ->
            name.equals("RS_PW")
                ? TestServer.ADMIN_PASSWORD
                : name.equals("PG_PW") ? TestPostgres.PASSWORD : null,
        dir);
  }

  public RepAgent startAgent(Map<String, String> overrides) {
    return startAgent(settings(overrides));
  }

  public RepAgent startAgent(AgentSettings settings) {
    RepAgent a = new RepAgent(settings, registry);
    agents.add(a);
    return a.start();
  }

  /** The complete transactions DIST wrote for the replicate. */
  public List<QueueContents.Transaction> outbound() throws Exception {
    return QueueContents.outbound(server.outboundQueue("rds", "rdb").orElseThrow());
  }

  /** The row changes of the outbound transactions, in order. */
  public List<LtlCommand.InTransaction> outboundChanges() throws Exception {
    List<LtlCommand.InTransaction> out = new ArrayList<>();
    for (QueueContents.Transaction t : outbound()) {
      out.addAll(t.body());
    }
    return out;
  }

  /** Every command of the origin's inbound queue. */
  public List<LtlCommand.InTransaction> inbound() throws Exception {
    return QueueContents.inbound(server.origin(DS, DB).orElseThrow().inbound());
  }

  @Override
  public void close() throws Exception {
    for (RepAgent a : agents) {
      a.close();
    }
    stopServer();
    if (mariadb) {
      TestMariaDb.exec("DROP DATABASE IF EXISTS " + schema);
    } else {
      TestPostgres.dropSlotAndPublication(slot, publication);
      TestPostgres.exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }
}
