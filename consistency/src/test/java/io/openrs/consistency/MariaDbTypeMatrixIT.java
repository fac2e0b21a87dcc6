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
 * MariaDB to MariaDB, every MariaDB type at its edges, in every DSI mode with default parameters:
 * signed and unsigned integers of every width at their limits, a 65-digit decimal, float and double
 * extremes, bit(1) and bit(9), boolean, text from every Unicode plane, binary with all 256 byte
 * values, enum, set, json, the smallest and largest dates and datetimes, timestamps, times beyond a
 * day and negative, year. Compared value by value (binary columns as hex).
 */
class MariaDbTypeMatrixIT {

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  private static final String COLUMNS =
      "id, ti, tu, si, su, mi, mu, i, iu, bi, bu, de, d2, fl, db, HEX(b1), HEX(b9), bo, c, vc,"
          + " tx, HEX(bl), HEX(bn), HEX(vb), e, st, js, dt, dtm, tsm, tm, yr";

  private static final List<String> DDL =
      List.of(
          "CREATE TABLE %s.types (id int PRIMARY KEY, ti tinyint, tu tinyint unsigned,"
              + " si smallint, su smallint unsigned, mi mediumint, mu mediumint unsigned,"
              + " i int, iu int unsigned, bi bigint, bu bigint unsigned, de decimal(65,30),"
              + " d2 decimal(10,2), fl float, db double, b1 bit(1), b9 bit(9), bo boolean,"
              + " c char(4), vc varchar(20), tx text, bl blob, bn binary(4), vb varbinary(10),"
              + " e enum('a','b c'), st set('x','y','z'), js json, dt date, dtm datetime(6),"
              + " tsm timestamp(6) NULL, tm time(6), yr year) ENGINE=InnoDB");

  private static final List<String> WRITES =
      List.of(
          "INSERT INTO %s.types VALUES (1, -128, 255, -32768, 65535, -8388608, 16777215,"
              + " -2147483648, 4294967295, -9223372036854775808, 18446744073709551615,"
              + " 12345678901234567890123456789012345.123456789012345678901234567890, -0.01,"
              + " 3.40282e38, -1.7976931348623157e308, b'1', b'101010101', true, 'ab',"
              + " 'x\u00e9\u4e2d\uD83D\uDE00', 'line\\nnext\\ttab', (SELECT UNHEX(CONCAT("
              + " '000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F',"
              + " '202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F',"
              + " '404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F',"
              + " '606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F',"
              + " '808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9F',"
              + " 'A0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBF',"
              + " 'C0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDF',"
              + " 'E0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF'))),"
              + " 0x00010203, X'', 'b c', 'x,z', '{\"a\": [1, 2.5, null]}', '1000-01-01',"
              + " '9999-12-31 23:59:59.999999', '2038-01-19 03:14:07.999999',"
              + " '-838:59:59.000000', 2155)",
          "INSERT INTO %s.types (id, ti, bu, de, fl, db, b1, b9, bo, c, vc, tx, bl, bn, dt, dtm,"
              + " tsm, tm, yr) VALUES (2, 127, 0, -0.000000000000000000000000000001, -1.17549e-38,"
              + " 5e-324, b'0', b'100000011', false, '', '', '', '', 0x00000000, '9999-12-31',"
              + " '1000-01-01 00:00:00.000000', '1970-01-01 00:00:01.000000', '838:59:59.999999',"
              + " 1901)",
          "INSERT INTO %s.types (id, tm, yr) VALUES (3, '25:00:00.5', 0)",
          "INSERT INTO %s.types (id) VALUES (4)",
          "UPDATE %s.types SET d2 = 12345678.90, tm = '-00:00:01' WHERE id = 4",
          "DELETE FROM %s.types WHERE id = 3");

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"continuous", "parallel", "hvar"})
  void everyTypeReplicatesValueByValue(String mode) throws Exception {
    Map<String, String> parameters = ReplicationMatrixIT.MODES.get(mode);
    Pipeline.Spec spec =
        Scenarios.oneToOne(Kind.MARIADB, Kind.MARIADB, parameters).extraTables(DDL);
    try (Pipeline p = Pipeline.start(dir, spec)) {
      String schema = p.primary().schema();
      for (String w : WRITES) {
        p.primary().exec(w.replace("%s", schema));
      }
      p.awaitDelivered(Duration.ofSeconds(120));
      Database replicate = p.replicates().get(0).db();
      String all = "SELECT " + COLUMNS + " FROM %s.types ORDER BY id";
      List<List<String>> expected = TableText.labelled(p.primary(), all);
      List<List<String>> actual = TableText.labelled(replicate, all);
      assertThat(TableText.differences(expected, actual))
          .as("values that differ (%s)", mode)
          .isEmpty();
      assertThat(expected).hasSize(3);
      p.stop();
    }
  }
}
