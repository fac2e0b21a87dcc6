package io.openrs.repserver;

import static io.openrs.repserver.support.Origin.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.RepDefColumn;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.repserver.monitor.ServerCounter;
import io.openrs.repserver.support.Origin;
import io.openrs.repserver.support.TestPki;
import io.openrs.repserver.support.TestServers;
import io.openrs.wire.BatchAnswer;
import io.openrs.wire.ClientTls;
import io.openrs.wire.ErrorCode;
import io.openrs.wire.LtlClient;
import io.openrs.wire.LtlClientSettings;
import io.openrs.wire.LtlCompression;
import io.openrs.wire.LtlConnectionClosedException;
import io.openrs.wire.LtlRejectedException;
import io.openrs.wire.WireProtocol;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/**
 * The agent link's transport (issue 28, item 4): TLS on the LTL port with server and client
 * certificates, and compression negotiated in the protocol version 4 handshake, against a real
 * server over real sockets.
 */
class LtlLinkTransportIT {

  private static final TableName ORDERS = new TableName("shop", "orders");
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;
  @TempDir Path pkiDir;
  private TestPki pki;
  private ReplicationServer server;
  private SimpleMeterRegistry registry;
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private final Logger execLog = (Logger) LoggerFactory.getLogger("io.openrs.repserver.exec");

  @BeforeEach
  void setUp() throws Exception {
    pki = TestPki.create(pkiDir);
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
    registry = new SimpleMeterRegistry();
    server = TestServers.start(dir, overrides, registry);
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

  private Map<String, String> tls(String mode) {
    Map<String, String> m = new HashMap<>();
    m.put("ltl_tls", mode);
    m.put("ltl_tls_certificate", pki.serverCertificate().toString());
    m.put("ltl_tls_private_key", pki.serverKey().toString());
    return m;
  }

  private static LtlCommand.Connect hello(int min, int max, List<String> compression) {
    return new LtlCommand.Connect(
        "pds",
        "pdb",
        min,
        max,
        "sa",
        Optional.of(TestServers.ADMIN_PASSWORD),
        Optional.of("transport-agent"),
        compression);
  }

  private LtlClient connect(String host, ClientTls tls, LtlCommand.Connect hello) throws Exception {
    LtlClient c =
        LtlClient.connect(
            LtlClientSettings.defaults(host, server.ltlPort())
                .withConnectTimeout(Duration.ofSeconds(15))
                .withTls(tls),
            hello);
    toClose.add(c);
    return c;
  }

  private LtlClient connect(String host, ClientTls tls) throws Exception {
    return connect(host, tls, hello(2, WireProtocol.MAX_VERSION, List.of()));
  }

  /** Connects once the server has noticed that the origin's previous agent left. */
  private LtlClient connectOnceFree(String host, ClientTls tls, LtlCommand.Connect hello) {
    return await()
        .atMost(WAIT)
        .ignoreExceptionsMatching(
            e -> e instanceof LtlRejectedException r && r.code() == ErrorCode.ORIGIN_BUSY)
        .until(() -> connect(host, tls, hello), c -> true);
  }

  private ClientTls verifyFull() {
    return new ClientTls(
        ClientTls.Mode.VERIFY_FULL,
        Optional.of(pki.caCertificate()),
        Optional.empty(),
        Optional.empty());
  }

  /** Sends {@code transactions} transactions of {@code rows} rows each and checks every answer. */
  private static Oqid deliver(LtlClient agent, Origin o, int transactions, int rows, int noteBytes)
      throws Exception {
    List<CompletableFuture<BatchAnswer>> answers = new ArrayList<>();
    Oqid last = null;
    long id = 0;
    for (int t = 1; t <= transactions; t++) {
      List<LtlCommand> commands = new ArrayList<>();
      commands.add(o.begin(t));
      for (int r = 0; r < rows; r++) {
        commands.add(
            o.insert(
                t,
                ORDERS,
                col("id", (int) ++id),
                col("note", "order note " + "x".repeat(noteBytes))));
      }
      LtlCommand.Commit commit = o.commit(t);
      commands.add(commit);
      last = commit.oqid();
      answers.add(agent.sendBatch(o.text(commands)));
    }
    for (CompletableFuture<BatchAnswer> a : answers) {
      assertThat(a.get(30, TimeUnit.SECONDS)).isInstanceOf(BatchAnswer.Accepted.class);
    }
    return last;
  }

  private static Optional<Oqid> durable(LtlClient agent, Oqid last) {
    return await()
        .atMost(WAIT)
        .until(
            () -> agent.truncation().get(10, TimeUnit.SECONDS),
            p -> p.isPresent() && p.get().compareTo(last) >= 0);
  }

  private List<String> warnings() {
    return List.copyOf(log.list).stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  private double serverCounter(ServerCounter c) {
    return registry.find(c.counterName()).tag("instance", "pds.pdb").functionCounter().count();
  }

  // ---------------------------------------------------------------- TLS

  @Test
  void aPlaintextAgentIsRefusedWithAnErrorNamingLtlTlsRequired() throws Exception {
    start(tls("required"));
    assertThatThrownBy(() -> connect("localhost", ClientTls.OFF))
        .isInstanceOfSatisfying(
            LtlRejectedException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.PROTOCOL_ERROR);
              assertThat(e.getMessage()).contains("ltl_tls = required").contains("rs_tls");
            });
    await()
        .atMost(WAIT)
        .until(() -> warnings().stream().anyMatch(m -> m.contains("refused a plaintext agent")));
  }

