package io.openrs.config.rssd;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Every STS counter of the catalogue is described in docs/counters.md. */
class StsCountersDocTest {
  @Test
  void docsDescribeEveryStsCounter() throws Exception {
    Path doc = Path.of("..", "docs", "counters.md");
    assertThat(doc).exists();
    String text = Files.readString(doc);
    assertThat(text).contains("## System table services (STS)");
    for (StsCounter c : StsCounter.values()) {
      assertThat(text)
          .as("docs/counters.md describes %s", c.counterName())
          .contains("`" + c.counterName() + "`");
    }
  }
}
