package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Value;
import io.openrs.ltl.text.LtlParser;
import io.openrs.repagent.support.AgentHarness;
import io.openrs.repagent.support.QueueContents.Transaction;
import io.openrs.repagent.support.TestMariaDb;
import io.openrs.repagent.support.TestPostgres;
import io.openrs.repagent.support.TestServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rs_ticket} called in the primary database, through the real agent, to a real server: a
 * ticket in its transaction, in order, with its headers and the primary's clock; rolled-back
 * tickets never arrive; marker rows never arrive as rows; the inbound queue shows it.
 */
class RsTicketIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  /** An h4 with every character that needs care on the way: quotes, escapes, controls, UTF-8. */
  private static final String ODD = "Zoë 'q' \"d\" \\ \n\r\t 😀 表 -- ;";

  @TempDir Path dir;
  private AgentHarness h;

  @AfterEach
  void tearDown() throws Exception {
    if (h != null) {
      h.close();
    }
  }

  private String t(String table) {
    return h.schema + "." + table;
  }

  // ---- PostgreSQL --------------------------------------------------------------------------

  private RepAgent startPostgres(Map<String, String> overrides) throws Exception {
    h = new AgentHarness(dir);
    h.startServer();
    TestPostgres.exec("CREATE TABLE " + t("events") + " (id int PRIMARY KEY)");
    RepAgent agent = h.startAgent(overrides);
    await().atMost(WAIT).until(() -> agent.state() == RepAgent.State.REPLICATING);
    await().atMost(WAIT).until(() -> TestPostgres.confirmedFlushLsn(h.slot).isPresent());
    return agent;
  }

  private Instant pgTicket(Connection c, String h1, String h2, String h3, String h4)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT " + h.schema + ".rs_ticket(?, ?, ?, ?)")) {
      ps.setString(1, h1);
      ps.setString(2, h2);
      ps.setString(3, h3);
      ps.setString(4, h4);
      try (ResultSet r = ps.executeQuery()) {
        r.next();
        return r.getObject(1, OffsetDateTime.class).toInstant();
      }
    }
  }

  @Test
  void postgresTicketTravelsInItsTransactionInOrderAndRollbacksNever() throws Exception {
    RepAgent agent = startPostgres(Map.of());
    Instant pdb;
    try (Connection c = TestPostgres.connect()) {
      c.setAutoCommit(false);
      exec(c, "INSERT INTO " + t("events") + " VALUES (1)");
      pdb = pgTicket(c, "bench", "run 7", null, ODD);
      exec(c, "INSERT INTO " + t("events") + " VALUES (2)");
      c.commit();
      pgTicket(c, "rolled", null, null, null);
      exec(c, "INSERT INTO " + t("events") + " VALUES (3)");
      c.rollback();
      c.setAutoCommit(true);
      // A transaction of one ticket only; the function's default arguments.
      try (Statement s = c.createStatement()) {
        s.execute("SELECT " + h.schema + ".rs_ticket('alone')");
      }
      // Not tickets: a non-transactional message with the ticket prefix, a transactional one with
      // another prefix.
      exec(
          c,
          "SELECT pg_logical_emit_message(false, 'openrs_ticket."
              + h.schema
              + "', convert_to(E'openrs_ticket 1\\npdb 0\\nh fake', 'UTF8'))");
      c.setAutoCommit(false);
      exec(c, "INSERT INTO " + t("events") + " VALUES (4)");
      exec(c, "SELECT pg_logical_emit_message(true, 'someone.else', 'not a ticket')");
      c.commit();
    }
    await().atMost(WAIT).until(() -> h.outbound().size() == 3);
    List<Transaction> out = h.outbound();

    List<LtlCommand.InTransaction> first = out.get(0).body();
    assertThat(first).hasSize(3);
    assertThat(idOf(first.get(0))).isEqualTo(1);
    LtlCommand.Ticket ticket = (LtlCommand.Ticket) first.get(1);
    assertThat(idOf(first.get(2))).isEqualTo(2);
    assertThat(ticket.time()).isEqualTo(pdb);
    assertThat(ticket.headers().subList(0, 4)).containsExactly("bench", "run 7", "", ODD);
    // EXEC and DIST stamped it on the way.
    assertThat(ticket.headers().subList(4, ticket.headers().size()))
        .satisfiesExactly(
            e -> assertThat(e).startsWith("EXEC="),
            b -> assertThat(b).startsWith("B="),
            d -> assertThat(d).startsWith("DIST="));

    assertThat(out.get(1).body()).hasSize(1);
    assertThat(((LtlCommand.Ticket) out.get(1).body().get(0)).headers().get(0)).isEqualTo("alone");
    assertThat(out.get(2).body()).hasSize(1);
    assertThat(idOf(out.get(2).body().get(0))).isEqualTo(4);
    PostgresAgentIT.assertOqidsIncrease(out);

    List<LtlCommand.Ticket> inbound = tickets(h.inbound());
    assertThat(inbound).hasSize(2);
    assertThat(inbound.get(0).headers().subList(0, 4)).containsExactly("bench", "run 7", "", ODD);
    assertThat(inbound).noneMatch(x -> x.headers().contains("rolled"));
    assertThat(agent.counters().get(AgentCounter.RA_TICKETS)).isEqualTo(2);

    // sysadmin dump_queue shows the ticket in the origin's inbound queue as LTL text.
    int origin =
        h.server.rssd().connections().find(AgentHarness.DS, AgentHarness.DB).orElseThrow().id();
    List<LtlCommand.Ticket> dumped = new ArrayList<>();
    for (String line : dumpInbound(origin)) {
      if (line.startsWith("ticket tran ")) {
        dumped.add((LtlCommand.Ticket) new LtlParser().parseOne(line));
      }
    }
    assertThat(dumped).containsExactlyElementsOf(inbound);
    assertThat(dumpInbound(origin)).anySatisfy(l -> assertThat(l).contains("headers ('bench', "));

    // The primary refuses headers longer than Replication Server's.
    try (Connection c = TestPostgres.connect()) {
      assertThatThrownBy(() -> pgTicket(c, "12345678901", null, null, null))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("h1 is 11 characters long")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22001"));
    }
  }

  @Test
  void postgresAgentWithoutCreateOnTheSchemaIsToldWhichPrivilegeIsMissing() throws Exception {
    h = new AgentHarness(dir);
    h.startServer();
    String role = TestPostgres.unique("rat_nocreate");
    TestPostgres.exec("CREATE ROLE " + role + " LOGIN PASSWORD 'pw' REPLICATION");
    try {
      Map<String, String> cfg = new HashMap<>();
      cfg.put("source_user", role);
      cfg.put("source_password_env", "NOCREATE_PW");
      cfg.put("heartbeat_interval_ms", "0");
      AgentSettings s =
          AgentConfigFile.fromMap(
              "test",
              h.agentConfig(cfg),
              name -> name.equals("NOCREATE_PW") ? "pw" : TestServer.ADMIN_PASSWORD,
              dir);
      assertThat(s.source().ticketSchema()).isEqualTo(h.schema);
      RepAgent agent = h.startAgent(s);
      agent.terminated().get(60, TimeUnit.SECONDS);
      assertThat(agent.state()).isEqualTo(RepAgent.State.FAILED);
      assertThat(agent.failure().orElseThrow())
          .isInstanceOf(AgentException.class)
          .hasMessageContaining("RA-2")
          .hasMessageContaining("cannot create function \"" + h.schema + "\".rs_ticket(")
          .hasMessageContaining("needs the CREATE privilege on schema " + h.schema)
          .hasMessageContaining("GRANT CREATE ON SCHEMA \"" + h.schema + "\" TO \"" + role)
          .hasMessageContaining("rs_ticket_create = off");
    } finally {
      TestPostgres.exec("DROP ROLE " + role);
    }
  }

  // ---- MariaDB -----------------------------------------------------------------------------

  private RepAgent startMariaDb(Map<String, String> overrides) throws Exception {
    if (h == null) {
      h = new AgentHarness(dir, true);
      h.startServer();
      TestMariaDb.exec(
          "CREATE TABLE " + t("marker") + " (id int PRIMARY KEY)",
          "CREATE TABLE " + t("events") + " (id int PRIMARY KEY)");
    }
    RepAgent agent = h.startAgent(overrides);
    await().atMost(WAIT).until(() -> agent.state() == RepAgent.State.REPLICATING);
    return agent;
  }

  /** Waits until the binlog reader streams: a marker transaction arrives after its heartbeat. */
  private void awaitMariaDbStreaming(int marker) throws Exception {
    await().atMost(WAIT).until(this::heartbeatWritten);
    int before = h.outbound().size();
    TestMariaDb.exec("INSERT INTO " + t("marker") + " VALUES (" + marker + ")");
    await().atMost(WAIT).until(() -> h.outbound().size() > before);
  }

  private boolean heartbeatWritten() {
    try (Connection c = TestMariaDb.connect();
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT count(*) FROM "
                    + t("openrs_heartbeat")
                    + " WHERE agent = '"
                    + h.agentName
                    + "'")) {
      return r.next() && r.getInt(1) > 0;
    } catch (SQLException e) {
      return false;
    }
  }

  private void mariaTicket(Connection c, String h1, String h2, String h3, String h4)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("CALL " + t("rs_ticket") + "(?, ?, ?, ?)")) {
      ps.setString(1, h1);
      ps.setString(2, h2);
      ps.setString(3, h3);
      ps.setString(4, h4);
      ps.execute();
    }
  }

  private static Instant utcNow(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT UTC_TIMESTAMP(6)")) {
      r.next();
      return r.getObject(1, LocalDateTime.class).toInstant(ZoneOffset.UTC);
    }
  }

  @Test
  void mariaDbTicketTravelsInItsTransactionAndMarkerRowsNeverAsRows() throws Exception {
    RepAgent agent = startMariaDb(Map.of());
    awaitMariaDbStreaming(0);
    Instant before;
    Instant after;
    try (Connection c = TestMariaDb.connect()) {
      c.setAutoCommit(false);
      exec(c, "INSERT INTO " + t("events") + " VALUES (1)");
      before = utcNow(c);
      mariaTicket(c, "maria", "run 7", null, ODD);
      after = utcNow(c);
      exec(c, "INSERT INTO " + t("events") + " VALUES (2)");
      c.commit();
      mariaTicket(c, "rolled", null, null, null);
      exec(c, "INSERT INTO " + t("events") + " VALUES (3)");
      c.rollback();
      c.setAutoCommit(true);
      mariaTicket(c, "old", null, null, null);
      // Updates of marker rows are not sent; the next call deletes the row, nor is that sent.
      exec(
          c,
          "UPDATE "
              + t("rs_ticket_marker")
              + " SET pdb_time = pdb_time - INTERVAL 2 DAY WHERE h1 = 'old'");
      mariaTicket(c, "new", null, null, null);
      exec(c, "INSERT INTO " + t("events") + " VALUES (4)");
    }
    // marker, the first transaction, old, new, the last insert.
    await().atMost(WAIT).until(() -> h.outbound().size() == 5);
    List<Transaction> out = h.outbound();
    List<LtlCommand.InTransaction> first = out.get(1).body();
    assertThat(first).hasSize(3);
    assertThat(idOf(first.get(0))).isEqualTo(1);
    LtlCommand.Ticket ticket = (LtlCommand.Ticket) first.get(1);
    assertThat(idOf(first.get(2))).isEqualTo(2);
    assertThat(ticket.headers().subList(0, 4)).containsExactly("maria", "run 7", "", ODD);
    assertThat(ticket.headers().get(4)).startsWith("EXEC=");
    assertThat(ticket.time()).isBetween(before, after);
    assertThat(headersOf(out.get(2))).containsExactly("old");
    assertThat(headersOf(out.get(3))).containsExactly("new");
    assertThat(idOf(out.get(4).body().get(0))).isEqualTo(4);
    PostgresAgentIT.assertOqidsIncrease(out, 16);

    List<LtlCommand.InTransaction> inbound = h.inbound();
    assertThat(tickets(inbound)).hasSize(3);
    assertThat(inbound).noneMatch(RsTicketIT::touchesMarkerTable);
    assertThat(agent.counters().get(AgentCounter.RA_TICKETS)).isEqualTo(3);
    // The procedure removed the day-old row; the rolled-back one never existed.
    assertThat(markerRows()).containsExactly("maria", "new");
  }

  @Test
  void mariaDbTicketObjectsRecreatedBehindTheReaderAreNotSentAsDdl() throws Exception {
    RepAgent agent = startMariaDb(Map.of());
    awaitMariaDbStreaming(0);
    // The server holds a position of this session's reader before it stops.
    await()
        .atMost(WAIT)
        .until(
            () ->
                h.server
                        .origin(AgentHarness.DS, AgentHarness.DB)
                        .orElseThrow()
                        .locator()
                        .resumeBlob()
                        .length
                    > 0);
    agent.close();
    // Dropped while the agent is away: the next start creates them again, and the reader,
    // resuming before the drops, reads the drops and the creates.
    TestMariaDb.exec("DROP PROCEDURE " + t("rs_ticket"), "DROP TABLE " + t("rs_ticket_marker"));
    startMariaDb(Map.of());
    awaitMariaDbStreaming(1);
    try (Connection c = TestMariaDb.connect()) {
      mariaTicket(c, "again", null, null, null);
    }
    await().atMost(WAIT).until(() -> tickets(h.inbound()).size() == 1);
    assertThat(h.inbound()).noneMatch(c -> c instanceof LtlCommand.Ddl);
    assertThat(h.inbound()).noneMatch(RsTicketIT::touchesMarkerTable);
    assertThat(tickets(h.inbound()).get(0).headers().get(0)).isEqualTo("again");
  }

  // ---- helpers -----------------------------------------------------------------------------

  private List<String> markerRows() throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = TestMariaDb.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT h1 FROM " + t("rs_ticket_marker") + " ORDER BY id")) {
      while (r.next()) {
        out.add(r.getString(1));
      }
    }
    return out;
  }

  private static boolean touchesMarkerTable(LtlCommand.InTransaction c) {
    if (c instanceof LtlCommand.Insert i) {
      return i.table().table().equals("rs_ticket_marker");
    }
    if (c instanceof LtlCommand.Update u) {
      return u.table().table().equals("rs_ticket_marker");
    }
    if (c instanceof LtlCommand.Delete d) {
      return d.table().table().equals("rs_ticket_marker");
    }
    if (c instanceof LtlCommand.Truncate t) {
      return t.table().table().equals("rs_ticket_marker");
    }
    if (c instanceof LtlCommand.Ddl d) {
      return d.statement().contains("rs_ticket");
    }
    return false;
  }

  private static List<String> headersOf(Transaction t) {
    assertThat(t.body()).hasSize(1);
    List<String> headers = ((LtlCommand.Ticket) t.body().get(0)).headers();
    List<String> given = new ArrayList<>();
    for (String s : headers) {
      if (s.startsWith("EXEC=")) {
        break;
      }
      given.add(s);
    }
    return given;
  }

  private static List<LtlCommand.Ticket> tickets(List<LtlCommand.InTransaction> commands) {
    List<LtlCommand.Ticket> out = new ArrayList<>();
    for (LtlCommand.InTransaction c : commands) {
      if (c instanceof LtlCommand.Ticket t) {
        out.add(t);
      }
    }
    return out;
  }

  private static int idOf(LtlCommand.InTransaction c) {
    for (Column col : ((LtlCommand.Insert) c).after()) {
      if (col.name().equals("id")) {
        return ((Value.Int32) col.value()).value();
      }
    }
    throw new AssertionError("no id in " + c);
  }

  /** {@code sysadmin dump_queue, <origin>, 1} at the admin port: the command column. */
  private List<String> dumpInbound(int origin) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "sa");
    p.setProperty("password", TestServer.ADMIN_PASSWORD);
    p.setProperty("preferQueryMode", "simple");
    p.setProperty("sslmode", "disable");
    List<String> out = new ArrayList<>();
    try (Connection c =
            DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + h.server.adminPort() + "/rssd", p);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("sysadmin dump_queue, " + origin + ", 1")) {
      while (r.next()) {
        out.add(r.getString("command"));
      }
    }
    return out;
  }

  private static void exec(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
