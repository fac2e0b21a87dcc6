package io.openrs.queue.file;

import static io.openrs.queue.file.QueueFixture.Q;
import static io.openrs.queue.file.QueueFixture.SMALL;
import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.queue.QueueCorruptedException;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.StableQueue;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crashes for real: a child JVM writes with {@code sqm_write_flush=on} and is killed with SIGKILL
 * at random moments; every acknowledged message must then be in the queue exactly once and in
 * order, and nothing corrupt may come back. Also damages segment files at random offsets. Seeds are
 * fixed and printed in every assertion; {@code -Dopenrs.crash.seed=<n>} runs other ones.
 */
class CrashIT {

  static final long ROUND_STRIDE = 1_000_000_000L;
  static final long SEED = Long.getLong("openrs.crash.seed", 5150L);
  static final int ROUNDS = 5;

  @TempDir Path dir;

  @Test
  void everyAcknowledgedMessageSurvivesSigkillExactlyOnceInOrder() throws Exception {
    Random random = new Random(SEED);
    assertThat(SMALL.withWriteFlush(io.openrs.queue.WriteFlush.ON).writeFlush())
        .isEqualTo(io.openrs.queue.WriteFlush.ON);
    TreeMap<Long, Long> ackedPerRound = new TreeMap<>();
    for (int round = 0; round < ROUNDS; round++) {
      int killAfter = 50 + random.nextInt(3000);
      String seed = "seed=" + SEED + " round=" + round + " killAfter=" + killAfter;
      Process child =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx256m",
                  "-cp",
                  System.getProperty("java.class.path"),
                  CrashWriterMain.class.getName(),
                  dir.toString(),
                  Integer.toString(round),
                  Long.toString(SEED + round))
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      long maxAck = -1;
      int acks = 0;
      try (BufferedReader out =
          new BufferedReader(
              new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = out.readLine()) != null) {
          if (line.startsWith("ACK ")) {
            long id = Long.parseLong(line.split(" ")[1]);
            assertThat(id)
                .as(seed + ": acknowledgements in order")
                .isEqualTo(round * ROUND_STRIDE + maxAck + 1);
            maxAck = id - round * ROUND_STRIDE;
            if (++acks == killAfter) {
              // SIGKILL on Linux. It also closes our end of the pipe, so acknowledgements the
              // child printed after this one are not seen; those seen are the lower bound.
              child.destroyForcibly();
              break;
            }
          }
        }
      }
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).as(seed).isTrue();
      assertThat(acks)
          .as(seed + ": child acknowledged before dying")
          .isGreaterThanOrEqualTo(killAfter);
      ackedPerRound.put((long) round, maxAck);
      verifyQueue(ackedPerRound, seed);
    }
  }

  /** Reopens the queue in this JVM and checks every round's messages. */
  private void verifyQueue(TreeMap<Long, Long> ackedPerRound, String seed) throws Exception {
    try (QueueFixture fx = new QueueFixture(dir)) {
      StableQueue q = fx.manager.openQueue(Q, SMALL.withWriteFlush(io.openrs.queue.WriteFlush.ON));
      List<QueueMessage> all = q.dumpFromStart(Integer.MAX_VALUE);
      int i = 0;
      QueuePosition previous = null;
      for (var e : ackedPerRound.entrySet()) {
        long round = e.getKey();
        long expected = 0;
        while (i < all.size() && Messages.verify(all.get(i).payload()) / ROUND_STRIDE == round) {
          QueueMessage m = all.get(i);
          assertThat(Messages.verify(m.payload()))
              .as(seed + ": round " + round + " message " + expected)
              .isEqualTo(round * ROUND_STRIDE + expected);
          if (previous != null) {
            assertThat(m.position()).as(seed).isGreaterThan(previous);
          }
          previous = m.position();
          expected++;
          i++;
        }
        assertThat(expected - 1)
            .as(seed + ": round " + round + " keeps every acknowledged message")
            .isGreaterThanOrEqualTo(e.getValue());
      }
      assertThat(i).as(seed + ": nothing after the last round").isEqualTo(all.size());
    }
  }

  // ---- damaged files ---------------------------------------------------------------------

  private static final int TOTAL = 400;

  /** Writes the same {@value #TOTAL} messages (about 2.5 segments) into a fresh queue. */
  private List<QueuePosition> writeFixedQueue(QueueFixture fx) throws Exception {
    StableQueue q = fx.manager.createQueue(Q, SMALL);
    Random sizes = new Random(77);
    List<QueuePosition> positions = new ArrayList<>();
    for (int i = 0; i < TOTAL; i++) {
      int size = sizes.nextInt(10) == 0 ? 30_000 : sizes.nextInt(8000);
      positions.add(q.append(Messages.make(i, size)).get(10, TimeUnit.SECONDS));
    }
    q.close();
    return positions;
  }

  /** Reads until the end or the first corruption; returns ids and whether corruption was hit. */
  private record ReadResult(List<Long> ids, Optional<QueueCorruptedException> error) {}

  private static ReadResult readAll(StableQueue q) {
    List<Long> ids = new ArrayList<>();
    try (QueueReader r = q.openReader("check")) {
      for (int n = 0; n < 10 * TOTAL; n++) {
        Optional<QueueMessage> m = r.poll();
        if (m.isEmpty()) {
          break;
        }
        ids.add(Messages.verify(m.get().payload()));
      }
    } catch (QueueCorruptedException e) {
      return new ReadResult(ids, Optional.of(e));
    }
    return new ReadResult(ids, Optional.empty());
  }

  private static List<Long> prefix(int n) {
    List<Long> out = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      out.add(i);
    }
    return out;
  }

  @Test
  void truncatingTheLastSegmentAnywhereDropsOnlyTheTornTail() throws Exception {
    Random random = new Random(SEED + 1);
    for (int trial = 0; trial < 12; trial++) {
      Path root = dir.resolve("trunc-" + trial);
      try (QueueFixture fx = new QueueFixture(root)) {
        List<QueuePosition> positions = writeFixedQueue(fx);
        long lastSegment = positions.get(TOTAL - 1).segment();
        Path file = fx.segmentFile(Q, lastSegment);
        long cut = (long) (random.nextDouble() * Files.size(file));
        String seed = "seed=" + (SEED + 1) + " trial=" + trial + " cut=" + cut;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
          ch.truncate(cut);
        }
        fx.restart();
        StableQueue q = fx.manager.openQueue(Q, SMALL);
        ReadResult r = readAll(q);
        assertThat(r.error()).as(seed).isEmpty();
        QueuePosition cutBlock =
            new QueuePosition(lastSegment, (int) (cut / SMALL.blockSizeBytes()), 0);
        int surely = 0;
        while (surely + 1 < TOTAL && positions.get(surely + 1).compareTo(cutBlock) < 0) {
          surely++;
        }
        assertThat(r.ids()).as(seed).isEqualTo(prefix(r.ids().size()));
        assertThat(r.ids().size()).as(seed).isGreaterThanOrEqualTo(surely);
      }
    }
  }

  @Test
  void flippedBitsAreEitherHarmlessOrReportedNeverSkipped() throws Exception {
    Random random = new Random(SEED + 2);
    for (int trial = 0; trial < 12; trial++) {
      Path root = dir.resolve("flip-" + trial);
      try (QueueFixture fx = new QueueFixture(root)) {
        List<QueuePosition> positions = writeFixedQueue(fx);
        long lastSegment = positions.get(TOTAL - 1).segment();
        long segment = random.nextInt((int) lastSegment + 1);
        Path file = fx.segmentFile(Q, segment);
        long offset = (long) (random.nextDouble() * Files.size(file));
        int bit = random.nextInt(8);
        String seed =
            "seed="
                + (SEED + 2)
                + " trial="
                + trial
                + " segment="
                + segment
                + " offset="
                + offset
                + " bit="
                + bit;
        try (FileChannel ch =
            FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
          ByteBuffer b = ByteBuffer.allocate(1);
          ch.read(b, offset);
          b.put(0, (byte) (b.get(0) ^ (1 << bit)));
          b.rewind();
          ch.write(b, offset);
        }
        fx.restart();
        ReadResult r;
        try {
          r = readAll(fx.manager.openQueue(Q, SMALL));
        } catch (QueueCorruptedException e) {
          assertThat(e.segment()).as(seed).isEqualTo(segment);
          assertThat(e.getMessage()).as(seed).contains("queue 101:1");
          continue;
        }
        assertThat(r.ids()).as(seed).isEqualTo(prefix(r.ids().size()));
        boolean tornTailDropped =
            segment == lastSegment
                && offset / SMALL.blockSizeBytes()
                    >= (Files.size(file) / SMALL.blockSizeBytes()) - SMALL.pageSizeBlocks();
        if (r.ids().size() < TOTAL && r.error().isEmpty()) {
          // Losing messages without an error is only allowed for a torn tail.
          assertThat(segment)
              .as(seed + ": silent loss outside the last segment")
              .isEqualTo(lastSegment);
        }
        if (r.error().isPresent()) {
          assertThat(r.error().get().segment()).as(seed).isEqualTo(segment);
          assertThat(r.error().get().fileOffset())
              .as(seed)
              .isEqualTo(offset / SMALL.blockSizeBytes() * SMALL.blockSizeBytes());
        }
        assertThat(tornTailDropped || r.ids().size() == TOTAL || r.error().isPresent())
            .as(seed + ": ids=" + r.ids().size())
            .isTrue();
      }
    }
  }
}
