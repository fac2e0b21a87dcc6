package io.openrs.dsi.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.testkit.OutboundQueueFixture;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.LtlCommand.InTransaction;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Large transactions streamed by the assembler: handed on when they grow past the threshold, fed as
 * read, completed or dropped; the live buffer stays within the hand-off's byte budget; and a
 * detached stream is read again from the real outbound queue, command for command.
 */
class TransactionStreamTest {
  private static final TableName T = new TableName("s", "t");
  private static final Instant TIME = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path dir;

  private OutboundQueueFixture q;
  private QueueReader reader;
  private final DsiMeters meters = new DsiMeters(new SimpleMeterRegistry(), "rds.test");
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final List<SourceTransaction> out = new ArrayList<>();
  private final List<String> dropped = new ArrayList<>();
  private TransactionHandoff budget;
  private TransactionAssembler assembler;

  @BeforeEach
  void open() throws Exception {
    q = new OutboundQueueFixture(dir, 201);
    reader = q.queue().openReader("T");
  }

  @AfterEach
  void close() {
    reader.close();
    q.close();
  }

  /** An assembler streaming runs above {@code above} commands within a budget of {@code bytes}. */
  private void assembler(long above, long bytes) {
    budget = new TransactionHandoff(bytes);
    assembler =
        new TransactionAssembler(
            "test",
            out::add,
            new TransactionAssembler.Events() {
              @Override
              public void runDropped(int origin, String why, int commands) {
                dropped.add(origin + ":" + commands);
              }

              @Override
              public void unknownCommand(QueuePosition position) {}
            },
            above,
            new TransactionAssembler.Streams() {
              @Override
              public TransactionStream open(
                  int origin,
                  LtlCommand.Begin begin,
                  QueuePosition first,
                  QueuePosition last,
                  List<InTransaction> body,
                  long bytes) {
                return new TransactionStream(
                    "test",
                    q.queue(),
                    budget,
                    meters,
                    stopping::get,
                    true,
                    origin,
                    begin,
                    first,
                    last,
                    body,
                    bytes);
              }

              @Override
              public void push(
                  TransactionStream s, InTransaction cmd, QueuePosition position, long bytes) {
                try {
                  assertThat(s.offer(cmd, position, bytes, 10_000)).isTrue();
                } catch (InterruptedException e) {
                  throw new AssertionError(e);
                }
              }
            });
  }

  private static LtlCommand.Begin begin(long tran, long oqid) {
    return new LtlCommand.Begin(TranId.ofLong(tran), Oqid.ofLong(oqid, 8), TIME, Optional.empty());
  }

  private static LtlCommand.Commit commit(long tran, long oqid) {
    return new LtlCommand.Commit(TranId.ofLong(tran), Oqid.ofLong(oqid, 8), TIME);
  }

  private static LtlCommand.Insert insert(long tran, long oqid) {
    return new LtlCommand.Insert(
        TranId.ofLong(tran),
        Oqid.ofLong(oqid, 8),
        T,
        false,
        List.of(new Column("id", new Value.Int64(oqid)), new Column("pad", new Value.Text("x"))));
  }

  /** begin, {@code n} inserts, and (if {@code commit}) the commit of tran {@code tran}. */
  private static List<LtlCommand> run(long tran, long oqid, int n, boolean commit) {
    List<LtlCommand> cmds = new ArrayList<>();
    cmds.add(begin(tran, oqid));
    for (int i = 1; i <= n; i++) {
      cmds.add(insert(tran, oqid + i));
    }
    if (commit) {
      cmds.add(commit(tran, oqid + n + 1));
    }
    return cmds;
  }

  /** Appends to the queue and feeds everything the reader sees to the assembler. */
  private void feed(int origin, List<LtlCommand> cmds) throws Exception {
    q.append(origin, cmds);
    for (int i = 0; i < cmds.size(); i++) {
      QueueMessage m = reader.poll(Duration.ofSeconds(5)).orElseThrow();
      assembler.accept(m);
    }
  }

