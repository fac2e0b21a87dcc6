package io.openrs.bench.comparison;

import static org.awaitility.Awaitility.await;

import io.openrs.consistency.support.Admin;
import io.openrs.consistency.support.ChildJvm;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Our replication system for one primary and one replicate, in its real processes: the server
 * ({@code io.openrs.repserver.Main}) and the agent ({@code io.openrs.repagent.Main}) as child JVMs,
 * configured through the admin port (a database replication definition of the schema, one
 * subscription), the replicate connection in one DSI mode ({@code parameters}). Built from the
 * consistency suite's {@link ChildJvm} and {@link Admin}.
 */
final class OurSystem implements AutoCloseable {
  private static final String PASSWORD = "bench-admin-secret";
  private static final Duration START = Duration.ofSeconds(120);

  /** The agent's reconnect interval (both bounds of its back-off), in milliseconds. */
  static final int AGENT_RETRY_MS = 200;

  private final String label;
  private final Path dir;
  private final BenchDb primary;
  private final BenchDb replicate;
  private final Map<String, String> parameters;
  private final String origin;
  private final String connection;
  private final String agentName;
  private Path serverConfig;
  private Path agentConfig;
  private int adminPort;
  private ChildJvm server;
  private ChildJvm agent;
  private Admin admin;

  /** The start-up file's lines for the stable queues (a partition, or the Kafka engine). */
  private final List<String> queueLines;

  OurSystem(
      String label,
      Path dir,
      BenchDb primary,
      BenchDb replicate,
      Map<String, String> parameters,
      List<String> queueLines) {
    this.queueLines = List.copyOf(queueLines);
    this.label = label;
    this.dir = dir;
    this.primary = primary;
    this.replicate = replicate;
    this.parameters = parameters;
    this.origin = "pg." + primary.name();
    this.connection = "rpg." + replicate.name();
    this.agentName = primary.name().replace("openrs_cs_", "b_") + "_ra";
  }

  String label() {
    return label;
  }

  /**
   * The server's heap, fixed at its limit as a server's usually is ({@code -Xms} = {@code -Xmx}):
   * with the 1 GiB the consistency suite's servers get, growing from a third of it, young
   * collections every 100 MB copied the DSI's groups in flight again and again, and took 15-35 % of
   * an HVAR DSI stage (docs/performance.md). {@code -Dbench.native.serverHeap} sets another.
   */
  private static final String SERVER_HEAP = System.getProperty("bench.native.serverHeap", "2g");

