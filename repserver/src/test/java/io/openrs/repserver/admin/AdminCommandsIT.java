package io.openrs.repserver.admin;

import static io.openrs.repserver.support.AdminSql.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.repserver.ReplicationServer;
import io.openrs.repserver.support.TestServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Admin commands through the real PostgreSQL JDBC driver, in extended and simple query mode. */
class AdminCommandsIT {

  @TempDir Path dir;
  private ReplicationServer server;

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dir, Map.of());
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private Connection connect(String user, String password, String mode) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    p.setProperty("password", password);
    p.setProperty("preferQueryMode", mode);
    p.setProperty("sslmode", "disable");
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + server.adminPort() + "/rssd", p);
  }

  private Connection sa(String mode) throws SQLException {
    return connect("sa", TestServers.ADMIN_PASSWORD, mode);
  }

  @ParameterizedTest
  @ValueSource(strings = {"extended", "simple"})
  void aDbaConfiguresReplicationAndTheChangesSurviveARestart(String mode) throws Exception {
    try (Connection c = sa(mode);
        Statement s = c.createStatement()) {
      s.execute(
          "create connection to pds.pdb using profile postgresql set server to '127.0.0.1', set"
              + " port to '5432', set user to 'openrs', set password to 'openrs' with log"
              + " transfer on");
      s.execute(
          "create connection to rds.rdb using profile postgresql set server to '127.0.0.1', set"
              + " port to '5432', set user to 'openrs', set password to 'openrs', set"
              + " dsi_num_threads to '4'");
      s.execute(
          "create replication definition orders_rd with primary at pds.pdb with all tables named"
              + " shop.orders (id int, region varchar(8), note text) primary key (id) searchable"
              + " columns (region)");
      s.execute(
          "create subscription eu_sub for orders_rd with replicate at rds.rdb where region ="
              + " 'EU' without materialization");
      SQLWarning w = s.getWarnings();
      assertThat(w == null ? null : w.getMessage()).contains("REPLICA IDENTITY FULL");
      s.execute("configure replication server set sqt_max_cache_size to '33554432'");

      List<List<String>> conns = rows(s, "admin show_connections");
      assertThat(conns).extracting(r -> r.get(1)).containsExactly("pds.pdb", "rds.rdb");
      assertThat(conns.get(1).get(6))
          .contains("password=***")
          .doesNotContain("openrs,")
          .doesNotContain("enc:");
      try (ResultSet rs = s.executeQuery("rs_helprep orders_rd")) {
        assertThat(rs.getMetaData().getColumnName(1)).isEqualTo("replication_definition");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("primary_table")).isEqualTo("shop.orders");
        assertThat(rs.getString("primary_key")).isEqualTo("id");
      }
      assertThat(rows(s, "rs_helpsub"))
          .singleElement()
          .satisfies(r -> assertThat(r.get(4)).isEqualTo("region = 'EU'"));
      assertThat(rows(s, "admin who"))
          .extracting(r -> r.get(1))
          .contains("REP AGENT", "SQM", "SQT", "DIST");
      assertThat(rows(s, "admin who_is_down"))
          .extracting(r -> r.get(1))
          .containsExactly("REP AGENT");
      assertThat(rows(s, "admin disk_space"))
          .singleElement()
          .satisfies(r -> assertThat(r.get(0)).isEqualTo("p1"));
      assertThat(rows(s, "admin config, sqt_max_cache_size"))
          .singleElement()
          .satisfies(r -> assertThat(r.get(6)).isEqualTo("rssd"));
      try (ResultSet rs = s.executeQuery("admin who, sqm")) {
        assertThat(rs.getMetaData().getColumnTypeName(4)).isEqualTo("int8");
      }
    }
    server.close();
    server = TestServers.start(dir, Map.of());
    assertThat(server.parameters().getLong("sqt_max_cache_size")).isEqualTo(33554432L);
    try (Connection c = sa(mode);
        Statement s = c.createStatement()) {
      assertThat(rows(s, "admin show_connections")).hasSize(2);
      assertThat(rows(s, "rs_helpsub")).hasSize(1);
    }
  }

  @Test
  void adminStatsMovesWhenTrafficFlows() throws Exception {
    server.createConnection("pds", "pdb", io.openrs.config.rssd.Profile.POSTGRESQL, true, Map.of());
    try (Connection c = sa("extended");
        Statement s = c.createStatement()) {
      s.execute("admin stats, reset");
      io.openrs.repserver.support.Origin o = new io.openrs.repserver.support.Origin();
      try (io.openrs.wire.LtlClient agent =
          io.openrs.wire.LtlClient.connect(
              "127.0.0.1",
              server.ltlPort(),
              new io.openrs.ltl.LtlCommand.Connect(
                  "pds", "pdb", 4, 4, "sa", TestServers.ADMIN_PASSWORD, java.util.Optional.empty()),
              java.time.Duration.ofSeconds(10))) {
        agent
            .sendBatch(o.text(List.of(o.begin(1), o.commit(1), o.begin(2), o.commit(2))))
            .get(10, java.util.concurrent.TimeUnit.SECONDS);
        org.awaitility.Awaitility.await()
            .atMost(java.time.Duration.ofSeconds(30))
            .until(
                () ->
                    rows(s, "admin stats, repagent").stream()
                        .anyMatch(
                            r ->
                                r.get(2).equals("CmdsRecv")
                                    && Double.parseDouble(r.get(4)) == 4.0));
      }
      assertThat(rows(s, "admin stats, cps"))
          .anyMatch(r -> r.get(0).equals("REPAGENT") && Double.parseDouble(r.get(8)) > 0);
    }
  }

  /**
   * What an agent reports it leaves out reaches the DBA: {@code admin who, rep} lists it, {@code
   * admin who} counts it on the REP AGENT row, {@code admin health} turns SUSPECT, and a later
   * report replaces it. An agent at protocol version 4 reports nothing: UNKNOWN.
   */
  @Test
  void whatTheAgentLeavesOutIsShownUntilItsNextReport() throws Exception {
    int prometheusPort = restartWithPrometheus();
    server.createConnection("pds", "pdb", io.openrs.config.rssd.Profile.POSTGRESQL, true, Map.of());
    java.time.Duration wait = java.time.Duration.ofSeconds(30);
    try (Connection c = sa("extended");
        Statement s = c.createStatement()) {
      try (io.openrs.wire.LtlClient v4 = agent(4)) {
        assertThat(v4.sendStatus(new io.openrs.wire.Frame.AgentStatus(List.of()))).isFalse();
        assertThat(rows(s, "admin who, rep"))
            .singleElement()
            .satisfies(
                r -> {
                  assertThat(r.subList(0, 3)).containsExactly("pds.pdb", null, "Active");
                  assertThat(r.get(5)).isEqualTo("UNKNOWN");
                });
      }
      try (io.openrs.wire.LtlClient agent = agent(5)) {
        assertThat(
                agent.sendStatus(
                    new io.openrs.wire.Frame.AgentStatus(
                        List.of(
                            new io.openrs.wire.Frame.StatusItem(
                                io.openrs.wire.Frame.StatusKind.TABLE_NOT_REPLICATED,
                                "sales.hours",
                                "its column(s) opens are timetz"),
                            new io.openrs.wire.Frame.StatusItem(
                                io.openrs.wire.Frame.StatusKind.WARNING, "", "zero dates")))))
            .isTrue();
        org.awaitility.Awaitility.await()
            .atMost(wait)
            .until(() -> rows(s, "admin who, rep").size() == 2);
        List<List<String>> rep = rows(s, "admin who, rep");
        assertThat(rep.get(0))
            .containsSubsequence("pds.pdb", "a5", "Active")
            .containsSubsequence("sales.hours", "NOT REPLICATED", "its column(s) opens are timetz");
        assertThat(rep.get(1))
            .containsSubsequence("pds.pdb", "a5")
            .contains("WARNING", "zero dates");
        assertThat(rep.get(1).get(4)).isNull();
        assertThat(rows(s, "admin who"))
            .contains(
                List.of(
                    "1",
                    "REP AGENT",
                    "Active",
                    "pds.pdb (1 table not replicated: admin who, rep)"));
        assertThat(scrape(prometheusPort))
            .contains("openrs_agent_connected{instance_id=\"pds.pdb\",module=\"REPAGENT\"} 1")
            .contains(
                "openrs_tables_not_replicated{instance_id=\"pds.pdb\",module=\"REPAGENT\"} 1");
        List<String> health = rows(s, "admin health").get(0);
        assertThat(health.get(2)).isEqualTo("SUSPECT");
        assertThat(health.get(5))
            .isEqualTo("origin pds.pdb: 1 table not replicated (admin who, rep)");
        agent.sendStatus(new io.openrs.wire.Frame.AgentStatus(List.of()));
        org.awaitility.Awaitility.await()
            .atMost(wait)
            .until(() -> rows(s, "admin who, rep").get(0).get(5).equals("ALL CAPTURED"));
        assertThat(rows(s, "admin health").get(0).get(2)).isEqualTo("HEALTHY");
      }
      // The last report stays while the agent is away.
      org.awaitility.Awaitility.await()
          .atMost(wait)
          .until(() -> rows(s, "admin who, rep").get(0).get(2).equals("Down"));
      assertThat(rows(s, "admin who, rep").get(0).get(5)).isEqualTo("ALL CAPTURED");
      assertThat(scrape(prometheusPort))
          .contains("openrs_agent_connected{instance_id=\"pds.pdb\",module=\"REPAGENT\"} 0")
          .contains("openrs_tables_not_replicated{instance_id=\"pds.pdb\",module=\"REPAGENT\"} 0");
    }
  }

  /** Restarts the test's server with the production registry and a Prometheus port; returns it. */
  private int restartWithPrometheus() throws Exception {
    server.close();
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    server =
        TestServers.start(
            dir,
            Map.of("prometheus_port", String.valueOf(port)),
            io.openrs.repserver.monitor.MonitorRegistries.prometheus());
    return port;
  }

  private static String scrape(int port) throws Exception {
    return java.net.http.HttpClient.newHttpClient()
        .send(
            java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + port + "/metrics"))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /**
   * The largest report a frame may hold (10,000 items) is taken whole and listed, and logged in at
   * most 21 lines; sending it again logs nothing more (nothing is new).
   */
  @Test
  void aReportOfTenThousandTablesIsListedAndLoggedInBoundedLines() throws Exception {
    server.createConnection("pds", "pdb", io.openrs.config.rssd.Profile.POSTGRESQL, true, Map.of());
    List<io.openrs.wire.Frame.StatusItem> items = new java.util.ArrayList<>();
    for (int i = 0; i < io.openrs.wire.WireProtocol.MAX_STATUS_ITEMS; i++) {
      items.add(
          new io.openrs.wire.Frame.StatusItem(
              io.openrs.wire.Frame.StatusKind.TABLE_NOT_REPLICATED,
              "sales.t" + i,
              "its column(s) opens are timetz " + "x".repeat(1000)));
    }
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> log =
        new ch.qos.logback.core.read.ListAppender<>();
    log.start();
    ch.qos.logback.classic.Logger sessions =
        (ch.qos.logback.classic.Logger)
            org.slf4j.LoggerFactory.getLogger("io.openrs.repserver.exec.AgentSession");
    sessions.addAppender(log);
    try (Connection c = sa("extended");
        Statement s = c.createStatement();
        io.openrs.wire.LtlClient agent = agent(5)) {
      agent.sendStatus(new io.openrs.wire.Frame.AgentStatus(items));
      org.awaitility.Awaitility.await()
          .atMost(java.time.Duration.ofSeconds(60))
          .until(() -> rows(s, "admin who, rep").size() == items.size());
      java.util.function.Supplier<Long> reportLines =
          () ->
              log.list.stream()
                  .filter(e -> e.getFormattedMessage().contains("(admin who, rep)"))
                  .count();
      assertThat(reportLines.get()).isEqualTo(21);
      assertThat(log.list.get(log.list.size() - 1).getFormattedMessage())
          .contains("reports 9980 more new items");
      agent.sendStatus(new io.openrs.wire.Frame.AgentStatus(items));
      agent.sendStatus(new io.openrs.wire.Frame.AgentStatus(items.subList(0, 1)));
      org.awaitility.Awaitility.await()
          .atMost(java.time.Duration.ofSeconds(60))
          .until(() -> rows(s, "admin who, rep").size() == 1);
      assertThat(reportLines.get()).as("nothing new in the later reports").isEqualTo(21);
      assertThat(rows(s, "admin health").get(0).get(5))
          .isEqualTo("origin pds.pdb: 1 table not replicated (admin who, rep)");
    } finally {
      sessions.detachAppender(log);
    }
  }

  private io.openrs.wire.LtlClient agent(int version) throws Exception {
    return io.openrs.wire.LtlClient.connect(
        "127.0.0.1",
        server.ltlPort(),
        new io.openrs.ltl.LtlCommand.Connect(
            "pds",
            "pdb",
            version,
            version,
            "sa",
            TestServers.ADMIN_PASSWORD,
            java.util.Optional.of("a" + version)),
        java.time.Duration.ofSeconds(10));
  }

  @Test
  void alterReplicationDefinitionKeepsSearchableColumnsThatWhereClausesRead() throws Exception {
    try (Connection c = sa("extended");
        Statement s = c.createStatement()) {
      s.execute(
          "create connection to pds.pdb using profile postgresql set server to '127.0.0.1', set"
              + " port to '5432', set user to 'u' with log transfer on");
      s.execute(
          "create connection to rds.rdb using profile postgresql set server to '127.0.0.1', set"
              + " port to '1', set user to 'u'");
      s.execute(
          "create replication definition o_rd with primary at pds.pdb with all tables named"
              + " shop.o (id int, region varchar(8)) primary key (id) searchable columns"
              + " (region)");
      s.execute(
          "create subscription eu for o_rd with replicate at rds.rdb where region = 'EU'"
              + " without materialization");
      s.execute("alter replication definition o_rd add note text, amount numeric(10,2)");
      s.execute("alter replication definition o_rd add searchable columns (amount)");
      assertThat(rows(s, "rs_helprep o_rd").get(0))
          .anyMatch(cell -> cell != null && cell.contains("note") && cell.contains("amount"));
      assertThatThrownBy(
              () -> s.execute("alter replication definition o_rd drop searchable columns (region)"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("subscription eu")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("55000"));
      s.execute("alter replication definition o_rd drop searchable columns (amount)");
    }
  }

  @Test
  void rsTicketIsIssuedInThePrimaryDatabaseThroughItsRoutine() throws Exception {
    try (io.openrs.repserver.support.ReplicateDb primary =
        io.openrs.repserver.support.ReplicateDb.create("rs_ticket_pdb")) {
      // The routine the agent creates emits a logical message; this one records its call.
      primary.exec(
          "CREATE TABLE seen (h1 text, h2 text, h3 text, h4 text)",
          "CREATE FUNCTION public.rs_ticket(h1 text, h2 text DEFAULT NULL, h3 text DEFAULT"
              + " NULL, h4 text DEFAULT NULL) RETURNS timestamptz LANGUAGE sql AS $$ INSERT INTO"
              + " seen VALUES (h1, h2, h3, h4); SELECT clock_timestamp() $$");
      try (Connection c = sa("extended");
          Statement s = c.createStatement()) {
        assertThatThrownBy(() -> s.execute("rs_ticket 'early'"))
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("no connection with log transfer")
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("55000"));
        s.execute(
            "create connection to pds."
                + primary.name()
                + " using profile postgresql set server to '127.0.0.1', set port to '5432', set"
                + " user to 'openrs', set password to 'openrs' with log transfer on");
        s.execute("rs_ticket 'batch1', 'start'");
        assertThat(s.getWarnings().getMessage())
            .contains("rs_ticket issued at pds." + primary.name());
      }
      assertThat(primary.rows("SELECT h1, h2, h3, h4 FROM seen"))
          .containsExactly("batch1|start|null|null");
    }
  }

  @Test
  void psqlRunsAdminCommands() throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(
                "psql",
                "-h",
                "127.0.0.1",
                "-p",
                String.valueOf(server.adminPort()),
                "-U",
                "sa",
                "-d",
                "rssd",
                "-X",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-c",
                "admin echo, 'from psql'",
                "-c",
                "admin config, block_size")
            .redirectErrorStream(true);
    pb.environment().put("PGPASSWORD", TestServers.ADMIN_PASSWORD);
    pb.environment().put("PGSSLMODE", "disable");
    Process psql = pb.start();
    String out = new String(psql.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(psql.waitFor()).as(out).isZero();
    assertThat(out.lines()).contains("from psql");
    assertThat(out).contains("block_size|131072|");

    ProcessBuilder bad =
        new ProcessBuilder(
                "psql",
                "-h",
                "127.0.0.1",
                "-p",
                String.valueOf(server.adminPort()),
                "-U",
                "sa",
                "-d",
                "rssd",
                "-X",
                "-c",
                "admin who, nonsense")
            .redirectErrorStream(true);
    bad.environment().put("PGPASSWORD", TestServers.ADMIN_PASSWORD);
    bad.environment().put("PGSSLMODE", "disable");
    Process failing = bad.start();
    String err = new String(failing.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(failing.waitFor()).isNotZero();
    assertThat(err).contains("unknown module 'nonsense'");
  }

  @Test
  void prometheusScrapesTheServersCountersOverHttp() throws Exception {
    int port = restartWithPrometheus();
    server.createConnection("pds", "pdb", io.openrs.config.rssd.Profile.POSTGRESQL, true, Map.of());
    java.net.http.HttpResponse<String> r =
        java.net.http.HttpClient.newHttpClient()
            .send(
                java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body())
        .contains("openrs_cmds_recv_total{instance_id=\"pds.pdb\",module=\"REPAGENT\"} 0")
        .contains("openrs_sqm_write_time_seconds_count")
        // Micrometer's JVM and process metrics under their standard names
        .contains("jvm_memory_used_bytes{")
        .contains("jvm_threads_live_threads")
        .contains("process_cpu_usage")
        .contains("process_uptime_seconds");
  }

  @Test
  void errorsCarrySqlStateAndPosition() throws Exception {
    try (Connection c = sa("extended");
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.execute("creat connection to a.b"))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("42601");
                assertThat(e.getMessage()).contains("position 1").contains("create");
              });
      assertThatThrownBy(() -> s.execute("configure replication server set block_size to '1000'"))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("22023");
                assertThat(e.getMessage()).contains("block_size").contains("1000");
              });
      assertThatThrownBy(() -> s.execute("configure replication server set block_sise to '65536'"))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("42704");
                assertThat(e.getMessage()).contains("block_size");
              });
      assertThatThrownBy(() -> s.execute("suspend log transfer from no.such"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42704"));
      s.execute(
          "create connection to pds.pdb using profile postgresql set server to 'h', set port to"
              + " '5432', set user to 'u' with log transfer on");
      assertThatThrownBy(
              () ->
                  s.execute(
                      "create connection to pds.pdb using profile postgresql set server to 'h',"
                          + " set port to '5432', set user to 'u'"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42710"));
      assertThatThrownBy(
              () ->
                  s.execute(
                      "create subscription s1 for nord with replicate at pds.pdb where x = = 1"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42601"));
    }
  }

  @Test
  void theMonitorRoleReadsButChangesNothingAndBadPasswordsAreRefused() throws Exception {
    try (Connection c = sa("extended");
        Statement s = c.createStatement()) {
      s.execute("create user watcher set password 'watch-only-42'");
      s.execute("create user ops set password 'ops-secret-42'");
      s.execute("grant sa to ops");
    }
    try (Connection c = connect("watcher", "watch-only-42", "extended");
        Statement s = c.createStatement()) {
      assertThat(rows(s, "admin who")).isEmpty();
      assertThat(rows(s, "admin version").get(0).get(0)).startsWith("openrs");
      assertThatThrownBy(() -> s.execute("configure replication server set sqm_page_size to '8'"))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("42501");
                assertThat(e.getMessage()).contains("monitor role");
              });
    }
    try (Connection c = connect("ops", "ops-secret-42", "simple");
        Statement s = c.createStatement()) {
      s.execute("configure replication server set sqm_page_size to '8'");
    }
    assertThatThrownBy(() -> connect("watcher", "wrong-password", "extended"))
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
    assertThatThrownBy(() -> connect("nobody", "whatever-42", "extended"))
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
  }
}