  private static List<InTransaction> bodyOf(List<LtlCommand> run) {
    List<InTransaction> body = new ArrayList<>();
    for (LtlCommand c : run.subList(1, run.size())) {
      if (!(c instanceof LtlCommand.Commit)) {
        body.add((InTransaction) c);
      }
    }
    return body;
  }

  private static List<InTransaction> drain(Iterator<InTransaction> it) {
    List<InTransaction> all = new ArrayList<>();
    it.forEachRemaining(all::add);
    return all;
  }

  @Test
  void aRunPastTheThresholdIsHandedOnBeforeItsCommitAndFedAsRead() throws Exception {
    assembler(5, 1 << 20);
    List<LtlCommand> small = run(1, 100, 5, true);
    feed(101, small);
    assertThat(out).singleElement().satisfies(t -> assertThat(t.streamed()).isFalse());

    List<LtlCommand> large = run(2, 200, 40, true);
    feed(101, large.subList(0, 7)); // begin + 6 inserts: one past the threshold
    assertThat(out).hasSize(2);
    SourceTransaction t = out.get(1);
    assertThat(t.streamed()).isTrue();
    assertThat(t.complete()).isTrue();
    assertThat(t.commit()).isEmpty();
    assertThat(t.stream().finished()).isFalse();
    t.stream().claimLive();
    Iterator<InTransaction> live = t.commands().iterator();
    List<InTransaction> got = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      got.add(live.next());
    }
    feed(101, large.subList(7, large.size()));
    got.addAll(drain(live));
    assertThat(got).isEqualTo(bodyOf(large));
    assertThat(t.commitOqid()).isEqualTo(Oqid.ofLong(241, 8));
    assertThat(t.size()).isEqualTo(40);
    assertThat(t.last()).isEqualTo(t.stream().last());
    assertThat(budget.bytes()).isZero();
    assertThat(meters.value(DsiCounter.READ_TRANS)).isEqualTo(1); // the stream counts itself
  }

  @Test
  void aDroppedStreamThrowsToItsLiveReaderAndFreesItsBuffer() throws Exception {
    assembler(5, 1 << 20);
    List<LtlCommand> cut = run(3, 300, 20, false);
    feed(101, cut);
    SourceTransaction t = out.get(0);
    t.stream().claimLive();
    Iterator<InTransaction> live = t.commands().iterator();
    live.next();
    assertThat(budget.bytes()).isPositive();
    // DIST writes the transaction again, whole
    List<LtlCommand> again = run(3, 300, 20, true);
    feed(101, again);
    assertThat(dropped).containsExactly("101:20");
    assertThat(t.stream().outcome()).isEqualTo(TransactionStream.Outcome.DROPPED);
    assertThatThrownBy(live::hasNext)
        .isInstanceOf(TransactionStream.Dropped.class)
        .hasMessageContaining("a begin of origin 101 arrived before its commit");
    assertThat(out).hasSize(2);
    assertThat(out.get(1).streamed()).isTrue();
    out.get(1).stream().claimLive();
    assertThat(drain(out.get(1).commands().iterator())).isEqualTo(bodyOf(again));
    assertThat(budget.bytes()).isZero();
  }

  @Test
  void aRolledBackRunDropsItsStream() throws Exception {
    assembler(5, 1 << 20);
    List<LtlCommand> cmds = run(4, 400, 10, false);
    cmds.add(new LtlCommand.Rollback(TranId.ofLong(4), Oqid.ofLong(499, 8)));
    feed(101, cmds);
    assertThat(out.get(0).stream().outcome()).isEqualTo(TransactionStream.Outcome.DROPPED);
    assertThat(dropped).containsExactly("101:10");
    assertThatThrownBy(() -> out.get(0).commands().iterator().hasNext())
        .isInstanceOf(TransactionStream.Dropped.class);
  }

  @Test
  void theLiveBufferStaysWithinTheBudgetAndDsiSWaitsForRoom() throws Exception {
    assembler(5, 1000);
    List<LtlCommand> large = run(5, 500, 200, true);
    q.append(101, large);
    List<QueueMessage> msgs = new ArrayList<>();
    for (int i = 0; i < large.size(); i++) {
      msgs.add(reader.poll(Duration.ofSeconds(5)).orElseThrow());
    }
    int fed = 0;
    while (out.isEmpty()) {
      assembler.accept(msgs.get(fed++));
    }
    TransactionStream s = out.get(0).stream();
    long first = budget.bytes(); // the commands read before it was large, admitted whatever
    // offer directly, as DSI-S does, until the budget refuses
    int offered = 0;
    while (s.offer(
        (InTransaction) large.get(fed + offered),
        msgs.get(fed + offered).position(),
        msgs.get(fed + offered).payload().length,
        20)) {
      offered++;
      assertThat(offered).isLessThan(100);
    }
    assertThat(budget.bytes()).isLessThanOrEqualTo(Math.max(first, 1000));
    // the live reader takes one: room again
    s.claimLive();
    Iterator<InTransaction> live = out.get(0).commands().iterator();
    live.next();
    int at = fed + offered;
    assertThat(
            s.offer(
                (InTransaction) large.get(at),
                msgs.get(at).position(),
                msgs.get(at).payload().length,
                1000))
        .isTrue();
  }

  @Test
  void aStreamHoldingMoreThanTheBudgetIsStillHandedOn() throws Exception {
    TransactionHandoff handoff = new TransactionHandoff(100);
    List<InTransaction> body = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      body.add(insert(8, 800 + i));
    }
    TransactionStream s =
        new TransactionStream(
            "test",
            q.queue(),
            handoff,
            meters,
            stopping::get,
            true,
            101,
            begin(8, 800),
            new QueuePosition(0, 0, 0),
            new QueuePosition(0, 0, 20),
            body,
            1000);
    assertThat(handoff.bytes()).isEqualTo(1000);
    // its commands are only taken once it is in the hand-off: it never waits for room
    assertThat(handoff.offer(SourceTransaction.streamed(1, s), 10)).isTrue();
    assertThat(
            handoff.takeGroup(
                () ->
                    new GroupBound() {
                      @Override
                      public void first(SourceTransaction t) {}

                      @Override
                      public boolean joins(SourceTransaction next) {
                        return false;
                      }
                    },
                10))
        .singleElement()
        .isNotNull();
    s.detach();
    assertThat(handoff.bytes()).isZero();
  }

  @Test
  void aDetachedStreamIsReadAgainFromTheQueueCommandForCommand() throws Exception {
    assembler(5, 1 << 20);
    List<LtlCommand> large = run(6, 600, 300, true);
    feed(101, large.subList(0, 10));
    TransactionStream s = out.get(0).stream();
    s.detach();
    assertThat(budget.bytes()).isZero();
    feed(101, large.subList(10, large.size()));
    assertThat(budget.bytes()).isZero(); // detached: nothing kept
    // a run of another origin after it, which the replay must not reach
    feed(102, run(1, 10, 2, true));
    assertThat(drain(out.get(0).commands().iterator())).isEqualTo(bodyOf(large));
    assertThat(out.get(0).allCommands()).isEqualTo(large);
    assertThat(meters.value(DsiCounter.LARGE_REREAD)).isEqualTo(2);
  }

  @Test
  void readingAgainWaitsForTheCommitAndStopsWhenTheRunStops() throws Exception {
    assembler(5, 1 << 20);
    feed(101, run(7, 700, 8, false));
    TransactionStream s = out.get(0).stream();
    s.detach();
    stopping.set(true);
    assertThatThrownBy(() -> out.get(0).commands().iterator().hasNext())
        .isInstanceOf(TransactionStream.Interrupted.class);
  }
}
