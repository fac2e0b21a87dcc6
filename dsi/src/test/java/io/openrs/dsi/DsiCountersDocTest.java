package io.openrs.dsi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Every DSI counter is described in docs/counters.md, with its module, kind and name origin. */
class DsiCountersDocTest {

  @Test
  void docsDescribeEveryCounter() throws Exception {
    List<String> lines = Files.readAllLines(Path.of("..", "docs", "counters.md"));
    for (DsiCounter c : DsiCounter.values()) {
      String row =
          "| "
              + c.module()
              + " | `"
              + c.counterName()
              + "` | "
              + c.kind().name().toLowerCase(Locale.ROOT)
              + " |";
      assertThat(lines)
          .as(
              "docs/counters.md has a row for %s %s of kind %s",
              c.module(), c.counterName(), c.kind())
          .anyMatch(
              l ->
                  l.startsWith(row)
                      && (c.rsName() ? l.endsWith("| RS |") : l.endsWith("| ours |")));
    }
  }

  @Test
  void namesAreUniquePerModule() {
    assertThat(
            java.util.Arrays.stream(DsiCounter.values())
                .map(c -> c.module() + " " + c.counterName())
                .distinct()
                .count())
        .isEqualTo(DsiCounter.values().length);
  }
}
