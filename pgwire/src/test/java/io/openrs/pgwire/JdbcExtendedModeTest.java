package io.openrs.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;

/** The JDBC contract with the driver's default extended-query protocol, plus what only it uses. */
class JdbcExtendedModeTest extends JdbcContract {
  @Override
  String queryMode() {
    return "extended";
  }

  @Override
  String literal(String quotedText) {
    return "'" + quotedText + "'";
  }

  /**
   * With prepareThreshold=-1 the driver describes every statement before binding it (Parse,
   * Describe, Sync): the server runs the parameterless one then, and asks the backend to describe
   * the one with parameters (echo can).
   */
  @Test
  void binaryTransferFromTheFirstExecutionAndBinaryParameters() throws Exception {
    Properties p = new Properties();
    p.setProperty("prepareThreshold", "-1");
    try (Connection c = connect(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD, p);
        PreparedStatement types = c.prepareStatement("admin types");
        PreparedStatement echo = c.prepareStatement("echo ? ? ? ?")) {
      try (ResultSet rs = types.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(3)).isEqualTo(1234567890123L);
        assertThat(rs.getBigDecimal(5)).isEqualByComparingTo(TestBackend.NUMERIC);
        assertThat(rs.getTimestamp(7).toInstant()).isEqualTo(TestBackend.TIMESTAMP);
      }
      echo.setInt(1, -7);
      echo.setLong(2, 1L << 40);
      echo.setDouble(3, 0.25);
      echo.setBigDecimal(4, new java.math.BigDecimal("-1234.50"));
      try (ResultSet rs = echo.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("'-7' '1099511627776' '0.25' '-1234.50'");
      }
    }
    assertThat(backend.described).contains("admin types", "echo $1 $2 $3 $4");
    // admin types cannot be described without running it: it ran for the Describe (whose Sync
    // drops the result) and again for the Execute; echo was described and ran once
    assertThat(backend.executed)
        .containsExactly(
            "admin types", "admin types", "echo '-7' '1099511627776' '0.25' '-1234.50'");
  }

  @Test
  void describingAPreparedStatementBeforeRunningIt() throws Exception {
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement("admin who")) {
      ResultSetMetaData md = ps.getMetaData();
      assertThat(md.getColumnCount()).isEqualTo(4);
      assertThat(md.getColumnLabel(2)).isEqualTo("name");
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(2)).isEqualTo("DSI EXEC");
      }
    }
  }

  @Test
  void anUntypedNullParameterIsDescribedAndBoundOnce() throws Exception {
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement("echo ?")) {
      ps.setObject(1, null);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("NULL");
      }
    }
    assertThat(backend.executed).containsExactly("echo NULL");
  }

  @Test
  void anErrorPositionPointsIntoThePreparedText() throws Exception {
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement("admin ? frob")) {
      ps.setString(1, "a much longer value");
      assertThatThrownBy(ps::executeQuery)
          .isInstanceOfSatisfying(
              PSQLException.class,
              e -> {
                assertThat(e.getServerErrorMessage().getMessage())
                    .isEqualTo("syntax error at or near \"'a\"");
                // the error is inside the substituted literal: shown at its $1
                assertThat(e.getServerErrorMessage().getPosition()).isEqualTo(7);
              });
    }
  }
}
