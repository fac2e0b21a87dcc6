package io.openrs.queue.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.queue.QueueCounter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Every counter of the catalogue is described in docs/counters.md. */
class CountersDocTest {

  @Test
  void docsDescribeEveryCounterInTheCatalogue() throws Exception {
    Path doc = Path.of("..", "docs", "counters.md");
    assertThat(doc).exists();
    String text = Files.readString(doc);
    for (QueueCounter c : QueueCounter.values()) {
      assertThat(text)
          .as("docs/counters.md describes %s", c.counterName())
          .contains("`" + c.counterName() + "`");
    }
  }
}
