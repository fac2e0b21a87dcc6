package io.openrs.consistency;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.consistency.support.Database;
import io.openrs.consistency.support.Kind;
import io.openrs.consistency.support.Pipeline;
import io.openrs.consistency.support.TableText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * PostgreSQL to PostgreSQL, every built-in type at its edges, in every DSI mode with default
 * parameters: numeric NaN, ±Infinity and exact scale, floats' NaN, ±Infinity and -0, every integer
 * width at its limits, text from every Unicode plane, bytea with all 256 byte values, ±infinity, BC
 * and the largest dates and timestamps, time 24:00:00, intervals, network types, bit strings, json,
 * jsonb and xml, arrays with NULL elements and two dimensions, ranges, an enum, a composite type, a
 * point, a domain; out-of-line (TOASTed) values left unchanged by an update. The replicate must
 * equal the primary value by value, compared in PostgreSQL's text form, which shows scale, offsets,
 * infinities and array shape; the first differing values are listed.
 *
 * <p>{@code timetz} is left out: Debezium 3.5 moves its values to UTC before the agent sees them
 * (docs/repagent.md, Types).
 */
class PostgresTypeMatrixIT {

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  private static final List<String> DDL =
      List.of(
          "CREATE EXTENSION IF NOT EXISTS hstore",
          "CREATE TYPE %s.mood AS ENUM ('sad', 'ok', 'happy')",
          "CREATE TYPE %s.pair AS (a int, b text)",
          "CREATE DOMAIN %s.positive AS numeric(12,3) CHECK (VALUE > 0)",
          "CREATE TABLE %s.types (id int PRIMARY KEY, n numeric, n4 numeric(12,4),"
              + " f4 real, f8 double precision, i2 smallint, i4 int, i8 bigint, t text,"
              + " vc varchar(10), ch char(4), b bytea, bo boolean, d date, tm time,"
              + " ts timestamp, tstz timestamptz, iv interval, u uuid, ip inet, net cidr,"
              + " mac macaddr, bt bit(4), vb varbit, js json, jb jsonb, x xml, ia int[],"
              + " ta text[], grid int[][], rng int4range, tsr tstzrange, e %s.mood,"
              + " pt point, comp %s.pair, dom %s.positive, m money, hs hstore)",
          "ALTER TABLE %s.types ALTER COLUMN t SET STORAGE EXTERNAL,"
              + " ALTER COLUMN jb SET STORAGE EXTERNAL, ALTER COLUMN ia SET STORAGE EXTERNAL,"
              + " ALTER COLUMN b SET STORAGE EXTERNAL");

  /** Rows at the edges; {@code %s} is the schema. */
  private static final List<String> WRITES =
      List.of(
          "INSERT INTO %s.types VALUES (1, 'NaN', 1.5000, 'NaN', '-Infinity', -32768,"
              + " 2147483647, -9223372036854775808, E'a\\u00e9\\u4e2d\\U0001F600\\U0010FFFF',"
              + " 'ten chars!', 'ab', (SELECT string_agg(set_byte('\\x00'::bytea, 0, g), ''"
              + " ORDER BY g) FROM generate_series(0, 255) g), true, 'infinity', '24:00:00',"
              + " 'infinity', '-infinity', '-1 year 2 mons -3 days 04:05:06.789',"
              + " 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '::1/128', '10.1.0.0/16',"
              + " '08:00:2b:01:02:03', B'1010', B'101', '{\"a\": [1, 2.50, {\"b\": null}]}',"
              + " '{\"a\": [1, 2.50, {\"b\": null}]}', '<a b=\"1\">t &amp; u</a>',"
              + " '{1,NULL,3}', '{\"a b\",NULL,\"c\\\"d\",\"\"}', '{{1,2},{3,NULL}}', '[1,10)',"
              + " '[2020-01-01 00:00:00+00,infinity)', 'happy', '(1.5,-2)', '(7,\"x, y\")',"
              + " 1.500, 12.34, '\"a b\"=>\"1\", \"c\\\"d\"=>NULL, \"\"=>\"\"')",
          "INSERT INTO %s.types (id, n, n4, f4, f8, i2, i4, i8, t, b, d, ts, tstz, tm)"
              + " VALUES (2, 'Infinity', -0.0001, '-0', 1.7976931348623157e308, 32767,"
              + " -2147483648, 9223372036854775807, '', '', '4714-11-24 BC',"
              + " '4713-11-24 00:00:00 BC', '294276-12-31 23:59:59.999999+00', '00:00:00')",
          "INSERT INTO %s.types (id, n, d, ts, tstz, f8) VALUES (3, '-Infinity',"
              + " '5874897-12-31', '294276-12-31 23:59:59.999999', 'infinity', '-0')",
          "INSERT INTO %s.types (id) VALUES (4)",
          // Out-of-line values, then an update that leaves them alone (unchanged TOAST).
          "INSERT INTO %s.types (id, t, jb, ia, b, n) VALUES (5,"
              + " (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 400) g),"
              + " (SELECT jsonb_agg(md5(g::text)) FROM generate_series(1, 400) g),"
              + " (SELECT array_agg(g) FROM generate_series(1, 3000) g),"
              + " (SELECT string_agg(decode(md5(g::text), 'hex'), '') FROM"
              + " generate_series(1, 400) g), 1)",
          "UPDATE %s.types SET n = 2.50, hs = 'k=>v' WHERE id = 5",
          "UPDATE %s.types SET n = 100.000, d = '-infinity' WHERE id = 1",
          "DELETE FROM %s.types WHERE id = 4",
          // A text that equals the agent's old in-band placeholder is data like any other.
          "INSERT INTO %s.types (id, t) VALUES (6, '__openrs_unchanged_toast_value__')");

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"continuous", "parallel", "hvar"})
  void everyTypeReplicatesValueByValue(String mode) throws Exception {
    Map<String, String> parameters = ReplicationMatrixIT.MODES.get(mode);
    Pipeline.Spec spec =
        Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, parameters).extraTables(DDL);
    try (Pipeline p = Pipeline.start(dir, spec)) {
      String schema = p.primary().schema();
      for (String w : WRITES) {
        p.primary().exec(w.replace("%s", schema));
      }
      p.awaitDelivered(Duration.ofSeconds(120));
      Database replicate = p.replicates().get(0).db();
      String all = "SELECT * FROM %s.types ORDER BY id";
      List<List<String>> expected = TableText.labelled(p.primary(), all);
      List<List<String>> actual = TableText.labelled(replicate, all);
      assertThat(TableText.differences(expected, actual))
          .as("values that differ (%s)", mode)
          .isEmpty();
      assertThat(expected).hasSize(5);
      if (mode.equals("hvar")) {
        assertThat(p.admin().total("DSI", "HVARCmdsCompiled"))
            .as("commands the DSI compiled into net-change groups")
            .isPositive();
      }
      p.stop();
    }
  }
}
