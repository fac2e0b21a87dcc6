package io.openrs.consistency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.consistency.support.Database;
import io.openrs.consistency.support.Kind;
import io.openrs.consistency.support.Pipeline;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Between products, with default parameters: each type goes into the other product's faithful type
 * with its exact value (docs/dsi.md, "Type mapping"), PostgreSQL to MariaDB and MariaDB to
 * PostgreSQL, in continuous, parallel and HVAR modes; a value the target cannot hold (PostgreSQL
 * numeric NaN into a MariaDB decimal) stops the connection with an error naming the column and the
 * value.
 */
class CrossProductTypesIT {

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"continuous", "parallel", "hvar"})
  void postgresToMariaDbKeepsEveryValue(String mode) throws Exception {
    Pipeline.Spec spec =
        Scenarios.oneToOne(Kind.POSTGRESQL, Kind.MARIADB, ReplicationMatrixIT.MODES.get(mode))
            .extraTables(
                Kind.POSTGRESQL,
                List.of(
                    "CREATE TYPE %s.mood AS ENUM ('sad', 'happy')",
                    "CREATE TABLE %s.types (id int PRIMARY KEY, n numeric(20,5), t text, b bytea,"
                        + " d date, ts timestamp(6), tstz timestamptz, bo boolean, f8 float8,"
                        + " i8 bigint, u uuid, js jsonb, ia int[], e %s.mood, ip inet,"
                        + " tm time)"))
            .extraTables(
                Kind.MARIADB,
                List.of(
                    "CREATE TABLE %s.types (id int PRIMARY KEY, n decimal(20,5), t longtext,"
                        + " b longblob, d date, ts datetime(6), tstz datetime(6), bo boolean,"
                        + " f8 double, i8 bigint, u char(36), js json, ia varchar(40),"
                        + " e enum('sad','happy'), ip varchar(40), tm time(6))"));
    try (Pipeline p = Pipeline.start(dir, spec)) {
      p.primary()
          .exec(
              ("INSERT INTO %s.types VALUES (1, 12345.67890, E'x\\u00e9\\U0001F600\\nline',"
                      + " '\\x00ff'::bytea, '2026-11-27', '2026-11-27 10:11:12.123456',"
                      + " '2026-11-27 10:11:12.5+02', true, 1.5e300, 9223372036854775807,"
                      + " 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{\"a\": [1, 2.5]}', '{1,NULL,3}',"
                      + " 'happy', '10.0.0.1', '10:11:12.5')")
                  .replace("%s", p.primary().schema()),
              ("INSERT INTO %s.types (id, bo, n) VALUES (2, false, -0.00001)")
                  .replace("%s", p.primary().schema()));
      p.awaitDelivered(Duration.ofSeconds(120));
      Database r = p.replicates().get(0).db();
      Map<String, String> row1 =
          row(
              r,
              "SELECT n, t, HEX(b) AS b, d, ts, tstz, CAST(bo AS SIGNED) AS bo, f8, i8, u, js,"
                  + " ia, e, ip, tm FROM %s.types WHERE id = 1");
      assertThat(row1)
          .containsEntry("n", "12345.67890")
          .containsEntry("t", "x\u00e9\uD83D\uDE00\nline")
          .containsEntry("b", "00FF")
          .containsEntry("d", "2026-11-27")
          .containsEntry("ts", "2026-11-27 10:11:12.123456")
          .containsEntry("tstz", "2026-11-27 08:11:12.500000")
          .containsEntry("bo", "1")
          .containsEntry("f8", "1.5e300")
          .containsEntry("i8", "9223372036854775807")
          .containsEntry("u", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")
          .containsEntry("js", "{\"a\": [1, 2.5]}")
          .containsEntry("ia", "{1,NULL,3}")
          .containsEntry("e", "happy")
          .containsEntry("ip", "10.0.0.1")
          .containsEntry("tm", "10:11:12.500000");
      Map<String, String> row2 =
          row(r, "SELECT CAST(bo AS SIGNED) AS bo, n FROM %s.types WHERE id = 2");
      assertThat(row2).containsEntry("bo", "0").containsEntry("n", "-0.00001");
      p.stop();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"continuous", "parallel", "hvar"})
  void mariaDbToPostgresKeepsEveryValue(String mode) throws Exception {
    Pipeline.Spec spec =
        Scenarios.oneToOne(Kind.MARIADB, Kind.POSTGRESQL, ReplicationMatrixIT.MODES.get(mode))
            .extraTables(
                Kind.MARIADB,
                List.of(
                    "CREATE TABLE %s.types (id int PRIMARY KEY, bo boolean, tu tinyint unsigned,"
                        + " bu bigint unsigned, yr year, d decimal(10,3), dt datetime(6),"
                        + " ts timestamp(6) NULL, tm time(6), js json, e enum('a','b'), bl blob,"
                        + " tx text, b9 bit(9), zd date)"))
            .extraTables(
                Kind.POSTGRESQL,
                List.of(
                    "CREATE TABLE %s.types (id int PRIMARY KEY, bo boolean, tu smallint,"
                        + " bu numeric(20), yr smallint, d numeric(10,3), dt timestamp(6),"
                        + " ts timestamptz, tm time, js jsonb, e text, bl bytea, tx text,"
                        + " b9 bytea, zd date)"));
    try (Pipeline p = Pipeline.start(dir, spec)) {
      p.primary()
          .exec(
              ("INSERT INTO %s.types VALUES (1, true, 255, 18446744073709551615, 2155, -1.500,"
                      + " '9999-12-31 23:59:59.999999', '2038-01-19 03:14:07.5',"
                      + " '23:59:59.999999', '{\"a\": [1, 2.5]}', 'b', x'00ff',"
                      + " 'x\u00e9\uD83D\uDE00', b'100000011', '2026-01-02')")
                  .replace("%s", p.primary().schema()),
              ("INSERT INTO %s.types (id, bo) VALUES (2, false)")
                  .replace("%s", p.primary().schema()));
      p.awaitDelivered(Duration.ofSeconds(120));
      Database r = p.replicates().get(0).db();
      Map<String, String> row1 =
          row(
              r,
              "SELECT bo::text, tu::text, bu::text, yr::text, d::text, dt::text,"
                  + " (ts AT TIME ZONE 'UTC')::text AS ts, tm::text, js::text, e, bl::text, tx,"
                  + " b9::text, zd::text"
                  + " FROM %s.types WHERE id = 1");
      assertThat(row1)
          .containsEntry("bo", "true")
          .containsEntry("tu", "255")
          .containsEntry("bu", "18446744073709551615")
          .containsEntry("yr", "2155")
          .containsEntry("d", "-1.500")
          .containsEntry("dt", "9999-12-31 23:59:59.999999")
          .containsEntry("ts", "2038-01-19 03:14:07.5")
          .containsEntry("tm", "23:59:59.999999")
          .containsEntry("js", "{\"a\": [1, 2.5]}")
          .containsEntry("e", "b")
          .containsEntry("bl", "\\x00ff")
          .containsEntry("tx", "x\u00e9\uD83D\uDE00")
          .containsEntry("b9", "\\x0103")
          .containsEntry("zd", "2026-01-02");
      assertThat(row(r, "SELECT bo::text FROM %s.types WHERE id = 2")).containsEntry("bo", "false");
      p.stop();
    }
  }

  /** PostgreSQL's NaN has no MariaDB decimal: the DSI stops naming the column and the value. */
  @Test
  void aValueTheTargetCannotHoldStopsTheConnectionNamingColumnAndValue() throws Exception {
    Pipeline.Spec spec =
        Scenarios.oneToOne(Kind.POSTGRESQL, Kind.MARIADB, Scenarios.CONTINUOUS)
            .extraTables(
                Kind.POSTGRESQL, List.of("CREATE TABLE %s.nums (id int PRIMARY KEY, n numeric)"))
            .extraTables(
                Kind.MARIADB,
                List.of("CREATE TABLE %s.nums (id int PRIMARY KEY, n decimal(30,10))"));
    try (Pipeline p = Pipeline.start(dir, spec)) {
      p.primary()
          .exec(
              "INSERT INTO " + p.primary().schema() + ".nums VALUES (1, 1.25)",
              "INSERT INTO " + p.primary().schema() + ".nums VALUES (2, 'NaN')");
      await()
          .atMost(Duration.ofSeconds(120))
          .until(() -> !p.admin().rows("admin who_is_down").isEmpty());
      String down = p.admin().rows("admin who_is_down").toString();
      assertThat(down).contains("column n").contains("NaN");
      Database r = p.replicates().get(0).db();
      assertThat(r.scalar("SELECT COUNT(*) FROM " + r.schema() + ".nums WHERE id = 2"))
          .isEqualTo("0");
      p.stop();
    }
  }

  /** The first row of {@code query} ({@code %s}: the schema), column label to text. */
  private static Map<String, String> row(Database db, String query) throws SQLException {
    Map<String, String> out = new LinkedHashMap<>();
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query.replace("%s", db.schema()))) {
      ResultSetMetaData md = rs.getMetaData();
      assertThat(rs.next()).as("a row for %s", query).isTrue();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        out.put(md.getColumnLabel(i), rs.getString(i));
      }
    }
    return out;
  }
}