  @Test
  void anAgentWithVerifyFullDeliversBatchesOverTls() throws Exception {
    start(tls("required"));
    LtlClient agent = connect("localhost", verifyFull());
    Origin o = new Origin();
    Oqid last = deliver(agent, o, 20, 10, 20);
    assertThat(durable(agent, last)).isPresent();
    assertThat(agent.tlsProtocol()).hasValueSatisfying(p -> assertThat(p).startsWith("TLSv1."));
  }

  @Test
  void withLtlTlsOnPlaintextAndTlsAgentsAreBothAccepted() throws Exception {
    start(tls("on"));
    LtlClient plain = connect("localhost", ClientTls.OFF);
    assertThat(plain.tlsProtocol()).isEmpty();
    assertThat(plain.truncation().get(10, TimeUnit.SECONDS)).isEmpty();
    plain.close();
    LtlClient secure = connectOnceFree("localhost", verifyFull(), hello(2, 4, List.of()));
    assertThat(secure.tlsProtocol()).isPresent();
    assertThat(secure.truncation().get(10, TimeUnit.SECONDS)).isEmpty();
  }

  @Test
  void aCertificateForAnotherHostNameIsRefusedByVerifyFull() throws Exception {
    start(tls("required"));
    // The certificate names localhost only; 127.0.0.1 is another name.
    assertThatThrownBy(() -> connect("127.0.0.1", verifyFull()))
        .isInstanceOf(LtlConnectionClosedException.class)
        .hasMessageContaining("TLS with the server failed (rs_tls verify-full)")
        .hasMessageContaining("127.0.0.1");
    // verify-ca does not check the name: the same server is accepted.
    LtlClient agent =
        connect(
            "127.0.0.1",
            new ClientTls(
                ClientTls.Mode.VERIFY_CA,
                Optional.of(pki.caCertificate()),
                Optional.empty(),
                Optional.empty()));
    assertThat(agent.isOpen()).isTrue();
  }

  @Test
  void aServerCertificateFromAnUntrustedCaIsRefusedAndBothSidesLogTheCause() throws Exception {
    start(tls("required"));
    ClientTls otherRoot =
        new ClientTls(
            ClientTls.Mode.VERIFY_FULL,
            Optional.of(pki.otherCaCertificate()),
            Optional.empty(),
            Optional.empty());
    for (int i = 0; i < 5; i++) {
      assertThatThrownBy(() -> connect("localhost", otherRoot))
          .isInstanceOf(LtlConnectionClosedException.class)
          .hasMessageContaining("TLS with the server failed")
          .hasMessageContaining("certification path");
    }
    await()
        .atMost(WAIT)
        .until(() -> warnings().stream().anyMatch(m -> m.contains("TLS handshake with an agent")));
    assertThat(warnings().stream().filter(m -> m.contains("TLS handshake with an agent")))
        .as("one line per cause and interval, not one per socket")
        .hasSize(1);
  }

