package io.openrs.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.pgwire.RawPgClient.Message;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a hostile client cannot do to the admin port (issue 28, items 1, 3 and 6): exhaust the heap
 * with one query, keep the administrator out with sockets that never log in, or try passwords at
 * full speed. Each test runs a real {@link PgServer} on a free port.
 */
class PgHostileClientTest {
  private final TestBackend backend = new TestBackend();
  private PgServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private void start(PgServerSettings settings) throws IOException {
    start(settings, Clock.systemUTC());
  }

  private void start(PgServerSettings settings, Clock clock) throws IOException {
    server = PgServer.start(settings, backend, clock);
  }

  private RawPgClient loggedIn(String user, String password) throws IOException {
    RawPgClient c = new RawPgClient(server.port());
    List<Message> after = c.login(user, password);
    assertThat(after.get(after.size() - 1).type())
        .as("login of %s: %s", user, after)
        .isEqualTo('Z');
    return c;
  }

  /** A Query message of {@code bodyBytes} bytes of {@code pattern} (NUL last), sent in chunks. */
  private static void sendHugeQuery(RawPgClient c, long bodyBytes, String pattern)
      throws IOException {
    byte[] unit = pattern.getBytes(StandardCharsets.US_ASCII);
    byte[] chunk = new byte[64 * 1024 - (64 * 1024) % unit.length];
    for (int i = 0; i < chunk.length; i++) {
      chunk[i] = unit[i % unit.length];
    }
    OutputStream out = c.output();
    DataOutputStream header = new DataOutputStream(out);
    header.writeByte('Q');
    header.writeInt((int) (4 + bodyBytes));
    long left = bodyBytes - 1;
    while (left > 0) {
      int n = (int) Math.min(chunk.length, left);
      out.write(chunk, 0, n);
      left -= n;
    }
    out.write(0);
    out.flush();
  }

  @Test
  void aHugeQueryFromAMonitorIsRefusedUnreadAndTheServerKeepsServing() throws Exception {
    start(PgServerSettings.defaults("127.0.0.1", 0));
    for (String pattern : List.of(";", "word ")) {
      try (RawPgClient monitor = new RawPgClient(server.port())) {
        List<Message> after = monitor.login(TestBackend.MONITOR, TestBackend.MONITOR_PASSWORD);
        assertThat(after.get(after.size() - 1).type()).isEqualTo('Z');
        long size = 48L * 1024 * 1024;
        sendHugeQuery(monitor, size, pattern);
        List<Message> reply = monitor.readUntilReady();
        assertThat(reply).hasSize(2);
        assertThat(reply.get(0).fields())
            .containsEntry('S', "ERROR")
            .containsEntry('C', "54000")
            .containsEntry(
                'M',
                "query of " + size + " bytes is longer than the statement limit of 1048576 bytes");
        assertThat(reply.get(0).fields().get('H')).contains("admin_max_statement_bytes");
        // the session stays usable
        monitor.query("admin who");
        assertThat(monitor.readUntilReady().get(0).type()).isEqualTo('T');
      }
    }
    assertThat(backend.executed).containsExactly("admin who", "admin who");
    try (RawPgClient admin = loggedIn(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD)) {
      admin.query("admin who");
      assertThat(admin.readUntilReady().get(0).type()).isEqualTo('T');
    }
  }

  @Test
  void aParseLongerThanTheLimitFailsUntilSyncAndATooLongQueryAbortsTheTransaction()
      throws Exception {
    start(PgServerSettings.defaults("127.0.0.1", 0).withMaxStatementBytes(1024));
    try (RawPgClient c = loggedIn(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD)) {
      c.parse("", "echo " + "x".repeat(2000));
      c.bind("", "", List.of());
      c.execute("", 0);
      c.sync();
      List<Message> reply = c.readUntilReady();
      assertThat(reply).hasSize(2);
      assertThat(reply.get(0).fields())
          .containsEntry('C', "54000")
          .containsEntry(
              'M', "Parse message of 2009 bytes is longer than the statement limit of 1024 bytes");
      c.query("begin");
      c.readUntilReady();
      c.query("echo " + "y".repeat(2000));
      reply = c.readUntilReady();
      assertThat(reply.get(0).fields()).containsEntry('C', "54000");
      assertThat(reply.get(1).body()).containsExactly('E');
      c.query("rollback");
      reply = c.readUntilReady();
      assertThat(reply.get(reply.size() - 1).body()).containsExactly('I');
      c.query("echo fine");
      assertThat(c.readUntilReady().get(0).type()).isEqualTo('T');
    }
    assertThat(backend.executed).containsExactly("echo fine");
  }

  @Test
  void aQueryStringWithTooManyStatementsOrTokensIsRefusedBeforeAnyRuns() throws Exception {
    start(PgServerSettings.defaults("127.0.0.1", 0));
    try (RawPgClient monitor = loggedIn(TestBackend.MONITOR, TestBackend.MONITOR_PASSWORD)) {
      monitor.query("admin who;".repeat(SqlLexer.MAX_STATEMENTS + 1));
      List<Message> reply = monitor.readUntilReady();
      assertThat(reply.get(0).fields())
          .containsEntry('C', "54000")
          .containsEntry('M', "query string has more than 1000 statements");
      monitor.query("admin " + "x ".repeat(SqlLexer.MAX_TOKENS));
      reply = monitor.readUntilReady();
      assertThat(reply.get(0).fields())
          .containsEntry('C', "54000")
          .containsEntry('M', "statement has more than 50000 tokens");
      // ;;;; alone holds nothing: no statement, an empty query
      monitor.query(";".repeat(1000 * 1000));
      assertThat(monitor.readUntilReady().get(0).type()).isEqualTo('I');
    }
    assertThat(backend.executed).isEmpty();
  }

