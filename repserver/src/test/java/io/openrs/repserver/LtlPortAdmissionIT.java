package io.openrs.repserver;

import static io.openrs.repserver.support.Origin.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.RepDefColumn;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.repserver.support.Origin;
import io.openrs.repserver.support.OutboundContents;
import io.openrs.repserver.support.OutboundContents.Transaction;
import io.openrs.repserver.support.TestServers;
import io.openrs.wire.BatchAnswer;
import io.openrs.wire.ErrorCode;
import io.openrs.wire.Frame;
import io.openrs.wire.FrameCodec;
import io.openrs.wire.LtlClient;
import io.openrs.wire.LtlRejectedException;
import io.openrs.wire.WireProtocol;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The LTL port under hostile or broken peers (issue 28, items 2 and 7): sockets that never send a
 * Hello cannot keep agents out and are closed at the handshake timeout with a bounded amount of
 * log; an agent that goes silent loses its origin after the idle timeout, and its replacement
 * resumes with nothing lost or doubled.
 */
class LtlPortAdmissionIT {

  private static final TableName ORDERS = new TableName("shop", "orders");
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;
  private ReplicationServer server;
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private final Logger execLog = (Logger) LoggerFactory.getLogger("io.openrs.repserver.exec");

  @BeforeEach
  void captureLog() {
    log.start();
    execLog.addAppender(log);
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : toClose) {
      c.close();
    }
    if (server != null) {
      server.close();
    }
    execLog.detachAppender(log);
  }

  private void start(Map<String, String> overrides) throws Exception {
    server = TestServers.start(dir, overrides, new SimpleMeterRegistry());
  }

  /** Primary pds.pdb with repdef orders_rd (shop.orders) subscribed by rds.rdb. */
  private void configure() throws Exception {
    var primary = server.createConnection("pds", "pdb", Profile.POSTGRESQL, true, Map.of());
    server.createConnection("rds", "rdb", Profile.POSTGRESQL, false, Map.of());
    server
        .catalog()
        .createRepDef(
            new RepDef(
                "orders_rd",
                primary.id(),
                "shop",
                "orders",
                "public",
                "orders",
                List.of(new RepDefColumn("id", "int"), new RepDefColumn("note", "text")),
                List.of("id"),
                List.of()));
    server
        .catalog()
        .subscriptions()
        .create("orders_sub", "orders_rd", false, "rds", "rdb", Optional.empty());
  }

  private static LtlCommand.Connect hello(int minVersion, int maxVersion) {
    return new LtlCommand.Connect(
        "pds",
        "pdb",
        minVersion,
        maxVersion,
        "sa",
        TestServers.ADMIN_PASSWORD,
        Optional.of("test-agent"));
  }

  private LtlClient connect(Duration timeout) throws Exception {
    LtlClient c =
        LtlClient.connect(
            "127.0.0.1",
            server.ltlPort(),
            hello(WireProtocol.MIN_VERSION, WireProtocol.MAX_VERSION),
            timeout);
    toClose.add(c);
    return c;
  }

  // ---------------------------------------------------------------- idle sockets (item 2)

  @Test
  void idleSocketsCannotKeepAnAgentOutAndAreClosedAtTheHandshakeTimeoutWithBoundedLog()
      throws Exception {
    start(
        Map.of(
            "exec_max_connections", "4",
            "exec_max_handshakes", "8",
            "exec_handshake_timeout", "3000"));
    configure();
    int idle = 80; // 20 times the agent limit, 10 times the handshake limit
    List<SocketChannel> sockets = new ArrayList<>();
    for (int i = 0; i < idle; i++) {
      SocketChannel s = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.ltlPort()));
      s.configureBlocking(false);
      sockets.add(s);
      toClose.add(s);
    }
    // Those beyond the handshake limit made way at once; eight are left waiting for a Hello.
    await().atMost(WAIT).until(() -> closedByServer(sockets) >= idle - 8);
    assertThat(closedByServer(sockets)).isEqualTo(idle - 8);

    long start = System.nanoTime();
    LtlClient agent = connect(Duration.ofSeconds(2));
    assertThat(agent.isOpen()).isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .as("the agent is admitted at once, not after the idle sockets time out")
        .isLessThan(Duration.ofMillis(2500));

    await().atMost(WAIT).until(() -> closedByServer(sockets) == idle);
    assertThat(agent.isOpen()).as("an admitted agent is not subject to the handshake").isTrue();
    assertThat(agent.truncation().get(10, TimeUnit.SECONDS)).isEmpty();

    List<String> warnings =
        List.copyOf(log.list).stream()
            .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
            .map(ILoggingEvent::getFormattedMessage)
            .toList();
    // One line per cause (made way, timed out); the rest are counted into a summary per minute.
    assertThat(warnings).hasSizeLessThanOrEqualTo(2);
    assertThat(warnings)
        .anySatisfy(w -> assertThat(w).contains("exec_max_handshakes"))
        .anySatisfy(w -> assertThat(w).contains("exec_handshake_timeout (3000 ms)"));
  }

  @Test
  void aSocketNotAdmittedYetCannotMakeTheServerBufferALargeFrame() throws Exception {
    start(Map.of());
    try (Socket s = new Socket("127.0.0.1", server.ltlPort())) {
      s.setSoTimeout(10_000);
      // The header of a 1 MiB "Hello": refused before any body byte, not buffered up to 16 MiB.
      s.getOutputStream().write(new byte[] {0x00, 0x10, 0x00, 0x00, FrameCodec.TYPE_HELLO});
      s.getOutputStream().flush();
      EmbeddedChannel decoder = new EmbeddedChannel(new FrameCodec.Decoder(1 << 20));
      decoder.writeInbound(Unpooled.wrappedBuffer(s.getInputStream().readAllBytes()));
      Frame answer = decoder.readInbound();
      assertThat(answer)
          .isInstanceOfSatisfying(
              Frame.Error.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.PROTOCOL_ERROR);
                assertThat(e.message())
                    .contains("frame length 1048576 exceeds the maximum frame length 65536");
              });
    }
  }

  @Test
  void wrongPasswordsAtFullSpeedCostOneLogLine() throws Exception {
    start(Map.of("exec_max_login_failures", "0")); // no backoff: every login is checked
    configure();
    for (int i = 0; i < 30; i++) {
      LtlCommand.Connect wrong =
          new LtlCommand.Connect("pds", "pdb", 4, 4, "sa", "pw-" + i + "-x", Optional.empty());
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> LtlClient.connect("127.0.0.1", server.ltlPort(), wrong, Duration.ofSeconds(10)))
          .isInstanceOfSatisfying(
              LtlRejectedException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.AUTHENTICATION_FAILED));
    }
    assertThat(
            List.copyOf(log.list).stream()
                .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                .map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains("refused")))
        .singleElement()
        .asString()
        .contains("AUTHENTICATION_FAILED")
        .doesNotContain("pw-");
  }

  /** Drains what the server wrote (an Error frame) and counts sockets the server has closed. */
  private static long closedByServer(List<SocketChannel> sockets) throws IOException {
    long closed = 0;
    ByteBuffer sink = ByteBuffer.allocate(4096);
    for (SocketChannel s : sockets) {
      int n;
      do {
        sink.clear();
        try {
          n = s.read(sink);
        } catch (IOException reset) {
          n = -1;
        }
      } while (n > 0);
      if (n < 0) {
        closed++;
      }
    }
    return closed;
  }

  // ---------------------------------------------------------------- frozen agent (item 7)

  @Test
  void aFrozenAgentLosesItsOriginAfterTheIdleTimeoutAndItsReplacementLosesAndDoublesNothing()
      throws Exception {
    // The frozen agent below speaks version 2, which sends its password in the Hello.
    start(
        Map.of(
            "agent_heartbeat_interval",
            "200",
            "agent_idle_heartbeats",
            "3",
            "exec_hello_password",
            "on"));
    configure();
    Origin o = new Origin();
    List<LtlCommand> stream = new ArrayList<>();
    for (int t = 1; t <= 40; t++) {
      stream.add(o.begin(t));
      stream.add(o.insert(t, ORDERS, col("id", t), col("note", "n" + t)));
      stream.add(o.commit(t));
    }
    // The frozen agent sends 25 whole transactions and half of the 26th, then goes silent: it
    // neither reads nor writes, and its socket stays open. It speaks version 2, which has no
    // heartbeats: the server gives up a silent agent of any version.
    RawAgent frozen = new RawAgent(server.ltlPort());
    toClose.add(frozen);
    assertThat(frozen.exchange(Frame.Hello.of(hello(2, 2)))).isInstanceOf(Frame.Welcome.class);
    int sent = 25 * 3 + 2;
    long seq = 1;
    for (List<LtlCommand> chunk : Origin.chunks(stream.subList(0, sent), 10)) {
      assertThat(frozen.exchange(new Frame.Batch(seq, o.text(chunk))))
          .isEqualTo(new Frame.BatchAccepted(seq, chunk.size()));
      seq++;
    }
    long frozenAt = System.nanoTime();

    // The replacement is refused as long as the frozen one holds the origin, then admitted.
    LtlClient replacement =
        await()
            .atMost(WAIT)
            .pollInterval(Duration.ofMillis(50))
            .ignoreExceptionsMatching(
                e -> e instanceof LtlRejectedException r && r.code() == ErrorCode.ORIGIN_BUSY)
            .until(() -> connect(Duration.ofSeconds(10)), LtlClient::isOpen);
    assertThat(Duration.ofNanos(System.nanoTime() - frozenAt))
        .as("the origin is freed by the idle timeout, not before")
        .isGreaterThanOrEqualTo(Duration.ofMillis(500));
    assertThat(frozen.closedByServer()).as("the frozen agent's socket is closed").isTrue();

    // It resumes after the truncation point, resending from further back (the server drops what
    // it holds) and finishing the stream.
    Oqid point = replacement.welcome().truncationPoint().orElseThrow();
    Oqid lastOfTran25 = ((LtlCommand.InTransaction) stream.get(25 * 3 - 1)).oqid();
    assertThat(point).isGreaterThanOrEqualTo(lastOfTran25);
    List<CompletableFuture<BatchAnswer>> answers = new ArrayList<>();
    for (List<LtlCommand> chunk : Origin.chunks(stream.subList(60, stream.size()), 10)) {
      answers.add(replacement.sendBatch(o.text(chunk)));
    }
    for (CompletableFuture<BatchAnswer> a : answers) {
      assertThat(a.get(30, TimeUnit.SECONDS)).isInstanceOf(BatchAnswer.Accepted.class);
    }
    await()
        .atMost(WAIT)
        .until(
            () ->
                OutboundContents.read(server.outboundQueue("rds", "rdb").orElseThrow()).size()
                    >= 40);
    List<Transaction> out = OutboundContents.read(server.outboundQueue("rds", "rdb").orElseThrow());
    assertThat(out)
        .extracting(Transaction::tran)
        .containsExactlyElementsOf(
            java.util.stream.LongStream.rangeClosed(1, 40).mapToObj(TranId::ofLong).toList());
    assertThat(out).allSatisfy(t -> assertThat(t.body()).hasSize(1));
    assertThat(log.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .anySatisfy(m -> assertThat(m).contains("sent nothing for 600 ms"));
  }

  @Test
  void anIdleAgentKeepsItsOriginThroughHeartbeats() throws Exception {
    start(Map.of("agent_heartbeat_interval", "100", "agent_idle_heartbeats", "3"));
    configure();
    LtlClient agent = connect(Duration.ofSeconds(10));
    assertThat(agent.welcome().version()).isEqualTo(WireProtocol.MAX_VERSION);
    assertThat(agent.welcome().liveness()).contains(new Frame.Liveness(100, 300));
    // Ten idle timeouts without a batch: the heartbeats of both sides keep the session.
    await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(agent::isOpen);
    assertThat(agent.truncation().get(10, TimeUnit.SECONDS)).isEmpty();
  }

  /**
   * An agent on a plain blocking socket: it does exactly what the test says and nothing else (no
   * heartbeats), so it can freeze.
   */
  private static final class RawAgent implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final EmbeddedChannel encoder = new EmbeddedChannel(new FrameCodec.Encoder(1 << 20));
    private final EmbeddedChannel decoder = new EmbeddedChannel(new FrameCodec.Decoder(1 << 20));

    RawAgent(int port) throws IOException {
      socket = new Socket("127.0.0.1", port);
      socket.setSoTimeout(10_000);
      in = socket.getInputStream();
    }

    /** Sends {@code frame} and reads the next frame the server sends. */
    Frame exchange(Frame frame) throws IOException {
      encoder.writeOutbound(frame);
      ByteBuf out;
      while ((out = encoder.readOutbound()) != null) {
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        out.release();
        socket.getOutputStream().write(bytes);
      }
      socket.getOutputStream().flush();
      Frame answer;
      byte[] buf = new byte[4096];
      while ((answer = decoder.readInbound()) == null) {
        int n = in.read(buf);
        if (n < 0) {
          throw new IOException("the server closed the connection");
        }
        decoder.writeInbound(Unpooled.wrappedBuffer(buf, 0, n));
      }
      return answer;
    }

    /** Reads what is left (answers, heartbeats) until the server closes the socket. */
    boolean closedByServer() throws IOException {
      byte[] buf = new byte[4096];
      try {
        while (in.read(buf) >= 0) {
          // drain
        }
      } catch (java.net.SocketException reset) {
        return true;
      }
      return true;
    }

    @Override
    public void close() throws IOException {
      socket.close();
      encoder.finishAndReleaseAll();
      decoder.finishAndReleaseAll();
    }
  }
}
