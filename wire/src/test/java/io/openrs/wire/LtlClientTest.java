package io.openrs.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.nio.NioEventLoopGroup;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The agent-side client against a tiny Netty server over real TCP on 127.0.0.1. */
class LtlClientTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final List<AutoCloseable> toClose = new ArrayList<>();
  private final ExecutorService threads = Executors.newCachedThreadPool();

  /** Servers first: their connections drop, so no client waits for answers that never come. */
  @AfterEach
  void tearDown() throws Exception {
    threads.shutdownNow();
    for (AutoCloseable c : toClose) {
      c.close();
    }
  }

  private TestServer server() throws InterruptedException {
    return server(new TestServer());
  }

  private TestServer server(TestServer s) {
    toClose.add(s);
    return s;
  }

  private LtlClient connect(TestServer server) throws Exception {
    return connect(LtlClientSettings.defaults("127.0.0.1", server.port()).withConnectTimeout(WAIT));
  }

  private LtlClient connect(LtlClientSettings settings) throws Exception {
    LtlClient client = LtlClient.connect(settings, Samples.CONNECT);
    toClose.add(client);
    return client;
  }

  private static byte[] batch(int n) {
    return Samples.utf8(
        "rollback tran 0x"
            + String.format("%04x", n)
            + " oqid 0x"
            + String.format("%08x", n)
            + "\n");
  }

  @Test
  void theHandshakeSendsTheConnectCommandAndReturnsTheWelcome() throws Exception {
    TestServer server = server();
    LtlClient client = connect(server);
    assertThat(server.take(Frame.Hello.class).parse()).isEqualTo(Samples.CONNECT);
    assertThat(client.welcome()).isEqualTo(TestServer.WELCOME);
    assertThat(client.isOpen()).isTrue();
    assertThat(client.state()).isEqualTo(LtlClient.State.OPEN);
    assertThat(client.closeFuture()).isNotDone();
    assertThat(client.maxBatchBytes()).isEqualTo(WireProtocol.DEFAULT_MAX_FRAME_LENGTH - 9);
  }

  @Test
  void theConvenienceConnectUsesDefaults() throws Exception {
    TestServer server = server();
    try (LtlClient client = LtlClient.connect("127.0.0.1", server.port(), Samples.CONNECT, WAIT)) {
      assertThat(client.settings().maxInFlightBatches()).isEqualTo(64);
      assertThat(client.welcome().version()).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @EnumSource(ErrorCode.class)
  void aRefusedHandshakeThrowsTheServersCode(ErrorCode code) throws Exception {
    TestServer server = server(new TestServer(h -> new Frame.Error(code, "no: " + code)));
    assertThatThrownBy(() -> connect(server))
        .isInstanceOfSatisfying(
            LtlRejectedException.class,
            e -> {
              assertThat(e.code()).isEqualTo(code);
              assertThat(e.retryable()).isEqualTo(code.retryable());
              assertThat(e.serverMessage()).isEqualTo("no: " + code);
            });
  }

  @Test
  void noWelcomeWithinTheTimeoutIsASocketTimeout() throws Exception {
    TestServer server = server(new TestServer(h -> null));
    long start = System.nanoTime();
    assertThatThrownBy(
            () ->
                connect(
                    LtlClientSettings.defaults("127.0.0.1", server.port())
                        .withConnectTimeout(Duration.ofMillis(300))))
        .isInstanceOf(SocketTimeoutException.class)
        .hasMessageContaining("no Welcome from the server within PT0.3S");
    assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(5));
    assertThat(server.take()).isInstanceOf(Frame.Hello.class);
  }

  @Test
  void aRefusedTcpConnectionIsAConnectException() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    int closedPort = port;
    assertThatThrownBy(
            () ->
                connect(
                    LtlClientSettings.defaults("127.0.0.1", closedPort).withConnectTimeout(WAIT)))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("cannot connect");
  }

  @Test
  void aServerClosingDuringTheHandshakeIsAClosedConnection() throws Exception {
    TestServer server = server(new TestServer(h -> null));
    CompletableFuture<Object> attempt =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return connect(server);
              } catch (Exception e) {
                return e;
              }
            },
            threads);
    server.take(Frame.Hello.class);
    server.connection().close();
    assertThat(attempt.get(10, TimeUnit.SECONDS))
        .isInstanceOf(LtlConnectionClosedException.class)
        .asString()
        .contains("the server closed the connection during the handshake");
  }

  @Test
  void aWelcomeWithAVersionTheAgentDidNotOfferIsAProtocolError() throws Exception {
    TestServer server =
        server(new TestServer(h -> new Frame.Welcome(2, Optional.empty(), new byte[0])));
    assertThatThrownBy(() -> connect(server))
        .isInstanceOf(LtlConnectionClosedException.class)
        .hasMessageContaining(
            "protocol error: the server chose protocol version 2, the agent offered 1-1")
        .hasCauseInstanceOf(WireProtocolException.class);
  }

  private LtlClient connectV3(TestServer server) throws Exception {
    LtlCommand.Connect v3 =
        new LtlCommand.Connect("pg1", "sales", 1, 3, "ra", "pw", Optional.empty());
    LtlClient client =
        LtlClient.connect(
            LtlClientSettings.defaults("127.0.0.1", server.port()).withConnectTimeout(WAIT), v3);
    toClose.add(client);
    return client;
  }

  private static Frame.Welcome welcomeV3(int heartbeatMillis, int idleTimeoutMillis) {
    return new Frame.Welcome(
        3,
        Optional.empty(),
        new byte[0],
        Optional.of(new Frame.Liveness(heartbeatMillis, idleTimeoutMillis)));
  }

  @Test
  void anIdleVersion3ClientSendsHeartbeatsAtTheIntervalOfTheWelcome() throws Exception {
    TestServer server = server(new TestServer(h -> welcomeV3(100, 60_000)));
    LtlClient client = connectV3(server);
    server.take(Frame.Hello.class);
    long start = System.nanoTime();
    server.take(Frame.Heartbeat.class);
    server.take(Frame.Heartbeat.class);
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .isGreaterThanOrEqualTo(Duration.ofMillis(150));
    assertThat(client.isOpen()).isTrue();
  }

  @Test
  void aClientGivesUpAServerThatSendsNothingForTheIdleTimeout() throws Exception {
    TestServer server = server(new TestServer(h -> welcomeV3(100, 400)));
    LtlClient client = connectV3(server);
    assertThatThrownBy(() -> client.closeFuture().get(10, TimeUnit.SECONDS))
        .hasCauseInstanceOf(LtlConnectionClosedException.class)
        .hasMessageContaining("the server sent nothing for 400 ms");
    assertThat(client.isOpen()).isFalse();
  }

  @Test
  void serverHeartbeatsKeepAnIdleClientOpen() throws Exception {
    TestServer server = server(new TestServer(h -> welcomeV3(100, 400)));
    LtlClient client = connectV3(server);
    for (int i = 0; i < 12; i++) { // 1.2 s: three idle timeouts
      server.send(new Frame.Heartbeat());
      assertThat(client.closeFuture()).isNotDone();
      server.take(Frame.class); // a heartbeat or the Hello, about every 100 ms
    }
    assertThat(client.isOpen()).isTrue();
  }

  @Test
  void aHelloOfferingVersionsTheClientDoesNotSpeakIsRefusedBeforeConnecting() {
    LtlCommand.Connect v6 =
        new LtlCommand.Connect("pg1", "sales", 1, 6, "ra", "pw", Optional.empty());
    assertThatThrownBy(() -> LtlClient.connect("127.0.0.1", 9, v6, WAIT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the Hello offers versions 1-6, this client speaks 1-5");
  }

  @Test
  void batchesArePipelinedAndAnsweredInSequenceOrder() throws Exception {
    TestServer server = server();
    LtlClient client = connect(server);
    server.take(Frame.Hello.class);
    List<Long> completionOrder = Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.CountDownLatch allCompleted = new java.util.concurrent.CountDownLatch(10);
    List<CompletableFuture<BatchAnswer>> answers = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      CompletableFuture<BatchAnswer> f = client.sendBatch(batch(i));
      f.thenAccept(
          a -> {
            completionOrder.add(a.sequence());
            allCompleted.countDown();
          });
      answers.add(f);
    }
    // The server holds all ten before it answers any: the client did not wait.
    for (int i = 1; i <= 10; i++) {
      Frame.Batch b = server.take(Frame.Batch.class);
      assertThat(b.sequence()).isEqualTo(i);
      assertThat(b.ltlText()).isEqualTo(batch(i));
    }
    assertThat(answers).noneMatch(CompletableFuture::isDone);
    assertThat(client.stats().inFlightBatches()).isEqualTo(10);

    Frame.BatchRejected rejected =
        new Frame.BatchRejected(10, 0, 1, 9, Optional.of(Oqid.ofLong(9, 4)), "expected 'tran'");
    for (int i = 1; i <= 9; i++) {
      server.send(new Frame.BatchAccepted(i, 1));
    }
    server.send(rejected);
    // Before any get(): a thread waiting in get() on a completed future may run its callbacks
    // itself (CompletableFuture helps complete), racing the I/O thread's callbacks of later
    // batches, so the order recorded would be the two threads' and not the client's.
    assertThat(allCompleted.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(completionOrder).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
    for (int i = 1; i <= 9; i++) {
      assertThat(answers.get(i - 1).get(10, TimeUnit.SECONDS))
          .isEqualTo(new BatchAnswer.Accepted(i, 1));
    }
    assertThat(answers.get(9).get(10, TimeUnit.SECONDS))
        .isEqualTo(
            new BatchAnswer.Rejected(
                10, 0, 1, 9, Optional.of(Oqid.ofLong(9, 4)), "expected 'tran'"));
    // a round trip after the answers: the I/O thread has finished with them
    CompletableFuture<Optional<Oqid>> barrier = client.truncation();
    server.send(
        new Frame.Truncation(server.take(Frame.GetTruncation.class).requestId(), Optional.empty()));
    barrier.get(10, TimeUnit.SECONDS);
    LtlClient.Stats stats = client.stats();
    assertThat(stats.batchesSent()).isEqualTo(10);
    assertThat(stats.batchesAccepted()).isEqualTo(9);
    assertThat(stats.batchesRejected()).isEqualTo(1);
    assertThat(stats.inFlightBatches()).isZero();
    assertThat(stats.inFlightBytes()).isZero();
    assertThat(client.isOpen()).isTrue();
  }

  @Test
  void anAnswerOutOfOrderIsAProtocolErrorThatFailsEverythingPending() throws Exception {
    TestServer server = server();
    LtlClient client = connect(server);
    CompletableFuture<BatchAnswer> first = client.sendBatch(batch(1));
    CompletableFuture<BatchAnswer> second = client.sendBatch(batch(2));
    server.take(Frame.Hello.class);
    server.take(Frame.Batch.class);
    server.take(Frame.Batch.class);
    server.send(new Frame.BatchAccepted(2, 1));
    assertThat(first)
        .failsWithin(WAIT)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .isInstanceOf(LtlConnectionClosedException.class)
        .withMessageContaining("the server answered batch 2, the oldest unanswered batch is 1");
    assertThat(second).failsWithin(WAIT);
    assertThat(client.isOpen()).isFalse();
  }

  @Test
  void aFrameOnlyAnAgentSendsIsAProtocolError() throws Exception {
    TestServer server = server();
    LtlClient client = connect(server);
    server.send(new Frame.Batch(1, new byte[0]));
    assertThat(client.closeFuture())
        .failsWithin(WAIT)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .withMessageContaining("the server sent a Batch frame, which only an agent sends");
  }

  @Test
  void truncationRequestsAreMatchedByRequestId() throws Exception {
    TestServer server = server();
    LtlClient client = connect(server);
    server.take(Frame.Hello.class);
    CompletableFuture<Optional<Oqid>> a = client.truncation();
    CompletableFuture<Optional<Oqid>> b = client.truncation();
    long idA = server.take(Frame.GetTruncation.class).requestId();
    long idB = server.take(Frame.GetTruncation.class).requestId();
    assertThat(idA).isNotEqualTo(idB);
    server.send(
        new Frame.Truncation(idB, Optional.empty()),
        new Frame.Truncation(idA, Optional.of(Samples.OQID)));
    assertThat(a.get(10, TimeUnit.SECONDS)).contains(Samples.OQID);
    assertThat(b.get(10, TimeUnit.SECONDS)).isEmpty();
  }

  @Test
  void anAnswerToATruncationRequestNeverMadeIsAProtocolError() throws Exception {
    TestServer server = server();
    LtlClient client = connect(server);
    server.send(new Frame.Truncation(77, Optional.empty()));
    assertThat(client.closeFuture())
        .failsWithin(WAIT)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .withMessageContaining("truncation request 77, never asked");
  }

  @Test
  void storeResumeSendsTheBlob() throws Exception {
    TestServer server = server();
    LtlClient client = connect(server);
    server.take(Frame.Hello.class);
    client.storeResume(Samples.OQID, Samples.utf8("{\"lsn\":\"0/2\"}"));
    assertThat(server.take())
        .isEqualTo(new Frame.StoreResume(Samples.OQID, Samples.utf8("{\"lsn\":\"0/2\"}")));
  }

  /**
   * Waits until {@code n} calls of sendBatch have had to wait for room. The counter is bumped under
   * the client's lock just before the sender waits on its condition, and reading it takes that
   * lock, so once it shows {@code n} the sender is parked in the wait.
   */
  private static void awaitBlockedSenders(LtlClient client, long n) {
    while (client.stats().flowControlWaits() < n) {
      Thread.onSpinWait();
    }
  }

  @Test
  void sendBatchBlocksWhenTooManyBatchesAreUnanswered() throws Exception {
    TestServer server = server();
    LtlClient client =
        connect(LtlClientSettings.defaults("127.0.0.1", server.port()).withMaxInFlight(2, 1 << 20));
    server.take(Frame.Hello.class);
    CompletableFuture<BatchAnswer> first = client.sendBatch(batch(1));
    client.sendBatch(batch(2));
    Future<CompletableFuture<BatchAnswer>> third = threads.submit(() -> client.sendBatch(batch(3)));
    server.take(Frame.Batch.class);
    server.take(Frame.Batch.class);
    // The third stays with the client while two are unanswered.
    awaitBlockedSenders(client, 1);
    assertThat(third).isNotDone();
    assertThat(client.stats().batchesSent()).isEqualTo(2);

    server.send(new Frame.BatchAccepted(1, 1));
    assertThat(server.take(Frame.Batch.class).sequence()).isEqualTo(3);
    assertThat(third.get(10, TimeUnit.SECONDS)).isNotDone();
    assertThat(first).succeedsWithin(WAIT);
    assertThat(client.stats().flowControlWaits()).isEqualTo(1);
    assertThat(client.stats().flowControlWaitNanos()).isPositive();
  }

  @Test
  void sendBatchBlocksWhenTooManyBytesAreUnanswered() throws Exception {
    TestServer server = server();
    LtlClient client =
        connect(LtlClientSettings.defaults("127.0.0.1", server.port()).withMaxInFlight(100, 100));
    server.take(Frame.Hello.class);
    // larger than the byte bound: sent alone
    client.sendBatch(new byte[150]);
    Future<CompletableFuture<BatchAnswer>> second =
        threads.submit(() -> client.sendBatch(new byte[60]));
    assertThat(server.take(Frame.Batch.class).ltlText()).hasSize(150);
    awaitBlockedSenders(client, 1);
    assertThat(second).isNotDone();
    server.send(new Frame.BatchAccepted(1, 0));
    assertThat(server.take(Frame.Batch.class).ltlText()).hasSize(60);
    assertThat(second.get(10, TimeUnit.SECONDS)).isNotDone();

    Future<CompletableFuture<BatchAnswer>> third =
        threads.submit(() -> client.sendBatch(new byte[41]));
    awaitBlockedSenders(client, 2);
    assertThat(third).isNotDone();
    assertThat(client.stats().batchesSent()).isEqualTo(2);
    server.send(new Frame.BatchAccepted(2, 0));
    assertThat(server.take(Frame.Batch.class).ltlText()).hasSize(41);
    assertThat(third.get(10, TimeUnit.SECONDS)).isNotDone();
    assertThat(client.stats().inFlightBytes()).isEqualTo(41);
  }

  @Test
  void aSenderBlockedForRoomIsReleasedWhenTheConnectionDrops() throws Exception {
    TestServer server = server();
    LtlClient client =
        connect(LtlClientSettings.defaults("127.0.0.1", server.port()).withMaxInFlight(1, 1 << 20));
    server.take(Frame.Hello.class);
    CompletableFuture<BatchAnswer> first = client.sendBatch(batch(1));
    Future<CompletableFuture<BatchAnswer>> second =
        threads.submit(() -> client.sendBatch(batch(2)));
    server.take(Frame.Batch.class);
    awaitBlockedSenders(client, 1);
    server.connection().close();
    assertThat(second.get(10, TimeUnit.SECONDS))
        .failsWithin(WAIT)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .isInstanceOf(LtlConnectionClosedException.class)
        .withMessageContaining("is closed");
    assertThat(first).failsWithin(WAIT);
  }

  @Test
  void aServerDisconnectFailsEveryPendingFuture() throws Exception {
    TestServer server = server();
    LtlClient client = connect(server);
    server.take(Frame.Hello.class);
    List<CompletableFuture<BatchAnswer>> batches =
        List.of(client.sendBatch(batch(1)), client.sendBatch(batch(2)), client.sendBatch(batch(3)));
    CompletableFuture<Optional<Oqid>> truncation = client.truncation();
    for (int i = 0; i < 4; i++) {
      server.take();
    }
    server.send(new Frame.BatchAccepted(1, 1));
    assertThat(batches.get(0).get(10, TimeUnit.SECONDS)).isInstanceOf(BatchAnswer.Accepted.class);
    server.connection().close();

    for (CompletableFuture<?> f : List.of(batches.get(1), batches.get(2), truncation)) {
      assertThat(f)
          .failsWithin(WAIT)
          .withThrowableOfType(ExecutionException.class)
          .havingCause()
          .isInstanceOf(LtlConnectionClosedException.class)
          .withMessageContaining("the server closed the connection with 2 batches unanswered");
    }
    assertThat(client.closeFuture())
        .failsWithin(WAIT)
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(LtlConnectionClosedException.class);
    assertThat(client.isOpen()).isFalse();
    assertThat(client.state()).isEqualTo(LtlClient.State.CLOSED);

    // later calls fail, caused by the first failure
    assertThat(client.sendBatch(batch(4)))
        .failsWithin(WAIT)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .isInstanceOf(LtlConnectionClosedException.class)
        .withMessageEndingWith("is closed")
        .havingCause()
        .withMessageContaining("the server closed the connection");
    assertThat(client.truncation()).isCompletedExceptionally();
    assertThatThrownBy(() -> client.storeResume(Samples.OQID, new byte[0]))
        .isInstanceOf(LtlConnectionClosedException.class)
        .hasMessageEndingWith("is closed");
  }

  @Test
  void anErrorFromTheServerFailsPendingFuturesWithItsCode() throws Exception {
    TestServer server = server();
    LtlClient client = connect(server);
    server.take(Frame.Hello.class);
    CompletableFuture<BatchAnswer> pending = client.sendBatch(batch(1));
    server.take(Frame.Batch.class);
    FrameCodec.closeWithError(server.connection(), ErrorCode.SHUTTING_DOWN, "server stops");
    assertThat(pending)
        .failsWithin(WAIT)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .isInstanceOfSatisfying(
            LtlRejectedException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.SHUTTING_DOWN);
              assertThat(e.retryable()).isTrue();
            });
    assertThat(client.closeFuture())
        .failsWithin(WAIT)
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(LtlRejectedException.class);
  }

  @Test
  void closeWaitsForAnswersToBatchesInFlight() throws Exception {
    TestServer server = server();
    LtlClient client = connect(server);
    server.take(Frame.Hello.class);
    CompletableFuture<BatchAnswer> pending = client.sendBatch(batch(1));
    client.storeResume(Samples.OQID, new byte[] {1});
    server.take(Frame.Batch.class);
    Future<?> closing = threads.submit(client::close);
    assertThat(server.take(Frame.StoreResume.class).blob()).containsExactly(1);
    assertThat(closing).isNotDone();
    server.send(new Frame.BatchAccepted(1, 1));
    closing.get(10, TimeUnit.SECONDS);
    // close() returned after the answer was delivered
    assertThat(pending).isCompletedWithValue(new BatchAnswer.Accepted(1, 1));
    assertThat(client.closeFuture()).succeedsWithin(WAIT);
    assertThat(client.state()).isEqualTo(LtlClient.State.CLOSED);
    assertThat(server.connection().closeFuture().await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(client.sendBatch(batch(2))).isCompletedExceptionally();
    client.close(); // idempotent
  }

  @Test
  void closeGivesUpOnUnansweredBatchesAfterTheCloseTimeout() throws Exception {
    TestServer server = server();
    LtlClient client =
        connect(
            LtlClientSettings.defaults("127.0.0.1", server.port())
                .withCloseTimeout(Duration.ofMillis(200)));
    CompletableFuture<BatchAnswer> pending = client.sendBatch(batch(1));
    client.close();
    assertThat(pending)
        .failsWithin(WAIT)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .isInstanceOf(LtlConnectionClosedException.class)
        .withMessageContaining("was closed with 1 batches the server had not answered");
    assertThat(client.closeFuture()).isCompleted().isNotCompletedExceptionally();
  }

  @Test
  void aSharedEventLoopGroupIsLeftRunning() throws Exception {
    TestServer server = server();
    NioEventLoopGroup shared = new NioEventLoopGroup(1);
    try {
      LtlClient client =
          connect(
              LtlClientSettings.defaults("127.0.0.1", server.port()).withEventLoopGroup(shared));
      client.close();
      assertThat(shared.isShuttingDown()).isFalse();
    } finally {
      shared.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  @Test
  void aBatchTooLargeForAFrameIsRefused() throws Exception {
    TestServer server = server();
    LtlClient client =
        connect(LtlClientSettings.defaults("127.0.0.1", server.port()).withMaxFrameLength(1024));
    assertThat(client.maxBatchBytes()).isEqualTo(1015);
    assertThatThrownBy(() -> client.sendBatch(new byte[1016]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "a batch of 1016 bytes does not fit in a frame: at most 1015 bytes of LTL text (maximum frame length 1024)");
  }

  @Test
  void sendBatchOnTheClientsIoThreadIsRefused() throws Exception {
    TestServer server = server();
    LtlClient client = connect(server);
    server.take(Frame.Hello.class);
    CompletableFuture<Object> onIoThread =
        client
            .truncation()
            .handle(
                (t, e) -> {
                  try {
                    return client.sendBatch(batch(1));
                  } catch (RuntimeException | InterruptedException x) {
                    return x;
                  }
                });
    long id = server.take(Frame.GetTruncation.class).requestId();
    server.send(new Frame.Truncation(id, Optional.empty()));
    assertThat(onIoThread.get(10, TimeUnit.SECONDS))
        .isInstanceOf(IllegalStateException.class)
        .asString()
        .contains("sendBatch may block");
  }

  @Test
  void settingsReportEveryProblemAtOnce() {
    assertThatThrownBy(
            () ->
                new LtlClientSettings(
                    "",
                    0,
                    Duration.ZERO,
                    Duration.ofSeconds(-1),
                    10,
                    0,
                    0,
                    Optional.empty(),
                    ClientTls.OFF))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "bad LTL client settings: host must be given; port must be 1..65535, got 0;"
                + " connectTimeout must be positive, got PT0S; closeTimeout must be >= 0, got PT-1S;"
                + " maxFrameLength must be 1024..1073741824 bytes, got 10;"
                + " maxInFlightBatches must be >= 1, got 0; maxInFlightBytes must be >= 1, got 0");
  }

  @Test
  void aLostConnectionIsNotAnIoExceptionThatHidesTheCause() throws IOException {
    LtlConnectionClosedException e =
        new LtlConnectionClosedException("gone", new IOException("reset"));
    assertThat(e).hasMessage("gone").hasCauseInstanceOf(IOException.class);
  }
}
