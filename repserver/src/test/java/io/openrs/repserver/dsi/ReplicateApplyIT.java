package io.openrs.repserver.dsi;

import static io.openrs.repserver.support.Origin.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.ConnectionState;
import io.openrs.config.rssd.ExceptionEntry;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.RepDefColumn;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.repserver.ReplicationServer;
import io.openrs.repserver.support.Origin;
import io.openrs.repserver.support.OutboundContents;
import io.openrs.repserver.support.ReplicateDb;
import io.openrs.repserver.support.TestServers;
import io.openrs.wire.BatchAnswer;
import io.openrs.wire.LtlClient;
import io.openrs.wire.WireProtocol;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole server with its DSI applying to a real PostgreSQL replicate: an agent speaking the real
 * protocol sends transactions; the replicate ends with exactly the committed changes, and the admin
 * commands that drive the DSI (suspend, resume, skip transaction, alter connection) do what they
 * say.
 */
class ReplicateApplyIT {

  private static final TableName ORDERS = new TableName("shop", "orders");
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;
  private ReplicateDb replicate;
  private ReplicationServer server;
  private LtlClient agent;
  private final Origin origin = new Origin();
  private long nextTran = 1;

  @BeforeEach
  void createReplicate() throws Exception {
    replicate = ReplicateDb.create("rs_apply");
    replicate.exec("CREATE TABLE public.orders (id int PRIMARY KEY, region varchar(8), note text)");
  }

  @AfterEach
  void stop() throws Exception {
    if (agent != null) {
      agent.close();
    }
    if (server != null) {
      server.close();
    }
    replicate.close();
  }

  private void start(Map<String, String> replicateParameters) throws Exception {
    server = TestServers.start(dir, Map.of(), new SimpleMeterRegistry());
    ConnectionDef primary =
        server.createConnection("pds", "pdb", Profile.POSTGRESQL, true, Map.of());
    Map<String, String> settings = new LinkedHashMap<>(replicate.connectionSettings());
    settings.putAll(replicateParameters);
    server.createConnection("rds", replicate.name(), Profile.POSTGRESQL, false, settings);
    server
        .catalog()
        .createRepDef(
            new RepDef(
                "orders_rd",
                primary.id(),
                "shop",
                "orders",
                "public",
                "orders",
                List.of(
                    new RepDefColumn("id", "int"),
                    new RepDefColumn("region", "varchar(8)"),
                    new RepDefColumn("note", "text")),
                List.of("id"),
                List.of()));
    List<String> notices =
        server
            .catalog()
            .subscriptions()
            .create("orders_sub", "orders_rd", false, "rds", replicate.name(), Optional.empty());
    assertThat(notices).isEmpty();
    connectAgent();
  }

  private void connectAgent() throws Exception {
    agent =
        LtlClient.connect(
            "127.0.0.1",
            server.ltlPort(),
            new LtlCommand.Connect(
                "pds",
                "pdb",
                WireProtocol.MIN_VERSION,
                WireProtocol.MAX_VERSION,
                "sa",
                TestServers.ADMIN_PASSWORD,
                Optional.of("test-agent")),
            Duration.ofSeconds(10));
  }

  private String conn() {
    return "rds." + replicate.name();
  }

  /** Sends {@code commands} and waits until the server has them durably. */
  private void send(List<LtlCommand> commands) throws Exception {
    for (List<LtlCommand> chunk : Origin.chunks(commands, 50)) {
      BatchAnswer answer = agent.sendBatch(origin.text(chunk)).get(30, TimeUnit.SECONDS);
      assertThat(answer).isInstanceOf(BatchAnswer.Accepted.class);
    }
  }

  /**
   * Transaction {@code tran}: its begin, then {@code body} (made after the begin, so OQIDs increase
   * as an agent's do), then its commit or rollback.
   */
  private List<LtlCommand> transaction(long tran, Supplier<List<LtlCommand>> body, boolean commit) {
    List<LtlCommand> out = new ArrayList<>();
    out.add(origin.begin(tran));
    out.addAll(body.get());
    out.add(commit ? origin.commit(tran) : origin.rollback(tran));
    return out;
  }

  private List<LtlCommand> insertTx(int... ids) {
    long t = nextTran++;
    return transaction(
        t,
        () -> {
          List<LtlCommand> body = new ArrayList<>();
          for (int id : ids) {
            body.add(
                origin.insert(
                    t, ORDERS, col("id", id), col("region", "EU"), col("note", "n" + id)));
          }
          return body;
        },
        true);
  }

