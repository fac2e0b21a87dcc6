package io.openrs.repserver.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.openrs.repserver.ReplicationServer;
import io.openrs.repserver.support.TestServers;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin port's TLS with the real {@code psql}: {@code sslmode=verify-full} against a server
 * certificate for {@code localhost} and {@code 127.0.0.1} signed by a CA made here, and {@code
 * admin_tls_required = on} refusing sessions without TLS (issue 28).
 */
class AdminTlsIT {

  static final String PSQL = "/usr/bin/psql";
  static final String OPENSSL = "/usr/bin/openssl";

  @TempDir Path dir;
  private ReplicationServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  record Result(int exitCode, String out, String err) {}

  /** A CA, and a server certificate for localhost / 127.0.0.1 signed by it. */
  record Pki(Path caCertificate, Path certificate, Path key) {}

  private Pki makePki() throws Exception {
    assumeTrue(new File(OPENSSL).canExecute(), OPENSSL + " is needed to make the certificates");
    Path pki = Files.createDirectories(dir.resolve("pki"));
    openssl(
        pki,
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-sha256",
        "-days",
        "2",
        "-subj",
        "/CN=openrs-test-ca",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt");
    openssl(
        pki,
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-sha256",
        "-subj",
        "/CN=localhost",
        "-keyout",
        "server.key",
        "-out",
        "server.csr");
    Files.writeString(
        pki.resolve("server.ext"),
        "subjectAltName=DNS:localhost,IP:127.0.0.1\n"
            + "basicConstraints=CA:FALSE\n"
            + "keyUsage=critical,digitalSignature,keyEncipherment\n"
            + "extendedKeyUsage=serverAuth\n");
    openssl(
        pki,
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-days",
        "2",
        "-sha256",
        "-extfile",
        "server.ext",
        "-out",
        "server.crt");
    return new Pki(pki.resolve("ca.crt"), pki.resolve("server.crt"), pki.resolve("server.key"));
  }

  private static void openssl(Path dir, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(OPENSSL);
    command.addAll(List.of(args));
    Path log = dir.resolve("openssl.log");
    Process p =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException("openssl " + args[0] + " failed: " + Files.readString(log));
    }
  }

  private ReplicationServer start(Pki pki, String required) throws Exception {
    return TestServers.start(
        dir.resolve("server"),
        Map.of(
            "admin_tls_certificate", pki.certificate().toString(),
            "admin_tls_private_key", pki.key().toString(),
            "admin_tls_required", required));
  }

  private Result psql(String connection, String... commands) throws Exception {
    assumeTrue(new File(PSQL).canExecute(), PSQL + " is needed for this test");
    List<String> command = new ArrayList<>(List.of(PSQL, "-X", "-w", "-A", "-t", "-d"));
    command.add("port=" + server.adminPort() + " user=sa dbname=rssd " + connection);
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
    pb.environment().keySet().removeIf(k -> k.startsWith("PG"));
    pb.environment().put("PGPASSWORD", TestServers.ADMIN_PASSWORD);
    pb.environment().put("PGCONNECT_TIMEOUT", "20");
    pb.environment().put("PGGSSENCMODE", "disable");
    pb.environment().put("LC_ALL", "C.UTF-8");
    Process p = pb.start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("psql did not finish: " + Files.readString(err));
    }
    return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  @Test
  void psqlVerifiesTheServerCertificateAgainstTheCaByNameAndAddress() throws Exception {
    Pki pki = makePki();
    server = start(pki, "on");
    for (String host : List.of("localhost", "127.0.0.1")) {
      Result r =
          psql(
              "host=" + host + " sslmode=verify-full sslrootcert=" + pki.caCertificate(),
              "admin echo, 'over tls'",
              "\\conninfo");
      assertThat(r.exitCode()).as(r.err()).isZero();
      assertThat(r.out()).contains("over tls").contains("SSL connection (protocol: TLSv1.3");
    }
  }

  @Test
  void whenTlsIsRequiredAPlainSessionIsRefusedWithTheDocumentedMessage() throws Exception {
    Pki pki = makePki();
    server = start(pki, "on");
    Result refused = psql("host=127.0.0.1 sslmode=disable", "admin echo, 'plain'");
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.err())
        .contains("FATAL:  this server accepts only TLS connections (user \"sa\")")
        .contains("HINT:  connect with sslmode=verify-full (or require)");
    assertThat(refused.out()).doesNotContain("plain");
  }

  @Test
  void whenTlsIsNotRequiredAPlainSessionIsStillAccepted() throws Exception {
    Pki pki = makePki();
    server = start(pki, "off");
    Result plain = psql("host=127.0.0.1 sslmode=disable", "admin echo, 'plain'");
    assertThat(plain.exitCode()).as(plain.err()).isZero();
    assertThat(plain.out()).contains("plain");
  }

  @Test
  void requiringTlsWithoutACertificateStopsTheStart() {
    assertThatThrownBy(
            () -> TestServers.start(dir.resolve("server"), Map.of("admin_tls_required", "on")))
        .hasMessageContaining(
            "admin_tls_required = on needs admin_tls_certificate and" + " admin_tls_private_key");
  }
}
