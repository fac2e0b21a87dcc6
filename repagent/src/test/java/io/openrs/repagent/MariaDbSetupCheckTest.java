package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The MariaDB/MySQL setup check, as a function of the server's global variables. The database on
 * this machine is set up right (so {@code MariaDbAgentIT} covers the passing case); reconfiguring
 * it for a negative end-to-end test would disturb other tests, so the wrong settings are checked
 * here, on the values the agent reads with {@code SELECT @@GLOBAL.log_bin, ...}.
 */
class MariaDbSetupCheckTest {

  @Test
  void rowFormatWithFullImagesPasses() {
    assertThat(MariaDbDialect.checkBinlogSettings("1", "ROW", "FULL")).isEmpty();
    assertThat(MariaDbDialect.checkBinlogSettings("ON", "row", "full")).isEmpty();
  }

  @Test
  void eachWrongSettingIsNamed() {
    assertThat(MariaDbDialect.checkBinlogSettings("0", "ROW", "FULL").orElseThrow())
        .contains("log_bin");
    assertThat(MariaDbDialect.checkBinlogSettings("1", "MIXED", "FULL").orElseThrow())
        .contains("binlog_format = MIXED")
        .contains("binlog_format = ROW");
    assertThat(MariaDbDialect.checkBinlogSettings("1", "ROW", "MINIMAL").orElseThrow())
        .contains("binlog_row_image = MINIMAL")
        .contains("binlog_row_image = FULL");
    assertThat(MariaDbDialect.checkBinlogSettings("0", "STATEMENT", "NOBLOB").orElseThrow())
        .contains("log_bin")
        .contains("STATEMENT")
        .contains("NOBLOB");
  }

  @Test
  void binlogFileNumbersAndPositionsMakeTheOqidPrefix() {
    assertThat(MariaDbDialect.fileNumber("mariadb-bin.000042")).isEqualTo(42);
    assertThat(MariaDbDialect.prefix("mysql-bin.000002", 4L))
        .containsExactly(0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 4);
  }

  @Test
  void zeroDatesAreAllowedUnlessStrictWithBothNoZeroFlags() {
    assertThat(
            MariaDbDialect.allowsZeroDates(
                "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,"
                    + "NO_ENGINE_SUBSTITUTION"))
        .isTrue();
    assertThat(MariaDbDialect.allowsZeroDates("")).isTrue();
    assertThat(MariaDbDialect.allowsZeroDates("NO_ZERO_DATE,NO_ZERO_IN_DATE")).isTrue();
    assertThat(MariaDbDialect.allowsZeroDates("STRICT_TRANS_TABLES,NO_ZERO_DATE,NO_ZERO_IN_DATE"))
        .isFalse();
    assertThat(MariaDbDialect.allowsZeroDates("strict_all_tables, no_zero_in_date,no_zero_date"))
        .isFalse();
    assertThat(MariaDbDialect.allowsZeroDates("TRADITIONAL")).isFalse();
  }
}
