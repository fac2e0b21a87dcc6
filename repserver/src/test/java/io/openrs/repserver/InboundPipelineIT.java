package io.openrs.repserver;

import static io.openrs.repserver.support.Origin.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.DatabaseRepDef;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.RepDefColumn;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
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
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inbound side end to end on real sockets, files and RSSD: an agent speaking the real protocol
 * sends LTL; the outbound queues must hold exactly the committed, subscribed changes, once each, in
 * commit order.
 */
class InboundPipelineIT {

  private static final TableName ORDERS = new TableName("shop", "orders");
  private static final TableName AUDIT = new TableName("shop", "audit");
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private ReplicationServer server;
  private final List<LtlClient> clients = new ArrayList<>();

  @AfterEach
  void stop() {
    clients.forEach(LtlClient::close);
    if (server != null) {
      server.close();
    }
  }

  private ReplicationServer start(Map<String, String> overrides) throws Exception {
    server = TestServers.start(dir, overrides, registry);
    return server;
  }

  /** Primary pds.pdb with repdef orders_rd (shop.orders) subscribed by rds.rdb. */
  private ConnectionDef configure() throws Exception {
    ConnectionDef primary =
        server.createConnection("pds", "pdb", Profile.POSTGRESQL, true, Map.of());
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
                List.of(
                    new RepDefColumn("id", "int"),
                    new RepDefColumn("region", "varchar(8)"),
                    new RepDefColumn("note", "text")),
                List.of("id"),
                List.of("region")));
    server
        .catalog()
        .subscriptions()
        .create("orders_sub", "orders_rd", false, "rds", "rdb", Optional.empty());
    return primary;
  }

  private LtlClient connect(String user, String password, String ds, String db) throws Exception {
    LtlClient c =
        LtlClient.connect(
            "127.0.0.1",
            server.ltlPort(),
            new LtlCommand.Connect(
                ds,
                db,
                WireProtocol.MIN_VERSION,
                WireProtocol.MAX_VERSION,
                user,
                password,
                Optional.of("test-agent")),
            Duration.ofSeconds(10));
    clients.add(c);
    return c;
  }

  private LtlClient connect() throws Exception {
    return connect("sa", TestServers.ADMIN_PASSWORD, "pds", "pdb");
  }

  private static List<BatchAnswer> sendAll(
      LtlClient client, Origin origin, List<? extends LtlCommand> commands, int perBatch)
      throws Exception {
    List<CompletableFuture<BatchAnswer>> answers = new ArrayList<>();
    for (List<? extends LtlCommand> chunk : Origin.chunks(commands, perBatch)) {
      answers.add(client.sendBatch(origin.text(chunk)));
    }
    List<BatchAnswer> out = new ArrayList<>();
    for (CompletableFuture<BatchAnswer> a : answers) {
      out.add(a.get(30, TimeUnit.SECONDS));
    }
    return out;
  }

  private List<Transaction> outbound(String ds, String db) throws Exception {
    return OutboundContents.read(server.outboundQueue(ds, db).orElseThrow());
  }

  private void awaitTruncation(LtlClient client, Oqid oqid) {
    await()
        .atMost(WAIT)
        .until(
            () -> client.truncation().get(10, TimeUnit.SECONDS), t -> t.equals(Optional.of(oqid)));
  }

  private double counter(String name, String module) {
    return registry.find(name).tag("module", module).functionCounters().stream()
        .mapToDouble(FunctionCounter::count)
        .sum();
  }

  /** {@code c} as DIST writes it for orders_rd: the replicate's table name public.orders. */
  private static LtlCommand.InTransaction mapped(LtlCommand c) {
    TableName replicate = new TableName("public", "orders");
    if (c instanceof LtlCommand.Insert i) {
      return new LtlCommand.Insert(i.tran(), i.oqid(), replicate, i.snapshot(), i.after());
    } else if (c instanceof LtlCommand.Update u) {
      return new LtlCommand.Update(u.tran(), u.oqid(), replicate, u.before(), u.after());
    } else if (c instanceof LtlCommand.Delete d) {
      return new LtlCommand.Delete(d.tran(), d.oqid(), replicate, d.before());
    }
    return (LtlCommand.InTransaction) c;
  }

  private static Column id(int v) {
    return col("id", v);
  }

  @Test
  void interleavedTransactionsArriveWholeInCommitOrderAndOnlyTheSubscribedOnes() throws Exception {
    start(Map.of());
    configure();
    Origin o = new Origin();
    List<LtlCommand> stream = new ArrayList<>();
    stream.add(o.begin(1));
    stream.add(o.insert(1, ORDERS, id(1), col("region", "EU"), col("note", "a")));
    stream.add(o.begin(2));
    stream.add(o.insert(2, ORDERS, id(2), col("region", "US"), col("note", "b")));
    stream.add(o.insert(2, AUDIT, id(9))); // no replication definition
    stream.add(o.begin(3));
    stream.add(o.insert(3, ORDERS, id(3), col("region", "EU"), col("note", "never")));
    stream.add(o.update(1, ORDERS, List.of(id(1)), List.of(id(1), col("note", "a2"))));
    stream.add(o.commit(2));
    stream.add(o.rollback(3));
    stream.add(o.delete(1, ORDERS, id(2)));
    stream.add(o.commit(1));
    stream.add(o.begin(4));
    for (int i = 0; i < 2000; i++) {
      stream.add(o.insert(4, ORDERS, id(100 + i), col("region", "JP"), col("note", "x" + i)));
    }
    stream.add(o.commit(4));
    LtlClient client = connect();
    assertThat(client.welcome().truncationPoint()).isEmpty();
    List<BatchAnswer> answers = sendAll(client, o, stream, 7);
    assertThat(answers).allMatch(a -> a instanceof BatchAnswer.Accepted);
    LtlCommand.InTransaction last = (LtlCommand.InTransaction) stream.get(stream.size() - 1);
    awaitTruncation(client, last.oqid());

    await().atMost(WAIT).until(() -> outbound("rds", "rdb").size() == 3);
    List<Transaction> out = outbound("rds", "rdb");
    assertThat(out)
        .extracting(Transaction::tran)
        .containsExactly(TranId.ofLong(2), TranId.ofLong(1), TranId.ofLong(4));
    assertThat(out.get(0).body()).containsExactly(mapped(stream.get(3)));
    assertThat(out.get(1).body())
        .containsExactly(mapped(stream.get(1)), mapped(stream.get(7)), mapped(stream.get(10)));
    assertThat(out.get(1).begin()).isEqualTo(stream.get(0));
    assertThat(out.get(1).commit()).isEqualTo(stream.get(11));
    assertThat(out.get(2).body()).hasSize(2000);
    assertThat(out.get(2).body())
        .containsExactlyElementsOf(
            stream.subList(13, 2013).stream().map(InboundPipelineIT::mapped).toList());
    int originId = server.catalog().view().connection("pds", "pdb").orElseThrow().id();
    assertThat(out).allMatch(t -> t.origin() == originId);
    assertThat(counter("CmdsNoRepdef", "NRM")).isEqualTo(1);
    assertThat(counter("RolledBackTrans", "SQT")).isEqualTo(1);
    assertThat(counter("CmdsRecv", "REPAGENT")).isEqualTo(stream.size());
    assertThat(server.rssd().locators().find(originId)).isPresent();
  }

  @Test
  void aResendAfterReconnectingIsDroppedAsDuplicatesAndTheResumeBlobComesBack() throws Exception {
    start(Map.of());
    configure();
    Origin o = new Origin();
    List<LtlCommand> stream = new ArrayList<>();
    for (int t = 1; t <= 50; t++) {
      stream.add(o.begin(t));
      stream.add(o.insert(t, ORDERS, id(t), col("region", "EU"), col("note", "n")));
      stream.add(o.commit(t));
    }
    Oqid lastOqid = ((LtlCommand.InTransaction) stream.get(stream.size() - 1)).oqid();
    LtlClient first = connect();
    sendAll(first, o, stream.subList(0, 90), 10);
    Oqid covered = ((LtlCommand.InTransaction) stream.get(89)).oqid();
    first.storeResume(covered, "offsets-90".getBytes(StandardCharsets.UTF_8));
    awaitTruncation(first, covered);
    // A blob is stored once what it covers is durable; the locator writer runs every second.
    await()
        .atMost(WAIT)
        .until(
            () -> new String(server.locatorOf("pds", "pdb").resumeBlob(), StandardCharsets.UTF_8),
            "offsets-90"::equals);
    first.close();

    LtlClient second = connect();
    assertThat(second.welcome().truncationPoint()).contains(covered);
    assertThat(new String(second.welcome().resumeBlob(), StandardCharsets.UTF_8))
        .isEqualTo("offsets-90");
    // The agent resends from further back than needed: everything at or below the point drops.
    sendAll(second, o, stream, 10);
    awaitTruncation(second, lastOqid);
    await().atMost(WAIT).until(() -> outbound("rds", "rdb").size() == 50);
    List<Transaction> out = outbound("rds", "rdb");
    assertThat(out)
        .extracting(Transaction::tran)
        .containsExactlyElementsOf(
            java.util.stream.LongStream.rangeClosed(1, 50).mapToObj(TranId::ofLong).toList());
    assertThat(counter("Duplicates", "NRM")).isEqualTo(90);
  }

  /**
   * Invariant 2 for the resume position: the answer to the GetTruncation that follows a StoreResume
   * is sent only once the blob is in the RSSD, so the agent may commit the blob's offsets to its
   * source (the PostgreSQL slot) as soon as it has that answer.
   */
  @Test
  void theTruncationAnswerAfterAResumeBlobMeansTheBlobIsSaved() throws Exception {
    start(Map.of());
    configure();
    Origin o = new Origin();
    List<LtlCommand> stream = new ArrayList<>();
    for (int t = 1; t <= 5; t++) {
      stream.add(o.begin(t));
      stream.add(o.insert(t, ORDERS, id(t), col("region", "EU"), col("note", "n")));
      stream.add(o.commit(t));
    }
    Oqid last = ((LtlCommand.InTransaction) stream.get(stream.size() - 1)).oqid();
    try (LtlClient client = connect()) {
      sendAll(client, o, stream, 5);
      awaitTruncation(client, last);
      for (int i = 1; i <= 20; i++) {
        String blob = "offsets-" + i;
        client.storeResume(last, blob.getBytes(StandardCharsets.UTF_8));
        Optional<Oqid> answer = client.truncation().get(10, TimeUnit.SECONDS);
        assertThat(answer).contains(last);
        // No waiting: the answer came after the save.
        assertThat(new String(server.locatorOf("pds", "pdb").resumeBlob(), StandardCharsets.UTF_8))
            .as("the blob in the RSSD when the answer arrived")
            .isEqualTo(blob);
      }
      // A blob covering more than is durable is not vouched for: the answer stays below it.
      Oqid beyond = o.commit(99).oqid();
      client.storeResume(beyond, "too-early".getBytes(StandardCharsets.UTF_8));
      assertThat(client.truncation().get(10, TimeUnit.SECONDS)).contains(last);
      assertThat(new String(server.locatorOf("pds", "pdb").resumeBlob(), StandardCharsets.UTF_8))
          .isEqualTo("offsets-20");
    }
  }

  /**
   * {@code sqm_warning_thr1} from the configuration, then changed by {@code configure replication
   * server} (saved in the RSSD): the server warns when partition use rises above it and cancels the
   * warning when the threshold moves above the use, within seconds.
   */
  @Test
  void stableStorageWarningsFollowSqmWarningThr1() throws Exception {
    ch.qos.logback.classic.Logger managerLog =
        (ch.qos.logback.classic.Logger)
            org.slf4j.LoggerFactory.getLogger(io.openrs.queue.file.FileQueueManager.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> log =
        new ch.qos.logback.core.read.ListAppender<>();
    log.start();
    ch.qos.logback.classic.Level level = managerLog.getLevel();
    managerLog.setLevel(ch.qos.logback.classic.Level.INFO); // the CANCEL line is INFO
    managerLog.addAppender(log);
    try {
      // The inbound and the outbound queue hold a 4 MiB segment each: 8 of 512 MiB, above 1 %.
      start(Map.of("sqm_warning_thr1", "1"));
      configure();
      Origin o = new Origin();
      List<LtlCommand> stream =
          List.of(
              o.begin(1),
              o.insert(1, ORDERS, id(1), col("region", "EU"), col("note", "n")),
              o.commit(1));
      try (LtlClient client = connect()) {
        sendAll(client, o, stream, 3);
        awaitTruncation(client, ((LtlCommand.InTransaction) stream.get(2)).oqid());
      }
      await()
          .atMost(WAIT)
          .ignoreExceptions()
          .until(
              () -> logged(log, "WARNING: Stable Storage Use is Above 1 percent"),
              Boolean.TRUE::equals);
      server.rssd().config().setServerValue("sqm_warning_thr1", "50");
      await()
          .atMost(Duration.ofSeconds(20))
          .ignoreExceptions()
          .until(
              () -> logged(log, "CANCEL WARNING: Stable Storage Use is Below 50 percent"),
              Boolean.TRUE::equals);
    } finally {
      managerLog.detachAppender(log);
      managerLog.setLevel(level);
    }
  }

  private static boolean logged(
      ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> log,
      String text) {
    return List.copyOf(log.list).stream().anyMatch(e -> e.getFormattedMessage().contains(text));
  }

  @Test
  void aTinySqtCacheStillDeliversTransactionsLargerThanTheCache() throws Exception {
    start(Map.of("sqt_max_cache_size", String.valueOf(1024 * 1024)));
    String wide = "w".repeat(600);
    configure();
    Origin o = new Origin();
    List<LtlCommand> stream = new ArrayList<>();
    stream.add(o.begin(1));
    stream.add(o.begin(2));
    for (int i = 0; i < 3000; i++) {
      stream.add(o.insert(1, ORDERS, id(i), col("region", "EU"), col("note", wide + i)));
      if (i % 100 == 0) {
        stream.add(o.insert(2, ORDERS, id(100_000 + i), col("region", "US"), col("note", "s")));
      }
    }
    stream.add(o.commit(2));
    stream.add(o.commit(1));
    LtlClient client = connect();
    sendAll(client, o, stream, 200);
    await().atMost(WAIT).until(() -> outbound("rds", "rdb").size() == 2);
    List<Transaction> out = outbound("rds", "rdb");
    assertThat(out)
        .extracting(Transaction::tran)
        .containsExactly(TranId.ofLong(2), TranId.ofLong(1));
    assertThat(out.get(1).body()).hasSize(3000);
    assertThat(out.get(1).body())
        .containsExactlyElementsOf(
            stream.stream()
                .filter(c -> c instanceof LtlCommand.Insert i && i.tran().equals(TranId.ofLong(1)))
                .map(InboundPipelineIT::mapped)
                .toList());
    assertThat(out.get(0).body()).hasSize(30);
    assertThat(counter("TransRemoved", "SQT")).isGreaterThanOrEqualTo(1);
    assertThat(counter("CmdsReread", "SQT")).isGreaterThanOrEqualTo(3000);
    assertThat(counter("CmdsDistributed", "DIST")).isEqualTo(3030);
  }

  @Test
  void whereClauseSubscriptionsFollowRowsInAndOut() throws Exception {
    start(Map.of());
    configure();
    server.createConnection("eds", "edb", Profile.POSTGRESQL, false, Map.of());
    List<String> notices =
        server
            .catalog()
            .subscriptions()
            .create("eu_only", "orders_rd", false, "eds", "edb", Optional.of("region = 'EU'"));
    // eds.edb has no login settings, so the second notice says its DSI cannot start yet.
    assertThat(notices).first().asString().contains("REPLICA IDENTITY FULL");
    assertThat(notices).last().asString().contains("DSI of eds.edb cannot start yet");
    Origin o = new Origin();
    List<Column> euRow = List.of(id(1), col("region", "EU"), col("note", "n"));
    List<Column> usRow = List.of(id(1), col("region", "US"), col("note", "n"));
    List<LtlCommand> stream =
        List.of(
            o.begin(1),
            o.insert(1, ORDERS, id(1), col("region", "US"), col("note", "n")),
            o.commit(1),
            o.begin(2),
            o.update(2, ORDERS, usRow, euRow), // moves in: insert
            o.commit(2),
            o.begin(3),
            o.update(3, ORDERS, euRow, List.of(id(1), col("region", "EU"), col("note", "m"))),
            o.commit(3),
            o.begin(4),
            o.update(4, ORDERS, List.of(id(1), col("region", "EU"), col("note", "m")), usRow),
            o.commit(4)); // moves out: delete
    LtlClient client = connect();
    sendAll(client, o, stream, 5);
    await().atMost(WAIT).until(() -> outbound("eds", "edb").size() == 3);
    await().atMost(WAIT).until(() -> outbound("rds", "rdb").size() == 4);
    List<Transaction> eu = outbound("eds", "edb");
    assertThat(eu)
        .extracting(Transaction::tran)
        .containsExactly(TranId.ofLong(2), TranId.ofLong(3), TranId.ofLong(4));
    assertThat(eu.get(0).body()).singleElement().isInstanceOf(LtlCommand.Insert.class);
    assertThat(eu.get(1).body()).singleElement().isInstanceOf(LtlCommand.Update.class);
    assertThat(eu.get(2).body()).singleElement().isInstanceOf(LtlCommand.Delete.class);
  }

  @Test
  void aDatabaseReplicationDefinitionCarriesEveryTableWithItsPatterns() throws Exception {
    start(Map.of());
    ConnectionDef primary = server.createConnection("pds", "pdb", Profile.MARIADB, true, Map.of());
    server.createConnection("rds", "rdb", Profile.POSTGRESQL, false, Map.of());
    server
        .catalog()
        .createDatabaseRepDef(
            new DatabaseRepDef("pdb_all", primary.id(), List.of("shop.%"), List.of("shop.audit")));
    server
        .catalog()
        .subscriptions()
        .create("pdb_sub", "pdb_all", true, "rds", "rdb", Optional.empty());
    Origin o = new Origin();
    List<LtlCommand> stream =
        List.of(
            o.begin(1),
            o.insert(1, ORDERS, id(1), col("anything", "goes")),
            o.insert(1, AUDIT, id(2)),
            o.insert(1, new TableName("other", "t"), id(3)),
            o.commit(1));
    sendAll(connect(), o, stream, 10);
    await().atMost(WAIT).until(() -> outbound("rds", "rdb").size() == 1);
    assertThat(outbound("rds", "rdb").get(0).body())
        .containsExactly((LtlCommand.InTransaction) stream.get(1));
    assertThat(counter("CmdsNoRepdef", "NRM")).isEqualTo(2);
  }

  @Test
  void malformedLtlIsRejectedWithLineAndColumnAndTheCommandsBeforeItAreKept() throws Exception {
    start(Map.of());
    configure();
    Origin o = new Origin();
    LtlCommand.Begin b = o.begin(1);
    LtlCommand.Insert i = o.insert(1, ORDERS, id(1), col("region", "EU"), col("note", "n"));
    String text =
        new String(o.text(List.of(b, i)), StandardCharsets.UTF_8)
            + "insert tran 0x01 oqid 0x99 shop.orders after (id=i32 nope)\n";
    LtlClient client = connect();
    BatchAnswer answer =
        client.sendBatch(text.getBytes(StandardCharsets.UTF_8)).get(10, TimeUnit.SECONDS);
    assertThat(answer).isInstanceOf(BatchAnswer.Rejected.class);
    BatchAnswer.Rejected r = (BatchAnswer.Rejected) answer;
    assertThat(r.commandsTaken()).isEqualTo(2);
    assertThat(r.line()).isEqualTo(3);
    assertThat(r.column()).isEqualTo(54);
    assertThat(r.lastTakenOqid()).contains(i.oqid());
    // Batches pipelined behind a rejected one are not taken either.
    BatchAnswer after = client.sendBatch(o.text(List.of(o.commit(1)))).get(10, TimeUnit.SECONDS);
    assertThat(after.commandsTaken()).isZero();
    awaitTruncation(client, i.oqid());
  }

  @Test
  void unknownOriginsBadCredentialsAndUnsupportedVersionsGetPreciseErrors() throws Exception {
    start(Map.of());
    configure();
    assertThatThrownBy(() -> connect("sa", "not-the-password-42", "pds", "pdb"))
        .isInstanceOfSatisfying(
            LtlRejectedException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.AUTHENTICATION_FAILED);
              assertThat(e.serverMessage()).doesNotContain("not-the-password-42");
            });
    assertThatThrownBy(() -> connect("sa", TestServers.ADMIN_PASSWORD, "nods", "nodb"))
        .isInstanceOfSatisfying(
            LtlRejectedException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_ORIGIN);
              assertThat(e.serverMessage()).contains("nods.nodb");
            });
    assertThatThrownBy(() -> connect("sa", TestServers.ADMIN_PASSWORD, "rds", "rdb"))
        .isInstanceOfSatisfying(
            LtlRejectedException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_ORIGIN));
    Frame answer =
        rawExchange(
            Frame.Hello.of(
                new LtlCommand.Connect(
                    "pds", "pdb", 7, 9, "sa", TestServers.ADMIN_PASSWORD, Optional.empty())));
    assertThat(answer)
        .isInstanceOfSatisfying(
            Frame.Error.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_VERSION);
              assertThat(e.message()).contains("7-9");
            });
    LtlClient one = connect();
    assertThatThrownBy(this::connect)
        .isInstanceOfSatisfying(
            LtlRejectedException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ORIGIN_BUSY));
    assertThat(one.isOpen()).isTrue();
  }

  @Test
  void aChangeContradictingItsDefinitionStopsLogTransferAndNothingAcknowledgedIsLost()
      throws Exception {
    start(Map.of());
    configure();
    Origin o = new Origin();
    LtlCommand.Begin b1 = o.begin(1);
    LtlCommand.Insert good = o.insert(1, ORDERS, id(1), col("region", "EU"), col("note", "n"));
    LtlCommand.Commit c1 = o.commit(1);
    LtlCommand.Begin b2 = o.begin(2);
    LtlCommand.Insert bad =
        o.insert(2, ORDERS, id(2), new Column("region", new Value.Int32(5)), col("note", "n"));
    LtlCommand.Commit c2 = o.commit(2);
    LtlClient client = connect();
    sendAll(client, o, List.of(b1, good, c1), 10);
    awaitTruncation(client, c1.oqid());
    client.sendBatch(o.text(List.of(b2, bad, c2)));
    await().atMost(WAIT).until(() -> !client.isOpen());
    assertThat(client.closeFuture())
        .failsWithin(Duration.ofSeconds(10))
        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .havingCause()
        .isInstanceOfSatisfying(
            LtlRejectedException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.LOG_TRANSFER_STOPPED);
              assertThat(e.serverMessage())
                  .contains("OQID " + bad.oqid())
                  .contains("shop.orders")
                  .contains("column region");
            });
    // The agent cannot come back until the DBA resumes; the truncation point covers b2 at most.
    assertThatThrownBy(this::connect)
        .isInstanceOfSatisfying(
            LtlRejectedException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.LOG_TRANSFER_STOPPED));
    OriginPipelineView view = new OriginPipelineView(server, "pds", "pdb");
    assertThat(view.durable()).contains(b2.oqid());
    // After the definition is fixed (here: the agent sends the right type) log transfer resumes.
    server.resumeLogTransfer("pds", "pdb");
    LtlClient again = connect();
    assertThat(again.welcome().truncationPoint()).contains(b2.oqid());
    LtlCommand.Insert fixed =
        new LtlCommand.Insert(
            bad.tran(),
            bad.oqid(),
            ORDERS,
            false,
            List.of(id(2), col("region", "EU"), col("note", "n")));
    sendAll(again, o, List.of(fixed, c2), 10);
    await().atMost(WAIT).until(() -> outbound("rds", "rdb").size() == 2);
    assertThat(outbound("rds", "rdb").get(1).body()).containsExactly(mapped(fixed));
  }

  /**
   * An agent knocks again and again while log transfer is suspended (at its {@code
   * retry_max_backoff_ms}); the server warns of the first refusal of each stop only, and the later
   * ones of the same stop are logged at DEBUG.
   */
  @Test
  void refusalsWhileLogTransferIsSuspendedAreWarnedOncePerSuspension() throws Exception {
    ch.qos.logback.classic.Logger sessionLog =
        (ch.qos.logback.classic.Logger)
            org.slf4j.LoggerFactory.getLogger("io.openrs.repserver.exec.AgentSession");
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> log =
        new ch.qos.logback.core.read.ListAppender<>();
    log.start();
    ch.qos.logback.classic.Level level = sessionLog.getLevel();
    sessionLog.setLevel(ch.qos.logback.classic.Level.DEBUG);
    sessionLog.addAppender(log);
    try {
      start(Map.of());
      configure();
      server.suspendLogTransfer("pds", "pdb");
      for (int i = 0; i < 4; i++) {
        assertThatThrownBy(this::connect)
            .isInstanceOfSatisfying(
                LtlRejectedException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.LOG_TRANSFER_STOPPED));
      }
      assertThat(refused(log, ch.qos.logback.classic.Level.WARN))
          .singleElement()
          .satisfies(m -> assertThat(m).contains("log transfer suspended by an administrator"));
      assertThat(refused(log, ch.qos.logback.classic.Level.DEBUG)).hasSize(3);
      server.resumeLogTransfer("pds", "pdb");
      connect().close();
      server.suspendLogTransfer("pds", "pdb"); // a new stop: its first refusal is warned again
      assertThatThrownBy(this::connect).isInstanceOf(LtlRejectedException.class);
      assertThat(refused(log, ch.qos.logback.classic.Level.WARN)).hasSize(2);
    } finally {
      sessionLog.detachAppender(log);
      sessionLog.setLevel(level);
    }
  }

  private static List<String> refused(
      ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> log,
      ch.qos.logback.classic.Level level) {
    return List.copyOf(log.list).stream()
        .filter(e -> e.getLevel().equals(level))
        .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
        .filter(m -> m.contains("refused") && m.contains("is stopped"))
        .toList();
  }

  @Test
  void valuesSavedInTheRssdOverrideTheFileExceptStartUpOnlyOnes() throws Exception {
    start(Map.of("sqt_max_cache_size", "4194304"));
    server.rssd().config().setServerValue("sqt_max_cache_size", "2097152");
    server.rssd().config().setServerValue("ltl_port", "1");
    server.close();
    start(Map.of("sqt_max_cache_size", "4194304"));
    assertThat(server.parameters().getLong("sqt_max_cache_size")).isEqualTo(2097152);
    assertThat(server.ltlPort()).isNotEqualTo(1);
  }

  @Test
  void agentsAboveExecMaxConnectionsAreToldToRetry() throws Exception {
    start(Map.of("exec_max_connections", "1"));
    configure();
    server.createConnection("pds", "other", Profile.POSTGRESQL, true, Map.of());
    LtlClient first = connect();
    assertThatThrownBy(() -> connect("sa", TestServers.ADMIN_PASSWORD, "pds", "other"))
        .isInstanceOfSatisfying(
            LtlRejectedException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.TOO_MANY_CONNECTIONS);
              assertThat(e.retryable()).isTrue();
              assertThat(e.serverMessage()).contains("exec_max_connections 1");
            });
    first.close();
    await()
        .atMost(WAIT)
        .ignoreExceptionsInstanceOf(LtlRejectedException.class)
        .until(() -> connect("sa", TestServers.ADMIN_PASSWORD, "pds", "other").isOpen());
  }

  @Test
  void batchesKeepTheirOrderWhenEveryBatchMustWaitForNrm() throws Exception {
    // The smallest NRM queue: nearly every batch waits for NRM to take the one before it.
    start(Map.of("exec_nrm_request_limit", "16384"));
    configure();
    Origin o = new Origin();
    List<LtlCommand> stream = new ArrayList<>();
    for (int t = 1; t <= 300; t++) {
      stream.add(o.begin(t));
      for (int r = 0; r < 5; r++) {
        stream.add(
            o.insert(t, ORDERS, id(t * 10 + r), col("region", "EU"), col("note", "x".repeat(200))));
      }
      stream.add(o.commit(t));
    }
    LtlClient client = connect();
    assertThat(sendAll(client, o, stream, 60)).allMatch(a -> a instanceof BatchAnswer.Accepted);
    await().atMost(WAIT).until(() -> outbound("rds", "rdb").size() == 300);
    List<Transaction> out = outbound("rds", "rdb");
    for (int t = 1; t <= 300; t++) {
      assertThat(out.get(t - 1).tran()).isEqualTo(TranId.ofLong(t));
      assertThat(out.get(t - 1).body()).hasSize(5);
    }
    assertThat(counter("Duplicates", "NRM")).isZero();
    assertThat(registry.find("ExecNrmWaitTime").functionTimer().count())
        .as("batches that waited for NRM")
        .isPositive();
  }

  /**
   * Sends one frame on a plain socket and reads the answer: for what the real client refuses to
   * send (a version range it does not speak).
   */
  private Frame rawExchange(Frame frame) throws Exception {
    EmbeddedChannel encoder = new EmbeddedChannel(new FrameCodec.Encoder(1 << 20));
    encoder.writeOutbound(frame);
    ByteBuf out = encoder.readOutbound();
    byte[] bytes = new byte[out.readableBytes()];
    out.readBytes(bytes);
    out.release();
    try (Socket s = new Socket("127.0.0.1", server.ltlPort())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(bytes);
      s.getOutputStream().flush();
      EmbeddedChannel decoder = new EmbeddedChannel(new FrameCodec.Decoder(1 << 20));
      byte[] in = s.getInputStream().readAllBytes();
      decoder.writeInbound(Unpooled.wrappedBuffer(in));
      return decoder.readInbound();
    }
  }

  /** Reads an origin's state for assertions. */
  private record OriginPipelineView(ReplicationServer server, String ds, String db) {
    Optional<Oqid> durable() {
      return server.origin(ds, db).orElseThrow().state().durableOqid();
    }
  }
}
