package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Value;
import io.openrs.repagent.support.AgentHarness;
import io.openrs.repagent.support.QueueContents.Transaction;
import io.openrs.repagent.support.TestMariaDb;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MariaDB to agent to server, end to end on the real database and a real server. */
class MariaDbAgentIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;
  private AgentHarness h;

  @BeforeEach
  void setUp() throws Exception {
    h = new AgentHarness(dir, true);
    h.startServer();
  }

  @AfterEach
  void tearDown() throws Exception {
    h.close();
  }

  private String t(String table) {
    return h.schema + "." + table;
  }

  private RepAgent startStreaming(Map<String, String> overrides) throws Exception {
    TestMariaDb.exec("CREATE TABLE IF NOT EXISTS " + t("marker") + " (id int PRIMARY KEY)");
    RepAgent agent = h.startAgent(overrides);
    await().atMost(WAIT).until(() -> agent.state() == RepAgent.State.REPLICATING);
    // The binlog reader streams once its heartbeat query has run (heartbeats come from the
    // streaming phase); then a marker transaction proves the path end to end.
    await().atMost(WAIT).until(this::heartbeatWritten);
    TestMariaDb.exec("INSERT INTO " + t("marker") + " VALUES (0)");
    await().atMost(WAIT).until(() -> !h.outbound().isEmpty());
    return agent;
  }

  private boolean heartbeatWritten() throws Exception {
    try (Connection c = TestMariaDb.connect();
        Statement s = c.createStatement();
        var r =
            s.executeQuery(
                "SELECT count(*) FROM "
                    + t("openrs_heartbeat")
                    + " WHERE agent = '"
                    + h.agentName
                    + "'")) {
      return r.next() && r.getInt(1) > 0;
    } catch (java.sql.SQLException e) {
      return false;
    }
  }

  private List<LtlCommand.InTransaction> changesAfterMarker() throws Exception {
    List<LtlCommand.InTransaction> out = h.outboundChanges();
    return out.subList(1, out.size());
  }

  private static Map<String, Value> byName(List<Column> columns) {
    Map<String, Value> m = new LinkedHashMap<>();
    for (Column c : columns) {
      m.put(c.name(), c.value());
    }
    return m;
  }

  /**
   * A primary-key update arrives as one update (Debezium emits it as a delete and a create): a
   * replicate applying a delete and an insert would run the delete's cascades and lose the children
   * an ON UPDATE CASCADE keeps.
   */
  @Test
  void primaryKeyUpdatesArriveAsUpdates() throws Exception {
    TestMariaDb.exec("CREATE TABLE " + t("keyed") + " (id int PRIMARY KEY, v varchar(10))");
    startStreaming(Map.of());
    try (Connection c = TestMariaDb.connect();
        Statement s = c.createStatement()) {
      s.execute("INSERT INTO " + t("keyed") + " VALUES (1, 'a'), (2, 'b')");
      s.execute("UPDATE " + t("keyed") + " SET id = 11 WHERE id = 1");
      c.setAutoCommit(false);
      s.execute("UPDATE " + t("keyed") + " SET id = id + 100, v = 'x' ORDER BY id DESC");
      s.execute("DELETE FROM " + t("keyed") + " WHERE id = 111");
      c.commit();
    }
    awaitOutbound(() -> changesAfterMarker().size() == 6);
    List<LtlCommand.InTransaction> changes = changesAfterMarker();
    LtlCommand.Update u = (LtlCommand.Update) changes.get(2);
    assertThat(byName(u.before()).get("id")).isEqualTo(new Value.Int32(1));
    assertThat(byName(u.after()).get("id")).isEqualTo(new Value.Int32(11));
    assertThat(byName(((LtlCommand.Update) changes.get(3)).after()).get("id"))
        .isEqualTo(new Value.Int32(111));
    assertThat(byName(((LtlCommand.Update) changes.get(4)).after()))
        .containsEntry("id", new Value.Int32(102))
        .containsEntry("v", new Value.Text("x"));
    assertThat(changes.get(5)).isInstanceOf(LtlCommand.Delete.class);
  }

  /**
   * A bit string arrives as its bytes most significant first, as MariaDB shows it ({@code HEX()})
   * and as a binary column holds it (Debezium hands the agent its bits least significant byte
   * first).
   */
  @Test
  void bitStringsArriveMostSignificantByteFirst() throws Exception {
    TestMariaDb.exec(
        "CREATE TABLE " + t("bits") + " (id int PRIMARY KEY, b9 bit(9), b64 bit(64), b3 bit(3))");
    startStreaming(Map.of());
    TestMariaDb.exec(
        "INSERT INTO "
            + t("bits")
            + " VALUES (1, b'100000011', x'0102030405060708', b'101'), (2, b'000000001', 0, 0)");
    awaitOutbound(() -> changesAfterMarker().size() == 2);
    Map<String, Value> r1 = byName(((LtlCommand.Insert) changesAfterMarker().get(0)).after());
    Map<String, Value> r2 = byName(((LtlCommand.Insert) changesAfterMarker().get(1)).after());
    assertThat(r1.get("b9")).isEqualTo(new Value.Binary(new byte[] {1, 3}));
    assertThat(r1.get("b64")).isEqualTo(new Value.Binary(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}));
    assertThat(r1.get("b3")).isEqualTo(new Value.Binary(new byte[] {5}));
    assertThat(r2.get("b9")).isEqualTo(new Value.Binary(new byte[] {0, 1}));
    assertThat(r2.get("b64")).isEqualTo(new Value.Binary(new byte[8]));
  }

  @Test
  void everyTypeArrivesWithItsExactValue() throws Exception {
    TestMariaDb.exec(
        "CREATE TABLE "
            + t("all_types")
            + " (id int PRIMARY KEY, c_tinyint tinyint, c_smallint smallint, c_mediumint"
            + " mediumint, c_int int, c_bigint bigint, c_ubigint bigint unsigned,"
            + " c_decimal decimal(38,10), c_float float, c_double double, c_bit1 bit(1),"
            + " c_char char(5), c_varchar varchar(40), c_text text, c_longtext longtext,"
            + " c_varbinary varbinary(10), c_blob blob, c_date date, c_time time(6),"
            + " c_datetime datetime(6), c_timestamp timestamp(6) NULL, c_year year,"
            + " c_enum enum('sad','happy'), c_json json) CHARSET utf8mb4");
    startStreaming(Map.of());
    String big = "Zoë 😀 表 " + "x".repeat(300_000);
    try (Connection c = TestMariaDb.connect();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO "
                    + t("all_types")
                    + " VALUES (2, -128, -32768, 8388607, 2147483647, -9223372036854775808,"
                    + " 18446744073709551615, 1234567890123456789012345678.0123456789, 1.5,"
                    + " -1.7976931348623157e308, b'1', 'ab', 'Zoë 😀 表', ?, ?, x'00ff10',"
                    + " x'', '9999-12-31', '23:59:59.999999', '2026-11-21 10:15:30.123456',"
                    + " '2026-11-21 10:15:30.123456', 2155, 'happy', '{\"a\": [1, 2]}')")) {
      ps.setString(1, "line1\nline2\ttab 'q' \\ \u0007");
      ps.setString(2, big);
      ps.executeUpdate();
    }
    TestMariaDb.exec(
        "SET time_zone = '+00:00'", "INSERT INTO " + t("all_types") + " (id) VALUES (1)");
    awaitOutbound(() -> changesAfterMarker().size() == 2);
    Map<String, Value> r2 = byName(((LtlCommand.Insert) changesAfterMarker().get(0)).after());
    Map<String, Value> r1 = byName(((LtlCommand.Insert) changesAfterMarker().get(1)).after());
    assertThat(r1.entrySet())
        .allMatch(e -> e.getKey().equals("id") || e.getValue().equals(Value.NULL));
    assertThat(r2.get("c_tinyint")).isEqualTo(new Value.Int16((short) -128));
    assertThat(r2.get("c_smallint")).isEqualTo(new Value.Int16((short) -32768));
    assertThat(r2.get("c_mediumint")).isEqualTo(new Value.Int32(8388607));
    assertThat(r2.get("c_int")).isEqualTo(new Value.Int32(Integer.MAX_VALUE));
    assertThat(r2.get("c_bigint")).isEqualTo(new Value.Int64(Long.MIN_VALUE));
    assertThat(r2.get("c_ubigint"))
        .isEqualTo(new Value.Decimal(new BigDecimal("18446744073709551615")));
    assertThat(r2.get("c_decimal"))
        .isEqualTo(new Value.Decimal(new BigDecimal("1234567890123456789012345678.0123456789")));
    assertThat(r2.get("c_double")).isEqualTo(new Value.Float64(-Double.MAX_VALUE));
    assertThat(r2.get("c_bit1")).isEqualTo(Value.Bool.TRUE);
    assertThat(r2.get("c_char")).isEqualTo(new Value.Text("ab"));
    assertThat(r2.get("c_varchar")).isEqualTo(new Value.Text("Zoë 😀 表"));
    assertThat(r2.get("c_text")).isEqualTo(new Value.Text("line1\nline2\ttab 'q' \\ \u0007"));
    assertThat(r2.get("c_longtext")).isEqualTo(new Value.Text(big));
    assertThat(r2.get("c_varbinary"))
        .isEqualTo(new Value.Binary(new byte[] {0, (byte) 0xff, 0x10}));
    assertThat(r2.get("c_blob")).isEqualTo(new Value.Binary(new byte[0]));
    assertThat(r2.get("c_date")).isEqualTo(new Value.Date(LocalDate.of(9999, 12, 31)));
    assertThat(r2.get("c_time")).isEqualTo(new Value.Time(LocalTime.parse("23:59:59.999999")));
    assertThat(r2.get("c_datetime"))
        .isEqualTo(new Value.Timestamp(LocalDateTime.parse("2026-11-21T10:15:30.123456")));
    assertThat(r2.get("c_timestamp"))
        .isEqualTo(new Value.TimestampTz(OffsetDateTime.parse("2026-11-21T10:15:30.123456Z")));
    assertThat(r2.get("c_year")).isEqualTo(new Value.Int32(2155));
    assertThat(r2.get("c_enum")).isEqualTo(new Value.Text("happy"));
    assertThat(r2.get("c_json").toString()).contains("[1, 2]");
    assertThat(r2.get("c_float")).isEqualTo(new Value.Float32(1.5f));
  }

  @Test
  void transactionsArriveWholeInCommitOrderRollbacksNeverAndDdlAsDdl() throws Exception {
    TestMariaDb.exec(
        "CREATE TABLE " + t("items") + " (tx varchar(10), i int, v int, PRIMARY KEY (tx, i))");
    startStreaming(Map.of());
    try (Connection a = TestMariaDb.connect();
        Connection b = TestMariaDb.connect();
        Connection r = TestMariaDb.connect()) {
      for (Connection x : List.of(a, b, r)) {
        x.setAutoCommit(false);
      }
      exec(a, "INSERT INTO " + t("items") + " VALUES ('A', 0, 0)");
      exec(b, "INSERT INTO " + t("items") + " VALUES ('B', 0, 0)");
      exec(r, "INSERT INTO " + t("items") + " VALUES ('R', 0, 0)");
      exec(a, "INSERT INTO " + t("items") + " VALUES ('A', 1, 0)");
      exec(b, "UPDATE " + t("items") + " SET v = 5 WHERE tx = 'B'");
      b.commit();
      r.rollback();
      a.commit();
    }
    TestMariaDb.exec("ALTER TABLE " + t("items") + " ADD COLUMN note varchar(10)");
    TestMariaDb.exec("INSERT INTO " + t("items") + " VALUES ('C', 0, 0, 'new')");
    awaitOutbound(() -> h.outbound().size() == 5);
    List<Transaction> out = h.outbound();
    assertThat(out.get(1).body()).hasSize(2); // B: insert, update
    assertThat(out.get(1).body().get(1)).isInstanceOf(LtlCommand.Update.class);
    assertThat(out.get(2).body()).hasSize(2); // A: two inserts
    LtlCommand.Ddl ddl = (LtlCommand.Ddl) out.get(3).body().get(0);
    assertThat(ddl.statement()).contains("ADD COLUMN note");
    assertThat(byName(((LtlCommand.Insert) out.get(4).body().get(0)).after()).get("note"))
        .isEqualTo(new Value.Text("new"));
    assertThat(out.get(4).commit().oqid().length()).isEqualTo(16);
    PostgresAgentIT.assertOqidsIncrease(out, 16);
  }

  @Test
  void largeTransactionArrivesWholeAndRestartsDeliverOnce() throws Exception {
    TestMariaDb.exec("CREATE TABLE " + t("big") + " (id int PRIMARY KEY, pad varchar(40))");
    RepAgent agent = startStreaming(Map.of("transaction_buffer_size", "262144"));
    TestMariaDb.exec(
        "INSERT INTO "
            + t("big")
            + " SELECT seq, concat('pad ', seq) FROM "
            + h.schema
            + ".seq_1_to_20000");
    await().atMost(WAIT).until(() -> h.outbound().size() == 2);
    assertThat(h.outbound().get(1).body()).hasSize(20_000);
    // Stop and start again: nothing is sent twice, new work arrives.
    agent.close();
    TestMariaDb.exec("INSERT INTO " + t("big") + " VALUES (-1, 'while stopped')");
    h.startAgent(Map.of());
    TestMariaDb.exec("INSERT INTO " + t("big") + " VALUES (-2, 'after restart')");
    awaitOutbound(() -> h.outbound().size() == 4);
    List<Transaction> out = h.outbound();
    assertThat(out).hasSize(4);
    PostgresAgentIT.assertOqidsIncrease(out, 16);
  }

  @Test
  void snapshotSendsExistingRowsAsSnapshotInsertsThenStreams() throws Exception {
    TestMariaDb.exec(
        "CREATE TABLE " + t("seed") + " (id int PRIMARY KEY, name varchar(10))",
        "INSERT INTO "
            + t("seed")
            + " SELECT seq, concat('n', seq) FROM "
            + h.schema
            + ".seq_1_to_50");
    startStreaming(Map.of("snapshot", "on"));
    TestMariaDb.exec("INSERT INTO " + t("seed") + " VALUES (51, 'live')");
    awaitOutbound(() -> h.outbound().size() == 3);
    List<Transaction> out = h.outbound();
    assertThat(out.get(0).body()).hasSize(50).allMatch(c -> ((LtlCommand.Insert) c).snapshot());
    assertThat(((LtlCommand.Insert) out.get(2).body().get(0)).snapshot()).isFalse();
    PostgresAgentIT.assertOqidsIncrease(out, 16);
  }

  private void awaitOutbound(java.util.concurrent.Callable<Boolean> done) throws Exception {
    try {
      await().atMost(WAIT).until(done);
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      for (Transaction t : h.outbound()) {
        System.out.println(
            "OUT " + t.begin().oqid() + " " + t.body().size() + " " + t.body().get(0).getClass());
      }
      throw e;
    }
  }

  private static void exec(Connection c, String sql) throws Exception {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
