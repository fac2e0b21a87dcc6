package io.openrs.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.pgwire.RawPgClient.Message;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The protocol byte by byte: negotiation, extended-query sequences, errors, damage. */
class PgProtocolTest {
  private TestBackend backend;
  private PgServer server;

  @BeforeEach
  void start() throws Exception {
    backend = new TestBackend();
    server =
        PgServer.start(
            PgServerSettings.defaults("127.0.0.1", 0).withMaxMessageBytes(4096), backend);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private RawPgClient loggedIn() throws Exception {
    RawPgClient c = new RawPgClient(server.port());
    List<Message> after = c.login(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD);
    assertThat(after.get(after.size() - 1).type()).isEqualTo('Z');
    return c;
  }

  private static String types(List<Message> messages) {
    return messages.stream().map(m -> String.valueOf(m.type())).collect(Collectors.joining());
  }

  private static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  @Test
  void loginReportsParametersAndKeyDataThenIdle() throws Exception {
    try (RawPgClient c = new RawPgClient(server.port())) {
      List<Message> after = c.login(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD);
      assertThat(after.get(0).type()).isEqualTo('R'); // SASLFinal
      assertThat(ByteBuffer.wrap(after.get(0).body()).getInt()).isEqualTo(12);
      assertThat(ByteBuffer.wrap(after.get(1).body()).getInt()).isEqualTo(0); // AuthenticationOk
      assertThat(c.parameterStatus)
          .containsEntry("server_version", PgServerSettings.DEFAULT_SERVER_VERSION)
          .containsEntry("server_encoding", "UTF8")
          .containsEntry("client_encoding", "UTF8")
          .containsEntry("DateStyle", "ISO, MDY")
          .containsEntry("TimeZone", "UTC")
          .containsEntry("integer_datetimes", "on")
          .containsEntry("standard_conforming_strings", "on")
          .containsEntry("application_name", "")
          .containsEntry("is_superuser", "on")
          .containsEntry("session_authorization", TestBackend.ADMIN);
      assertThat(c.processId).isPositive();
      Message ready = after.get(after.size() - 1);
      assertThat(ready.body()).containsExactly('I');
      assertThat(server.sessions()).extracting(PgSession::processId).containsExactly(c.processId);
      c.terminate();
      assertThat(c.closedByServer()).isTrue();
    }
    PgSession ended = backend.closed.poll(30, TimeUnit.SECONDS);
    assertThat(ended).isNotNull();
    assertThat(ended.user()).isEqualTo(TestBackend.ADMIN);
    assertThat(server.connectionCount()).isZero();
  }

  @Test
  void sslRequestIsRefusedWithoutACertificateAndTheSessionGoesOnInPlainText() throws Exception {
    try (RawPgClient c = new RawPgClient(server.port())) {
      assertThat(c.encryptionRequest(PgFrameDecoder.GSSENC_REQUEST_CODE)).isEqualTo('N');
      assertThat(c.encryptionRequest(PgFrameDecoder.SSL_REQUEST_CODE)).isEqualTo('N');
      List<Message> after = c.login(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD);
      assertThat(after.get(after.size() - 1).type()).isEqualTo('Z');
    }
  }

  @Test
  void protocolVersionTwoIsRefused() throws Exception {
    try (RawPgClient c = new RawPgClient(server.port())) {
      c.startup(2 << 16, Map.of("user", "sa"));
      Message error = c.read();
      assertThat(error.type()).isEqualTo('E');
      assertThat(error.fields())
          .containsEntry('S', "FATAL")
          .containsEntry('C', "0A000")
          .containsEntry('M', "unsupported frontend protocol 2.0: server supports 3.0 to 3.0");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void aNewerMinorVersionAndUnknownOptionsAreNegotiatedDown() throws Exception {
    try (RawPgClient c = new RawPgClient(server.port())) {
      c.startup((3 << 16) | 2, Map.of("user", "sa", "_pq_.something", "on"));
      Message negotiate = c.read();
      assertThat(negotiate.type()).isEqualTo('v');
      ByteBuffer b = ByteBuffer.wrap(negotiate.body());
      assertThat(b.getInt()).isEqualTo(3 << 16);
      assertThat(b.getInt()).isEqualTo(1);
      assertThat(c.read().type()).isEqualTo('R');
      List<Message> after = c.scram(TestBackend.ADMIN_PASSWORD);
      assertThat(after.get(after.size() - 1).type()).isEqualTo('Z');
    }
  }

  @Test
  void aStartupPacketWithoutUserIsRefused() throws Exception {
    try (RawPgClient c = new RawPgClient(server.port())) {
      c.startup(3 << 16, Map.of("database", "x"));
      Message error = c.read();
      assertThat(error.fields()).containsEntry('C', "28000");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void anOversizedStartupPacketIsAProtocolViolation() throws Exception {
    try (RawPgClient c = new RawPgClient(server.port())) {
      c.raw(ByteBuffer.allocate(8).putInt(20000).putInt(3 << 16).array());
      Message error = c.read();
      assertThat(error.fields())
          .containsEntry('S', "FATAL")
          .containsEntry('C', "08P01")
          .containsEntry('M', "invalid length of startup packet: 20000 (8..10000 allowed)");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void aMessageLongerThanTheLimitIsRefusedBeforeItIsRead() throws Exception {
    try (RawPgClient c = loggedIn()) {
      c.raw(ByteBuffer.allocate(5).put((byte) 'Q').putInt(1 << 30).array());
      Message error = c.read();
      assertThat(error.fields())
          .containsEntry('C', "08P01")
          .containsEntry(
              'M', "invalid message length 1073741824 for message type 'Q' (4..4100 allowed)");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void aLengthShorterThanItselfIsAProtocolViolation() throws Exception {
    try (RawPgClient c = loggedIn()) {
      c.raw(ByteBuffer.allocate(5).put((byte) 'Q').putInt(3).array());
      assertThat(c.read().fields()).containsEntry('C', "08P01");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void anUnknownMessageTypeIsAProtocolViolation() throws Exception {
    try (RawPgClient c = loggedIn()) {
      c.send('W', new byte[0]);
      Message error = c.read();
      assertThat(error.fields())
          .containsEntry('C', "08P01")
          .containsEntry('M', "invalid frontend message type 87");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void aBindWhoseValueRunsPastTheMessageIsAProtocolViolation() throws Exception {
    try (RawPgClient c = loggedIn()) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      RawPgClient.cstring(b, "");
      RawPgClient.cstring(b, "");
      DataOutputStream d = new DataOutputStream(b);
      d.writeShort(0);
      d.writeShort(1);
      d.writeInt(100);
      d.write(new byte[3]);
      c.send('B', b.toByteArray());
      Message error = c.read();
      assertThat(error.fields()).containsEntry('C', "08P01");
      assertThat(error.fields().get('M')).startsWith("insufficient data left in message");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void invalidUtf8InAQueryIsAnOrdinaryError() throws Exception {
    try (RawPgClient c = loggedIn()) {
      c.send('Q', new byte[] {'e', 'c', 'h', 'o', ' ', (byte) 0xC3, 0});
      List<Message> reply = c.readUntilReady();
      assertThat(types(reply)).isEqualTo("EZ");
      assertThat(reply.get(0).fields()).containsEntry('C', "22021");
      c.query("echo still here");
      assertThat(types(c.readUntilReady())).isEqualTo("TDCZ");
    }
  }

  @Test
  void emptyQueriesGetEmptyQueryResponse() throws Exception {
    try (RawPgClient c = loggedIn()) {
      c.query("");
      assertThat(types(c.readUntilReady())).isEqualTo("IZ");
      c.query(" ; -- nothing\n;");
      assertThat(types(c.readUntilReady())).isEqualTo("IZ");
      c.parse("", "");
      c.bind("", "", List.of());
      c.describe('P', "");
      c.execute("", 0);
      c.sync();
      assertThat(types(c.readUntilReady())).isEqualTo("12nIZ");
    }
    assertThat(backend.executed).isEmpty();
  }

  @Test
  void aPortalIsFetchedInChunksWithPortalSuspended() throws Exception {
    try (RawPgClient c = loggedIn()) {
      c.query("BEGIN");
      assertThat(c.readUntilReady().get(1).body()).containsExactly('T');
      c.parse("s1", "admin rows 5");
      c.bind("p1", "s1", List.of());
      c.describe('P', "p1");
      c.execute("p1", 2);
      c.sync();
      assertThat(types(c.readUntilReady())).isEqualTo("12TDDsZ");
      c.execute("p1", 2);
      c.execute("p1", 2);
      c.sync();
      List<Message> rest = c.readUntilReady();
      assertThat(types(rest)).isEqualTo("DDsDCZ");
      assertThat(rest.get(3).values().get(0)).isEqualTo("5".getBytes(StandardCharsets.US_ASCII));
      assertThat(rest.get(4).text()).isEqualTo("SELECT 1");
      c.query("COMMIT");
      assertThat(c.readUntilReady().get(1).body()).containsExactly('I');
      // the portal ended with the transaction
      c.execute("p1", 0);
      c.sync();
      List<Message> gone = c.readUntilReady();
      assertThat(types(gone)).isEqualTo("EZ");
      assertThat(gone.get(0).fields()).containsEntry('C', "34000");
    }
    assertThat(backend.executed).containsExactly("admin rows 5");
  }

  @Test
  void afterAnErrorEverythingUntilSyncIsSkipped() throws Exception {
    try (RawPgClient c = loggedIn()) {
      c.parse("", "admin frob");
      c.bind("", "", List.of());
      c.execute("", 0);
      c.parse("", "echo skipped");
      c.bind("", "", List.of());
      c.execute("", 0);
      c.query("echo skipped too");
      c.flush();
      c.sync();
      List<Message> reply = c.readUntilReady();
      assertThat(types(reply)).isEqualTo("12EZ");
      assertThat(reply.get(2).fields())
          .containsEntry('S', "ERROR")
          .containsEntry('V', "ERROR")
          .containsEntry('C', "42601")
          .containsEntry('P', "7")
          .containsEntry('H', "see docs/admin-commands.md");
      c.parse("", "echo after sync");
      c.bind("", "", List.of());
      c.execute("", 0);
      c.sync();
      assertThat(types(c.readUntilReady())).isEqualTo("12DCZ");
    }
    assertThat(backend.executed).containsExactly("admin frob", "echo after sync");
  }

  @Test
  void aStatementDescribeFollowedByBindRunsTheCommandOnceWithItsParameters() throws Exception {
    try (RawPgClient c = loggedIn()) {
      c.parse("", "admin session $1");
      c.parse("q", "echo $1 $2");
      c.describe('S', "q");
      c.bind("", "q", java.util.Arrays.asList("it's", null));
      c.execute("", 0);
      c.sync();
      List<Message> reply = c.readUntilReady();
      assertThat(types(reply)).isEqualTo("11tT2DCZ");
      ByteBuffer parameterTypes = ByteBuffer.wrap(reply.get(2).body());
      assertThat(parameterTypes.getShort()).isEqualTo((short) 2);
      assertThat(parameterTypes.getInt()).isEqualTo(PgType.TEXT.oid());
      assertThat(reply.get(3).columnNames()).containsExactly("echo");
      assertThat(utf8(reply.get(5).values().get(0))).isEqualTo("'it''s' NULL");
    }
    // described from the Bind's values, not by the backend's describe, and run once
    assertThat(backend.described).isEmpty();
    assertThat(backend.executed).containsExactly("echo 'it''s' NULL");
  }

  @Test
  void resultsInBinaryWhenAsked() throws Exception {
    try (RawPgClient c = loggedIn()) {
      c.parse("", "admin types");
      c.bind("", "", List.of(), 1);
      c.describe('P', "");
      c.execute("", 0);
      c.sync();
      List<Message> reply = c.readUntilReady();
      assertThat(types(reply)).isEqualTo("12TDDCZ");
      assertThat(reply.get(2).columnFormats()).containsOnly(1);
      List<byte[]> row = reply.get(3).values();
      assertThat(utf8(row.get(0))).isEqualTo("héllo");
      assertThat(ByteBuffer.wrap(row.get(1)).getInt()).isEqualTo(42);
      assertThat(ByteBuffer.wrap(row.get(2)).getLong()).isEqualTo(1234567890123L);
      assertThat(ByteBuffer.wrap(row.get(3)).getDouble()).isEqualTo(1.5);
      assertThat(new BigDecimal(PgValues.numericFromBinary(row.get(4))))
          .isEqualTo(TestBackend.NUMERIC);
      assertThat(row.get(5)).containsExactly(1);
      assertThat(ByteBuffer.wrap(row.get(6)).getLong())
          .isEqualTo(
              TestBackend.TIMESTAMP.getEpochSecond() * 1_000_000
                  + TestBackend.TIMESTAMP.getNano() / 1000
                  - PgValues.PG_EPOCH_MICROS);
      assertThat(row.get(7)).containsExactly(TestBackend.BYTES);
      assertThat(reply.get(4).values()).containsOnlyNulls();
    }
  }

  @Test
  void textValuesAreWrittenAsPostgresqlWritesThem() throws Exception {
    try (RawPgClient c = loggedIn()) {
      c.query("SET TimeZone = 'Europe/Paris'; admin types");
      List<Message> reply = c.readUntilReady();
      assertThat(types(reply)).isEqualTo("CTDDCSZ");
      List<String> row =
          reply.get(2).values().stream().map(PgProtocolTest::utf8).collect(Collectors.toList());
      assertThat(row)
          .containsExactly(
              "héllo",
              "42",
              "1234567890123",
              "1.5",
              "-12345.6789",
              "t",
              "2024-03-01 13:34:56.789+01",
              "\\x0102ff");
      assertThat(c.parameterStatus).containsEntry("TimeZone", "Europe/Paris");
    }
  }

  @Test
  void statementsAndPortalsByName() throws Exception {
    try (RawPgClient c = loggedIn()) {
      c.parse("s", "echo one");
      c.parse("s", "echo two");
      c.sync();
      List<Message> reply = c.readUntilReady();
      assertThat(types(reply)).isEqualTo("1EZ");
      assertThat(reply.get(1).fields()).containsEntry('C', "42P05");
      c.close('S', "s");
      c.close('S', "never-was");
      c.bind("", "s", List.of());
      c.sync();
      reply = c.readUntilReady();
      assertThat(types(reply)).isEqualTo("33EZ");
      assertThat(reply.get(2).fields())
          .containsEntry('C', "26000")
          .containsEntry('M', "prepared statement \"s\" does not exist");
      c.parse("", "echo $1");
      c.bind("", "", List.of());
      c.sync();
      reply = c.readUntilReady();
      assertThat(reply.get(1).fields())
          .containsEntry(
              'M', "bind message supplies 0 parameters, but prepared statement \"\" requires 1");
      c.parse("", "echo a; echo b");
      c.sync();
      reply = c.readUntilReady();
      assertThat(reply.get(0).fields())
          .containsEntry('M', "cannot insert multiple commands into a prepared statement");
    }
  }

  @Test
  void setReportsChangedParametersAndRefusesWhatTheServerCannotDo() throws Exception {
    try (RawPgClient c = loggedIn()) {
      c.query("SET application_name TO psql_test");
      List<Message> reply = c.readUntilReady();
      assertThat(types(reply)).isEqualTo("CSZ");
      assertThat(c.parameterStatus).containsEntry("application_name", "psql_test");
      c.query("SET client_encoding = 'LATIN1'");
      reply = c.readUntilReady();
      assertThat(reply.get(0).fields())
          .containsEntry('C', "22023")
          .containsEntry('P', "23")
          .containsEntry('H', "only UTF8 is supported");
      c.query("BEGIN; SAVEPOINT a; admin frob; echo refused");
      reply = c.readUntilReady();
      assertThat(types(reply)).isEqualTo("CCEZ");
      assertThat(reply.get(3).body()).containsExactly('E');
      c.query("ROLLBACK TO SAVEPOINT a; echo fine");
      reply = c.readUntilReady();
      assertThat(types(reply)).isEqualTo("CTDCZ");
      assertThat(reply.get(4).body()).containsExactly('T');
      c.query("COMMIT");
      reply = c.readUntilReady();
      assertThat(reply.get(0).text()).isEqualTo("COMMIT");
      assertThat(reply.get(1).body()).containsExactly('I');
    }
    assertThat(backend.executed).containsExactly("admin frob", "echo fine");
  }

  @Test
  void aCancelRequestStopsTheRestOfTheRunningQueryString() throws Exception {
    backend.barrier = new CyclicBarrier(2);
    try (RawPgClient c = loggedIn()) {
      c.query("admin barrier; echo not run");
      assertThat(backend.enteredBarrier.poll(30, TimeUnit.SECONDS)).isNotNull();
      try (RawPgClient cancel = new RawPgClient(server.port())) {
        cancel.raw(
            ByteBuffer.allocate(16)
                .putInt(16)
                .putInt(PgFrameDecoder.CANCEL_REQUEST_CODE)
                .putInt(c.processId)
                .putInt(c.secretKey)
                .array());
        // the server answers a cancel request by closing, after it has marked the session
        assertThat(cancel.closedByServer()).isTrue();
      }
      backend.barrier.await(30, TimeUnit.SECONDS);
      List<Message> reply = c.readUntilReady();
      assertThat(types(reply)).isEqualTo("CEZ");
      assertThat(reply.get(1).fields())
          .containsEntry('C', "57014")
          .containsEntry('M', "canceling statement due to user request");
      c.query("echo runs again");
      assertThat(types(c.readUntilReady())).isEqualTo("TDCZ");
    }
    assertThat(backend.executed).containsExactly("admin barrier", "echo runs again");
  }

  @Test
  void aCancelRequestWithTheWrongKeyChangesNothing() throws Exception {
    try (RawPgClient c = loggedIn()) {
      try (RawPgClient cancel = new RawPgClient(server.port())) {
        cancel.raw(
            ByteBuffer.allocate(16)
                .putInt(16)
                .putInt(PgFrameDecoder.CANCEL_REQUEST_CODE)
                .putInt(c.processId)
                .putInt(c.secretKey + 1)
                .array());
        assertThat(cancel.closedByServer()).isTrue();
      }
      c.query("echo fine");
      assertThat(types(c.readUntilReady())).isEqualTo("TDCZ");
    }
  }

  @Test
  void functionCallsAndCopyMessagesAreNotSupported() throws Exception {
    try (RawPgClient c = loggedIn()) {
      c.send('d', new byte[] {1, 2});
      c.send('F', new byte[] {0, 0, 0, 1, 0, 0, 0, 0, 0, 0});
      List<Message> reply = c.readUntilReady();
      assertThat(types(reply)).isEqualTo("EZ");
      assertThat(reply.get(0).fields()).containsEntry('C', "0A000");
    }
  }
}
