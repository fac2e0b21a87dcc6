package io.openrs.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code psql} (and JDBC over TLS) against three servers: plain TCP, TLS offered (with a
 * self-signed certificate from openssl) and TLS required.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PsqlIT {
  static final String PSQL = "/usr/bin/psql";

  private Path dir;
  private TestBackend backend;
  private PgServer plain;
  private PgServer tls;
  private PgServer tlsOnly;

  @BeforeAll
  void start(@TempDir Path tempDir) throws Exception {
    dir = tempDir;
    assumeTrue(new File(PSQL).canExecute(), PSQL + " is needed for this test");
    TestCertificate cert = TestCertificate.create(dir);
    backend = new TestBackend();
    plain = PgServer.start(PgServerSettings.defaults("127.0.0.1", 0), backend);
    tls =
        PgServer.start(
            PgServerSettings.defaults("127.0.0.1", 0).withTls(cert.certificate(), cert.key()),
            backend);
    tlsOnly =
        PgServer.start(
            PgServerSettings.defaults("127.0.0.1", 0)
                .withTls(cert.certificate(), cert.key())
                .withRequireTls(true),
            backend);
  }

  @AfterAll
  void stop() {
    for (PgServer s : new PgServer[] {plain, tls, tlsOnly}) {
      if (s != null) {
        s.close();
      }
    }
  }

  record Result(int exitCode, String out, String err) {}

  private Result psqlWithPassword(
      PgServer server, String options, String password, String... commands) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(PSQL);
    command.add("-X");
    command.add("-w");
    command.add("-A");
    command.add("-t");
    command.add("-d");
    command.add("host=127.0.0.1 port=" + server.port() + " user=sa dbname=anything " + options);
    for (String c : commands) {
      command.add("-c");
      command.add(c);
    }
    Path out = Files.createTempFile(dir, "psql", ".out");
    Path err = Files.createTempFile(dir, "psql", ".err");
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    Map<String, String> env = pb.environment();
    env.keySet().removeIf(k -> k.startsWith("PG"));
    env.put("PGPASSWORD", password);
    env.put("PGCONNECT_TIMEOUT", "20");
    env.put("PGGSSENCMODE", "disable");
    env.put("LC_ALL", "C.UTF-8");
    Process p = pb.start();
    if (!p.waitFor(45, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("psql did not finish: " + Files.readString(err));
    }
    return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  private Result psql(PgServer server, String options, String... commands) throws Exception {
    return psqlWithPassword(server, options, TestBackend.ADMIN_PASSWORD, commands);
  }

  @Test
  void psqlRunsACommandAndPrintsTheRows() throws Exception {
    Result r = psql(plain, "", "admin who");
    assertThat(r.err()).isEmpty();
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).isEqualTo("1|DSI EXEC|Awaiting Command|101(1) ds.db\n2|SQM|Active|\n");
  }

  @Test
  void psqlRunsSeveralCommandsAndSessionStatements() throws Exception {
    Result r =
        psql(
            plain,
            "sslmode=disable",
            "echo one; suspend connection to ds.db; echo two",
            "show application_name",
            "select version()");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .isEqualTo(
            "one\nSUSPEND CONNECTION\ntwo\npsql\nPostgreSQL "
                + PgServerSettings.DEFAULT_SERVER_VERSION
                + "\n");
  }

  @Test
  void psqlShowsTheErrorWithItsPositionAndHint() throws Exception {
    Result r = psql(plain, "", "admin who; admin frobnicate now");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err())
        .contains("ERROR:  syntax error at or near \"frobnicate\"")
        .contains("LINE 1: admin who; admin frobnicate now")
        .contains("                         ^")
        .contains("HINT:  see docs/admin-commands.md");
  }

  @Test
  void psqlWithAWrongPasswordIsRefused() throws Exception {
    Result r = psqlWithPassword(plain, "", "wrong password", "admin who");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("password authentication failed for user \"sa\"");
  }

  @Test
  void psqlWithSslmodeRequireUsesTlsAndChannelBinding() throws Exception {
    Result r = psql(tls, "sslmode=require channel_binding=require", "admin session", "\\conninfo");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("sa|admin|psql|t|");
    assertThat(r.out()).contains("SSL connection (protocol: TLSv1.");
  }

  @Test
  void psqlWithSslmodeRequireWithoutChannelBinding() throws Exception {
    Result r = psql(tls, "sslmode=require channel_binding=disable", "admin session");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("sa|admin|psql|t|");
  }

  @Test
  void psqlWithSslmodeDisableStaysPlainOnATlsServer() throws Exception {
    Result r = psql(tls, "sslmode=disable", "admin session");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("sa|admin|psql|f|");
  }

  @Test
  void psqlWithSslmodeRequireFailsClearlyWithoutTls() throws Exception {
    Result r = psql(plain, "sslmode=require", "admin who");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("server does not support SSL, but SSL was required");
  }

  @Test
  void aServerThatRequiresTlsRefusesPlainSessions() throws Exception {
    Result refused = psql(tlsOnly, "sslmode=disable", "admin who");
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.err()).contains("this server accepts only TLS connections");
    Result accepted = psql(tlsOnly, "sslmode=require", "admin session");
    assertThat(accepted.exitCode()).as(accepted.err()).isZero();
    assertThat(accepted.out()).startsWith("sa|admin|psql|t|");
  }

  private Connection jdbc(PgServer server, String options) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", TestBackend.ADMIN);
    p.setProperty("password", TestBackend.ADMIN_PASSWORD);
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + server.port() + "/x?" + options, p);
  }

  @Test
  void jdbcOverTlsWithChannelBinding() throws Exception {
    try (Connection c = jdbc(tls, "sslmode=require&channelBinding=require");
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("admin session")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getBoolean("tls")).isTrue();
    }
    try (Connection c = jdbc(tlsOnly, "sslmode=require&preferQueryMode=simple");
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("admin who")) {
      assertThat(rs.next()).isTrue();
    }
  }

  @Test
  void jdbcWithSslRequiredAgainstAPlainServerFails() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> jdbc(plain, "sslmode=require"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("The server does not support SSL");
  }
}
