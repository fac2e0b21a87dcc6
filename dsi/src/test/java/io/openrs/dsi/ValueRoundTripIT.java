package io.openrs.dsi;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.dsi.testkit.Awaits;
import io.openrs.dsi.testkit.OutboundQueueFixture;
import io.openrs.dsi.testkit.RecordingSink;
import io.openrs.dsi.testkit.TestDb;
import io.openrs.dsi.testkit.Txs;
import io.openrs.dsi.testkit.Workload;
import io.openrs.dsi.testkit.Workload.Kind;
import io.openrs.ltl.Column;
import io.openrs.ltl.Value;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every LTL value kind, edge values included, survives the trip to the replicate exactly, through
 * bound parameters (row path), through the bulk interface (PostgreSQL COPY text format with its
 * escaping, MariaDB multi-row inserts), and written as literals in command batches of different
 * statements (each row inserted empty and then updated to its value: PostgreSQL).
 */
class ValueRoundTripIT {
  private static final int REPLICATE = 201;

  @TempDir Path dir;

  enum Route {
    ROWS,
    BULK,
    COMMAND_BATCHES
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(TestDb.POSTGRESQL, Route.ROWS),
        Arguments.of(TestDb.POSTGRESQL, Route.BULK),
        Arguments.of(TestDb.POSTGRESQL, Route.COMMAND_BATCHES),
        Arguments.of(TestDb.MARIADB, Route.ROWS),
        Arguments.of(TestDb.MARIADB, Route.BULK));
  }

  private static final Map<String, Kind> COLUMNS = new LinkedHashMap<>();

  static {
    COLUMNS.put("b", Kind.BOOL);
    COLUMNS.put("s", Kind.I16);
    COLUMNS.put("i", Kind.I32);
    COLUMNS.put("l", Kind.I64);
    COLUMNS.put("d", Kind.DECX);
    COLUMNS.put("f", Kind.F32);
    COLUMNS.put("g", Kind.F64);
    COLUMNS.put("t", Kind.TEXT);
    COLUMNS.put("bin", Kind.BIN);
    COLUMNS.put("dt", Kind.DATE);
    COLUMNS.put("tm", Kind.TIME);
    COLUMNS.put("ts", Kind.TS);
    COLUMNS.put("tz", Kind.TSTZ);
    COLUMNS.put("u", Kind.UUID);
    COLUMNS.put("j", Kind.JSON);
    COLUMNS.put("jt", Kind.JSON);
  }

  private static String ddl(TestDb db) {
    return db == TestDb.POSTGRESQL
        ? "CREATE TABLE vals (id integer PRIMARY KEY, b boolean, s smallint, i integer, l bigint,"
            + " d numeric, f real, g double precision, t text, bin bytea, dt date, tm time(6), ts"
            + " timestamp(6), tz timestamptz(6), u uuid, j jsonb, jt json)"
        : "CREATE TABLE vals (id INT PRIMARY KEY, b BOOLEAN, s SMALLINT, i INT, l BIGINT, d"
            + " DECIMAL(38,10), f FLOAT, g DOUBLE, t TEXT, bin VARBINARY(300), dt DATE, tm TIME(6),"
            + " ts DATETIME(6), tz DATETIME(6), u UUID, j JSON, jt LONGTEXT) ENGINE=InnoDB";
  }

  /** Edge values per column. */
  private static Map<String, List<Value>> edges(TestDb db) {
    boolean pg = db == TestDb.POSTGRESQL;
    Map<String, List<Value>> m = new LinkedHashMap<>();
    m.put("b", List.of(Value.Bool.TRUE, Value.Bool.FALSE));
    m.put("s", List.of(new Value.Int16(Short.MIN_VALUE), new Value.Int16(Short.MAX_VALUE)));
    m.put("i", List.of(new Value.Int32(Integer.MIN_VALUE), new Value.Int32(Integer.MAX_VALUE)));
    m.put("l", List.of(new Value.Int64(Long.MIN_VALUE), new Value.Int64(Long.MAX_VALUE)));
    m.put(
        "d",
        pg
            ? List.of(
                dec("0.00"),
                dec("-12345678901234567890.000100"),
                dec("1E+5"),
                dec("123E-30"),
                dec("98765432109876543210987654321098765432.123456789"))
            : List.of(dec("0.0000000000"), dec("-1234567890123456789012345678.0001000000")));
    List<Value> floats =
        new ArrayList<>(List.of(new Value.Float32(0.1f), new Value.Float32(Float.MAX_VALUE)));
    List<Value> doubles =
        new ArrayList<>(List.of(new Value.Float64(0.1), new Value.Float64(6.02214076E23)));
    if (pg) {
      for (float f :
          new float[] {
            Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f, Float.MIN_VALUE
          }) {
        floats.add(new Value.Float32(f));
      }
      for (double g :
          new double[] {
            Double.NaN,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            -0.0,
            Double.MIN_VALUE,
            Double.MAX_VALUE
          }) {
        doubles.add(new Value.Float64(g));
      }
    }
    m.put("f", floats);
    m.put("g", doubles);
    m.put(
        "t",
        List.of(
            new Value.Text(""),
            new Value.Text("\\N"),
            new Value.Text("a\tb\nc\rd\\e\\\\f"),
            new Value.Text("'quoted' \"double\""),
            new Value.Text("😀表é ß"),
            new Value.Text(" trailing  "),
            new Value.Text("\u0001\u001f control")));
    byte[] all = new byte[256];
    for (int i = 0; i < 256; i++) {
      all[i] = (byte) i;
    }
    m.put(
        "bin",
        List.of(
            new Value.Binary(new byte[0]),
            new Value.Binary(all),
            new Value.Binary(new byte[] {0x5c})));
    List<Value> dates =
        new ArrayList<>(
            List.of(
                new Value.Date(LocalDate.of(pg ? 1 : 1000, 1, 1)),
                new Value.Date(LocalDate.of(9999, 12, 31))));
    List<Value> stamps =
        new ArrayList<>(
            List.of(
                new Value.Timestamp(LocalDateTime.of(pg ? 1 : 1000, 1, 1, 0, 0, 0, 1000)),
                new Value.Timestamp(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000))));
    List<Value> zoned =
        new ArrayList<>(
            List.of(
                tz("2026-11-21T10:15:30.123456Z"),
                tz("2026-11-21T10:15:30.5+05:30"),
                tz("1970-01-01T00:00:00-09:30")));
    if (pg) {
      dates.add(new Value.Date(LocalDate.of(0, 1, 1))); // 1 BC
      dates.add(new Value.Date(LocalDate.of(-43, 3, 15))); // 44 BC
      dates.add(new Value.Date(LocalDate.of(12345, 6, 7)));
      stamps.add(new Value.Timestamp(LocalDateTime.of(-43, 3, 15, 10, 0, 0, 250_000_000)));
      zoned.add(tz("1890-01-01T00:00:00+00:09:21"));
      zoned.add(
          new Value.TimestampTz(OffsetDateTime.of(-43, 3, 15, 12, 0, 0, 0, ZoneOffset.ofHours(2))));
    }
    m.put("dt", dates);
    m.put(
        "tm",
        List.of(
            new Value.Time(LocalTime.MIDNIGHT),
            new Value.Time(LocalTime.of(23, 59, 59, 999_999_000)),
            new Value.Time(LocalTime.of(12, 0, 0, 1000))));
    m.put("ts", stamps);
    m.put("tz", zoned);
    m.put(
        "u",
        List.of(
            new Value.Uuid(UUID.fromString("123e4567-e89b-42d3-a456-426614174000")),
            new Value.Uuid(UUID.fromString("ffffffff-ffff-4fff-bfff-ffffffffffff"))));
    m.put(
        "j",
        List.of(
            new Value.Json("{\"a\": [1, 2, {\"b\": null}]}"),
            new Value.Json("\"tab\\tquote\\\"\"")));
    m.put("jt", List.of(new Value.Json("{ \"kept\" :   \"as sent\\n\" }"), new Value.Json("[]")));
    return m;
  }

  private static Value dec(String s) {
    return new Value.Decimal(new BigDecimal(s));
  }

  private static Value tz(String s) {
    return new Value.TimestampTz(OffsetDateTime.parse(s));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void everyValueSurvivesExactly(TestDb db, Route path) throws Exception {
    boolean bulk = path == Route.BULK;
    try (TestDb.Scratch s = db.scratch("dsi_values");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(ddl(db));
      Map<String, List<Value>> edges = edges(db);
      Txs x = new Txs(s.name(), 101);
      x.begin();
      List<String> expected = new ArrayList<>();
      int id = 0;
      for (Map.Entry<String, List<Value>> e : edges.entrySet()) {
        for (Value v : e.getValue()) {
          id++;
          List<Column> row = new ArrayList<>();
          List<Column> empty = new ArrayList<>();
          row.add(new Column("id", new Value.Int32(id)));
          empty.add(new Column("id", new Value.Int32(id)));
          for (String col : COLUMNS.keySet()) {
            row.add(new Column(col, col.equals(e.getKey()) ? v : Value.NULL));
            empty.add(new Column(col, Value.NULL));
          }
          if (path == Route.COMMAND_BATCHES) {
            x.insert("vals", empty); // insert, update, insert, update, ...: no run of one SQL
            x.update("vals", empty, row);
          } else {
            x.insert("vals", row);
          }
          expected.add(id + " " + e.getKey() + "=" + Workload.canonical(v));
        }
      }
      Workload.Tx t = x.commit();
      q.append(List.of(t));
      DsiSettings settings =
          ContinuousApplyIT.settings(
              "dsi_bulk_copy", bulk ? "on" : "off", "dsi_bulk_threshold", "2");
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              settings,
              new RecordingSink(),
              new SimpleMeterRegistry())) {
        Awaits.applied(dsi, s, Map.of(101, t.commitOqid()));
        assertThat(dsi.counter(DsiCounter.BULK_ROWS)).isEqualTo(bulk ? id : 0);
        if (path == Route.COMMAND_BATCHES) {
          assertThat(dsi.counter(DsiCounter.COMMAND_BATCHES)).isPositive();
          // 2 statements per row in batches of at most dsi_max_cmds_in_batch, not one per trip
          assertThat(dsi.counter(DsiCounter.BATCH)).isLessThan(id);
        } else {
          assertThat(dsi.counter(DsiCounter.COMMAND_BATCHES)).isZero();
        }
      }
      List<String> actual = new ArrayList<>();
      List<String> cols = new ArrayList<>(COLUMNS.keySet());
      try (Connection c = s.connect();
          PreparedStatement st =
              c.prepareStatement(
                  "SELECT id, " + String.join(", ", cols) + " FROM vals ORDER BY id");
          ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          int rowId = rs.getInt(1);
          String set = null;
          for (int i = 0; i < cols.size(); i++) {
            String v = Workload.read(db, rs, i + 2, COLUMNS.get(cols.get(i)));
            if (!v.equals("∅")) {
              set = cols.get(i) + "=" + v;
            }
          }
          actual.add(rowId + " " + set);
        }
      }
      assertThat(actual).containsExactlyElementsOf(expected);
    }
  }
}
