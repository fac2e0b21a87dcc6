package io.openrs.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.pgwire.RawPgClient.Message;
import java.io.IOException;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starting, refusing to start, and closing with sessions open. */
class PgServerLifecycleTest {
  @Test
  void aBusyPortIsABindException() throws Exception {
    try (PgServer first =
        PgServer.start(PgServerSettings.defaults("127.0.0.1", 0), new TestBackend())) {
      assertThatThrownBy(
              () ->
                  PgServer.start(
                      PgServerSettings.defaults("127.0.0.1", first.port()), new TestBackend()))
          .isInstanceOf(BindException.class)
          .hasMessageContaining("cannot listen on 127.0.0.1:" + first.port());
    }
  }

  @Test
  void unreadableTlsFilesStopTheStart(@TempDir Path dir) throws Exception {
    Path cert = dir.resolve("missing.crt");
    Path key = dir.resolve("junk.key");
    Files.writeString(key, "not a key");
    assertThatThrownBy(
            () ->
                PgServer.start(
                    PgServerSettings.defaults("127.0.0.1", 0).withTls(cert, key),
                    new TestBackend()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("missing.crt does not exist or cannot be read");
    Files.writeString(cert, "not a certificate");
    assertThatThrownBy(
            () ->
                PgServer.start(
                    PgServerSettings.defaults("127.0.0.1", 0).withTls(cert, key),
                    new TestBackend()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cannot load TLS certificate");
  }

  @Test
  void closingTheServerEndsItsSessionsAndIsIdempotent() throws Exception {
    TestBackend backend = new TestBackend();
    PgServer server = PgServer.start(PgServerSettings.defaults("127.0.0.1", 0), backend);
    try (RawPgClient client = new RawPgClient(server.port())) {
      List<Message> after = client.login(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD);
      assertThat(after.get(after.size() - 1).type()).isEqualTo('Z');
      assertThat(backend.opened).hasSize(1);
      server.close();
      assertThat(client.closedByServer()).isTrue();
      // close waits for the clean-up of every connection
      assertThat(backend.closed).hasSize(1);
      server.close();
    }
  }
}
