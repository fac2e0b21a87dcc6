package io.openrs.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.pgwire.RawPgClient.Message;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;

/**
 * Who gets in: SCRAM-SHA-256 through the real driver, the same answer for an unknown user and a
 * wrong password, users without a role, the connection limit and the authentication timeout.
 */
class PgAuthenticationTest {
  private TestBackend backend;
  private PgServer server;

  @BeforeEach
  void start() throws Exception {
    backend = new TestBackend();
    server =
        PgServer.start(
            PgServerSettings.defaults("127.0.0.1", 0)
                .withMaxConnections(2)
                .withAuthenticationTimeout(Duration.ofSeconds(3)),
            backend);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Connection connect(String user, String password) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    p.setProperty("password", password);
    return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/x", p);
  }

  @Test
  void theRightPasswordLogsIn() throws Exception {
    try (Connection c = connect(TestBackend.MONITOR, TestBackend.MONITOR_PASSWORD);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("admin session")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("user")).isEqualTo(TestBackend.MONITOR);
      assertThat(rs.getString("roles")).isEqualTo("monitor");
      assertThat(rs.getBoolean("tls")).isFalse();
      assertThat(JdbcContract.single(st, "show is_superuser")).isEqualTo("off");
    }
  }

  @Test
  void aWrongPasswordIsRefused() {
    assertThatThrownBy(() -> connect(TestBackend.ADMIN, "wrong"))
        .isInstanceOfSatisfying(
            PSQLException.class,
            e -> {
              assertThat(e.getSQLState()).isEqualTo("28P01");
              assertThat(e.getServerErrorMessage().getMessage())
                  .isEqualTo("password authentication failed for user \"sa\"");
              assertThat(e.getServerErrorMessage().getSeverity()).isEqualTo("FATAL");
            });
  }

  @Test
  void anUnknownUserGetsTheSameAnswerAsAWrongPassword() {
    assertThatThrownBy(() -> connect("nobody", "whatever"))
        .isInstanceOfSatisfying(
            PSQLException.class,
            e -> {
              assertThat(e.getSQLState()).isEqualTo("28P01");
              assertThat(e.getServerErrorMessage().getMessage())
                  .isEqualTo("password authentication failed for user \"nobody\"");
            });
  }

  @Test
  void aUserWithAMalformedVerifierCannotLogIn() {
    assertThatThrownBy(() -> connect(TestBackend.BAD_VERIFIER, "md5deadbeef"))
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
  }

  @Test
  void aUserWithoutRolesIsRefusedOnlyAfterProvingThePassword() {
    assertThatThrownBy(() -> connect(TestBackend.NO_ROLE, "wrong"))
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
    assertThatThrownBy(() -> connect(TestBackend.NO_ROLE, TestBackend.NO_ROLE_PASSWORD))
        .isInstanceOfSatisfying(
            PSQLException.class,
            e -> {
              assertThat(e.getSQLState()).isEqualTo("28000");
              assertThat(e.getServerErrorMessage().getMessage())
                  .isEqualTo("role \"nologin\" is not permitted to log in");
            });
  }

  @Test
  void theSaltOfAnUnknownUserIsStableSoItRevealsNothing() throws Exception {
    String first = serverFirstSalt("ghost");
    assertThat(serverFirstSalt("ghost")).isEqualTo(first);
    assertThat(serverFirstSalt("other ghost")).isNotEqualTo(first);
  }

  private String serverFirstSalt(String user) throws Exception {
    try (RawPgClient c = new RawPgClient(server.port())) {
      c.startup(user);
      c.read();
      byte[] first = "n,,n=,r=abcdef".getBytes(java.nio.charset.StandardCharsets.UTF_8);
      java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
      RawPgClient.cstring(b, PgScram.MECHANISM);
      new java.io.DataOutputStream(b).writeInt(first.length);
      b.writeBytes(first);
      c.send('p', b.toByteArray());
      Message cont = c.read();
      String serverFirst =
          new String(
              cont.body(), 4, cont.body().length - 4, java.nio.charset.StandardCharsets.UTF_8);
      return serverFirst.split(",")[1];
    }
  }

  @Test
  void aTamperedProofIsRefused() throws Exception {
    try (RawPgClient c = new RawPgClient(server.port())) {
      List<Message> after = c.login(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD + "x");
      assertThat(after).hasSize(1);
      assertThat(after.get(0).fields()).containsEntry('S', "FATAL").containsEntry('C', "28P01");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void moreSessionsThanTheLimitAreRefused() throws Exception {
    try (Connection a = connect(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD);
        Connection b = connect(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD)) {
      assertThat(server.connectionCount()).isEqualTo(2);
      assertThatThrownBy(() -> connect(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD))
          .isInstanceOfSatisfying(
              PSQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("53300");
                assertThat(e.getServerErrorMessage().getMessage())
                    .isEqualTo("sorry, too many clients already");
              });
      assertThat(a.isValid(5)).isTrue();
      assertThat(b.isValid(5)).isTrue();
    }
    // the slots come back when the sessions end
    assertThat(backend.closed.poll(30, java.util.concurrent.TimeUnit.SECONDS)).isNotNull();
    assertThat(backend.closed.poll(30, java.util.concurrent.TimeUnit.SECONDS)).isNotNull();
    try (Connection c = connect(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD)) {
      assertThat(c.isValid(5)).isTrue();
    }
  }

  @Test
  void aConnectionThatDoesNotLogInInTimeIsClosed() throws Exception {
    try (RawPgClient idle = new RawPgClient(server.port())) {
      assertThat(idle.closedByServer()).isTrue();
    }
    try (RawPgClient halfway = new RawPgClient(server.port())) {
      halfway.startup(TestBackend.ADMIN);
      assertThat(halfway.read().type()).isEqualTo('R');
      assertThat(halfway.closedByServer()).isTrue();
    }
  }
}
