package io.openrs.repserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.repserver.monitor.ServerCounter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every inbound-side counter is described in docs/counters.md, under its module. */
class ServerCountersDocTest {

  @Test
  void docsDescribeEveryCounterWithItsModule() throws Exception {
    Path doc = Path.of("..", "docs", "counters.md");
    List<String> lines = Files.readAllLines(doc);
    for (ServerCounter c : ServerCounter.values()) {
      String row = "| " + c.module() + " | `" + c.counterName() + "` |";
      assertThat(lines)
          .as("docs/counters.md has a row for %s %s", c.module(), c.counterName())
          .anyMatch(l -> l.startsWith(row));
      String kind = c.kind().name().toLowerCase(java.util.Locale.ROOT);
      assertThat(lines)
          .as("docs/counters.md gives %s %s kind %s", c.module(), c.counterName(), kind)
          .anyMatch(l -> l.startsWith(row + " " + kind + " |"));
      assertThat(lines)
          .as("docs/counters.md says whether %s is an RS name", c.counterName())
          .anyMatch(
              l ->
                  l.startsWith(row)
                      && (c.rsName() ? l.matches(".*\\| RS[^|]*\\|$") : l.endsWith("| ours |")));
    }
  }
}
