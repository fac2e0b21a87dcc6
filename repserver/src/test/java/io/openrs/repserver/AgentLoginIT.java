package io.openrs.repserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.config.rssd.Profile;
import io.openrs.ltl.LtlCommand;
import io.openrs.repserver.support.TestServers;
import io.openrs.wire.ErrorCode;
import io.openrs.wire.LtlClient;
import io.openrs.wire.LtlClientSettings;
import io.openrs.wire.LtlRejectedException;
import io.openrs.wire.WireProtocol;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may send LTL (issue 28, item 4): agents log in with SCRAM-SHA-256 and their password never
 * crosses the link; failed logins back off per address; a user with only {@code connect source}
 * connects agents for its granted origins and nothing else, and cannot use the admin port; {@code
 * sa} connects every origin; a version 1-3 agent's password in the Hello is refused unless the DBA
 * allows it.
 */
class AgentLoginIT {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String AGENT_PASSWORD = "ra-Secret-4242";

  @TempDir Path dir;
  private ReplicationServer server;
  private final List<AutoCloseable> toClose = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : toClose) {
      c.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private void start(Map<String, String> overrides) throws Exception {
    server = TestServers.start(dir, overrides, new SimpleMeterRegistry());
  }

  /** Two origins, pds.pdb and pds.other; user ra_pg may connect agents for pds.pdb only. */
  private void configure() throws Exception {
    server.createConnection("pds", "pdb", Profile.POSTGRESQL, true, Map.of());
    server.createConnection("pds", "other", Profile.POSTGRESQL, true, Map.of());
    admin("create user ra_pg set password '" + AGENT_PASSWORD + "' with role none");
    admin("grant connect source on pds.pdb to ra_pg");
  }

  private Connection adminConnection(String user, String password) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    p.setProperty("password", password);
    p.setProperty("sslmode", "disable");
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + server.adminPort() + "/rssd", p);
  }

  private List<String> admin(String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = adminConnection("sa", TestServers.ADMIN_PASSWORD);
        Statement s = c.createStatement()) {
      if (s.execute(sql)) {
        try (ResultSet rs = s.getResultSet()) {
          while (rs.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
              row.append(i > 1 ? " | " : "").append(rs.getString(i));
            }
            rows.add(row.toString());
          }
        }
      }
    }
    return rows;
  }

  private static LtlCommand.Connect hello(
      String database, String user, String password, int minVersion, int maxVersion) {
    return new LtlCommand.Connect(
        "pds", database, minVersion, maxVersion, user, password, Optional.of("test-agent"));
  }

  private LtlClient connect(int port, LtlCommand.Connect hello) throws Exception {
    LtlClient client =
        LtlClient.connect(
            LtlClientSettings.defaults("127.0.0.1", port).withConnectTimeout(WAIT), hello);
    toClose.add(client);
    return client;
  }

  private LtlRejectedException refused(LtlCommand.Connect hello) {
    Throwable t =
        org.assertj.core.api.Assertions.catchThrowable(() -> connect(server.ltlPort(), hello));
    assertThat(t).isInstanceOf(LtlRejectedException.class);
    return (LtlRejectedException) t;
  }

  @Test
  void aVersion4AgentsPasswordNeverCrossesTheLink() throws Exception {
    start(Map.of());
    configure();
    io.openrs.repserver.support.TcpForwarder proxy =
        io.openrs.repserver.support.TcpForwarder.start(0, "127.0.0.1:" + server.ltlPort());
    toClose.add(proxy);

    LtlClient client =
        connect(proxy.port(), hello("pdb", "ra_pg", AGENT_PASSWORD, 4, WireProtocol.VERSION_4));
    assertThat(client.welcome().version()).isEqualTo(WireProtocol.VERSION_4);
    assertThat(client.truncation().get(10, TimeUnit.SECONDS)).isEmpty();

    String sent = HexFormat.of().formatHex(proxy.bytesFromClients());
    assertThat(sent)
        .as("the Hello crossed the proxy")
        .contains(hex("connect source pds.pdb versions 4-4 user 'ra_pg'"));
    assertThat(sent)
        .doesNotContain(hex(AGENT_PASSWORD))
        .doesNotContain(
            HexFormat.of().formatHex(AGENT_PASSWORD.getBytes(StandardCharsets.UTF_16BE)));
  }

  private static String hex(String text) {
    return HexFormat.of().formatHex(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aWrongPasswordIsRefusedAndFailuresInARowBackOff() throws Exception {
    start(Map.of("exec_max_login_failures", "2"));
    configure();
    for (int i = 0; i < 2; i++) {
      LtlRejectedException e = refused(hello("pdb", "sa", "wrong-password-" + i, 4, 4));
      assertThat(e.code()).isEqualTo(ErrorCode.AUTHENTICATION_FAILED);
      assertThat(e.getMessage()).contains("login of user 'sa' failed").doesNotContain("wrong-");
    }
    // The address must wait now: even the right password is refused, unchecked, retryably.
    LtlRejectedException waiting = refused(hello("pdb", "sa", TestServers.ADMIN_PASSWORD, 4, 4));
    assertThat(waiting.code()).isEqualTo(ErrorCode.TOO_MANY_CONNECTIONS);
    assertThat(waiting.retryable()).isTrue();
    assertThat(waiting.getMessage())
        .contains("too many failed logins from 127.0.0.1, retry in 1 s");
    // Once the wait is over a good login gets in (and ends the backoff).
    await()
        .atMost(Duration.ofSeconds(20))
        .ignoreException(LtlRejectedException.class)
        .until(
            () ->
                connect(server.ltlPort(), hello("pdb", "sa", TestServers.ADMIN_PASSWORD, 4, 4))
                    .isOpen());
  }

  @Test
  void aConnectSourceUserConnectsItsGrantedOriginsAndNothingElse() throws Exception {
    start(Map.of());
    configure();

    LtlClient granted = connect(server.ltlPort(), hello("pdb", "ra_pg", AGENT_PASSWORD, 4, 4));
    assertThat(granted.isOpen()).isTrue();
    granted.close();

    LtlRejectedException other = refused(hello("other", "ra_pg", AGENT_PASSWORD, 4, 4));
    assertThat(other.code()).isEqualTo(ErrorCode.PERMISSION_DENIED);
    assertThat(other.retryable()).isFalse();
    assertThat(other.getMessage())
        .contains("user 'ra_pg' may not connect a replication agent for origin pds.other")
        .contains("grant connect source on pds.other to ra_pg");

    // Not at the admin port: its password is right, but it has no admin role.
    assertThatThrownBy(() -> adminConnection("ra_pg", AGENT_PASSWORD).close())
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28000"));

    assertThat(admin("rs_helpuser"))
        .containsExactly("ra_pg | none | pds.pdb", "sa | sa | every origin (sa)");

    // sa has every permission, as in Replication Server.
    assertThat(
            connect(server.ltlPort(), hello("other", "sa", TestServers.ADMIN_PASSWORD, 4, 4))
                .isOpen())
        .isTrue();

    admin("revoke connect source on pds.pdb from ra_pg");
    assertThat(refused(hello("pdb", "ra_pg", AGENT_PASSWORD, 4, 4)).code())
        .isEqualTo(ErrorCode.PERMISSION_DENIED);
    admin("grant connect source to ra_pg");
    assertThat(admin("rs_helpuser ra_pg")).containsExactly("ra_pg | none | every origin");
    await() // the first session's close may still be on its way to the origin
        .atMost(WAIT)
        .ignoreException(LtlRejectedException.class)
        .until(
            () -> connect(server.ltlPort(), hello("pdb", "ra_pg", AGENT_PASSWORD, 4, 4)).isOpen());
  }

  @Test
  void aMonitorWithConnectSourceStillRunsNoChangingAdminCommand() throws Exception {
    start(Map.of());
    configure();
    admin("create user watcher set password 'watch-Pa55word'");
    admin("grant connect source on pds.pdb to watcher");
    assertThat(connect(server.ltlPort(), hello("pdb", "watcher", "watch-Pa55word", 4, 4)).isOpen())
        .isTrue();
    try (Connection c = adminConnection("watcher", "watch-Pa55word");
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.execute("create user evil set password 'evil-Pa55word'"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42501"));
    }
    admin("revoke monitor from watcher");
    assertThatThrownBy(() -> adminConnection("watcher", "watch-Pa55word").close())
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28000"));
  }

  @Test
  void aVersion3AgentsPasswordInTheHelloIsRefusedUnlessTheDbaAllowsIt() throws Exception {
    start(Map.of());
    configure();
    LtlRejectedException off = refused(hello("pdb", "sa", TestServers.ADMIN_PASSWORD, 1, 3));
    assertThat(off.code()).isEqualTo(ErrorCode.AUTHENTICATION_FAILED);
    assertThat(off.getMessage())
        .contains("does not accept passwords sent in clear in the Hello")
        .contains("exec_hello_password");
    server.close();
    server = null;

    start(Map.of("exec_hello_password", "on"));
    LtlClient v3 = connect(server.ltlPort(), hello("pdb", "sa", TestServers.ADMIN_PASSWORD, 1, 3));
    assertThat(v3.welcome().version()).isEqualTo(3);
    v3.close();
    LtlRejectedException wrong = refused(hello("pdb", "sa", "wrong-password", 1, 3));
    assertThat(wrong.code()).isEqualTo(ErrorCode.AUTHENTICATION_FAILED);
    // Below version 4 a missing permission is AUTHENTICATION_FAILED: such agents know codes 1-9.
    LtlRejectedException denied = refused(hello("other", "ra_pg", AGENT_PASSWORD, 1, 3));
    assertThat(denied.code()).isEqualTo(ErrorCode.AUTHENTICATION_FAILED);
    assertThat(denied.getMessage()).contains("may not connect a replication agent for origin");
  }

  @Test
  void aLoginThatNeverFinishesIsClosedAtTheHandshakeTimeout() throws Exception {
    start(Map.of("exec_handshake_timeout", "500"));
    configure();
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.ltlPort())) {
      s.setSoTimeout((int) WAIT.toMillis());
      s.getOutputStream().write(helloFrame("connect source pds.pdb versions 4-4 user 'ra_pg'"));
      // No ScramClientFirst: the socket stays in the handshake and is closed at its timeout.
      assertThat(errorFrom(s))
          .isEqualTo(
              ErrorCode.PROTOCOL_ERROR
                  + ": no Hello and finished login within exec_handshake_timeout 500 ms");
    }
  }

  private static byte[] helloFrame(String text) {
    byte[] t = text.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(5 + t.length).putInt(1 + t.length).put((byte) 0x01).put(t).array();
  }

  /** Reads one Error frame and the close after it: "CODE: message". */
  private static String errorFrom(Socket s) throws IOException {
    DataInputStream in = new DataInputStream(s.getInputStream());
    int length = in.readInt();
    assertThat(in.readUnsignedByte()).as("an Error frame").isEqualTo(0x09);
    int code = in.readInt();
    byte[] message = new byte[length - 5];
    in.readFully(message);
    assertThat(in.read()).as("closed after the Error").isEqualTo(-1);
    return ErrorCode.forCode(code).orElseThrow()
        + ": "
        + new String(message, StandardCharsets.UTF_8);
  }

  @Test
  void aVersion4HelloThatCarriesAPasswordIsRefused() throws Exception {
    start(Map.of("exec_hello_password", "on"));
    configure();
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.ltlPort())) {
      s.setSoTimeout((int) WAIT.toMillis());
      s.getOutputStream()
          .write(
              helloFrame(
                  "connect source pds.pdb versions 4-4 user 'sa' password '"
                      + TestServers.ADMIN_PASSWORD
                      + "'"));
      assertThat(errorFrom(s))
          .startsWith("PROTOCOL_ERROR: a Hello for protocol version 4 must not carry a password");
    }
  }
}
