package io.openrs.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Each mistake a new user makes gets a message naming what is wrong, where, and the fix. */
class ChecksTest {
  private static final Endpoint PG =
      new Endpoint(Source.POSTGRESQL, "127.0.0.1", 5432, "openrs", "openrs");
  private static final Endpoint MARIADB =
      new Endpoint(Source.MARIADB, "127.0.0.1", 3306, "openrs", "openrs");

  @Test
  void aPortInUseIsNamedWithWhatItIsForAndTheOptionThatChangesIt() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();
      assertThat(Checks.portProblem("127.0.0.1", port, "the server's admin port", "--admin-port"))
          .hasValueSatisfying(
              m ->
                  assertThat(m)
                      .contains("port " + port + " on 127.0.0.1")
                      .contains("the server's admin port")
                      .contains("in use")
                      .contains("--admin-port <port>"));
    }
  }

  @Test
  void portZeroIsNeverInUse() {
    assertThat(Checks.portProblem("127.0.0.1", 0, "x", "--x")).isEmpty();
  }

  @Test
  void walLevelMustBeLogicalAndTheFixIsTheSetupScript() {
    assertThat(Checks.walLevelProblem(PG, "logical")).isEmpty();
    assertThat(Checks.walLevelProblem(PG, "replica"))
        .hasValueSatisfying(
            m ->
                assertThat(m)
                    .contains("127.0.0.1:5432")
                    .contains("wal_level = replica")
                    .contains("wal_level = logical")
                    .contains("scripts/setup-databases.sh"));
  }

  @Test
  void theBinlogMustBeOnRowBasedWithFullImages() {
    assertThat(Checks.binlogProblems(MARIADB, "1", "ROW", "FULL")).isEmpty();
    assertThat(Checks.binlogProblems(MARIADB, "ON", "row", "full")).isEmpty();
    assertThat(Checks.binlogProblems(MARIADB, "0", "ROW", "FULL"))
        .singleElement()
        .asString()
        .contains("binary logging off")
        .contains("127.0.0.1:3306")
        .contains("scripts/setup-databases.sh");
    List<String> both = Checks.binlogProblems(MARIADB, "1", "MIXED", "MINIMAL");
    assertThat(both).hasSize(2);
    assertThat(both.get(0)).contains("binlog_format = MIXED").contains("binlog_format = ROW");
    assertThat(both.get(1))
        .contains("binlog_row_image = MINIMAL")
        .contains("binlog_row_image = FULL");
  }

  @Test
  void theUserMustBeAllowedToReadTheLog() {
    assertThat(Checks.replicationRoleProblem(PG, true, false)).isEmpty();
    assertThat(Checks.replicationRoleProblem(PG, false, true)).isEmpty();
    assertThat(Checks.replicationRoleProblem(PG, false, false))
        .hasValueSatisfying(m -> assertThat(m).contains("REPLICATION").contains("'openrs'"));
  }

  @Test
  void noFreeReplicationSlotNamesTheSlots() {
    assertThat(Checks.slotProblem(PG, 3, List.of("a", "b"))).isEmpty();
    assertThat(Checks.slotProblem(PG, 2, List.of("a", "b")))
        .hasValueSatisfying(
            m ->
                assertThat(m)
                    .contains("max_replication_slots = 2")
                    .contains("a, b")
                    .contains("pg_drop_replication_slot"));
  }

  @Test
  void aRefusedConnectionSaysNotReachableWithHostPortAndOptions() throws IOException {
    int closed = closedPort();
    Endpoint pg = new Endpoint(Source.POSTGRESQL, "127.0.0.1", closed, "openrs", "openrs");
    SQLException real = connectFails("jdbc:postgresql://127.0.0.1:" + closed + "/postgres");
    assertThat(Checks.connectProblem(pg, real))
        .startsWith("PostgreSQL is not reachable at 127.0.0.1:" + closed + " (connection refused)")
        .contains("scripts/setup-databases.sh")
        .contains("--pg-host and --pg-port");

    Endpoint m = new Endpoint(Source.MARIADB, "127.0.0.1", closed, "openrs", "openrs");
    SQLException realMariaDb = connectFails("jdbc:mariadb://127.0.0.1:" + closed + "/");
    assertThat(Checks.connectProblem(m, realMariaDb))
        .startsWith("MariaDB is not reachable at 127.0.0.1:" + closed)
        .contains("--mariadb-host and --mariadb-port");
  }

  @Test
  void aRefusedLoginNamesTheUserAndTheOptions() {
    SQLException e = new SQLException("password authentication failed for user", "28P01");
    assertThat(Checks.connectProblem(PG, e))
        .contains("refused the login of user 'openrs'")
        .contains("28P01")
        .contains("--pg-user and --pg-password");
    SQLException denied = new SQLException("Access denied for user", "28000", 1045);
    assertThat(Checks.connectProblem(MARIADB, denied))
        .contains("MariaDB at 127.0.0.1:3306 refused the login")
        .contains("--mariadb-user and --mariadb-password");
  }

  @Test
  void anUnknownHostIsNamed() {
    SQLException e = new SQLException("no such host", "08001", new UnknownHostException("nohost"));
    Endpoint pg = new Endpoint(Source.POSTGRESQL, "nohost", 5432, "u", "p");
    assertThat(Checks.connectProblem(pg, e))
        .contains("host 'nohost' is unknown")
        .contains("--pg-host");
  }

  @Test
  void aNetworkCauseAnywhereInTheChainCounts() {
    SQLException e =
        new SQLException("wrapped", "08001", new RuntimeException(new ConnectException("refused")));
    assertThat(Checks.connectProblem(PG, e)).contains("not reachable at 127.0.0.1:5432");
  }

  private static SQLException connectFails(String url) {
    Properties p = new Properties();
    p.setProperty("user", "openrs");
    p.setProperty("password", "openrs");
    try {
      DriverManager.getConnection(url, p).close();
    } catch (SQLException e) {
      return e;
    }
    throw new AssertionError("connected to " + url);
  }

  /** A port nothing listens on: one the system just handed out and that was closed again. */
  static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return s.getLocalPort();
    }
  }
}
