package io.openrs.pgwire;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A self-signed certificate and its PKCS#8 key, made with {@code openssl} for a test. */
record TestCertificate(Path certificate, Path key) {
  static final String OPENSSL = "/usr/bin/openssl";

  static TestCertificate create(Path dir) throws IOException, InterruptedException {
    assumeTrue(new File(OPENSSL).canExecute(), OPENSSL + " is needed to make a test certificate");
    Path cert = dir.resolve("server.crt");
    Path key = dir.resolve("server.key");
    Process p =
        new ProcessBuilder(
                OPENSSL,
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-sha256",
                "-days",
                "2",
                "-subj",
                "/CN=localhost",
                "-keyout",
                key.toString(),
                "-out",
                cert.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("openssl.log").toFile())
            .start();
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException("openssl failed: " + Files.readString(dir.resolve("openssl.log")));
    }
    return new TestCertificate(cert, key);
  }
}
