package io.openrs.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every stable queue engine promises, whatever holds the messages: order and positions,
 * durability before acknowledgement and before readers see a message, independent named readers
 * whose confirmations survive a restart, space freed only behind the slowest reader (and never by a
 * queue without readers), the random-access read, the last message, purge, and a closed queue. An
 * engine's test extends this with {@link #startEngine()}; the file engine's own tests go further
 * into its layout (segments, blocks, partitions), the Kafka engine's into its topic.
 */
public abstract class StableQueueContract {

  protected static final QueueId Q = QueueId.inbound(101);

  /** The engine under test, started fresh for each test. */
  protected interface Engine extends AutoCloseable {

    /** Settings the engine's queues are created with (small and fast). */
    QueueSettings settings();

    /** Creates a queue. */
    StableQueue create(QueueId id, QueueSettings settings) throws Exception;

    /** Closes every queue and the engine, starts it again and opens {@code id}: a restart. */
    StableQueue restartAndOpen(QueueId id, QueueSettings settings) throws Exception;
  }

  protected abstract Engine startEngine() throws Exception;

  private Engine engine;

  @BeforeEach
  void startTheEngine() throws Exception {
    engine = startEngine();
  }

  @AfterEach
  void stopTheEngine() throws Exception {
    engine.close();
  }

  private StableQueue create() throws Exception {
    return engine.create(Q, engine.settings());
  }

  private StableQueue restart() throws Exception {
    return engine.restartAndOpen(Q, engine.settings());
  }

  // ---- order, positions, durability ----------------------------------------------------------

