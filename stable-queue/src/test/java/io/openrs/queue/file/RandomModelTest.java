package io.openrs.queue.file;

import static io.openrs.queue.file.QueueFixture.Q;
import static io.openrs.queue.file.QueueFixture.SMALL;
import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.StableQueue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random appends, reads, confirmations and restarts against a reference model (a list of every
 * message and, per reader, the index of its confirmed message). The seed is fixed and printed in
 * every assertion; change {@link #SEED} to reproduce a reported failure.
 */
class RandomModelTest {

  static final long SEED = 20240611L;

  @TempDir Path dir;

  @Test
  void queueBehavesLikeTheModel() throws Exception {
    Random random = new Random(SEED);
    String seed = "seed=" + SEED;
    try (QueueFixture fx = new QueueFixture(dir)) {
      StableQueue q = fx.manager.createQueue(Q, SMALL);
      List<String> names = List.of("SQT", "DIST");
      List<Long> model = new ArrayList<>(); // ids in write order
      List<QueuePosition> positions = new ArrayList<>();
      Map<String, Integer> confirmed = new HashMap<>(); // index of last confirmed, -1 none
      Map<String, Integer> next = new HashMap<>(); // index of the next message to read
      Map<String, QueueReader> readers = new HashMap<>();
      for (String n : names) {
        confirmed.put(n, -1);
        next.put(n, 0);
        readers.put(n, q.openReader(n));
      }
      long nextId = 0;
      for (int step = 0; step < 400; step++) {
        int op = random.nextInt(100);
        if (op < 45) {
          List<byte[]> batch = new ArrayList<>();
          int n = 1 + random.nextInt(20);
          for (int i = 0; i < n; i++) {
            int size =
                random.nextInt(10) == 0 ? 20_000 + random.nextInt(60_000) : random.nextInt(3000);
            batch.add(Messages.make(nextId, size));
            model.add(nextId++);
          }
          QueuePosition last = q.appendAll(batch).get(30, TimeUnit.SECONDS);
          for (int i = 0; i < n - 1; i++) {
            positions.add(null);
          }
          positions.add(last);
        } else if (op < 90) {
          String n = names.get(random.nextInt(names.size()));
          QueueReader r = readers.get(n);
          int want = random.nextInt(30);
          for (int i = 0; i < want; i++) {
            Optional<QueueMessage> m = r.poll();
            int expectedIndex = next.get(n);
            if (expectedIndex == model.size()) {
              assertThat(m).as("%s reader %s at end", seed, n).isEmpty();
              break;
            }
            assertThat(m).as("%s reader %s message %d", seed, n, expectedIndex).isPresent();
            assertThat(Messages.verify(m.get().payload()))
                .as("%s reader %s", seed, n)
                .isEqualTo(model.get(expectedIndex));
            if (positions.get(expectedIndex) != null) {
              assertThat(m.get().position()).as(seed).isEqualTo(positions.get(expectedIndex));
            }
            next.put(n, expectedIndex + 1);
            if (random.nextInt(3) == 0) {
              r.confirm(m.get().position());
              confirmed.put(n, expectedIndex);
            }
          }
        } else if (op < 95) {
          fx.restart();
          q = fx.manager.openQueue(Q, SMALL);
          for (String n : names) {
            QueueReader r = q.openReader(n);
            readers.put(n, r);
            next.put(n, confirmed.get(n) + 1);
          }
        } else {
          // Space is never freed ahead of the slowest reader's confirmation.
          int slowest = names.stream().mapToInt(confirmed::get).min().orElseThrow();
          if (slowest >= 0 && positions.get(slowest) != null) {
            assertThat(q.info().firstSegment())
                .as(seed)
                .isLessThanOrEqualTo(positions.get(slowest).segment());
          }
        }
      }
    }
  }
}