  Admin admin() {
    return admin;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /**
   * Starts the server, configures it, starts the agent; returns once a marker reached the
   * replicate.
   */
  void start(long firstMarker) throws Exception {
    int ltlPort = freePort();
    adminPort = freePort();
    deleteTree(dir); // an earlier run's RSSD and queues
    Path serverDir = dir.resolve("server");
    Path agentDir = dir.resolve("agent");
    Files.createDirectories(serverDir);
    Files.createDirectories(agentDir);
    serverConfig = serverDir.resolve("repserver.cfg");
    List<String> serverLines =
        new java.util.ArrayList<>(
            List.of(
                // one name per system and workload: the Kafka engine names its topics after it
                "rs_name = BENCH_"
                    + dir.getFileName()
                        .toString()
                        .replaceAll("[^A-Za-z0-9]", "_")
                        .toUpperCase(java.util.Locale.ROOT),
                "data_directory = .",
                "listen_address = 127.0.0.1",
                "ltl_port = " + ltlPort,
                "admin_port = " + adminPort,
                "prometheus_port = 0"));
    serverLines.addAll(queueLines);
    Files.write(serverConfig, serverLines, StandardCharsets.UTF_8);
    agentConfig = agentDir.resolve("repagent.cfg");
    Files.write(
        agentConfig,
        List.of(
            "agent_name = " + agentName,
            "origin = " + origin,
            "rs_host = 127.0.0.1",
            "rs_port = " + ltlPort,
            "rs_user = sa",
            "rs_password_env = BENCH_RS_PASSWORD",
            "source_profile = postgresql",
            "source_host = " + BenchDb.HOST,
            "source_port = 5432",
            "source_database = " + primary.name(),
            "source_user = " + BenchDb.USER,
            "source_password_env = BENCH_SOURCE_PASSWORD",
            "table_include_list = " + primary.schema() + ".%",
            "heartbeat_table = " + primary.schema() + ".openrs_heartbeat",
            "heartbeat_interval_ms = 1000",
            // A suspended agent retries this often, so (1) starts within that of the resume.
            "retry_min_backoff_ms = " + AGENT_RETRY_MS,
            "retry_max_backoff_ms = " + AGENT_RETRY_MS,
            "data_directory = ."),
        StandardCharsets.UTF_8);
    // Extra agent parameters for an experiment, e.g. -Dbench.native.agent.params=
    // "scan_sleep_max_ms=20,ltl_batch_size=1048576" (docs/performance.md).
    for (String nv : System.getProperty("bench.native.agent.params", "").split(",")) {
      if (!nv.isBlank()) {
        Files.writeString(
            agentConfig,
            nv.trim().replaceFirst("=", " = ") + "\n",
            StandardCharsets.UTF_8,
            java.nio.file.StandardOpenOption.APPEND);
      }
    }
    server =
        ChildJvm.start(
            "repserver",
            serverDir,
            SERVER_HEAP,
            List.of("-Xms" + SERVER_HEAP),
            "io.openrs.repserver.Main",
            List.of("-C", serverConfig.toString()),
            Map.of("OPENRS_ADMIN_PASSWORD", PASSWORD),
            l -> l.contains(" ready: ltl_port="),
            START);
    admin = new Admin(adminPort, PASSWORD);
    configure();
    startAgent();
    // The agent captures from its slot's creation on: a marker written after that must arrive.
    primary.awaitTrue(
        "SELECT confirmed_flush_lsn IS NOT NULL FROM pg_replication_slots WHERE database = '"
            + primary.name()
            + "'",
        START);
    primary.writeMarker(firstMarker);
    try {
      awaitMarker(firstMarker, START);
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new IllegalStateException(label + ": no change reached the replicate\n" + tails(), e);
    }
  }

  private static void deleteTree(Path p) throws IOException {
    if (Files.exists(p)) {
      try (var files = Files.walk(p)) {
        for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(f);
        }
      }
    }
  }

  private void configure() throws SQLException {
    String login =
        " set server to '"
            + BenchDb.HOST
            + "', set port to '5432', set user to '"
            + BenchDb.USER
            + "', set password to '"
            + BenchDb.PASSWORD
            + "'";
    admin.exec(
        "create connection to "
            + origin
            + " using profile postgresql"
            + login
            + " with log transfer on");
    admin.exec("create connection to " + connection + " using profile postgresql" + login);
    for (Map.Entry<String, String> e : parameters.entrySet()) {
      admin.exec(
          "alter connection to "
              + connection
              + " set "
              + e.getKey()
              + " to '"
              + e.getValue()
              + "'");
    }
    admin.exec(
        "create database replication definition bench_all with primary at "
            + origin
            + " replicate tables in ('"
            + primary.schema()
            + ".%')");
    admin.exec(
        "create subscription bench_all_1 for database replication definition bench_all with"
            + " replicate at "
            + connection);
  }

  /**
   * Starts the agent process; returns once it printed that it started.
   *
   * @return milliseconds from launch to started
   */
  long startAgent() throws Exception {
    long t0 = System.nanoTime();
    agent =
        ChildJvm.start(
            "repagent",
            dir.resolve("agent"),
            "1g",
            List.of(),
            "io.openrs.repagent.Main",
            List.of("-C", agentConfig.toString()),
            Map.of("BENCH_RS_PASSWORD", PASSWORD, "BENCH_SOURCE_PASSWORD", BenchDb.PASSWORD),
            l -> l.contains(" started: origin "),
            START);
    return (System.nanoTime() - t0) / 1_000_000;
  }

  /** CPU the agent's JVM has used since it was launched (zero while none runs). */
  Duration agentCpu() {
    return agent == null ? Duration.ZERO : agent.cpuTime();
  }

  /** CPU the server's JVM has used since it was launched. */
  Duration serverCpu() {
    return server == null ? Duration.ZERO : server.cpuTime();
  }

