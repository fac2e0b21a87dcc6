package io.openrs.repserver.support;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small PKI made with {@code openssl} for a test: a CA, a server certificate for {@code
 * localhost} (DNS name only, so connecting to 127.0.0.1 fails a host name check), a client
 * certificate signed by the CA, and a second, unrelated CA. Keys are unencrypted PKCS#8.
 */
public record TestPki(
    Path caCertificate,
    Path serverCertificate,
    Path serverKey,
    Path clientCertificate,
    Path clientKey,
    Path otherCaCertificate) {

  static final String OPENSSL = "/usr/bin/openssl";

  public static TestPki create(Path dir) throws IOException, InterruptedException {
    assumeTrue(new File(OPENSSL).canExecute(), OPENSSL + " is needed to make test certificates");
    Files.writeString(dir.resolve("server.ext"), "subjectAltName=DNS:localhost\n");
    Files.writeString(dir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n");
    ca(dir, "ca");
    ca(dir, "other-ca");
    signed(dir, "server", "localhost", "server.ext");
    signed(dir, "client", "repagent-test", "client.ext");
    return new TestPki(
        dir.resolve("ca.crt"),
        dir.resolve("server.crt"),
        dir.resolve("server.key"),
        dir.resolve("client.crt"),
        dir.resolve("client.key"),
        dir.resolve("other-ca.crt"));
  }

  private static void ca(Path dir, String name) throws IOException, InterruptedException {
    run(
        dir,
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-sha256",
        "-days",
        "2",
        "-subj",
        "/CN=" + name,
        "-keyout",
        name + ".key",
        "-out",
        name + ".crt");
  }

  private static void signed(Path dir, String name, String cn, String ext)
      throws IOException, InterruptedException {
    run(
        dir,
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-sha256",
        "-subj",
        "/CN=" + cn,
        "-keyout",
        name + ".key",
        "-out",
        name + ".csr");
    run(
        dir,
        "x509",
        "-req",
        "-in",
        name + ".csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-days",
        "2",
        "-sha256",
        "-extfile",
        ext,
        "-out",
        name + ".crt");
  }

  private static void run(Path dir, String... args) throws IOException, InterruptedException {
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
      throw new IOException(
          "openssl " + String.join(" ", args) + " failed: " + Files.readString(log));
    }
  }
}
