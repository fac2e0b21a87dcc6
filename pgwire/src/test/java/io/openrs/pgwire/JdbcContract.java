package io.openrs.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.postgresql.util.PSQLException;

/**
 * What a client sees through the real PostgreSQL JDBC driver, run once per query mode of the driver
 * (subclasses): connect with SCRAM, tables with names, types and values, tags, errors with SQLSTATE
 * and position, several statements at once, prepared statements, session statements, notices,
 * transactions, and several sessions at the same time.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcContract {
  static final String SERVER_VERSION = "15.0 (openrs test)";

  TestBackend backend;
  PgServer server;

  /** The driver's preferQueryMode. */
  abstract String queryMode();

  /**
   * How a string parameter reaches the backend: the server substitutes {@code 'x'}, the driver in
   * simple mode {@code ('x')}.
   */
  abstract String literal(String quotedText);

  @BeforeAll
  void startServer() throws Exception {
    backend = new TestBackend();
    server =
        PgServer.start(
            PgServerSettings.defaults("127.0.0.1", 0).withServerVersion(SERVER_VERSION), backend);
  }

  @AfterAll
  void stopServer() {
    server.close();
  }

  @BeforeEach
  void forget() {
    backend.executed.clear();
  }

  String url() {
    return "jdbc:postgresql://127.0.0.1:" + server.port() + "/rssd?preferQueryMode=" + queryMode();
  }

  Connection connect() throws SQLException {
    return connect(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD, new Properties());
  }

  Connection connect(String user, String password, Properties extra) throws SQLException {
    Properties p = new Properties();
    p.putAll(extra);
    p.setProperty("user", user);
    p.setProperty("password", password);
    return DriverManager.getConnection(url(), p);
  }

  @Test
  void anActionRegisteredForAfterReadyForQueryRunsOnceTheAnswerIsWritten() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      assertThat(backend.afterReady.getCount()).isEqualTo(1);
      st.execute("admin after");
      assertThat(backend.afterReady.await(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void aCommandReturnsATableWithNamesTypesAndValues() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("admin who")) {
      ResultSetMetaData md = rs.getMetaData();
      assertThat(md.getColumnCount()).isEqualTo(4);
      assertThat(md.getColumnLabel(1)).isEqualTo("spid");
      assertThat(md.getColumnLabel(4)).isEqualTo("info");
      assertThat(md.getColumnType(1)).isEqualTo(Types.INTEGER);
      assertThat(md.getColumnTypeName(1)).isEqualTo("int4");
      assertThat(md.getColumnType(2)).isEqualTo(Types.VARCHAR);
      assertThat(md.getColumnTypeName(2)).isEqualTo("text");
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt("spid")).isEqualTo(1);
      assertThat(rs.getString("name")).isEqualTo("DSI EXEC");
      assertThat(rs.getString("info")).isEqualTo("101(1) ds.db");
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(2);
      assertThat(rs.getString(4)).isNull();
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void everyTypeArrivesIntactAlsoInBinaryAfterThePrepareThreshold() throws Exception {
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement("admin types")) {
      // the driver prepares server-side and asks for binary results from the 5th execution on
      for (int run = 1; run <= 7; run++) {
        try (ResultSet rs = ps.executeQuery()) {
          ResultSetMetaData md = rs.getMetaData();
          assertThat(md.getColumnTypeName(1)).isEqualTo("text");
          assertThat(md.getColumnType(2)).isEqualTo(Types.INTEGER);
          assertThat(md.getColumnType(3)).isEqualTo(Types.BIGINT);
          assertThat(md.getColumnType(4)).isEqualTo(Types.DOUBLE);
          assertThat(md.getColumnType(5)).isEqualTo(Types.NUMERIC);
          assertThat(md.getColumnType(6)).isEqualTo(Types.BIT);
          assertThat(md.getColumnType(7)).isEqualTo(Types.TIMESTAMP);
          assertThat(md.getColumnTypeName(7)).isEqualTo("timestamptz");
          assertThat(md.getColumnType(8)).isEqualTo(Types.BINARY);
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString(1)).as("run %d", run).isEqualTo("héllo");
          assertThat(rs.getInt(2)).isEqualTo(42);
          assertThat(rs.getLong(3)).isEqualTo(1234567890123L);
          assertThat(rs.getDouble(4)).isEqualTo(1.5);
          assertThat(rs.getBigDecimal(5)).isEqualByComparingTo(TestBackend.NUMERIC);
          assertThat(rs.getBoolean(6)).isTrue();
          assertThat(rs.getObject(7, OffsetDateTime.class).toInstant())
              .isEqualTo(TestBackend.TIMESTAMP);
          assertThat(rs.getTimestamp(7).toInstant()).isEqualTo(TestBackend.TIMESTAMP);
          assertThat(rs.getBytes(8)).containsExactly(TestBackend.BYTES);
          assertThat(rs.next()).isTrue();
          for (int col = 1; col <= 8; col++) {
            assertThat(rs.getObject(col)).as("column %d", col).isNull();
          }
          assertThat(rs.next()).isFalse();
        }
      }
    }
  }

  @Test
  void aCommandWithOnlyATag() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      assertThat(st.execute("suspend connection to ds.db")).isFalse();
      assertThat(st.getUpdateCount()).isEqualTo(0);
      assertThat(st.executeUpdate("suspend connection to ds2.db")).isEqualTo(0);
    }
    assertThat(backend.executed)
        .containsExactly("suspend connection to ds.db", "suspend connection to ds2.db");
  }

  @Test
  void aFailingCommandGivesSqlStateMessageHintAndPosition() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      assertThatThrownBy(() -> st.execute("admin frobnicate"))
          .isInstanceOfSatisfying(
              PSQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("42601");
                assertThat(e.getServerErrorMessage().getMessage())
                    .isEqualTo("syntax error at or near \"frobnicate\"");
                assertThat(e.getServerErrorMessage().getPosition()).isEqualTo(7);
                assertThat(e.getServerErrorMessage().getHint())
                    .isEqualTo("see docs/admin-commands.md");
                assertThat(e.getServerErrorMessage().getSeverity()).isEqualTo("ERROR");
              });
      // the session goes on
      try (ResultSet rs = st.executeQuery("admin who")) {
        assertThat(rs.next()).isTrue();
      }
    }
  }

  @Test
  void aBackendBugIsAnInternalErrorNotABrokenConnection() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      assertThatThrownBy(() -> st.execute("admin fail"))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("XX000");
                assertThat(e.getMessage()).contains("the backend broke");
              });
      assertThatThrownBy(() -> st.executeQuery("admin badvalue").next())
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("XX000"));
      assertThat(c.isValid(5)).isTrue();
    }
  }

  @Test
  void severalStatementsInOneString() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      assertThat(st.execute("admin who; suspend connection to ds.db; echo x;")).isTrue();
      try (ResultSet rs = st.getResultSet()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("name")).isEqualTo("DSI EXEC");
      }
      assertThat(st.getMoreResults()).isFalse();
      assertThat(st.getUpdateCount()).isEqualTo(0);
      assertThat(st.getMoreResults()).isTrue();
      try (ResultSet rs = st.getResultSet()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("x");
      }
      assertThat(st.getMoreResults()).isFalse();
      assertThat(st.getUpdateCount()).isEqualTo(-1);
    }
    assertThat(backend.executed)
        .containsExactly("admin who", "suspend connection to ds.db", "echo x");
  }

  @Test
  void anErrorStopsTheRestOfTheStatements() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      assertThatThrownBy(() -> st.execute("echo one; admin frob; echo three"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42601"));
    }
    assertThat(backend.executed).containsExactly("echo one", "admin frob");
  }

  @Test
  void preparedStatementParametersArriveAsQuotedLiterals() throws Exception {
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement("echo ? and ?")) {
      ps.setString(1, "it's");
      ps.setString(2, "two");
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo(literal("it''s") + " and " + literal("two"));
      }
      ps.setString(1, "again");
      ps.setString(2, null);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1))
            .isIn(literal("again") + " and NULL", literal("again") + " and (NULL)");
      }
    }
  }

  @Test
  void theProductVersionIsTheConfiguredOne() throws Exception {
    try (Connection c = connect()) {
      DatabaseMetaData md = c.getMetaData();
      assertThat(md.getDatabaseProductName()).isEqualTo("PostgreSQL");
      assertThat(md.getDatabaseProductVersion()).isEqualTo(SERVER_VERSION);
      assertThat(md.getDatabaseMajorVersion()).isEqualTo(15);
      assertThat(md.getUserName()).isEqualTo(TestBackend.ADMIN);
    }
  }

  @Test
  void sessionStatementsAreAnsweredWithoutTheBackend() throws Exception {
    Properties p = new Properties();
    p.setProperty("ApplicationName", "contract test");
    try (Connection c = connect(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD, p);
        Statement st = c.createStatement()) {
      assertThat(single(st, "SHOW application_name")).isEqualTo("contract test");
      assertThat(single(st, "select version()")).isEqualTo("PostgreSQL " + SERVER_VERSION);
      assertThat(single(st, "SHOW server_version")).isEqualTo(SERVER_VERSION);
      st.execute("SET application_name = 'renamed'");
      st.execute("SET extra_float_digits = 3");
      st.execute("SET SESSION statement_timeout TO 5000");
      assertThat(single(st, "select current_setting('application_name')")).isEqualTo("renamed");
      assertThat(single(st, "show statement_timeout")).isEqualTo("5000");
      assertThat(single(st, "SHOW DateStyle")).isEqualTo("ISO, MDY");
      assertThat(single(st, "show is_superuser")).isEqualTo("on");
      assertThat(single(st, "select current_user")).isEqualTo(TestBackend.ADMIN);
      assertThat(single(st, "SELECT 1")).isEqualTo("1");
      assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
      c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
      assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
      c.setClientInfo("ApplicationName", "via client info");
      assertThat(c.getClientInfo("ApplicationName")).isEqualTo("via client info");
      try (ResultSet rs = st.executeQuery("admin session")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("application_name")).isEqualTo("via client info");
        assertThat(rs.getString("roles")).isEqualTo("admin");
      }
      assertThatThrownBy(() -> st.execute("SHOW no_such_thing"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42704"));
      assertThatThrownBy(() -> st.execute("SET server_version = '1'"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("55P02"));
      st.execute("DISCARD ALL");
      // back to the startup values: the driver set application_name after the startup message
      assertThat(single(st, "SHOW application_name")).isEmpty();
      assertThat(single(st, "SHOW statement_timeout")).isEqualTo("0");
    }
    assertThat(backend.executed).containsExactly("admin session");
  }

  @Test
  void transactionsAreAcceptedAndAFailedBlockRefusesCommandsUntilRollback() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      c.setAutoCommit(false);
      assertThat(single(st, "echo in block")).isEqualTo("in block");
      c.commit();
      assertThatThrownBy(() -> st.execute("admin frob"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42601"));
      assertThatThrownBy(() -> st.execute("echo refused"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("25P02"));
      c.rollback();
      assertThat(single(st, "echo after rollback")).isEqualTo("after rollback");
      c.setAutoCommit(true);
      assertThat(single(st, "echo autocommit")).isEqualTo("autocommit");
    }
    assertThat(backend.executed)
        .containsExactly("echo in block", "admin frob", "echo after rollback", "echo autocommit");
  }

  @Test
  void noticesBecomeWarnings() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      st.execute("admin notice");
      SQLWarning warning = st.getWarnings();
      assertThat((Object) warning).isNotNull();
      assertThat(warning.getMessage()).isEqualTo("first notice");
      assertThat(warning.getNextWarning().getMessage()).isEqualTo("second notice");
    }
  }

  @Test
  void aLargeResultCanBeFetchedInChunks() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      c.setAutoCommit(false);
      st.setFetchSize(3);
      List<Integer> values = new ArrayList<>();
      try (ResultSet rs = st.executeQuery("admin rows 10")) {
        while (rs.next()) {
          values.add(rs.getInt(1));
        }
      }
      assertThat(values).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
      c.commit();
    }
    assertThat(backend.executed).containsExactly("admin rows 10");
  }

  @Test
  void manyRowsArriveWhole() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("admin rows 50000")) {
      int count = 0;
      while (rs.next()) {
        count++;
        assertThat(rs.getInt(1)).isEqualTo(count);
      }
      assertThat(count).isEqualTo(50000);
    }
  }

  @Test
  void theConnectionValidates() throws Exception {
    try (Connection c = connect()) {
      assertThat(c.isValid(5)).isTrue();
    }
  }

  @Test
  void severalSessionsRunCommandsAtTheSameTime() throws Exception {
    int sessions = 4;
    backend.barrier = new CyclicBarrier(sessions);
    ExecutorService pool = Executors.newFixedThreadPool(sessions);
    try {
      List<Future<Integer>> pids = new ArrayList<>();
      for (int i = 0; i < sessions; i++) {
        pids.add(
            pool.submit(
                () -> {
                  try (Connection c = connect();
                      Statement st = c.createStatement()) {
                    // every session waits inside the backend until all are there
                    st.execute("admin barrier");
                    try (ResultSet rs = st.executeQuery("admin session")) {
                      rs.next();
                      return rs.getInt("pid");
                    }
                  }
                }));
      }
      Set<Integer> distinct = new HashSet<>();
      for (Future<Integer> pid : pids) {
        distinct.add(pid.get(45, TimeUnit.SECONDS));
      }
      assertThat(distinct).hasSize(sessions);
    } finally {
      pool.shutdownNow();
    }
  }

  static String single(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      assertThat(rs.next()).as(sql).isTrue();
      String value = rs.getString(1);
      assertThat(rs.next()).as(sql).isFalse();
      return value;
    }
  }
}
