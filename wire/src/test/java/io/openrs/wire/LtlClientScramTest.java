package io.openrs.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.ltl.LtlCommand;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The version 4 login at the agent: the password proves itself in SCRAM frames and never crosses
 * the link, and the agent takes no Welcome from a server that has not proven it knows the verifier.
 */
class LtlClientScramTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String PASSWORD = "agent-Pa55word-4";
  private static final LtlCommand.Connect V4 =
      new LtlCommand.Connect(
          "pg1", "sales", 2, WireProtocol.VERSION_4, "ra_pg", PASSWORD, Optional.of("a1"));
  private static final Frame.Welcome WELCOME_V4 =
      new Frame.Welcome(
          WireProtocol.VERSION_4,
          Optional.empty(),
          new byte[0],
          Optional.of(new Frame.Liveness(5_000, 15_000)));

  private final List<AutoCloseable> toClose = new ArrayList<>();
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void tearDown() throws Exception {
    threads.shutdownNow();
    for (AutoCloseable c : toClose) {
      c.close();
    }
  }

  private TestServer silentServer() throws InterruptedException {
    TestServer s = new TestServer(hello -> null);
    toClose.add(s);
    return s;
  }

  private Future<LtlClient> connect(TestServer server) {
    return threads.submit(
        () -> {
          LtlClient c =
              LtlClient.connect(
                  LtlClientSettings.defaults("127.0.0.1", server.port()).withConnectTimeout(WAIT),
                  V4);
          toClose.add(c);
          return c;
        });
  }

  /** Runs the server's side of the exchange with {@code script}, up to the client-final-message. */
  private static Frame.ScramClientFinal exchange(TestServer server, ScramServerScript script)
      throws InterruptedException {
    Frame.ScramClientFirst first = server.take(Frame.ScramClientFirst.class);
    assertThat(first.mechanism()).isEqualTo("SCRAM-SHA-256");
    server.send(script.serverFirst(first));
    return server.take(Frame.ScramClientFinal.class);
  }

  @Test
  void aVersion4ClientProvesThePasswordWithoutEverWritingIt() throws Exception {
    TestServer server = silentServer();
    Future<LtlClient> connecting = connect(server);
    Frame.Hello hello = server.take(Frame.Hello.class);
    assertThat(hello.parse().password()).isEmpty();
    assertThat(hello.parse().user()).isEqualTo("ra_pg");
    ScramServerScript script = new ScramServerScript(PASSWORD, 4096);
    Frame.ScramClientFinal clientFinal = exchange(server, script);
    assertThat(script.proofIsRight(clientFinal)).isTrue();
    server.send(script.serverFinal(clientFinal), WELCOME_V4);
    LtlClient client = connecting.get(10, TimeUnit.SECONDS);
    assertThat(client.welcome().version()).isEqualTo(WireProtocol.VERSION_4);
    client.sendBatch(Samples.utf8("rollback tran 0x01 oqid 0x01\n"));
    server.take(Frame.Batch.class);

    String sent = HexFormat.of().formatHex(server.bytesReceived());
    assertThat(sent)
        .doesNotContain(HexFormat.of().formatHex(PASSWORD.getBytes(StandardCharsets.UTF_8)))
        .doesNotContain(HexFormat.of().formatHex(PASSWORD.getBytes(StandardCharsets.UTF_16BE)));
  }

  @Test
  void aServerWhoseSignatureIsWrongIsNotTrusted() throws Exception {
    TestServer server = silentServer();
    Future<LtlClient> connecting = connect(server);
    server.take(Frame.Hello.class);
    // The server accepts any proof but signs with a key made from another password: it does not
    // know the user's verifier (an impostor).
    ScramServerScript impostor = new ScramServerScript("not-the-password", 4096);
    Frame.ScramClientFinal clientFinal = exchange(server, impostor);
    server.send(impostor.serverFinal(clientFinal), WELCOME_V4);
    assertThatThrownBy(() -> connecting.get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(LtlConnectionClosedException.class)
        .hasMessageContaining("login as ra_pg failed")
        .hasMessageContaining("did not prove that it knows the password's verifier");
  }

  @Test
  void aServerCannotSkipTheLoginAndDowngradeTheAgent() throws Exception {
    TestServer server = new TestServer(hello -> WELCOME_V4);
    toClose.add(server);
    Future<LtlClient> connecting = connect(server);
    assertThatThrownBy(() -> connecting.get(10, TimeUnit.SECONDS))
        .cause()
        .isInstanceOf(LtlConnectionClosedException.class)
        .hasMessageContaining("before proving that it knows the password's verifier");
    TestServer v3 =
        new TestServer(
            hello ->
                new Frame.Welcome(
                    3,
                    Optional.empty(),
                    new byte[0],
                    Optional.of(new Frame.Liveness(5000, 15000))));
    toClose.add(v3);
    Future<LtlClient> again = connect(v3);
    assertThatThrownBy(() -> again.get(10, TimeUnit.SECONDS))
        .cause()
        .hasMessageContaining("before proving that it knows the password's verifier");
    for (byte[] sent : List.of(server.bytesReceived(), v3.bytesReceived())) {
      assertThat(HexFormat.of().formatHex(sent))
          .doesNotContain(HexFormat.of().formatHex(PASSWORD.getBytes(StandardCharsets.UTF_8)));
    }
  }

  @Test
  void aServerAskingForTooFewIterationsGetsNoProof() throws Exception {
    TestServer server = silentServer();
    Future<LtlClient> connecting = connect(server);
    server.take(Frame.Hello.class);
    ScramServerScript weak = new ScramServerScript(PASSWORD, 1);
    server.send(weak.serverFirst(server.take(Frame.ScramClientFirst.class)));
    assertThatThrownBy(() -> connecting.get(10, TimeUnit.SECONDS))
        .cause()
        .hasMessageContaining("asks for 1 SCRAM iterations; the agent accepts 4096..1000000");
    assertThat(server.bytesReceived().length)
        .as("nothing after the client-first-message")
        .isEqualTo(
            Samples.encode(Frame.Hello.of(V4.withoutPassword())).length
                + Samples.encode(new ScramLoginProbe().first()).length);
  }

  @Test
  void aRefusedLoginIsTheServersError() throws Exception {
    TestServer server = silentServer();
    Future<LtlClient> connecting = connect(server);
    server.take(Frame.Hello.class);
    Frame.ScramClientFinal clientFinal =
        exchange(server, new ScramServerScript("another-password", 4096));
    assertThat(new ScramServerScript("another-password", 4096).proofIsRight(clientFinal)).isFalse();
    FrameCodec.closeWithError(
        server.connection(), ErrorCode.AUTHENTICATION_FAILED, "password authentication failed");
    assertThatThrownBy(() -> connecting.get(10, TimeUnit.SECONDS))
        .cause()
        .isInstanceOfSatisfying(
            LtlRejectedException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.AUTHENTICATION_FAILED));
  }

  @Test
  void aHelloOfferingVersion4NeedsThePassword() {
    LtlCommand.Connect noPassword = V4.withoutPassword();
    assertThatThrownBy(() -> LtlClient.connect("127.0.0.1", 9, noPassword, WAIT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs the password for the SCRAM login");
  }

  /** The length of a client-first-message for {@link #V4}: same user, nonce of fixed length. */
  private static final class ScramLoginProbe {
    Frame.ScramClientFirst first() {
      return new ScramLogin(V4.user(), PASSWORD.toCharArray()).clientFirst();
    }
  }
}
