package io.openrs.repserver.support;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.wire.LtlClient;
import io.openrs.wire.WireProtocol;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** What a test playing a replication agent against a real server needs to resume as one does. */
public final class AgentReplay {

  private AgentReplay() {}

  /** Connects to the LTL port as origin {@code pds.pdb}, user {@code sa}. */
  public static LtlClient connect(int port, String agentName) throws Exception {
    return LtlClient.connect(
        "127.0.0.1",
        port,
        new LtlCommand.Connect(
            "pds",
            "pdb",
            WireProtocol.MIN_VERSION,
            WireProtocol.MAX_VERSION,
            "sa",
            TestServers.ADMIN_PASSWORD,
            Optional.of(agentName)),
        Duration.ofSeconds(30));
  }

  /**
   * Where an agent resumes: the first command of the transaction that holds the first command after
   * the truncation point (an agent replays whole transactions from its log; the server drops the
   * prefix it already has).
   */
  public static int resumeIndex(List<LtlCommand> stream, Optional<Oqid> point) {
    if (point.isEmpty()) {
      return 0;
    }
    int lastBegin = 0;
    for (int i = 0; i < stream.size(); i++) {
      LtlCommand.InTransaction c = (LtlCommand.InTransaction) stream.get(i);
      if (c instanceof LtlCommand.Begin) {
        lastBegin = i;
      }
      if (c.oqid().compareTo(point.get()) > 0) {
        return lastBegin;
      }
    }
    return stream.size();
  }

  /** Sends {@code commands} in batches of 25, pipelined (an agent's batches). */
  public static void send(LtlClient client, Origin o, List<LtlCommand> commands)
      throws InterruptedException {
    for (List<LtlCommand> batch : Origin.chunks(commands, 25)) {
      client.sendBatch(o.text(batch));
    }
  }

  /** The later of two OQIDs, either of which may be absent. */
  public static Optional<Oqid> max(Optional<Oqid> a, Optional<Oqid> b) {
    if (a.isEmpty()) {
      return b;
    }
    if (b.isEmpty()) {
      return a;
    }
    return a.get().compareTo(b.get()) >= 0 ? a : b;
  }

  /** The two connections {@link #ordersSubscribed} creates. */
  public record Connections(
      io.openrs.config.rssd.ConnectionDef primary, io.openrs.config.rssd.ConnectionDef replicate) {}

  /**
   * Sets up what the crash tests replay against: origin {@code pds.pdb}, replicate {@code rds.rdb}
   * and table {@code shop.orders (id int, note text)} subscribed by it.
   */
  public static Connections ordersSubscribed(io.openrs.repserver.ReplicationServer s)
      throws Exception {
    io.openrs.config.rssd.ConnectionDef primary =
        s.createConnection(
            "pds", "pdb", io.openrs.config.rssd.Profile.POSTGRESQL, true, java.util.Map.of());
    io.openrs.config.rssd.ConnectionDef replicate =
        s.createConnection(
            "rds", "rdb", io.openrs.config.rssd.Profile.POSTGRESQL, false, java.util.Map.of());
    s.catalog()
        .createRepDef(
            new io.openrs.config.rssd.RepDef(
                "orders_rd",
                primary.id(),
                "shop",
                "orders",
                "shop",
                "orders",
                List.of(
                    new io.openrs.config.rssd.RepDefColumn("id", "int"),
                    new io.openrs.config.rssd.RepDefColumn("note", "text")),
                List.of("id"),
                List.of()));
    s.catalog()
        .subscriptions()
        .create("orders_sub", "orders_rd", false, "rds", "rdb", Optional.empty());
    return new Connections(primary, replicate);
  }

  /**
   * Waits until the outbound queue of {@code rds.rdb} holds as many transactions as {@code stream}
   * commits, then asserts it holds each committed transaction exactly once, in commit order, with
   * its inserts.
   */
  public static void assertOutboundHoldsEachCommitOnce(
      io.openrs.repserver.ReplicationServer s, List<LtlCommand> stream) throws Exception {
    List<io.openrs.ltl.TranId> committed = new java.util.ArrayList<>();
    for (LtlCommand c : stream) {
      if (c instanceof LtlCommand.Commit commit) {
        committed.add(commit.tran());
      }
    }
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                OutboundContents.read(s.outboundQueue("rds", "rdb").orElseThrow()).size()
                    >= committed.size());
    List<OutboundContents.Transaction> out =
        OutboundContents.read(s.outboundQueue("rds", "rdb").orElseThrow());
    org.assertj.core.api.Assertions.assertThat(out)
        .extracting(OutboundContents.Transaction::tran)
        .containsExactlyElementsOf(committed);
    for (OutboundContents.Transaction t : out) {
      List<LtlCommand.InTransaction> expected =
          stream.stream()
              .filter(c -> c instanceof LtlCommand.Insert i && i.tran().equals(t.tran()))
              .map(LtlCommand.InTransaction.class::cast)
              .toList();
      org.assertj.core.api.Assertions.assertThat(t.body())
          .as("body of %s", t.tran())
          .containsExactlyElementsOf(expected);
    }
  }

  /**
   * {@code count} transactions into {@code shop.orders}, 1 to 20 inserts each, about one in 25
   * rolled back, drawn from {@code random} (the crash and takeover tests' agent stream).
   */
  public static List<LtlCommand> orderTransactions(Origin o, java.util.Random random, int count) {
    io.openrs.ltl.TableName orders = new io.openrs.ltl.TableName("shop", "orders");
    List<LtlCommand> stream = new java.util.ArrayList<>();
    for (int t = 1; t <= count; t++) {
      stream.add(o.begin(t));
      int rows = 1 + random.nextInt(20);
      for (int r = 0; r < rows; r++) {
        stream.add(
            o.insert(
                t, orders, Origin.col("id", t * 100 + r), Origin.col("note", "t" + t + "r" + r)));
      }
      stream.add(random.nextInt(25) == 0 ? o.rollback(t) : o.commit(t));
    }
    return stream;
  }
}