  @Test
  void withLtlTlsClientCaAnAgentMustPresentACertificateSignedByIt() throws Exception {
    Map<String, String> settings = tls("required");
    settings.put("ltl_tls_client_ca", pki.caCertificate().toString());
    start(settings);
    assertThatThrownBy(() -> connect("localhost", verifyFull()))
        .isInstanceOf(LtlConnectionClosedException.class);
    LtlClient agent =
        connect(
            "localhost",
            new ClientTls(
                ClientTls.Mode.VERIFY_FULL,
                Optional.of(pki.caCertificate()),
                Optional.of(pki.clientCertificate()),
                Optional.of(pki.clientKey())));
    Oqid last = deliver(agent, new Origin(), 3, 5, 10);
    assertThat(durable(agent, last)).isPresent();
  }

  // ---------------------------------------------------------------- compression

  @ParameterizedTest
  @EnumSource(LtlCompression.class)
  void compressionIsNegotiatedAndCarriesLargeAndSmallBatchesAndHeartbeats(LtlCompression method)
      throws Exception {
    Map<String, String> settings = tls("on");
    settings.put("ltl_compression", "any");
    settings.put("agent_heartbeat_interval", "1000");
    settings.put("agent_idle_heartbeats", "3");
    start(settings);
    List<String> offer = method == LtlCompression.NONE ? List.of() : List.of(method.configName());
    LtlClient agent = connect("localhost", verifyFull(), hello(2, 4, offer));
    assertThat(agent.welcome().version()).isEqualTo(WireProtocol.VERSION_4);
    assertThat(agent.welcome().compression()).isEqualTo(method);
    Origin o = new Origin();
    deliver(agent, o, 50, 20, 10); // small batches
    Oqid last = deliver(agent, o, 3, 20_000, 100); // batches of about 3 MB each
    // Silence of many heartbeat intervals: heartbeats cross the compressed link both ways.
    await().during(Duration.ofMillis(4000)).atMost(Duration.ofSeconds(8)).until(agent::isOpen);
    assertThat(durable(agent, last)).isPresent();

    double frameIn = serverCounter(ServerCounter.LINK_FRAME_BYTES_RECEIVED);
    double wireIn = serverCounter(ServerCounter.LINK_BYTES_RECEIVED);
    assertThat(frameIn).isEqualTo((double) agent.linkBytes().frameBytesSent());
    assertThat(serverCounter(ServerCounter.LINK_FRAME_BYTES_SENT)).isPositive();
    if (method == LtlCompression.NONE) {
      assertThat(wireIn).isEqualTo(frameIn);
    } else {
      assertThat(frameIn / wireIn).as("compression ratio of repetitive LTL").isGreaterThan(4);
      assertThat(agent.linkBytes().wireBytesSent()).isEqualTo((long) wireIn);
    }
  }

  @Test
  void theServerPicksOnlyAMethodItAllows() throws Exception {
    start(Map.of("ltl_compression", "lz4"));
    LtlClient agent = connect("localhost", ClientTls.OFF, hello(2, 4, List.of("zstd", "lz4")));
    assertThat(agent.welcome().compression()).isEqualTo(LtlCompression.LZ4);
    agent.close();
    LtlClient zstdOnly = connectOnceFree("localhost", ClientTls.OFF, hello(2, 4, List.of("zstd")));
    assertThat(zstdOnly.welcome().compression()).isEqualTo(LtlCompression.NONE);
    assertThat(deliver(zstdOnly, new Origin(), 2, 2, 2)).isNotNull();
  }

  @Test
  void aVersion3AgentStillWorksAgainstTheVersion4Server() throws Exception {
    // A version 3 agent sends its password in the Hello: accepted only with exec_hello_password.
    start(Map.of("ltl_compression", "any", "exec_hello_password", "on"));
    LtlClient agent = connect("localhost", ClientTls.OFF, hello(2, 3, List.of()));
    assertThat(agent.welcome().version()).isEqualTo(WireProtocol.VERSION_3);
    assertThat(agent.welcome().compression()).isEqualTo(LtlCompression.NONE);
    assertThat(agent.welcome().liveness()).isPresent();
    Oqid last = deliver(agent, new Origin(), 5, 5, 5);
    assertThat(durable(agent, last)).isPresent();
  }
}
