package io.openrs.dsi.internal.hvar;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link StreamedKeys} answers as a set of longs does, whatever order keys come and go in. */
class StreamedKeysTest {

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void randomAddsAndRemovesAnswerAsASetDoes(long seed) {
    Random r = new Random(seed);
    StreamedKeys keys = new StreamedKeys(r.nextInt(40));
    Set<Long> model = new HashSet<>();
    List<Long> recent = new ArrayList<>();
    long next = r.nextInt(100) - 50;
    for (int step = 0; step < 20_000; step++) {
      int op = r.nextInt(10);
      long k;
      if (op < 5) {
        // mostly ascending, as a backlog of inserts brings them, sometimes a step back
        next += r.nextInt(8) == 0 ? -r.nextInt(30) : 1 + r.nextInt(3);
        k = next;
        assertThat(keys.add(k)).as("add %d", k).isEqualTo(model.add(k));
        recent.add(k);
      } else if (op < 7 && !recent.isEmpty()) {
        // taken back newest first, as a dropped transaction's undo does
        k = recent.remove(recent.size() - 1);
        assertThat(keys.remove(k)).as("remove newest %d", k).isEqualTo(model.remove(k));
      } else if (op < 9) {
        k = next - r.nextInt(60);
        assertThat(keys.remove(k)).as("remove %d", k).isEqualTo(model.remove(k));
      } else {
        k = next - r.nextInt(60) + 5;
        assertThat(keys.contains(k)).as("contains %d", k).isEqualTo(model.contains(k));
      }
      assertThat(keys.size()).isEqualTo(model.size());
    }
    for (long k = next - 200; k <= next + 5; k++) {
      assertThat(keys.contains(k)).as("finally contains %d", k).isEqualTo(model.contains(k));
    }
  }

  @Test
  void ascendingKeysNeedNoHashing() {
    StreamedKeys keys = new StreamedKeys(0);
    for (long k = 1; k <= 100_000; k++) {
      assertThat(keys.add(k)).isTrue();
    }
    assertThat(keys.add(50_000)).isFalse();
    assertThat(keys.remove(50_000)).isTrue();
    assertThat(keys.contains(50_000)).isFalse();
    assertThat(keys.add(50_000)).isTrue();
    assertThat(keys.size()).isEqualTo(100_000);
    assertThat(keys.contains(0)).isFalse();
    assertThat(keys.contains(100_001)).isFalse();
  }
}