  @Test
  void socketsThatOnlySendAStartupMessageCannotKeepTheAdministratorOut() throws Exception {
    Duration timeout = Duration.ofSeconds(5);
    start(PgServerSettings.defaults("127.0.0.1", 0).withAuthenticationTimeout(timeout));
    List<RawPgClient> flood = new ArrayList<>();
    try {
      for (int i = 0; i < 100; i++) {
        RawPgClient c = new RawPgClient(server.port());
        flood.add(c);
        c.startup(TestBackend.ADMIN);
      }
      // the server has read every startup message: each got its SASL request or was refused
      for (RawPgClient c : flood) {
        c.firstReplyOrEnd();
      }
      assertThat(server.unauthenticatedCount())
          .isLessThanOrEqualTo(PgServerSettings.DEFAULT_MAX_UNAUTHENTICATED);
      assertThat(server.connectionCount()).isZero();

      Instant before = Instant.now();
      try (RawPgClient admin = loggedIn(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD)) {
        assertThat(Duration.between(before, Instant.now())).isLessThan(timeout);
        // the silent ones are all closed: the oldest to make room, the rest at the timeout
        for (RawPgClient c : flood) {
          assertThat(c.closedByServer()).isTrue();
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> server.unauthenticatedCount() == 0);
        // the administrator's session outlives the authentication timeout
        admin.query("admin who");
        assertThat(admin.readUntilReady().get(0).type()).isEqualTo('T');
      }
    } finally {
      for (RawPgClient c : flood) {
        c.close();
      }
    }
  }

  @Test
  void theOldestSilentConnectionIsToldWhyItIsClosed() throws Exception {
    start(PgServerSettings.defaults("127.0.0.1", 0).withMaxUnauthenticated(1));
    try (RawPgClient first = new RawPgClient(server.port())) {
      first.startup(TestBackend.ADMIN);
      assertThat(first.read().type()).isEqualTo('R');
      try (RawPgClient admin = loggedIn(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD)) {
        Message m = first.read();
        assertThat(m.fields())
            .containsEntry('S', "FATAL")
            .containsEntry('C', "53300")
            .containsEntry(
                'M',
                "too many connections are logging in at once (at most 1); this one waited longest");
        assertThat(first.closedByServer()).isTrue();
        assertThat(server.unauthenticatedCount()).isZero();
      }
    }
  }

  private Message failedLogin(String password) throws IOException {
    try (RawPgClient c = new RawPgClient(server.port())) {
      c.startup(TestBackend.ADMIN);
      Message first = c.read();
      if (first.type() == 'E') {
        return first;
      }
      List<Message> after = c.scram(password);
      assertThat(after).hasSize(1);
      return after.get(0);
    }
  }

  @Test
  void wrongPasswordsFromOneAddressAreRefusedWithAGrowingWaitThatALoginEnds() throws Exception {
    ManualClock clock = new ManualClock();
    start(PgServerSettings.defaults("127.0.0.1", 0).withMaxLoginFailures(3), clock);
    for (int i = 0; i < 3; i++) {
      assertThat(failedLogin("wrong").fields())
          .containsEntry('C', "28P01")
          .containsEntry('M', "password authentication failed for user \"sa\"");
    }
    // now even the right password must wait
    Message refused = failedLogin(TestBackend.ADMIN_PASSWORD);
    assertThat(refused.fields())
        .containsEntry('S', "FATAL")
        .containsEntry('C', "28P01")
        .containsEntry('M', "too many failed logins from 127.0.0.1, retry in 1 s");
    clock.advance(Duration.ofMillis(999));
    assertThat(failedLogin(TestBackend.ADMIN_PASSWORD).fields().get('M'))
        .isEqualTo("too many failed logins from 127.0.0.1, retry in 1 s");
    clock.advance(Duration.ofMillis(1));
    // one more failure doubles the wait
    assertThat(failedLogin("wrong").fields().get('M'))
        .isEqualTo("password authentication failed for user \"sa\"");
    assertThat(failedLogin("wrong").fields().get('M'))
        .isEqualTo("too many failed logins from 127.0.0.1, retry in 2 s");
    clock.advance(Duration.ofSeconds(2));
    // the right password after the wait logs in and forgets the failures
    loggedIn(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD).close();
    assertThat(failedLogin("wrong").fields().get('M'))
        .isEqualTo("password authentication failed for user \"sa\"");
    loggedIn(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD).close();
  }

  @Test
  void theWaitIsBoundedAndTheAddressMapIsBounded() {
    ManualClock clock = new ManualClock();
    LoginThrottle throttle = new LoginThrottle(1, clock);
    java.net.InetAddress a = java.net.InetAddress.getLoopbackAddress();
    for (int i = 0; i < 40; i++) {
      throttle.failed(a);
    }
    assertThat(throttle.waitFor(a)).contains(LoginThrottle.MAX_BACKOFF);
    byte[] ip = {10, 0, 0, 0};
    for (int i = 0; i < LoginThrottle.MAX_ADDRESSES + 10; i++) {
      ip[1] = (byte) (i >> 16);
      ip[2] = (byte) (i >> 8);
      ip[3] = (byte) i;
      try {
        throttle.failed(java.net.InetAddress.getByAddress(Arrays.copyOf(ip, 4)));
      } catch (java.net.UnknownHostException e) {
        throw new AssertionError(e);
      }
    }
    assertThat(throttle.size()).isEqualTo(LoginThrottle.MAX_ADDRESSES);
  }
}
