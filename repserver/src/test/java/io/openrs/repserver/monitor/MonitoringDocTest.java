package io.openrs.repserver.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/monitoring.md names every catalogue counter's Prometheus metric and each report's counters.
 */
class MonitoringDocTest {

  private static final Pattern NAME_ROW =
      Pattern.compile(
          "\\| ([A-Z]+) \\| `([A-Za-z0-9]+)` \\| (counter|gauge|timer|summary) \\| `(openrs_[a-z0-9_]+)` \\|.*");

  private static List<String> lines() throws Exception {
    return Files.readAllLines(Path.of("..", "docs", "monitoring.md"));
  }

  @Test
  void theNameTableListsEveryCounterWithItsPrometheusName() throws Exception {
    CounterCatalog catalog = CounterCatalog.standard();
    List<String> lines = lines();
    for (CounterInfo c : catalog.all()) {
      String row =
          "| "
              + c.module()
              + " | `"
              + c.name()
              + "` | "
              + c.kind()
              + " | `"
              + c.prometheusName()
              + "` |";
      assertThat(lines).as("docs/monitoring.md row %s", row).anyMatch(l -> l.startsWith(row));
    }
    int rows = 0;
    for (String l : lines) {
      Matcher m = NAME_ROW.matcher(l);
      if (m.matches()) {
        rows++;
        assertThat(catalog.find(m.group(1), m.group(2)))
            .as("docs/monitoring.md lists %s %s, which the catalogue lacks", m.group(1), m.group(2))
            .hasValueSatisfying(
                c -> {
                  assertThat(c.kind()).isEqualTo(m.group(3));
                  assertThat(c.prometheusName()).isEqualTo(m.group(4));
                });
      }
    }
    assertThat(rows).isEqualTo(catalog.all().size());
  }

  @Test
  void theThroughputTableListsEachReportsCounters() throws Exception {
    List<String> lines = lines();
    for (Throughput t : Throughput.values()) {
      String row =
          lines.stream()
              .filter(l -> l.startsWith("| `" + t + "` |"))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no row for " + t));
      int from = 0;
      for (Throughput.Source s : t.sources()) {
        String mention = s.module() + " `" + s.counter() + "`";
        int at = row.indexOf(mention, from);
        assertThat(at).as("%s lists %s in order", t, mention).isGreaterThanOrEqualTo(0);
        from = at + mention.length();
      }
    }
  }
}
