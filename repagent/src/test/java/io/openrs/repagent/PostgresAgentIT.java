package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.Value;
import io.openrs.repagent.support.AgentHarness;
import io.openrs.repagent.support.QueueContents.Transaction;
import io.openrs.repagent.support.TestPostgres;
import io.openrs.repagent.support.Workload;
import io.openrs.repserver.origin.AgentReport;
import io.openrs.wire.LtlClient;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL to agent to server, end to end on the real database and a real server in this JVM:
 * exact values, whole transactions in commit order, large transactions, the idle slot, the setup
 * errors.
 */
class PostgresAgentIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;
  private AgentHarness h;

  @BeforeEach
  void setUp() throws Exception {
    h = new AgentHarness(dir);
    h.startServer();
  }

  @AfterEach
  void tearDown() throws Exception {
    h.close();
  }

  private String t(String table) {
    return h.schema + "." + table;
  }

  /** Starts the agent and waits until it streams (its slot exists and is confirmed). */
  private RepAgent startStreaming(Map<String, String> overrides) {
    RepAgent agent = h.startAgent(overrides);
    await().atMost(WAIT).until(() -> agent.state() == RepAgent.State.REPLICATING);
    await().atMost(WAIT).until(() -> TestPostgres.confirmedFlushLsn(h.slot).isPresent());
    return agent;
  }

  private static Map<String, Value> byName(List<Column> columns) {
    Map<String, Value> m = new LinkedHashMap<>();
    for (Column c : columns) {
      m.put(c.name(), c.value());
    }
    return m;
  }

  @Test
  void everyTypeArrivesWithItsExactValue() throws Exception {
    TestPostgres.exec(
        "CREATE TYPE " + t("mood") + " AS ENUM ('sad', 'ok', 'happy')",
        "CREATE TABLE "
            + t("all_types")
            + " (id int PRIMARY KEY, c_smallint smallint, c_int int, c_bigint bigint,"
            + " c_numeric numeric(38,10), c_numeric_free numeric, c_real real,"
            + " c_double double precision, c_bool boolean, c_text text, c_varchar varchar(20),"
            + " c_char char(5), c_bytea bytea, c_date date, c_time time(6),"
            + " c_timestamp timestamp(6), c_timestamp_ms timestamp(3), c_timestamptz timestamptz,"
            + " c_uuid uuid, c_json json, c_jsonb jsonb, c_interval interval, c_money money,"
            + " c_inet inet, c_xml xml, c_int_array int[], c_text_array text[], c_bit bit(1),"
            + " c_enum "
            + t("mood")
            + ")");
    startStreaming(Map.of());
    String bigText = "Zoë ünïcödé 😀 表 " + "x".repeat(1_000_000);
    try (Connection c = TestPostgres.connect();
        var ps =
            c.prepareStatement(
                "INSERT INTO "
                    + t("all_types")
                    + " VALUES (2, -32768, 2147483647, -9223372036854775808,"
                    + " 1234567890123456789012345678.0123456789,"
                    + " -0.000000000000000000001000, 'NaN', '-Infinity', true, ?,"
                    + " 'varchar', 'ab', '\\x00ff10'::bytea, '4713-11-24 BC', '23:59:59.999999',"
                    + " '294246-12-31 23:59:59.999999', '2026-11-21 10:15:30.123',"
                    + " '2026-11-21 10:15:30.123456+05:30', '123e4567-e89b-12d3-a456-426614174000',"
                    + " '{\"a\": [1, 2]}', '{\"b\": true, \"a\": [1, 2]}',"
                    + " '1 year 2 months 3 days 04:05:06.789', 1234.56, '192.168.0.1/24',"
                    + " '<a>1</a>', '{1,NULL,3}', '{\"x\",\"y z\",\"q\\\"uote\"}', B'1', 'happy')")) {
      ps.setString(1, bigText);
      ps.executeUpdate();
    }
    TestPostgres.exec(
        "INSERT INTO " + t("all_types") + " (id) VALUES (1)",
        "INSERT INTO "
            + t("all_types")
            + " (id, c_double, c_real, c_numeric_free, c_text, c_date, c_timestamp) VALUES (3,"
            + " 1.7976931348623157e308, '-0', 123456789012345678901234567890.123456789, "
            + " E'line1\\nline2\\ttab \\'quoted\\' back\\\\slash \\u0007', '2026-11-21',"
            + " '4713-01-01 00:00:00 BC')");
    await().atMost(WAIT).until(() -> h.outboundChanges().size() == 3);
    Map<Integer, Map<String, Value>> rows = new HashMap<>();
    for (LtlCommand.InTransaction c : h.outboundChanges()) {
      Map<String, Value> r = byName(((LtlCommand.Insert) c).after());
      rows.put(((Value.Int32) r.get("id")).value(), r);
    }
    // Row 1: NULL everywhere but the key.
    assertThat(rows.get(1).entrySet())
        .allMatch(e -> e.getKey().equals("id") || e.getValue().equals(Value.NULL));
    assertThat(rows.get(1)).hasSize(29);
    Map<String, Value> r2 = rows.get(2);
    assertThat(r2.get("c_smallint")).isEqualTo(new Value.Int16((short) -32768));
    assertThat(r2.get("c_int")).isEqualTo(new Value.Int32(Integer.MAX_VALUE));
    assertThat(r2.get("c_bigint")).isEqualTo(new Value.Int64(Long.MIN_VALUE));
    assertThat(r2.get("c_numeric"))
        .isEqualTo(new Value.Decimal(new BigDecimal("1234567890123456789012345678.0123456789")));
    // Unconstrained numeric keeps its scale too (Debezium's own conversion drops trailing zeros).
    assertThat(r2.get("c_numeric_free"))
        .isEqualTo(new Value.Decimal(new BigDecimal("-0.000000000000000000001000")));
    assertThat(r2.get("c_real")).isEqualTo(new Value.Float32(Float.NaN));
    assertThat(r2.get("c_double")).isEqualTo(new Value.Float64(Double.NEGATIVE_INFINITY));
    assertThat(r2.get("c_bool")).isEqualTo(Value.Bool.TRUE);
    assertThat(r2.get("c_text")).isEqualTo(new Value.Text(bigText));
    assertThat(r2.get("c_varchar")).isEqualTo(new Value.Text("varchar"));
    assertThat(r2.get("c_char")).isEqualTo(new Value.Text("ab   "));
    assertThat(r2.get("c_bytea")).isEqualTo(new Value.Binary(new byte[] {0, (byte) 0xff, 0x10}));
    assertThat(r2.get("c_date")).isEqualTo(new Value.Date(LocalDate.of(-4712, 11, 24)));
    assertThat(r2.get("c_time")).isEqualTo(new Value.Time(LocalTime.parse("23:59:59.999999")));
    assertThat(r2.get("c_timestamp"))
        .isEqualTo(new Value.Timestamp(LocalDateTime.of(294246, 12, 31, 23, 59, 59, 999_999_000)));
    assertThat(r2.get("c_timestamp_ms"))
        .isEqualTo(new Value.Timestamp(LocalDateTime.parse("2026-11-21T10:15:30.123")));
    assertThat(r2.get("c_timestamptz"))
        .isEqualTo(new Value.TimestampTz(OffsetDateTime.parse("2026-11-21T04:45:30.123456Z")));
    assertThat(r2.get("c_uuid"))
        .isEqualTo(new Value.Uuid(UUID.fromString("123e4567-e89b-12d3-a456-426614174000")));
    assertThat(r2.get("c_json")).isEqualTo(new Value.Json("{\"a\": [1, 2]}"));
    assertThat(r2.get("c_jsonb")).isEqualTo(new Value.Json("{\"a\": [1, 2], \"b\": true}"));
    assertSameValue(r2.get("c_interval"), "interval", "1 year 2 months 3 days 04:05:06.789");
    assertThat(r2.get("c_money")).isEqualTo(new Value.Decimal(new BigDecimal("1234.56")));
    assertThat(r2.get("c_inet"))
        .isEqualTo(new Value.Native("postgresql", "inet", "192.168.0.1/24"));
    assertThat(r2.get("c_xml")).isEqualTo(new Value.Native("postgresql", "xml", "<a>1</a>"));
    assertThat(r2.get("c_int_array"))
        .isEqualTo(new Value.Native("postgresql", "_int4", "{1,NULL,3}"));
    assertThat(r2.get("c_text_array"))
        .isEqualTo(new Value.Native("postgresql", "_text", "{x,\"y z\",\"q\\\"uote\"}"));
    assertThat(r2.get("c_bit")).isEqualTo(Value.Bool.TRUE);
    assertThat(r2.get("c_enum")).isInstanceOf(Value.Native.class);
    assertThat(((Value.Native) r2.get("c_enum")).text()).isEqualTo("happy");
    Map<String, Value> r3 = rows.get(3);
    assertThat(r3.get("c_double")).isEqualTo(new Value.Float64(Double.MAX_VALUE));
    assertThat(r3.get("c_real")).isEqualTo(new Value.Float32(-0.0f));
    assertThat(r3.get("c_numeric_free"))
        .isEqualTo(new Value.Decimal(new BigDecimal("123456789012345678901234567890.123456789")));
    assertThat(r3.get("c_text"))
        .isEqualTo(new Value.Text("line1\nline2\ttab 'quoted' back\\slash \u0007"));
    assertThat(r3.get("c_timestamp"))
        .isEqualTo(new Value.Timestamp(LocalDateTime.of(-4712, 1, 1, 0, 0)));
  }

  /**
   * A table Debezium cannot read (two columns whose names differ only by case) is left out with an
   * error naming it and its columns; the rest of the database replicates (before, the agent retried
   * forever and nothing replicated). A table that gains such columns while streaming stops the log
   * reader once, and the next session leaves it out.
   */
  @Test
  void aTableDebeziumCannotReadStopsOnlyThatTable() throws Exception {
    ListAppender<ILoggingEvent> events = new ListAppender<>();
    events.start();
    ch.qos.logback.classic.Logger log =
        (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(PostgresDialect.class);
    log.addAppender(events);
    try {
      TestPostgres.exec(
          "CREATE TABLE " + t("cased") + " (id int PRIMARY KEY, \"A\" int, a int)",
          "CREATE TABLE " + t("plain") + " (id int PRIMARY KEY, b int)");
      startStreaming(Map.of());
      TestPostgres.exec(
          "INSERT INTO " + t("cased") + " VALUES (1, 2, 3)",
          "INSERT INTO " + t("plain") + " VALUES (1, 1)");
      await().atMost(WAIT).until(() -> h.outboundChanges().size() == 1);
      assertThat(((LtlCommand.Insert) h.outboundChanges().get(0)).table().toString())
          .endsWith(".plain");
      assertThat(logged(events))
          .anyMatch(
              m -> m.contains(h.schema + ".cased is not replicated") && m.contains("\"A\", a"));
      AgentReport report = await().atMost(WAIT).until(this::agentReport, r -> r.isPresent()).get();
      assertThat(report.items())
          .singleElement()
          .satisfies(
              i -> {
                assertThat(i.tableLeftOut()).isTrue();
                assertThat(i.subject()).isEqualTo(h.schema + ".cased");
                assertThat(i.message()).contains("\"A\", a differ only by case");
              });
    } finally {
      log.detachAppender(events);
    }
  }

  /** What the agent last reported to the server for origin pg1.sales. */
  private java.util.Optional<AgentReport> agentReport() {
    return h.server.origins().values().stream()
        .filter(p -> p.state().name().equals("pg1.sales"))
        .findFirst()
        .flatMap(p -> p.state().agentReport());
  }

  /**
   * Debezium's decoder moves every timetz value to UTC and drops its offset. With the default
   * {@code timetz_at_utc off} a table with such a column (or a domain over it) is left out and the
   * server is told which and why; the rest replicates.
   */
  @Test
  void aTableWithATimetzColumnIsLeftOutAndReportedNotChanged() throws Exception {
    TestPostgres.exec(
        "CREATE DOMAIN " + t("opening") + " AS timetz",
        "CREATE TABLE " + t("shop_hours") + " (id int PRIMARY KEY, opens timetz)",
        "CREATE TABLE " + t("branch_hours") + " (id int PRIMARY KEY, opens " + t("opening") + ")",
        "CREATE TABLE " + t("plain") + " (id int PRIMARY KEY, b int)");
    startStreaming(Map.of());
    AgentReport report = await().atMost(WAIT).until(this::agentReport, r -> r.isPresent()).get();
    assertThat(report.items())
        .extracting(AgentReport.Item::subject)
        .containsExactlyInAnyOrder(h.schema + ".shop_hours", h.schema + ".branch_hours");
    assertThat(report.items())
        .allSatisfy(
            i -> {
              assertThat(i.tableLeftOut()).isTrue();
              assertThat(i.message()).contains("opens are timetz").contains("timetz_at_utc = on");
            });
    TestPostgres.exec(
        "INSERT INTO " + t("shop_hours") + " VALUES (1, '10:11:12+05:30')",
        "INSERT INTO " + t("branch_hours") + " VALUES (1, '10:11:12+05:30')",
        "INSERT INTO " + t("plain") + " VALUES (1, 1)");
    await().atMost(WAIT).until(() -> h.outboundChanges().size() == 1);
    assertThat(((LtlCommand.Insert) h.outboundChanges().get(0)).table().toString())
        .isEqualTo(h.schema + ".plain");
  }

  /**
   * A table created with a timetz column while the agent streams is left out from its first change
   * and reported, without stopping the rest; the agent's report grows by that table.
   */
  @Test
  void aTimetzTableCreatedWhileStreamingIsLeftOutAndReported() throws Exception {
    TestPostgres.exec("CREATE TABLE " + t("plain") + " (id int PRIMARY KEY, b int)");
    startStreaming(Map.of());
    assertThat(await().atMost(WAIT).until(this::agentReport, r -> r.isPresent()).get().items())
        .isEmpty();
    TestPostgres.exec(
        "CREATE TABLE " + t("created_later") + " (id int PRIMARY KEY, opens timetz)",
        "INSERT INTO " + t("created_later") + " VALUES (1, '08:00:00-03')",
        "INSERT INTO " + t("plain") + " VALUES (1, 1)",
        "INSERT INTO " + t("created_later") + " VALUES (2, '09:00:00+01')");
    await().atMost(WAIT).until(() -> h.outboundChanges().size() == 1);
    assertThat(((LtlCommand.Insert) h.outboundChanges().get(0)).table().toString())
        .isEqualTo(h.schema + ".plain");
    AgentReport report =
        await()
            .atMost(WAIT)
            .until(this::agentReport, r -> r.isPresent() && !r.get().items().isEmpty())
            .get();
    assertThat(report.items())
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.subject()).isEqualTo(h.schema + ".created_later");
              assertThat(i.message())
                  .contains("\"opens\" are timetz")
                  .contains("while the agent was streaming");
            });
    TestPostgres.exec("INSERT INTO " + t("plain") + " VALUES (2, 2)");
    await().atMost(WAIT).until(() -> h.outboundChanges().size() == 2);
    assertThat(h.outboundChanges())
        .extracting(c -> ((LtlCommand.Insert) c).table().table())
        .containsOnly("plain");
  }

  /**
   * With a whole schema in table_include_list the agent keeps the publication FOR TABLES IN SCHEMA:
   * a table created there while the agent streams is captured from its first row, without a restart
   * (with Debezium's FOR TABLE publication it never arrived).
   */
  @Test
  void aTableCreatedWhileStreamingIsCapturedFromItsFirstRow() throws Exception {
    TestPostgres.exec("CREATE TABLE " + t("before_start") + " (id int PRIMARY KEY)");
    startStreaming(Map.of());
    TestPostgres.exec(
        "CREATE TABLE " + t("created_later") + " (id int PRIMARY KEY, v text)",
        "INSERT INTO " + t("created_later") + " VALUES (1, 'first')",
        "INSERT INTO " + t("before_start") + " VALUES (1)");
    await().atMost(WAIT).until(() -> h.outboundChanges().size() == 2);
    LtlCommand.Insert first = (LtlCommand.Insert) h.outboundChanges().get(0);
    assertThat(first.table().toString()).endsWith(".created_later");
    assertThat(byName(first.after()).get("v")).isEqualTo(new Value.Text("first"));
    try (Connection c = TestPostgres.connect();
        var ps =
            c.prepareStatement(
                "SELECT count(*) FROM pg_publication_namespace pn JOIN pg_namespace n"
                    + " ON n.oid = pn.pnnspid WHERE n.nspname = ?")) {
      ps.setString(1, h.schema);
      try (var rs = ps.executeQuery()) {
        rs.next();
        assertThat(rs.getInt(1)).as("publications FOR TABLES IN SCHEMA %s", h.schema).isEqualTo(1);
      }
    }
  }

  /**
   * The values Debezium's own conversions lose or change arrive exactly: numeric NaN and ±Infinity,
   * trailing zeros of an unconstrained numeric, ±infinity dates and timestamps, the largest
   * timestamp, time 24:00:00, bit strings, multi-dimensional arrays with NULLs, composite values
   * and points; no value of any type is taken for "unchanged". (timetz arrives at UTC: the table
   * replicates only with {@code timetz_at_utc on}.)
   */
  @Test
  void valuesDebeziumWouldChangeArriveExactly() throws Exception {
    TestPostgres.exec(
        "CREATE TYPE " + t("pair") + " AS (a int, b text)",
        "CREATE TABLE "
            + t("edges")
            + " (id int PRIMARY KEY, n numeric, n_fixed numeric(10,3), d date, ts timestamp,"
            + " tstz timestamptz, tm time, tmtz timetz, bits bit(4), vbits varbit,"
            + " grid int[][], pt point, pr "
            + t("pair")
            + ", txt text, js jsonb, bin bytea)");
    startStreaming(Map.of("timetz_at_utc", "on"));
    TestPostgres.exec(
        "INSERT INTO "
            + t("edges")
            + " VALUES (1, 'NaN', 1.500, 'infinity', 'infinity', '-infinity', '24:00:00',"
            + " '10:11:12.5+05:30', B'1010', B'101', '{{1,NULL},{3,4}}', '(1.5,-2)',"
            + " '(7,\"x, y\")', 'u', '{\"k\": 1}', '\\x75')",
        "INSERT INTO "
            + t("edges")
            + " (id, n, d, ts, tstz, txt) VALUES (2, 'Infinity', '-infinity', '-infinity',"
            + " 'infinity', '__openrs_unchanged_toast_value__')",
        "INSERT INTO "
            + t("edges")
            + " (id, n, ts, tm, txt) VALUES (3, '-Infinity', '294276-12-31 23:59:59.999999',"
            + " '00:00:00', '')",
        "INSERT INTO " + t("edges") + " (id, n) VALUES (4, 1.500)");
    await().atMost(WAIT).until(() -> h.outboundChanges().size() == 4);
    Map<Integer, Map<String, Value>> rows = new HashMap<>();
    for (LtlCommand.InTransaction c : h.outboundChanges()) {
      Map<String, Value> r = byName(((LtlCommand.Insert) c).after());
      rows.put(((Value.Int32) r.get("id")).value(), r);
    }
    Map<String, Value> r1 = rows.get(1);
    assertThat(r1.get("n")).isEqualTo(nonFinite(Value.NonFinite.Domain.DEC, "NAN"));
    assertThat(r1.get("n_fixed")).isEqualTo(new Value.Decimal(new BigDecimal("1.500")));
    assertThat(r1.get("d")).isEqualTo(nonFinite(Value.NonFinite.Domain.DATE, "POSITIVE_INFINITY"));
    assertThat(r1.get("ts")).isEqualTo(nonFinite(Value.NonFinite.Domain.TS, "POSITIVE_INFINITY"));
    assertThat(r1.get("tstz"))
        .isEqualTo(nonFinite(Value.NonFinite.Domain.TSTZ, "NEGATIVE_INFINITY"));
    assertThat(r1.get("tm")).isEqualTo(new Value.Native("postgresql", "time", "24:00:00"));
    assertThat(r1.get("bits")).isEqualTo(new Value.Native("postgresql", "bit", "1010"));
    assertThat(r1.get("vbits")).isEqualTo(new Value.Native("postgresql", "varbit", "101"));
    assertThat(r1.get("grid"))
        .isEqualTo(new Value.Native("postgresql", "_int4", "{{1,NULL},{3,4}}"));
    assertSameValue(r1.get("pt"), "point", "(1.5,-2)");
    assertThat(((Value.Native) r1.get("pr")).text()).isEqualTo("(7,\"x, y\")");
    assertThat(r1.get("txt")).isEqualTo(new Value.Text("u"));
    assertThat(r1.get("js")).isEqualTo(new Value.Json("{\"k\": 1}"));
    assertThat(r1.get("bin")).isEqualTo(new Value.Binary(new byte[] {'u'}));
    Map<String, Value> r2 = rows.get(2);
    assertThat(r2.get("n")).isEqualTo(nonFinite(Value.NonFinite.Domain.DEC, "POSITIVE_INFINITY"));
    assertThat(r2.get("d")).isEqualTo(nonFinite(Value.NonFinite.Domain.DATE, "NEGATIVE_INFINITY"));
    assertThat(r2.get("ts")).isEqualTo(nonFinite(Value.NonFinite.Domain.TS, "NEGATIVE_INFINITY"));
    assertThat(r2.get("tstz"))
        .isEqualTo(nonFinite(Value.NonFinite.Domain.TSTZ, "POSITIVE_INFINITY"));
    // The old in-band placeholder is plain data now (it made the agent stop before).
    assertThat(r2.get("txt")).isEqualTo(new Value.Text("__openrs_unchanged_toast_value__"));
    Map<String, Value> r3 = rows.get(3);
    assertThat(r3.get("n")).isEqualTo(nonFinite(Value.NonFinite.Domain.DEC, "NEGATIVE_INFINITY"));
    assertThat(r3.get("ts"))
        .isEqualTo(new Value.Timestamp(LocalDateTime.of(294276, 12, 31, 23, 59, 59, 999_999_000)));
    assertThat(r3.get("tm")).isEqualTo(new Value.Time(LocalTime.MIDNIGHT));
    assertThat(r3.get("txt")).isEqualTo(new Value.Text(""));
    assertThat(rows.get(4).get("n")).isEqualTo(new Value.Decimal(new BigDecimal("1.500")));
  }

  private static Value nonFinite(Value.NonFinite.Domain domain, String bound) {
    return new Value.NonFinite(domain, Value.NonFinite.Bound.valueOf(bound));
  }

  /** A native value of {@code type} that PostgreSQL reads as equal to {@code literal}. */
  private static void assertSameValue(Value v, String type, String literal) throws Exception {
    assertThat(v).isInstanceOf(Value.Native.class);
    Value.Native n = (Value.Native) v;
    assertThat(n.dialect()).isEqualTo("postgresql");
    assertThat(n.type()).isEqualTo(type);
    try (Connection c = TestPostgres.connect();
        var ps = c.prepareStatement("SELECT ?::" + type + "::text = ?::" + type + "::text")) {
      ps.setString(1, n.text());
      ps.setString(2, literal);
      try (var rs = ps.executeQuery()) {
        rs.next();
        assertThat(rs.getBoolean(1))
            .as("%s read as %s equals %s", n.text(), type, literal)
            .isTrue();
      }
    }
  }

  @Test
  void unchangedToastedColumnsArriveAsUnchangedAndTruncateAsTruncate() throws Exception {
    TestPostgres.exec(
        "CREATE TABLE " + t("docs") + " (id int PRIMARY KEY, title text, body text)",
        "ALTER TABLE " + t("docs") + " ALTER COLUMN body SET STORAGE EXTERNAL");
    startStreaming(Map.of());
    String body = "toasted " + "y".repeat(20_000);
    try (Connection c = TestPostgres.connect();
        var ps = c.prepareStatement("INSERT INTO " + t("docs") + " VALUES (1, 'v1', ?)")) {
      ps.setString(1, body);
      ps.executeUpdate();
    }
    TestPostgres.exec(
        "UPDATE " + t("docs") + " SET title = 'v2' WHERE id = 1",
        "DELETE FROM " + t("docs") + " WHERE id = 1",
        "TRUNCATE " + t("docs"));
    await().atMost(WAIT).until(() -> h.outbound().size() == 4);
    List<LtlCommand.InTransaction> changes = h.outboundChanges();
    assertThat(byName(((LtlCommand.Insert) changes.get(0)).after()).get("body"))
        .isEqualTo(new Value.Text(body));
    LtlCommand.Update u = (LtlCommand.Update) changes.get(1);
    assertThat(u.before()).containsExactly(new Column("id", new Value.Int32(1)));
    assertThat(u.after())
        .containsExactly(
            new Column("id", new Value.Int32(1)),
            new Column("title", new Value.Text("v2")),
            new Column("body", Value.UNCHANGED));
    LtlCommand.Delete d = (LtlCommand.Delete) changes.get(2);
    assertThat(d.before()).containsExactly(new Column("id", new Value.Int32(1)));
    assertThat(changes.get(3)).isInstanceOf(LtlCommand.Truncate.class);
  }

  /**
   * Debezium splits an update of the primary key into a delete of the old key and a create of the
   * new one, whose unchanged TOASTed column holds the placeholder. The agent joins the two into one
   * {@code update} (before: the old key; after: the new key and {@code unchanged}), which the DSI
   * applies as an UPDATE that leaves the column as it is. With REPLICA IDENTITY FULL both images
   * are whole rows.
   */
  @Test
  void primaryKeyUpdateArrivesAsOneUpdateKeepingUnchangedValues() throws Exception {
    TestPostgres.exec(
        "CREATE TABLE " + t("docs") + " (id int PRIMARY KEY, owner int, body text)",
        "ALTER TABLE " + t("docs") + " ALTER COLUMN body SET STORAGE EXTERNAL",
        "CREATE TABLE " + t("fulldocs") + " (id int PRIMARY KEY, body text)",
        "ALTER TABLE " + t("fulldocs") + " ALTER COLUMN body SET STORAGE EXTERNAL",
        "ALTER TABLE " + t("fulldocs") + " REPLICA IDENTITY FULL");
    startStreaming(Map.of());
    String body = "toasted " + "z".repeat(20_000);
    try (Connection c = TestPostgres.connect()) {
      for (String insert :
          List.of(
              "INSERT INTO " + t("docs") + " VALUES (1, 0, ?)",
              "INSERT INTO " + t("docs") + " VALUES (2, 0, ?)",
              "INSERT INTO " + t("fulldocs") + " VALUES (1, ?)")) {
        try (var ps = c.prepareStatement(insert)) {
          ps.setString(1, body);
          ps.executeUpdate();
        }
      }
      try (Statement s = c.createStatement()) {
        s.execute("UPDATE " + t("docs") + " SET id = 11 WHERE id = 1");
        // Two key updates in one statement, then a delete, in one transaction: the pairs are
        // told apart and the delete stays a delete.
        c.setAutoCommit(false);
        s.execute("UPDATE " + t("docs") + " SET id = id + 100, owner = 5");
        s.execute("DELETE FROM " + t("docs") + " WHERE id = 111");
        c.commit();
        c.setAutoCommit(true);
        s.execute("UPDATE " + t("fulldocs") + " SET id = 2 WHERE id = 1");
      }
    }
    await().atMost(WAIT).until(() -> h.outboundChanges().size() == 8);
    List<LtlCommand.InTransaction> changes = h.outboundChanges();
    Column unchanged = new Column("body", Value.UNCHANGED);
    LtlCommand.Update u = (LtlCommand.Update) changes.get(3);
    assertThat(u.table().table()).isEqualTo("docs");
    assertThat(u.before()).containsExactly(new Column("id", new Value.Int32(1)));
    assertThat(u.after())
        .containsExactly(
            new Column("id", new Value.Int32(11)),
            new Column("owner", new Value.Int32(0)),
            unchanged);
    Map<Integer, Integer> moved = new HashMap<>();
    for (int i = 4; i < 6; i++) {
      LtlCommand.Update m = (LtlCommand.Update) changes.get(i);
      int from = ((Value.Int32) m.before().get(0).value()).value();
      assertThat(m.after().get(1)).isEqualTo(new Column("owner", new Value.Int32(5)));
      assertThat(m.after().get(2)).isEqualTo(unchanged);
      moved.put(from, ((Value.Int32) m.after().get(0).value()).value());
    }
    assertThat(moved).containsOnly(Map.entry(11, 111), Map.entry(2, 102));
    assertThat(((LtlCommand.Delete) changes.get(6)).before())
        .containsExactly(new Column("id", new Value.Int32(111)));
    LtlCommand.Update full = (LtlCommand.Update) changes.get(7);
    assertThat(full.before())
        .containsExactly(
            new Column("id", new Value.Int32(1)), new Column("body", new Value.Text(body)));
    // With the whole old row at hand Debezium fills the unchanged value in.
    assertThat(full.after())
        .containsExactly(
            new Column("id", new Value.Int32(2)), new Column("body", new Value.Text(body)));
  }

  @Test
  void fullReplicaIdentityGivesTheWholeBeforeImage() throws Exception {
    TestPostgres.exec(
        "CREATE TABLE " + t("acct") + " (id int PRIMARY KEY, region text, balance int)",
        "ALTER TABLE " + t("acct") + " REPLICA IDENTITY FULL");
    startStreaming(Map.of());
    TestPostgres.exec(
        "INSERT INTO " + t("acct") + " VALUES (1, 'EU', NULL)",
        "UPDATE " + t("acct") + " SET balance = 5 WHERE id = 1",
        "DELETE FROM " + t("acct") + " WHERE id = 1");
    await().atMost(WAIT).until(() -> h.outbound().size() == 3);
    List<LtlCommand.InTransaction> changes = h.outboundChanges();
    List<Column> old =
        List.of(
            new Column("id", new Value.Int32(1)),
            new Column("region", new Value.Text("EU")),
            new Column("balance", Value.NULL));
    assertThat(((LtlCommand.Update) changes.get(1)).before()).isEqualTo(old);
    assertThat(((LtlCommand.Delete) changes.get(2)).before())
        .containsExactly(
            new Column("id", new Value.Int32(1)),
            new Column("region", new Value.Text("EU")),
            new Column("balance", new Value.Int32(5)));
  }

  @Test
  void interleavedTransactionsArriveWholeInCommitOrderAndRollbacksNever() throws Exception {
    Workload.createTables(h.schema);
    startStreaming(Map.of());
    Workload w = new Workload(h.schema);
    try (Connection a = TestPostgres.connect();
        Connection b = TestPostgres.connect();
        Connection c = TestPostgres.connect();
        Connection r = TestPostgres.connect()) {
      for (Connection x : List.of(a, b, c, r)) {
        x.setAutoCommit(false);
      }
      // Statements of four transactions interleave; they commit in the order c, a, b; r rolls back.
      insert(a, "A", 0);
      insert(b, "B", 0);
      insert(r, "R", 0);
      insert(c, "C", 0);
      insert(a, "A", 1);
      insert(b, "B", 1);
      insert(r, "R", 1);
      w.transaction(c, "C", 0, false);
      w.transaction(a, "A", 0, false);
      r.rollback();
      w.transaction(b, "B", 0, false);
    }
    await().atMost(WAIT).until(() -> h.outbound().size() == 3);
    List<Transaction> out = h.outbound();
    assertThat(out.stream().map(x -> tagOf(x)).collect(Collectors.toList()))
        .containsExactly("C", "A", "B");
    assertThat(out.get(1).body()).hasSize(3); // A: two inserts and the counter
    assertOqidsIncrease(out);
  }

  private void insert(Connection c, String tag, int i) throws Exception {
    try (Statement s = c.createStatement()) {
      s.execute("INSERT INTO " + t("items") + " VALUES ('" + tag + "', " + i + ", 'p')");
    }
  }

  private static String tagOf(Transaction t) {
    for (LtlCommand.InTransaction c : t.body()) {
      if (c instanceof LtlCommand.Insert i) {
        return ((Value.Text) byName(i.after()).get("tx")).value();
      }
    }
    return "";
  }

  private static long seqOf(Transaction t) {
    LtlCommand.Update u = (LtlCommand.Update) t.body().get(t.body().size() - 1);
    return ((Value.Int64) byName(u.after()).get("n")).value();
  }

  /** Every OQID of every command, begin to commit, across transactions: strictly increasing. */
  static void assertOqidsIncrease(List<Transaction> out) {
    assertOqidsIncrease(out, 12);
  }

  /** As above, for OQIDs of {@code length} bytes. */
  static void assertOqidsIncrease(List<Transaction> out, int length) {
    Oqid last = null;
    for (Transaction t : out) {
      List<LtlCommand.InTransaction> all = new ArrayList<>();
      all.add(t.begin());
      all.addAll(t.body());
      all.add(t.commit());
      for (LtlCommand.InTransaction c : all) {
        if (last != null) {
          assertThat(c.oqid()).as("OQID after %s", last).isGreaterThan(last);
        }
        last = c.oqid();
      }
      assertThat(t.commit().oqid().length()).isEqualTo(length);
    }
  }

  @Test
  void concurrentTransactionsArriveWholeInCommitOrder() throws Exception {
    Workload.createTables(h.schema);
    startStreaming(Map.of("ltl_batch_size", "4096"));
    Workload w = new Workload(h.schema);
    for (Thread th : w.start(4, 40, 12, 5, 42, new AtomicBoolean())) {
      th.join();
    }
    int expected = w.committed().size();
    await().atMost(WAIT).until(() -> h.outbound().size() == expected);
    List<Transaction> out = h.outbound();
    Map<String, Workload.Committed> byTag =
        w.committed().stream().collect(Collectors.toMap(Workload.Committed::tag, c -> c));
    long lastSeq = 0;
    for (Transaction t : out) {
      String tag = tagOf(t);
      Workload.Committed c = byTag.get(tag);
      assertThat(c).as("transaction %s was committed", tag).isNotNull();
      assertThat(t.body()).hasSize(c.rows() + 1);
      for (int i = 0; i < c.rows(); i++) {
        Map<String, Value> row = byName(((LtlCommand.Insert) t.body().get(i)).after());
        assertThat(row.get("tx")).isEqualTo(new Value.Text(tag));
        assertThat(row.get("i")).isEqualTo(new Value.Int32(i));
      }
      assertThat(seqOf(t)).isEqualTo(c.seq()).isGreaterThan(lastSeq);
      lastSeq = c.seq();
    }
    Set<String> rolledBack = Set.copyOf(w.rolledBack());
    assertThat(out).noneMatch(t -> rolledBack.contains(tagOf(t)));
    assertOqidsIncrease(out);
  }

  @Test
  void largeTransactionArrivesWhole() throws Exception {
    largeTransaction(20_000);
  }

  @Test
  @Tag("soak")
  void hundredThousandRowTransactionArrivesWhole() throws Exception {
    largeTransaction(100_000);
  }

  private void largeTransaction(int rows) throws Exception {
    Workload.createTables(h.schema);
    // A small buffer makes the transaction spill to a file before its commit.
    RepAgent agent = startStreaming(Map.of("transaction_buffer_size", "262144"));
    try (Connection c = TestPostgres.connect()) {
      c.setAutoCommit(false);
      new Workload(h.schema).transaction(c, "big", rows, false);
    }
    await().atMost(WAIT).until(() -> h.outbound().size() == 1);
    Transaction t = h.outbound().get(0);
    assertThat(t.body()).hasSize(rows + 1);
    for (int i = 0; i < rows; i++) {
      assertThat(byName(((LtlCommand.Insert) t.body().get(i)).after()).get("i"))
          .isEqualTo(new Value.Int32(i));
    }
    assertOqidsIncrease(List.of(t));
    assertThat(agent.counters().get(AgentCounter.RA_TRANSACTIONS_SPILLED)).isEqualTo(1);
    try (var files = java.nio.file.Files.list(dir.resolve("agent"))) {
      assertThat(files).as("spill files are deleted after the commit").isEmpty();
    }
  }

  /** A new table in {@code public}, outside the agent's publication; the caller drops it. */
  private static String unpublishedTable(String prefix) throws Exception {
    String name = TestPostgres.unique(prefix);
    TestPostgres.exec("CREATE TABLE public." + name + " (id int PRIMARY KEY, pad text)");
    return name;
  }

  /** Writes 5,000 rows (about 3 MB of WAL) to {@code public.table}; the primary's LSN after. */
  private static long writeWalTo(String table) throws Exception {
    TestPostgres.exec(
        "INSERT INTO public."
            + table
            + " SELECT g, repeat('z', 500) FROM generate_series(1, 5000) g");
    return TestPostgres.currentLsn();
  }

  private void awaitSlotConfirmedTo(long lsn) {
    await().atMost(WAIT).until(() -> TestPostgres.confirmedFlushLsn(h.slot).orElseThrow() >= lsn);
  }

  @Test
  void workOnUnpublishedTablesStillReleasesTheSlot() throws Exception {
    TestPostgres.exec("CREATE TABLE " + t("captured") + " (id int PRIMARY KEY)");
    String other = unpublishedTable("rat_other");
    try {
      // Capture only "captured"; the workload writes only the other table.
      startStreaming(Map.of("table_include_list", t("captured")));
      long before = TestPostgres.confirmedFlushLsn(h.slot).orElseThrow();
      long written = writeWalTo(other);
      assertThat(written).isGreaterThan(before);
      awaitSlotConfirmedTo(written);
      assertThat(h.outbound()).isEmpty();
    } finally {
      TestPostgres.exec("DROP TABLE public." + other);
    }
  }

  /**
   * Heartbeats move the slot past WAL the agent never sends; their transactions go to the server as
   * begin and commit, so the server's truncation point moves with them. Before, only the resume
   * blob recorded a heartbeat's position, and Debezium may confirm to the slot a position newer
   * than the blob it last flushed (it commits the last record marked processed): a session that
   * ended then (log transfer suspended, a lost server) left the slot past the server's truncation
   * point and the blob, and every restart stopped with a false RA-7.
   */
  @Test
  void heartbeatsNeverMoveTheSlotPastTheServersTruncationPoint() throws Exception {
    TestPostgres.exec("CREATE TABLE " + t("captured") + " (id int PRIMARY KEY)");
    String other = unpublishedTable("rat_hb_other");
    try {
      RepAgent agent =
          startStreaming(
              Map.of(
                  "table_include_list", t("captured"),
                  "heartbeat_interval_ms", "200",
                  "offset_flush_interval_ms", "100",
                  "retry_min_backoff_ms", "50",
                  "retry_max_backoff_ms", "200"));
      TestPostgres.exec("INSERT INTO " + t("captured") + " VALUES (1)");
      await().atMost(WAIT).until(() -> h.outbound().size() == 1);
      long written = writeWalTo(other);
      awaitSlotConfirmedTo(written);
      h.server.suspendLogTransfer(AgentHarness.DS, AgentHarness.DB);
      await().atMost(WAIT).until(() -> agent.state() == RepAgent.State.WAITING_TO_RETRY);
      long confirmed = TestPostgres.confirmedFlushLsn(h.slot).orElseThrow();
      Oqid held =
          h.server
              .origin(AgentHarness.DS, AgentHarness.DB)
              .orElseThrow()
              .state()
              .durableOqid()
              .orElseThrow();
      assertThat(confirmed).isGreaterThanOrEqualTo(written);
      assertThat(PostgresDialect.commitEnd(held)).isGreaterThanOrEqualTo(confirmed);
      h.server.resumeLogTransfer(AgentHarness.DS, AgentHarness.DB);
      TestPostgres.exec("INSERT INTO " + t("captured") + " VALUES (2)");
      await().atMost(WAIT).until(() -> h.outbound().size() == 2);
      assertThat(agent.state()).isNotEqualTo(RepAgent.State.FAILED);
      assertOqidsIncrease(h.outbound());
    } finally {
      TestPostgres.exec("DROP TABLE public." + other);
    }
  }

  @Test
  void aUserWithoutReplicationGetsAClearError() throws Exception {
    String role = TestPostgres.unique("rat_norepl");
    TestPostgres.exec("CREATE ROLE " + role + " LOGIN PASSWORD 'pw' NOREPLICATION");
    try {
      Map<String, String> cfg = new HashMap<>();
      cfg.put("source_user", role);
      cfg.put("source_password_env", "NOREPL_PW");
      AgentSettings s =
          AgentConfigFile.fromMap(
              "test",
              h.agentConfig(cfg),
              name -> name.equals("NOREPL_PW") ? "pw" : "test-admin-secret",
              dir);
      RepAgent agent = h.startAgent(s);
      agent.terminated().get(60, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(agent.state()).isEqualTo(RepAgent.State.FAILED);
      assertThat(agent.failure().orElseThrow())
          .isInstanceOf(AgentException.class)
          .hasMessageContaining("RA-2")
          .hasMessageContaining("source_user '" + role + "' lacks the REPLICATION attribute");
    } finally {
      TestPostgres.exec("DROP ROLE " + role);
    }
  }

  @Test
  void suspendedLogTransferIsResumedWithoutLoss() throws Exception {
    TestPostgres.exec("CREATE TABLE " + t("events") + " (id int PRIMARY KEY)");
    RepAgent agent = startStreaming(Map.of());
    TestPostgres.exec("INSERT INTO " + t("events") + " VALUES (1)");
    await().atMost(WAIT).until(() -> h.outbound().size() == 1);
    h.server.suspendLogTransfer(AgentHarness.DS, AgentHarness.DB);
    await().atMost(WAIT).until(() -> agent.state() == RepAgent.State.WAITING_TO_RETRY);
    TestPostgres.exec("INSERT INTO " + t("events") + " VALUES (2)");
    TestPostgres.exec("INSERT INTO " + t("events") + " VALUES (3)");
    h.server.resumeLogTransfer(AgentHarness.DS, AgentHarness.DB);
    await().atMost(WAIT).until(() -> h.outbound().size() == 3);
    assertThat(agent.counters().get(AgentCounter.RA_RECONNECTS)).isGreaterThanOrEqualTo(1);
    assertOqidsIncrease(h.outbound());
  }

  /**
   * A suspended log transfer is a state the agent logs once, however often it knocks at the server
   * meanwhile: one warning when it begins and one line when replication resumes, not a warning per
   * reconnect (issue 9's benchmark, which suspends the agents not being measured with a short
   * back-off, found one every quarter second).
   */
  @Test
  void aSuspendedLogTransferIsLoggedOnceNotAtEveryReconnect() throws Exception {
    ch.qos.logback.classic.Logger root =
        (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ch.qos.logback.classic.Logger client =
        (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(LtlClient.class);
    Level clientLevel = client.getLevel();
    ListAppender<ILoggingEvent> events = new ListAppender<>();
    events.start();
    root.addAppender(events);
    client.setLevel(Level.DEBUG); // to count the refused reconnects
    try {
      TestPostgres.exec("CREATE TABLE " + t("quiet") + " (id int PRIMARY KEY)");
      RepAgent agent =
          startStreaming(Map.of("retry_min_backoff_ms", "50", "retry_max_backoff_ms", "100"));
      h.server.suspendLogTransfer(AgentHarness.DS, AgentHarness.DB);
      await() // five reconnects refused, as the client logs them
          .atMost(WAIT)
          .until(
              () ->
                  refusals(events, Level.ALL).stream()
                          .filter(e -> e.getLoggerName().equals(LtlClient.class.getName()))
                          .count()
                      >= 5);
      h.server.resumeLogTransfer(AgentHarness.DS, AgentHarness.DB);
      TestPostgres.exec("INSERT INTO " + t("quiet") + " VALUES (1)");
      await().atMost(WAIT).until(() -> h.outbound().size() == 1);
      assertThat(refusals(events, Level.WARN)) // warnings and errors
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.getLoggerName()).isEqualTo(RepAgent.class.getName());
                assertThat(e.getFormattedMessage()).contains("log transfer stopped at the server");
              });
      assertThat(logged(events))
          .filteredOn(m -> m.contains("replicating again after: log transfer stopped"))
          .hasSize(1);
      assertThat(agent.state()).isEqualTo(RepAgent.State.REPLICATING);
    } finally {
      root.detachAppender(events);
      client.setLevel(clientLevel);
    }
  }

  /**
   * Events at {@code level} or above that tell of the server's refusal for a suspended transfer.
   */
  private static List<ILoggingEvent> refusals(ListAppender<ILoggingEvent> events, Level level) {
    synchronized (events) {
      return events.list.stream()
          .filter(e -> e.getLevel().isGreaterOrEqual(level))
          .filter(e -> e.getFormattedMessage().contains("LOG_TRANSFER_STOPPED"))
          .toList();
    }
  }

  private static List<String> logged(ListAppender<ILoggingEvent> events) {
    synchronized (events) {
      return events.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }
  }

  @Test
  void snapshotSendsExistingRowsAsSnapshotInsertsThenStreams() throws Exception {
    TestPostgres.exec(
        "CREATE TABLE " + t("seed") + " (id int PRIMARY KEY, name text)",
        "INSERT INTO " + t("seed") + " SELECT g, 'n' || g FROM generate_series(1, 50) g");
    startStreaming(Map.of("snapshot", "on"));
    TestPostgres.exec("INSERT INTO " + t("seed") + " VALUES (51, 'live')");
    await().atMost(WAIT).until(() -> h.outbound().size() == 2);
    List<Transaction> out = h.outbound();
    assertThat(out.get(0).body()).hasSize(50).allMatch(c -> ((LtlCommand.Insert) c).snapshot());
    assertThat(((LtlCommand.Insert) out.get(1).body().get(0)).snapshot()).isFalse();
    assertOqidsIncrease(out);
  }

  @Test
  void utf8TableAndColumnNamesSurvive() throws Exception {
    TestPostgres.exec(
        "CREATE TABLE " + h.schema + ".\"Order Lines\" (\"Line No\" int PRIMARY KEY, \"表\" text)");
    startStreaming(Map.of());
    TestPostgres.exec("INSERT INTO " + h.schema + ".\"Order Lines\" VALUES (1, 'ü')");
    await().atMost(WAIT).until(() -> h.outbound().size() == 1);
    LtlCommand.Insert i = (LtlCommand.Insert) h.outboundChanges().get(0);
    assertThat(i.table().table()).isEqualTo("Order Lines");
    assertThat(i.after())
        .containsExactly(
            new Column("Line No", new Value.Int32(1)), new Column("表", new Value.Text("ü")));
  }
}