  /** Stops the agent gracefully (SIGTERM): what it confirmed stays confirmed in its slot. */
  void stopAgent() throws Exception {
    if (agent != null && agent.alive()) {
      agent.stop(Duration.ofSeconds(60));
    }
  }

  /**
   * Disconnects the agent and refuses it ({@code suspend log transfer}): its session ends, its
   * engine stops, and what the primary commits meanwhile waits in the agent's slot. The agent
   * process keeps running and retries every {@link #AGENT_RETRY_MS} or so.
   */
  void suspendLogTransfer() throws SQLException {
    admin.exec("suspend log transfer from " + origin);
  }

  /**
   * Suspends log transfer and waits until the agent's slot is inactive: its walsender, which would
   * decode every other database's WAL of the cluster too, has exited.
   */
  void suspendLogTransferAndWait() throws SQLException {
    suspendLogTransfer();
    primary.awaitTrue(
        "SELECT count(*) = 0 FROM pg_replication_slots WHERE database = current_database() AND"
            + " active",
        START);
  }

  /** The primary, whose database holds this system's agent slot. */
  BenchDb primary() {
    return primary;
  }

  /** Lets the agent in again; it connects at its next retry and reads the slot's backlog. */
  void resumeLogTransfer() throws SQLException {
    admin.exec("resume log transfer from " + origin);
  }

  void suspendConnection() throws SQLException {
    admin.exec("suspend connection to " + connection);
  }

  void resumeConnection() throws SQLException {
    admin.exec("resume connection to " + connection);
  }

  void awaitMarker(long id, Duration timeout) {
    replicate.awaitMarker(id, timeout);
  }

  /**
   * With the connection suspended: returns once everything committed at the primary so far is in
   * the outbound queue. An {@code rs_ticket} is written at the primary after it; once DIST has
   * counted one more ticket, it has read every command before it, and once the outbound queue's
   * position stops moving for a second its writer has written them (the outbound queue's row of
   * {@code admin who, sqm} only: the inbound queue grows with every heartbeat transaction).
   */
  void awaitOutboundComplete(Duration timeout) throws Exception {
    long before = ticketsDistributed();
    primary.exec(
        "SELECT " + primary.schema() + ".rs_ticket('bench', 'outbound', NULL::text, NULL::text)");
    await()
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> ticketsDistributed() > before);
    String[] last = {""};
    await()
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(1000))
        .until(
            () -> {
              String now =
                  admin.rows("admin who, sqm").stream()
                      .filter(row -> connection.equals(row.get("info")))
                      .toList()
                      .toString();
              boolean stable = now.equals(last[0]);
              last[0] = now;
              return stable;
            });
  }

  private long ticketsDistributed() throws SQLException {
    long n = 0;
    for (Map<String, String> row : admin.rows("admin who, dist")) {
      String t = row.get("tickets");
      if (t != null) {
        n += Long.parseLong(t.trim());
      }
    }
    return n;
  }

  /** Writes an rs_ticket at the primary (travels with the log, timed by every module). */
  void ticket(String h1, String h2) throws SQLException {
    primary.exec(
        "SELECT "
            + primary.schema()
            + ".rs_ticket('"
            + h1
            + "', '"
            + h2
            + "', NULL::text, NULL::text)");
  }

  /** The last {@code n} rows of {@code admin ticket_history}. */
  List<Map<String, String>> tickets(int n) throws SQLException {
    return new ArrayList<>(admin.rows("admin ticket_history, " + n));
  }

  String tails() {
    StringBuilder b = new StringBuilder();
    if (server != null) {
      b.append("--- server ").append(server.log()).append('\n').append(server.tail()).append('\n');
    }
    if (agent != null) {
      b.append("--- agent ").append(agent.log()).append('\n').append(agent.tail()).append('\n');
    }
    return b.toString();
  }

  @Override
  public void close() throws Exception {
    for (ChildJvm c : new ChildJvm[] {agent, server}) {
      if (c != null && c.alive()) {
        try {
          c.stop(Duration.ofSeconds(30));
        } catch (Exception e) {
          c.close();
        }
      }
    }
  }
}