  @Test
  void messagesComeBackInOrderAtTheirAcknowledgedPositions() throws Exception {
    StableQueue q = create();
    Random random = new Random(1);
    List<QueuePosition> positions = new ArrayList<>();
    List<CompletableFuture<QueuePosition>> singles = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      singles.add(q.append(message(i, sizeFrom(random))));
    }
    for (CompletableFuture<QueuePosition> f : singles) {
      positions.add(f.get(30, TimeUnit.SECONDS));
    }
    for (int batch = 0; batch < 10; batch++) {
      List<byte[]> messages = new ArrayList<>();
      for (int i = 0; i < 15; i++) {
        messages.add(message(150 + batch * 15L + i, sizeFrom(random)));
      }
      QueuePosition last = q.appendAll(messages).get(30, TimeUnit.SECONDS);
      positions.add(last);
    }
    try (QueueReader r = q.openReader("SQT")) {
      List<QueueMessage> got = drain(r);
      assertThat(got).hasSize(300);
      for (int i = 0; i < got.size(); i++) {
        assertThat(idOf(got.get(i).payload())).as("message %d", i).isEqualTo(i);
        if (i > 0) {
          assertThat(got.get(i).position()).isGreaterThan(got.get(i - 1).position());
        }
        if (i < 150) {
          assertThat(got.get(i).position()).isEqualTo(positions.get(i));
        } else if ((i - 150) % 15 == 14) {
          assertThat(got.get(i).position())
              .as("appendAll completes with its last message's position")
              .isEqualTo(positions.get(150 + (i - 150) / 15));
        }
      }
    }
  }

  @Test
  void anAcknowledgedMessageIsThereForAReaderAndNothingElseIs() throws Exception {
    StableQueue q = create();
    try (QueueReader r = q.openReader("SQT")) {
      assertThat(r.poll()).isEmpty();
      for (int i = 0; i < 20; i++) {
        QueuePosition p = q.append(message(i, 100 + i)).get(30, TimeUnit.SECONDS);
        QueueMessage m = r.poll().orElseThrow(() -> new AssertionError("acknowledged, not read"));
        assertThat(m.position()).isEqualTo(p);
        assertThat(idOf(m.payload())).isEqualTo(i);
        assertThat(r.poll()).isEmpty();
      }
    }
  }

  @Test
  void aWaitingReaderIsWokenByTheWriter() throws Exception {
    StableQueue q = create();
    QueueReader r = q.openReader("SQT");
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Future<Optional<QueueMessage>> got = thread.submit(() -> r.poll(Duration.ofSeconds(30)));
      q.append(message(42, 100)).get(30, TimeUnit.SECONDS);
      Optional<QueueMessage> m = got.get(30, TimeUnit.SECONDS);
      assertThat(m).isPresent();
      assertThat(idOf(m.get().payload())).isEqualTo(42);
    } finally {
      thread.shutdownNow();
    }
  }

  @Test
  void manyProducersKeepEachProducersOrder() throws Exception {
    StableQueue q = create();
    int producers = 4;
    int perProducer = 500;
    ExecutorService threads = Executors.newFixedThreadPool(producers);
    try {
      List<Future<QueuePosition>> lasts = new ArrayList<>();
      for (int p = 0; p < producers; p++) {
        long base = p * 1_000_000L;
        lasts.add(
            threads.submit(
                () -> {
                  CompletableFuture<QueuePosition> last = null;
                  for (int i = 0; i < perProducer; i++) {
                    last = q.append(message(base + i, 50 + i % 300));
                  }
                  return last.get(30, TimeUnit.SECONDS);
                }));
      }
      for (Future<QueuePosition> f : lasts) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      threads.shutdownNow();
    }
    long[] next = new long[producers];
    try (QueueReader r = q.openReader("SQT")) {
      List<QueueMessage> got = drain(r);
      assertThat(got).hasSize(producers * perProducer);
      for (QueueMessage m : got) {
        long id = idOf(m.payload());
        int p = (int) (id / 1_000_000L);
        assertThat(id % 1_000_000L).isEqualTo(next[p]++);
      }
    }
  }

  @Test
  void tooLargeMessageIsRefusedWithTheLimit() throws Exception {
    StableQueue q = engine.create(Q, engine.settings().withMaxMessageBytes(4096));
    assertThatThrownBy(() -> q.append(new byte[5000]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sqm_max_message_size=4096");
    assertThat(q.append(message(1, 4096)).get(30, TimeUnit.SECONDS)).isNotNull();
  }

  // ---- readers and restart -------------------------------------------------------------------

  @Test
  void readersAreIndependentAndResumeAfterTheirConfirmationAfterARestart() throws Exception {
    StableQueue q = create();
    List<QueuePosition> first = appendEach(q, 0, 100, 2000);
    try (QueueReader a = q.openReader("A");
        QueueReader b = q.openReader("B")) {
      List<QueueMessage> fromA = read(a, 60);
      a.confirm(fromA.get(49).position());
      List<QueueMessage> fromB = drain(b);
      assertThat(fromB).hasSize(100);
      b.confirm(fromB.get(9).position());
      assertThat(a.confirmed()).contains(first.get(49));
      assertThat(b.confirmed()).contains(first.get(9));
    }
    q = restart();
    List<QueuePosition> second = appendEach(q, 100, 10, 2000);
    assertThat(second.get(0)).isGreaterThan(first.get(99));
    assertThat(q.lastMessage().map(QueueMessage::position)).contains(second.get(9));
    try (QueueReader a = q.openReader("A");
        QueueReader b = q.openReader("B")) {
      assertThat(a.confirmed()).contains(first.get(49));
      assertThat(b.confirmed()).contains(first.get(9));
      assertThat(drain(a))
          .extracting(m -> idOf(m.payload()))
          .containsExactlyElementsOf(ids(50, 110));
      assertThat(drain(b))
          .extracting(m -> idOf(m.payload()))
          .containsExactlyElementsOf(ids(10, 110));
    }
    assertThat(q.info().readers()).extracting(ReaderInfo::name).containsExactly("A", "B");
  }

  @Test
  void aConfirmationAtOrBeforeTheCurrentOneIsIgnored() throws Exception {
    StableQueue q = create();
    List<QueuePosition> p = appendEach(q, 0, 30, 100);
    try (QueueReader r = q.openReader("SQT")) {
      drain(r);
      r.confirm(p.get(20));
      r.confirm(p.get(10));
      r.confirm(p.get(20));
      assertThat(r.confirmed()).contains(p.get(20));
    }
  }

  @Test
  void aNewReaderStartsAtTheOldestMessageHeldAndConfirmsNothing() throws Exception {
    StableQueue q = create();
    appendEach(q, 0, 10, 100);
    try (QueueReader r = q.openReader("LATE")) {
      assertThat(r.confirmed()).isEmpty();
      assertThat(read(r, 1)).extracting(m -> idOf(m.payload())).containsExactly(0L);
    }
  }

  // ---- truncation ----------------------------------------------------------------------------

  @Test
  void aQueueWithoutReadersKeepsEverything() throws Exception {
    StableQueue q = create();
    appendEach(q, 0, 300, 10_000);
    assertThat(q.dumpFromStart(1000)).hasSize(300);
  }

  @Test
  void spaceIsFreedBehindTheSlowestReaderAndNeverAhead() throws Exception {
    StableQueue q = create();
    QueueReader a = q.openReader("A");
    QueueReader b = q.openReader("B");
    List<QueuePosition> p = appendEach(q, 0, 300, 10_000); // 3 MB
    a.confirm(drain(a).get(299).position());
    appendEach(q, 300, 1, 10); // a write step: engines may free space as they write
    assertThat(oldestHeldId(q)).as("B confirmed nothing: everything stays").isZero();

    assertThat(read(b, 251)).hasSize(251);
    b.confirm(p.get(250));
    appendEach(q, 301, 1, 10);
    awaitTrue("space behind B's confirmation freed", () -> oldestHeldId(q) > 0);
    assertThat(oldestHeldId(q)).as("never past B's confirmation").isLessThanOrEqualTo(250);
    assertThat(drain(b))
        .extracting(m -> idOf(m.payload()))
        .containsExactlyElementsOf(ids(251, 302));
    a.close();
    b.close();
  }

  @Test
  void droppingAReaderReleasesWhatItHeld() throws Exception {
    StableQueue q = create();
    QueueReader a = q.openReader("A");
    q.openReader("B").close();
    appendEach(q, 0, 300, 10_000);
    a.confirm(drain(a).get(299).position());
    appendEach(q, 300, 1, 10);
    assertThat(oldestHeldId(q)).isZero();
    q.dropReader("B");
    appendEach(q, 301, 1, 10);
    awaitTrue("space freed once B is dropped", () -> oldestHeldId(q) > 0);
    assertThat(q.info().readers()).extracting(ReaderInfo::name).containsExactly("A");
    try (QueueReader again = q.openReader("B")) {
      assertThat(again.confirmed()).isEmpty();
      assertThat(idOf(again.poll().orElseThrow().payload())).isEqualTo(oldestHeldId(q));
    }
    a.close();
  }

  // ---- random access, last message, purge, close ---------------------------------------------

  @Test
  void dumpReadsARangeWithoutMovingAReader() throws Exception {
    StableQueue q = create();
    List<QueuePosition> p = appendEach(q, 0, 100, 3000);
    try (QueueReader r = q.openReader("SQT")) {
      assertThat(q.dump(p.get(40), 5))
          .extracting(QueueMessage::position)
          .containsExactlyElementsOf(p.subList(40, 45));
      assertThat(q.dump(p.get(40), 5))
          .extracting(m -> idOf(m.payload()))
          .containsExactly(40L, 41L, 42L, 43L, 44L);
      assertThat(q.dumpFromStart(3)).extracting(m -> idOf(m.payload())).containsExactly(0L, 1L, 2L);
      assertThat(q.dump(p.get(98), 10))
          .extracting(QueueMessage::position)
          .containsExactly(p.get(98), p.get(99));
      assertThat(idOf(r.poll().orElseThrow().payload())).isZero();
    }
  }

  @Test
  void theLastMessageIsTheLastAcknowledgedAndSurvivesARestartAndConfirmation() throws Exception {
    StableQueue q = create();
    assertThat(q.lastMessage()).isEmpty();
    List<QueuePosition> p = appendEach(q, 0, 50, 500);
    assertThat(q.lastMessage().map(m -> idOf(m.payload()))).contains(49L);
    q = restart();
    QueueMessage last = q.lastMessage().orElseThrow();
    assertThat(last.position()).isEqualTo(p.get(49));
    assertThat(idOf(last.payload())).isEqualTo(49);
    try (QueueReader r = q.openReader("SQT")) {
      r.confirm(drain(r).get(49).position());
    }
    assertThat(q.lastMessage().map(QueueMessage::position)).contains(p.get(49));
    q = restart();
    assertThat(q.lastMessage().map(QueueMessage::position))
        .as("every reader confirmed it: still the last message")
        .contains(p.get(49));
  }

  @Test
  void purgeDropsEverythingWrittenBeforeIt() throws Exception {
    StableQueue q = create();
    QueueReader r = q.openReader("SQT");
    List<QueuePosition> before = appendEach(q, 0, 400, 8000);
    assertThat(read(r, 10)).hasSize(10);
    r.confirm(before.get(5));
    q.purge().get(30, TimeUnit.SECONDS);
    assertThat(q.lastMessage()).isEmpty();
    assertThat(q.dumpFromStart(10)).isEmpty();
    List<QueuePosition> after = appendEach(q, 1000, 5, 100);
    assertThat(after.get(0)).isGreaterThan(before.get(399));
    List<QueueMessage> got = drain(r);
    assertThat(got)
        .extracting(m -> idOf(m.payload()))
        .containsExactly(1000L, 1001L, 1002L, 1003L, 1004L);
    assertThat(got.get(0).position()).isEqualTo(after.get(0));
    r.close();
  }

  @Test
  void aClosedQueueRefusesWritesAndReads() throws Exception {
    StableQueue q = create();
    QueueReader r = q.openReader("SQT");
    CompletableFuture<QueuePosition> last = q.append(message(1, 100));
    q.close();
    assertThat(last).isCompleted();
    assertThat(q.state()).isEqualTo(QueueState.CLOSED);
    assertThatThrownBy(() -> q.append(message(2, 100)))
        .isInstanceOf(QueueClosedException.class)
        .hasMessageContaining("101:1");
    assertThatThrownBy(r::poll).isInstanceOf(QueueClosedException.class);
  }

  // ---- a seeded random run against a model ---------------------------------------------------

  /**
   * Random batches of appends, reads, confirmations and restarts, checked against a model: every
   * message in write order, and per reader its next message and its last confirmation. After each
   * restart a reader resumes right after its confirmation, and the oldest message held never lies
   * past the slowest reader's confirmation. The seed is fixed and printed in every assertion.
   */
  @Test
  void aSeededRandomRunBehavesLikeTheModel() throws Exception {
    long seed = 20261127L;
    Random random = new Random(seed);
    String as = "seed=" + seed;
    StableQueue q = create();
    List<String> names = List.of("SQT", "DIST");
    List<Long> model = new ArrayList<>();
    java.util.Map<String, Integer> confirmed = new java.util.HashMap<>();
    java.util.Map<String, Integer> next = new java.util.HashMap<>();
    java.util.Map<String, QueueReader> readers = new java.util.HashMap<>();
    for (String n : names) {
      confirmed.put(n, -1);
      next.put(n, 0);
      readers.put(n, q.openReader(n));
    }
    for (int step = 0; step < 150; step++) {
      int op = random.nextInt(100);
      if (op < 45) {
        List<byte[]> batch = new ArrayList<>();
        for (int i = 1 + random.nextInt(20); i > 0; i--) {
          batch.add(message(model.size(), sizeFrom(random)));
          model.add((long) model.size());
        }
        q.appendAll(batch).get(30, TimeUnit.SECONDS);
      } else if (op < 97) {
        String n = names.get(random.nextInt(names.size()));
        QueueReader r = readers.get(n);
        for (int i = random.nextInt(30); i > 0; i--) {
          Optional<QueueMessage> m = r.poll();
          int expected = next.get(n);
          if (expected == model.size()) {
            assertThat(m).as("%s: reader %s at the end", as, n).isEmpty();
            break;
          }
          assertThat(m).as("%s: reader %s message %d", as, n, expected).isPresent();
          assertThat(idOf(m.get().payload())).as(as).isEqualTo(model.get(expected));
          next.put(n, expected + 1);
          if (random.nextInt(3) == 0) {
            r.confirm(m.get().position());
            confirmed.put(n, expected);
          }
        }
        int slowest = names.stream().mapToInt(confirmed::get).min().orElseThrow();
        long oldest = oldestHeldId(q);
        assertThat(oldest)
            .as("%s: nothing freed past the slowest confirmation", as)
            .isLessThanOrEqualTo(Math.max(0, slowest));
      } else {
        q = restart();
        for (String n : names) {
          readers.put(n, q.openReader(n));
          next.put(n, confirmed.get(n) + 1);
          assertThat(readers.get(n).confirmed().isPresent())
              .as(as)
              .isEqualTo(confirmed.get(n) >= 0);
        }
      }
    }
    for (QueueReader r : readers.values()) {
      r.close();
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  private static int sizeFrom(Random random) {
    return random.nextInt(20) == 0 ? 20_000 + random.nextInt(40_000) : 12 + random.nextInt(2000);
  }

  /** Appends {@code count} messages one by one, each acknowledged before the next. */
  protected static List<QueuePosition> appendEach(StableQueue q, long firstId, int count, int size)
      throws Exception {
    List<QueuePosition> out = new ArrayList<>();
    List<CompletableFuture<QueuePosition>> fs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      fs.add(q.append(message(firstId + i, size)));
    }
    for (CompletableFuture<QueuePosition> f : fs) {
      out.add(f.get(30, TimeUnit.SECONDS));
    }
    return out;
  }

  /** The id of the oldest message the queue holds, -1 if none. */
  private static long oldestHeldId(StableQueue q) {
    List<QueueMessage> first = q.dumpFromStart(1);
    return first.isEmpty() ? -1 : idOf(first.get(0).payload());
  }

  private static List<Long> ids(long from, long to) {
    List<Long> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(i);
    }
    return out;
  }

  /** A message of {@code size} (at least 16) bytes that carries {@code id} and can be checked. */
  protected static byte[] message(long id, int size) {
    byte[] b = new byte[Math.max(16, size)];
    ByteBuffer.wrap(b).putLong(id).putInt(b.length);
    Random r = new Random(id);
    for (int i = 12; i < b.length; i++) {
      b[i] = (byte) r.nextInt();
    }
    return b;
  }

  /** The id of a message made by {@link #message}, after checking every byte. */
  protected static long idOf(byte[] b) {
    long id = ByteBuffer.wrap(b).getLong();
    if (!Arrays.equals(b, message(id, b.length))) {
      throw new AssertionError("message " + id + " of " + b.length + " bytes differs");
    }
    return id;
  }

  /** Reads everything a reader can read now. */
  protected static List<QueueMessage> drain(QueueReader r) {
    List<QueueMessage> out = new ArrayList<>();
    for (int i = 0; i < 1_000_000; i++) {
      Optional<QueueMessage> m = r.poll();
      if (m.isEmpty()) {
        return out;
      }
      out.add(m.get());
    }
    throw new AssertionError("reader never ran dry");
  }

  /** Reads exactly {@code n} messages, waiting up to 10 s for each. */
  protected static List<QueueMessage> read(QueueReader r, int n) throws InterruptedException {
    List<QueueMessage> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(
          r.poll(Duration.ofSeconds(10))
              .orElseThrow(() -> new AssertionError("no message after " + out.size())));
    }
    return Collections.unmodifiableList(out);
  }

  /** Waits up to 15 s for {@code condition}, checking it at most every 20 ms. */
  protected static void awaitTrue(String what, java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }
}