  private Connection admin() throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "sa");
    p.setProperty("password", TestServers.ADMIN_PASSWORD);
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + server.adminPort() + "/rssd", p);
  }

  /** Rows of an admin command, each row's columns joined by '|'. */
  private List<String> adminRows(String command) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = admin();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(command)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          b.append(i > 1 ? "|" : "").append(rs.getString(i));
        }
        out.add(b.toString());
      }
    }
    return out;
  }

  private void adminExec(String command) throws SQLException {
    try (Connection c = admin();
        Statement s = c.createStatement()) {
      s.execute(command);
    }
  }

  private List<String> replicateOrders() throws SQLException {
    return replicate.rows("SELECT id, region, note FROM public.orders ORDER BY id");
  }

  private static List<String> expectedRows(Map<Integer, String[]> rows) {
    List<String> out = new ArrayList<>();
    rows.forEach((id, v) -> out.add(id + "|" + v[0] + "|" + v[1]));
    return out;
  }

  @Test
  void aRandomStreamEndsIdenticalAtTheReplicateAcrossARestart() throws Exception {
    start(Map.of("dsi_max_xacts_in_group", "5"));
    Random random = new Random(20261121L);
    Map<Integer, String[]> expected = new TreeMap<>();
    List<LtlCommand> stream = new ArrayList<>();
    Oqid lastCommit = null;
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < 150; i++) {
        long t = nextTran++;
        boolean commit = random.nextInt(15) != 0;
        Map<Integer, String[]> after = new TreeMap<>();
        expected.forEach((k, v) -> after.put(k, v.clone()));
        List<LtlCommand> body = new ArrayList<>();
        stream.add(origin.begin(t));
        int n = 1 + random.nextInt(8);
        for (int c = 0; c < n; c++) {
          int id = random.nextInt(400);
          String[] row = after.get(id);
          if (row == null) {
            String[] v = {random.nextBoolean() ? "EU" : "US", "t" + t + "c" + c};
            after.put(id, v);
            body.add(
                origin.insert(t, ORDERS, col("id", id), col("region", v[0]), col("note", v[1])));
          } else if (random.nextInt(3) > 0) {
            String note = "u" + t + "c" + c;
            body.add(
                origin.update(
                    t,
                    ORDERS,
                    List.of(col("id", id), col("region", row[0]), col("note", row[1])),
                    List.of(col("id", id), col("note", note))));
            row[1] = note;
          } else {
            after.remove(id);
            body.add(
                origin.delete(
                    t, ORDERS, col("id", id), col("region", row[0]), col("note", row[1])));
          }
        }
        stream.addAll(body);
        if (commit) {
          LtlCommand.Commit end = origin.commit(t);
          stream.add(end);
          expected.clear();
          expected.putAll(after);
          lastCommit = end.oqid();
        } else {
          stream.add(origin.rollback(t));
        }
      }
      send(stream);
      stream.clear();
      await()
          .atMost(WAIT)
          .until(this::replicateOrders, rows -> rows.equals(expectedRows(expected)));
      if (round == 0) {
        // Restart: the DSI reads the outbound queue again from its last confirmation and skips
        // what rs_lastcommit says is applied.
        agent.close();
        server.close();
        server = TestServers.start(dir, Map.of(), new SimpleMeterRegistry());
        connectAgent();
      }
    }
    int primaryId = server.catalog().requireConnection("pds", "pdb").id();
    assertThat(
            replicate.rows(
                "SELECT origin, encode(origin_qid, 'hex') FROM rs_lastcommit ORDER BY origin"))
        .containsExactly(primaryId + "|" + HexFormat.of().formatHex(lastCommit.toBytes()));
    assertThat(adminRows("admin who"))
        .anyMatch(r -> r.contains("|DSI|Active|") && r.contains(conn()))
        .anyMatch(r -> r.contains("|DSI EXEC|Active|") && r.contains(conn()));
  }

  @Test
  void rowsAPostgresOriginsTriggerWroteAreNotWrittenAgainAtTheReplicate() throws Exception {
    // the replicate has the primary's trigger; the primary's log holds the row it wrote
    replicate.exec(
        "CREATE FUNCTION public.orders_echo() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
            + " IF NEW.id < 1000 THEN INSERT INTO public.orders VALUES (NEW.id + 1000, NEW.region,"
            + " 'echo'); END IF; RETURN NEW; END $$",
        "CREATE TRIGGER orders_echo AFTER INSERT ON public.orders FOR EACH ROW EXECUTE FUNCTION"
            + " public.orders_echo()");
    start(Map.of());
    long t = nextTran++;
    send(
        transaction(
            t,
            () ->
                List.of(
                    origin.insert(t, ORDERS, col("id", 1), col("region", "EU"), col("note", "n")),
                    origin.insert(
                        t, ORDERS, col("id", 1001), col("region", "EU"), col("note", "echo"))),
            true));
    await()
        .atMost(WAIT)
        .until(this::replicateOrders, rows -> rows.equals(List.of("1|EU|n", "1001|EU|echo")));
    assertThat(adminRows("admin who_is_down")).isEmpty();
  }

  @Test
  void aFailingTransactionStopsTheConnectionAndSkipTransactionLogsItWhole() throws Exception {
    start(Map.of());
    replicate.exec("INSERT INTO public.orders VALUES (5, 'XX', 'already here')");
    List<LtlCommand> stream = new ArrayList<>(insertTx(1));
    List<LtlCommand> failing = insertTx(4, 5);
    Oqid failingCommit = ((LtlCommand.InTransaction) failing.get(failing.size() - 1)).oqid();
    stream.addAll(failing);
    stream.addAll(insertTx(7));
    send(stream);

    await()
        .atMost(WAIT)
        .until(
            () -> adminRows("admin who_is_down"),
            rows -> rows.stream().anyMatch(r -> r.contains("|DSI|Down|")));
    String down =
        adminRows("admin who_is_down").stream()
            .filter(r -> r.contains("|DSI|Down|"))
            .findFirst()
            .orElseThrow();
    assertThat(down).contains(conn()).contains(failingCommit.toString()).contains("23505");
    assertThat(adminRows("admin who, dsi"))
        .singleElement()
        .asString()
        .contains("|Down|")
        .contains(failingCommit.toString());
    assertThat(replicateOrders()).containsExactly("1|EU|n1", "5|XX|already here");
    assertThat(server.catalog().requireConnection("rds", replicate.name()).state())
        .isEqualTo(ConnectionState.SUSPENDED);

    adminExec("resume connection to " + conn() + " skip transaction");
    await()
        .atMost(WAIT)
        .until(
            this::replicateOrders,
            rows -> rows.equals(List.of("1|EU|n1", "5|XX|already here", "7|EU|n7")));
    int replicateId = server.catalog().requireConnection("rds", replicate.name()).id();
    List<ExceptionEntry> logged = server.rssd().exceptions().list(replicateId, 10);
    assertThat(logged).hasSize(1);
    ExceptionEntry e = logged.get(0);
    assertThat(e.header().originOqid()).isEqualTo(failingCommit.toBytes());
    assertThat(e.header().error()).contains("skip transaction");
    assertThat(e.commandText().lines()).hasSize(4).first().asString().startsWith("begin");
    assertThat(e.commandText()).contains("insert").contains("n4").contains("n5");
    assertThat(server.catalog().requireConnection("rds", replicate.name()).state())
        .isEqualTo(ConnectionState.ACTIVE);
    assertThat(adminRows("admin who_is_down")).noneMatch(r -> r.contains("|DSI|"));
  }

  @Test
  void theConnectionsErrorClassDecidesTheActionAndLogLeavesTheConnectionApplying()
      throws Exception {
    start(Map.of());
    adminExec("create error class dup_log set template to rs_postgresql_error_class");
    adminExec("assign action log for dup_log to '23505'");
    adminExec("suspend connection to " + conn());
    adminExec("alter connection to " + conn() + " set error class to dup_log");
    adminExec("resume connection to " + conn());
    replicate.exec("INSERT INTO public.orders VALUES (5, 'XX', 'already here')");
    List<LtlCommand> stream = new ArrayList<>(insertTx(1));
    List<LtlCommand> failing = insertTx(4, 5);
    Oqid failingCommit = ((LtlCommand.InTransaction) failing.get(failing.size() - 1)).oqid();
    stream.addAll(failing);
    stream.addAll(insertTx(7));
    send(stream);

    await()
        .atMost(WAIT)
        .until(
            this::replicateOrders,
            rows -> rows.equals(List.of("1|EU|n1", "5|XX|already here", "7|EU|n7")));
    int replicateId = server.catalog().requireConnection("rds", replicate.name()).id();
    List<ExceptionEntry> logged = server.rssd().exceptions().list(replicateId, 10);
    assertThat(logged)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.header().originOqid()).isEqualTo(failingCommit.toBytes());
              assertThat(e.header().error()).contains("error action").contains("23505");
            });
    assertThat(adminRows("admin who, dsi")).singleElement().asString().contains("|Active|");
  }

  @Test
  void suspendHoldsChangesInTheQueueAndResumeAppliesThemWithAlteredParameters() throws Exception {
    start(Map.of());
    send(insertTx(1));
    await().atMost(WAIT).until(this::replicateOrders, rows -> rows.size() == 1);

    adminExec("suspend connection to " + conn());
    assertThat(adminRows("admin who_is_down")).anyMatch(r -> r.contains("|DSI|Suspended|"));
    List<LtlCommand> held = insertTx(2, 3);
    send(held);
    await()
        .atMost(WAIT)
        .until(
            () ->
                OutboundContents.read(server.outboundQueue("rds", replicate.name()).orElseThrow())
                    .size(),
            n -> n >= 1);
    // The transaction is in the outbound queue and the DSI is suspended: it cannot be applied.
    assertThat(replicateOrders()).containsExactly("1|EU|n1");

    adminExec("alter connection to " + conn() + " set dsi_num_threads to '2'");
    adminExec("resume connection to " + conn());
    await().atMost(WAIT).until(this::replicateOrders, rows -> rows.size() == 3);
    assertThat(adminRows("admin who"))
        .filteredOn(r -> r.contains("|DSI EXEC|Active|") && r.contains(conn()))
        .hasSize(2);
  }

  @Test
  void aTableLevelCompileEnableOffKeepsThatTableOutOfHvar() throws Exception {
    start(Map.of("dsi_compile_enable", "on"));
    send(insertTx(1));
    await().atMost(WAIT).until(this::replicateOrders, rows -> rows.size() == 1);
    double compiled = dsiCounterTotal("HVARCmdsCompiled");
    assertThat(compiled).as("HVAR compiled the first transaction").isPositive();

    adminExec("suspend connection to " + conn());
    adminExec(
        "alter connection to "
            + conn()
            + " for replicate table named public.orders set dsi_compile_enable to 'off'");
    assertThat(adminRows("admin show_connections"))
        .anyMatch(r -> r.contains("dsi_compile_enable@public.orders=off"));
    adminExec("resume connection to " + conn());
    send(insertTx(2, 3));
    send(insertTx(4));
    await().atMost(WAIT).until(this::replicateOrders, rows -> rows.size() == 4);

    assertThat(dsiCounterTotal("HVARCmdsCompiled"))
        .as("nothing more compiled once the table is off")
        .isEqualTo(compiled);
  }

  /** The {@code total} of a DSI counter in {@code admin stats, dsi}, summed over instances. */
  private double dsiCounterTotal(String counter) throws SQLException {
    double sum = 0;
    try (Connection c = admin();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("admin stats, dsi")) {
      while (rs.next()) {
        if (counter.equals(rs.getString("counter"))) {
          sum += Double.parseDouble(rs.getString("total"));
        }
      }
    }
    return sum;
  }

  @Test
  void anRsTicketIsRecordedWithEveryModulesTime() throws Exception {
    start(Map.of("dsi_rs_ticket_report", "on"));
    long t = nextTran++;
    List<LtlCommand> tx =
        transaction(
            t,
            () ->
                List.of(
                    origin.insert(t, ORDERS, col("id", 1), col("region", "EU"), col("note", "n1")),
                    origin.ticket(t, "H1=demo", "H2=first")),
            true);
    send(tx);
    await().atMost(WAIT).until(() -> adminRows("admin ticket_history"), rows -> !rows.isEmpty());
    List<String> rows = adminRows("admin ticket_history");
    assertThat(rows).hasSize(1);
    String[] cells = rows.get(0).split("\\|", -1);
    // id|origin|replicate|headers|pdb|exec|dist|dsi|rdb|latency_ms
    assertThat(cells[1]).isEqualTo("pds.pdb");
    assertThat(cells[2]).isEqualTo(conn());
    assertThat(cells[3]).startsWith("H1=demo;H2=first;").contains("DSI_T=");
    for (int i = 4; i <= 9; i++) {
      assertThat(cells[i]).as("column %d of %s", i, rows.get(0)).isNotEqualTo("null");
    }
    assertThat(replicateOrders()).containsExactly("1|EU|n1");
  }

  private static Column id(int v) {
    return col("id", v);
  }
}
