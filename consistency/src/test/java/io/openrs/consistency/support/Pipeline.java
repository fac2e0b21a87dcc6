package io.openrs.consistency.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scenario's replication system, every part real and in its own process where production has it
 * in its own process: a primary database, one or more replicate databases, the replication server
 * ({@code io.openrs.repserver.Main -C repserver.cfg}) and the replication agent ({@code
 * io.openrs.repagent.Main -C repagent.cfg}), each a child JVM on free loopback ports. The server is
 * configured only through its admin port (RCL over pgjdbc), as a DBA would.
 *
 * <p>Databases are created fresh ({@code openrs_cs_<pid>_<n>...}) and dropped by {@link #close}.
 */
public final class Pipeline implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);

  public static final String ADMIN_PASSWORD = "cs-admin-secret";
  private static final Duration START = Duration.ofSeconds(90);

  /**
   * A replicate of the scenario.
   *
   * @param kind its database product
   * @param role suffix of its database name (PostgreSQL)
   * @param parameters connection parameters set with {@code alter connection} before it is
   *     subscribed (e.g. {@code dsi_num_threads})
   * @param where per table, the where clause of its subscription (tables not named get every row)
   * @param foreignKeys whether its tables declare the foreign key
   */
  public record Replicate(
      Kind kind,
      String role,
      Map<String, String> parameters,
      Map<String, String> where,
      boolean foreignKeys) {

    public static Replicate of(Kind kind, Map<String, String> parameters) {
      return new Replicate(kind, "r", parameters, Map.of(), true);
    }
  }

  /** What to build. */
  public static final class Spec {
    Kind primary = Kind.POSTGRESQL;
    final List<Replicate> replicates = new ArrayList<>();
    final Map<String, String> serverParameters = new LinkedHashMap<>();
    String partitionSize = "1g";
    final Set<String> replicaIdentityFull = new LinkedHashSet<>(List.of("evt"));
    final Map<Kind, List<String>> extraTables = new LinkedHashMap<>();
    long standbyLeaseMs;

    /**
     * Statements run on the primary and on every replicate of the same product after the suite's
     * tables exist and before the agent starts; {@code %s} stands for the schema.
     */
    public Spec extraTables(List<String> statements) {
      return extraTables(primary, statements);
    }

    /** As {@link #extraTables(List)}, on every database of product {@code kind}. */
    public Spec extraTables(Kind kind, List<String> statements) {
      extraTables.computeIfAbsent(kind, k -> new ArrayList<>()).addAll(statements);
      return this;
    }

    public Spec primary(Kind kind) {
      primary = kind;
      return this;
    }

    public Spec replicate(Replicate r) {
      replicates.add(r);
      return this;
    }

    public Spec server(String parameter, String value) {
      serverParameters.put(parameter, value);
      return this;
    }

    /**
     * A standby server: both servers share the server directory and an RSSD on PostgreSQL (a schema
     * of the test database) with {@code server_lease_ms = leaseMs}; the agent lists both.
     */
    public Spec standby(long leaseMs) {
      standbyLeaseMs = leaseMs;
      return this;
    }

    public Spec partitionSize(String size) {
      partitionSize = size;
      return this;
    }

    /** PostgreSQL primary: send old values of every column of {@code table}. */
    public Spec replicaIdentityFull(String table) {
      replicaIdentityFull.add(table);
      return this;
    }

    public boolean postgresOnly() {
      return primary == Kind.POSTGRESQL
          && replicates.stream().allMatch(r -> r.kind() == Kind.POSTGRESQL);
    }
  }

  /** A replicate's database and its connection name at the server. */
  public record ReplicateSide(Replicate spec, Database db, String connection) {}

  private final Path dir;
  private final Spec spec;
  private final String stem;
  private final String agentName;
  private Database primary;
  private final List<ReplicateSide> replicates = new ArrayList<>();
  private String origin;
  private int ltlPort;
  private int adminPort;
  private Path serverConfig;
  private Path agentConfig;

  /** With a standby: the second server's ports and configuration, and its process. */
  private int standbyLtlPort;

  private int standbyAdminPort;
  private Path standbyConfig;
  private ChildJvm standby;
  private boolean activeIsStandbyConfig;
  private String rssdSchema;
  private ChildJvm server;
  private ChildJvm agent;
  private Admin admin;
  private final AtomicInteger markers = new AtomicInteger();
  private int serverStarts;
  private int agentStarts;

  private Pipeline(Path dir, Spec spec) {
    this.dir = dir;
    this.spec = spec;
    this.stem = Database.newStem();
    this.agentName = stem.replace("openrs_cs_", "cs_") + "_ra";
  }

  /**
   * Creates the databases and tables, starts the server, configures it through the admin port,
   * starts the agent and returns once a change made at the primary has reached every replicate.
   */
  public static Pipeline start(Path dir, Spec spec) throws Exception {
    Pipeline p = new Pipeline(dir, spec);
    try {
      p.writeConfigs();
      // The server's JVM starts while the databases are created.
      java.util.concurrent.CompletableFuture<Void> server =
          java.util.concurrent.CompletableFuture.runAsync(
              () -> {
                try {
                  p.startServer();
                } catch (Exception e) {
                  throw new java.util.concurrent.CompletionException(e);
                }
              });
      try {
        p.createDatabases();
      } finally {
        try {
          server.join();
        } catch (java.util.concurrent.CompletionException e) {
          throw e.getCause() instanceof Exception x ? x : e;
        }
      }
      p.configure();
      if (spec.standbyLeaseMs > 0) {
        p.standby = p.launchServer(p.standbyConfig);
      }
      p.startAgent();
      p.awaitCapture();
    } catch (Throwable e) {
      try {
        p.close();
      } catch (Exception suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    return p;
  }

  private void createDatabases() throws SQLException {
    primary = Database.create(spec.primary, stem, Database.PRIMARY_ROLE);
    primary.createTables(true);
    runExtra(primary);
    for (String t : spec.replicaIdentityFull) {
      primary.replicaIdentityFull(t);
    }
    int n = 0;
    for (Replicate r : spec.replicates) {
      n++;
      Database db = Database.create(r.kind(), stem, r.role() + n);
      db.createTables(r.foreignKeys());
      runExtra(db);
      replicates.add(new ReplicateSide(r, db, "r" + r.kind().shortName() + "." + db.name()));
    }
  }

  private void runExtra(Database db) throws SQLException {
    for (String statement : spec.extraTables.getOrDefault(db.kind(), List.of())) {
      db.exec(statement.replace("%s", db.schema()));
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    }
  }

  private void writeConfigs() throws IOException, SQLException {
    String primaryDb = Database.nameFor(spec.primary, stem, "p");
    origin = (spec.primary == Kind.POSTGRESQL ? "pg" : "my") + "." + primaryDb;
    ltlPort = freePort();
    adminPort = freePort();
    Path serverDir = dir.resolve("server");
    Files.createDirectories(serverDir);
    List<String> lines = new ArrayList<>();
    lines.add("# written by the consistency suite");
    lines.add("rs_name = CS_RS");
    lines.add("data_directory = .");
    lines.add("listen_address = 127.0.0.1");
    lines.add("ltl_port = " + ltlPort);
    lines.add("admin_port = " + adminPort);
    lines.add("prometheus_port = 0");
    lines.add("partition.p1 = p1 " + spec.partitionSize);
    spec.serverParameters.forEach((k, v) -> lines.add(k + " = " + v));
    if (spec.standbyLeaseMs > 0) {
      rssdSchema = stem + "_rssd";
      Database.createPostgresSchema(rssdSchema);
      lines.add(
          "rssd_url = jdbc:postgresql://"
              + Database.HOST
              + ":5432/openrs_test?currentSchema="
              + rssdSchema);
      lines.add("rssd_user = " + Database.USER);
      lines.add("server_lease_ms = " + spec.standbyLeaseMs);
      standbyLtlPort = freePort();
      standbyAdminPort = freePort();
      List<String> b = new ArrayList<>();
      for (String line : lines) {
        b.add(
            line.startsWith("ltl_port =")
                ? "ltl_port = " + standbyLtlPort
                : line.startsWith("admin_port =") ? "admin_port = " + standbyAdminPort : line);
      }
      standbyConfig = serverDir.resolve("repserver-standby.cfg");
      Files.write(standbyConfig, b, StandardCharsets.UTF_8);
    }
    serverConfig = serverDir.resolve("repserver.cfg");
    Files.write(serverConfig, lines, StandardCharsets.UTF_8);

    Path agentDir = dir.resolve("agent");
    Files.createDirectories(agentDir);
    List<String> a = new ArrayList<>();
    a.add("# written by the consistency suite");
    a.add("agent_name = " + agentName);
    a.add("origin = " + origin);
    a.add("rs_host = 127.0.0.1");
    a.add("rs_port = " + ltlPort);
    if (spec.standbyLeaseMs > 0) {
      a.add("rs_standby_servers = 127.0.0.1:" + standbyLtlPort);
    }
    a.add("rs_user = sa");
    a.add("rs_password_env = CS_RS_PASSWORD");
    a.add("source_profile = " + spec.primary.profile());
    a.add("source_host = " + Database.HOST);
    a.add("source_port = " + (spec.primary == Kind.POSTGRESQL ? 5432 : 3306));
    a.add("source_database = " + primaryDb);
    a.add("source_user = " + Database.USER);
    a.add("source_password_env = CS_SOURCE_PASSWORD");
    a.add("table_include_list = " + stem + ".%");
    a.add("heartbeat_table = " + stem + ".openrs_heartbeat");
    a.add("heartbeat_interval_ms = 1000");
    a.add("offset_flush_interval_ms = 500");
    a.add("retry_min_backoff_ms = 200");
    a.add("retry_max_backoff_ms = 2000");
    a.add("data_directory = .");
    agentConfig = agentDir.resolve("repagent.cfg");
    Files.write(agentConfig, a, StandardCharsets.UTF_8);
  }

  /** Starts the server process (again, after a kill or stop) and waits until it is ready. */
  public void startServer() throws Exception {
    serverStarts++;
    server = launchServer(serverConfig);
    server.awaitReady(START);
    admin = new Admin(adminPort, ADMIN_PASSWORD);
    LOG.info("{}: server started ({})", stem, serverStarts);
  }

  private ChildJvm launchServer(Path config) throws Exception {
    return ChildJvm.launch(
        config.equals(standbyConfig) ? "repserver-b" : "repserver",
        dir.resolve("server"),
        "384m",
        List.of(),
        "io.openrs.repserver.Main",
        List.of("-C", config.toString()),
        Map.of("OPENRS_ADMIN_PASSWORD", ADMIN_PASSWORD),
        l -> l.contains(" ready: ltl_port="));
  }

  /**
   * What a takeover took, from the SIGKILL of the active server.
   *
   * @param ready until the standby printed its ready line
   * @param applied until a transaction committed at the primary right after the kill was applied at
   *     every replicate
   */
  public record Takeover(Duration ready, Duration applied) {}

  /**
   * SIGKILL of the active server: the standby takes over (the lease runs out), the agent moves to
   * it, and a transaction committed after the kill reaches every replicate; the killed server's
   * configuration starts again, as the new standby.
   */
  public Takeover killActiveServer() throws Exception {
    if (standby == null) {
      throw new IllegalStateException("no standby: Spec.standby(leaseMs)");
    }
    assertThat(standby.isReady()).as("the standby waited while the active server ran").isFalse();
    LOG.info("{}: SIGKILL active server, standby takes over", stem);
    long killed = System.nanoTime();
    server.kill();
    int id = markers.incrementAndGet();
    writeMarker(id);
    standby.awaitReady(START);
    Duration ready = Duration.ofNanos(System.nanoTime() - killed);
    awaitMarker(id, START);
    Duration applied = Duration.ofNanos(System.nanoTime() - killed);
    // The killed server's configuration comes back as the standby.
    ChildJvm next = standby;
    standby = launchServer(activeIsStandbyConfig ? serverConfig : standbyConfig);
    server = next;
    activeIsStandbyConfig = !activeIsStandbyConfig;
    admin = new Admin(activeIsStandbyConfig ? standbyAdminPort : adminPort, ADMIN_PASSWORD);
    serverStarts++;
    LOG.info(
        "{}: takeover: ready after {} ms, applying after {} ms",
        stem,
        ready.toMillis(),
        applied.toMillis());
    return new Takeover(ready, applied);
  }

  /** SIGKILL of the server process. */
  public void killServer() throws InterruptedException {
    LOG.info("{}: SIGKILL server", stem);
    server.kill();
  }

  /** Starts the agent process (again). */
  public void startAgent() throws Exception {
    agentStarts++;
    agent =
        ChildJvm.start(
            "repagent",
            dir.resolve("agent"),
            "512m",
            List.of(),
            "io.openrs.repagent.Main",
            List.of("-C", agentConfig.toString()),
            Map.of("CS_RS_PASSWORD", ADMIN_PASSWORD, "CS_SOURCE_PASSWORD", Database.PASSWORD),
            l -> l.contains(" started: origin "),
            START);
    LOG.info("{}: agent started ({})", stem, agentStarts);
  }

  /** SIGKILL of the agent process. */
  public void killAgent() throws InterruptedException {
    LOG.info("{}: SIGKILL agent", stem);
    agent.kill();
  }

  private void configure() throws SQLException {
    String pw = Database.PASSWORD;
    admin.exec(
        "create connection to "
            + origin
            + " using profile "
            + spec.primary.profile()
            + " set server to '"
            + Database.HOST
            + "', set port to '"
            + primary.port()
            + "', set user to '"
            + Database.USER
            + "', set password to '"
            + pw
            + "' with log transfer on");
    for (ReplicateSide r : replicates) {
      admin.exec(
          "create connection to "
              + r.connection()
              + " using profile "
              + r.db().kind().profile()
              + " set server to '"
              + Database.HOST
              + "', set port to '"
              + r.db().port()
              + "', set user to '"
              + Database.USER
              + "', set password to '"
              + pw
              + "'");
      for (Map.Entry<String, String> e : r.spec().parameters().entrySet()) {
        admin.exec(
            "alter connection to "
                + r.connection()
                + " set "
                + e.getKey()
                + " to '"
                + e.getValue()
                + "'");
      }
    }
    String s = primary.schema();
    Set<String> filtered = new LinkedHashSet<>();
    for (ReplicateSide r : replicates) {
      filtered.addAll(r.spec().where().keySet());
    }
    // Tables some replicate filters get a table-level definition; the rest one database-level.
    for (String t : filtered) {
      Schema.Table table = Schema.table(t);
      List<String> searchable = new ArrayList<>(table.columnNames());
      admin.exec(table.createRepDef("cs_" + t, origin, s, searchable));
    }
    StringBuilder db =
        new StringBuilder(
            "create database replication definition cs_all with primary at "
                + origin
                + " replicate tables in ('"
                + s
                + ".%')");
    if (!filtered.isEmpty()) {
      db.append(" not replicate tables in (");
      db.append(String.join(", ", filtered.stream().map(t -> "'" + s + "." + t + "'").toList()));
      db.append(")");
    }
    admin.exec(db.toString());
    int n = 0;
    for (ReplicateSide r : replicates) {
      n++;
      for (String t : filtered) {
        String where = r.spec().where().get(t);
        List<String> notices =
            admin.exec(
                "create subscription cs_"
                    + t
                    + "_"
                    + n
                    + " for cs_"
                    + t
                    + " with replicate at "
                    + r.connection()
                    + (where == null ? "" : " where " + where)
                    + " without materialization");
        LOG.info("subscription cs_{}_{} notices: {}", t, n, notices);
      }
      admin.exec(
          "create subscription cs_all_"
              + n
              + " for database replication definition cs_all with replicate at "
              + r.connection());
    }
  }

  /**
   * Writes markers at the primary until one reaches every replicate: from then on every change is
   * captured (the agent starts reading at the log's current position).
   */
  private void awaitCapture() throws Exception {
    long end = System.nanoTime() + START.toNanos();
    if (spec.primary == Kind.POSTGRESQL) {
      // The agent captures from its slot's creation on.
      String slot = "openrs_" + agentName;
      try {
        await()
            .atMost(START)
            .pollInterval(Duration.ofMillis(100))
            .until(() -> slotConfirmedLsn() != null);
      } catch (ConditionTimeoutException e) {
        throw new AssertionError(
            "the agent did not create slot " + slot + " within " + START + "\n" + diagnostics(), e);
      }
    }
    while (true) {
      int id = -markers.incrementAndGet();
      writeMarker(id);
      try {
        awaitMarker(id, Duration.ofSeconds(spec.primary == Kind.POSTGRESQL ? 30 : 3));
        LOG.info("{}: changes flow (marker {})", stem, id);
        return;
      } catch (ConditionTimeoutException e) {
        if (System.nanoTime() > end) {
          throw new AssertionError(
              "no change reached the replicates within " + START + "\n" + diagnostics(), e);
        }
      }
    }
  }

  private void writeMarker(int id) throws SQLException {
    try (Connection c = primary.connect();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO " + primary.schema() + ".cs_sync (id, note) VALUES (?, ?)")) {
      ps.setInt(1, id);
      ps.setString(2, "marker " + id);
      ps.executeUpdate();
    }
  }

  private boolean markerAt(Database db, int id) {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery("SELECT 1 FROM " + db.schema() + ".cs_sync WHERE id = " + id)) {
      return r.next();
    } catch (SQLException e) {
      return false;
    }
  }

  private void awaitMarker(int id, Duration timeout) {
    await()
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> replicates.stream().allMatch(r -> markerAt(r.db(), id)));
  }

  /**
   * Writes a marker at the primary after everything else and waits until every replicate applied
   * it: with commit order kept, everything committed before it is applied too.
   */
  public void awaitDelivered(Duration timeout) throws SQLException {
    int id = markers.incrementAndGet();
    writeMarker(id);
    long t0 = System.nanoTime();
    try {
      awaitMarker(id, timeout);
    } catch (ConditionTimeoutException e) {
      throw new AssertionError(
          "the final marker did not reach every replicate within "
              + timeout
              + "\n"
              + differences()
              + diagnostics(),
          e);
    }
    LOG.info(
        "{}: delivered (marker {} after {} ms)", stem, id, (System.nanoTime() - t0) / 1_000_000);
  }

  /** The differences of every replicate's tables from the primary's (filtered by its where). */
  public String differences() throws SQLException {
    StringBuilder b = new StringBuilder();
    for (ReplicateSide r : replicates) {
      for (Schema.Table t : Schema.COMPARED) {
        String where = r.spec().where().get(t.name());
        List<List<String>> expected = Contents.read(primary, t, where);
        List<List<String>> actual = Contents.read(r.db(), t, null);
        Contents.Difference d = Contents.compare(t, expected, actual);
        if (!d.equal()) {
          b.append("replicate ").append(r.connection()).append(", ").append(d).append('\n');
        }
      }
    }
    return b.toString();
  }

  /**
   * Asserts every replicate's tables hold exactly the primary's rows (those its where clauses
   * select), comparing full contents.
   *
   * @return rows compared per replicate and table, for the log
   */
  public Map<String, Integer> assertConsistent() throws SQLException {
    Map<String, Integer> counts = new LinkedHashMap<>();
    StringBuilder diff = new StringBuilder();
    for (ReplicateSide r : replicates) {
      for (Schema.Table t : Schema.COMPARED) {
        String where = r.spec().where().get(t.name());
        List<List<String>> expected = Contents.read(primary, t, where);
        List<List<String>> actual = Contents.read(r.db(), t, null);
        Contents.Difference d = Contents.compare(t, expected, actual);
        counts.put(r.connection() + "/" + t.name(), expected.size());
        if (!d.equal()) {
          diff.append("replicate ").append(r.connection()).append(", ").append(d).append('\n');
        }
      }
    }
    if (diff.length() > 0) {
      throw new AssertionError(
          "the replicates differ from the primary " + origin + ":\n" + diff + diagnostics());
    }
    LOG.info("{}: replicates equal the primary: {}", stem, counts);
    return counts;
  }

  /** Server state, for failure messages: threads down, DSIs, queues, and both processes' logs. */
  public String diagnostics() {
    StringBuilder b = new StringBuilder("--- diagnostics (").append(dir).append(")\n");
    if (server != null && server.alive()) {
      b.append(admin.show("admin who_is_down"));
      b.append(admin.show("admin who, dsi"));
      b.append(admin.show("admin who, sqm"));
      b.append(admin.show("admin who, dist"));
      b.append(admin.show("admin disk_space"));
    }
    if (server != null) {
      b.append("--- server log ").append(server.log()).append(" (tail)\n").append(server.tail());
      b.append('\n');
    }
    if (agent != null) {
      b.append("--- agent log ").append(agent.log()).append(" (tail)\n").append(agent.tail());
      b.append('\n');
    }
    return b.toString();
  }

  /**
   * Ends the DSI's sessions of replicate {@code r} at its PostgreSQL server ({@code
   * pg_terminate_backend} of the sessions named {@code openrs-dsi <ds.db>}): to the DSI this is
   * what a restart of the replicate database looks like.
   *
   * @return the sessions ended
   */
  public int terminateDsiSessions(ReplicateSide r) throws SQLException {
    if (r.db().kind() != Kind.POSTGRESQL) {
      throw new IllegalArgumentException("only PostgreSQL replicates");
    }
    try (Connection c = r.db().connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    + " WHERE application_name = ?")) {
      ps.setString(1, "openrs-dsi " + r.connection());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        int n = rs.getInt(1);
        LOG.info("{}: terminated {} DSI sessions of {}", stem, n, r.connection());
        return n;
      }
    }
  }

  /** PostgreSQL primary: the confirmed position of the agent's slot (null if none yet). */
  public String slotConfirmedLsn() throws SQLException {
    return primary.scalar(
        "SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'openrs_"
            + agentName
            + "'");
  }

  public Workload workload(Workload.Settings settings) {
    return new Workload(primary, settings);
  }

  public Database primary() {
    return primary;
  }

  public List<ReplicateSide> replicates() {
    return replicates;
  }

  public Admin admin() {
    return admin;
  }

  public ChildJvm server() {
    return server;
  }

  public ChildJvm agent() {
    return agent;
  }

  public String origin() {
    return origin;
  }

  public Spec spec() {
    return spec;
  }

  /**
   * Stops the agent and the server gracefully (asserting both stop), then drops the databases and
   * the slot.
   */
  public void stop() throws Exception {
    if (agent != null && agent.alive()) {
      int code = agent.stop(Duration.ofSeconds(60));
      LOG.info("{}: agent stopped with exit code {}", stem, code);
      if (!agent.printed("repagent " + agentName + " stopped")) {
        throw new AssertionError("the agent did not report a graceful stop:\n" + agent.tail());
      }
    }
    if (standby != null) {
      standby.kill();
    }
    if (server != null && server.alive()) {
      int code = server.stop(Duration.ofSeconds(60));
      LOG.info("{}: server stopped with exit code {}", stem, code);
      if (!server.printed("repserver CS_RS stopped")) {
        throw new AssertionError("the server did not report a graceful stop:\n" + server.tail());
      }
    }
  }

  @Override
  public void close() throws Exception {
    Exception first = null;
    for (ChildJvm c : new ChildJvm[] {agent, server, standby}) {
      if (c != null) {
        try {
          c.close();
        } catch (Exception e) {
          first = first == null ? e : first;
        }
      }
    }
    List<Database> dbs = new ArrayList<>();
    if (primary != null) {
      dbs.add(primary);
    }
    replicates.forEach(r -> dbs.add(r.db()));
    for (Database d : dbs) {
      try {
        d.close();
      } catch (Exception e) {
        LOG.warn("could not drop {}", d, e);
        first = first == null ? e : first;
      }
    }
    if (rssdSchema != null) {
      try {
        Database.dropPostgresSchema(rssdSchema);
      } catch (Exception e) {
        LOG.warn("could not drop RSSD schema {}", rssdSchema, e);
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
