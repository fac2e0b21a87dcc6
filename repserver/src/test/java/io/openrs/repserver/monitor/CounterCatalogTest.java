package io.openrs.repserver.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.config.rssd.StsCounter;
import io.openrs.dsi.DsiCounter;
import io.openrs.queue.QueueCounter;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CounterCatalogTest {

  private final CounterCatalog catalog = CounterCatalog.standard();

  @Test
  void coversEveryCounterOfTheFourCatalogues() {
    for (QueueCounter c : QueueCounter.values()) {
      assertThat(catalog.find(c.module().name(), c.counterName()))
          .as("%s %s", c.module(), c.counterName())
          .hasValueSatisfying(
              i -> {
                assertThat(i.kind()).isEqualTo(c.kind().name().toLowerCase());
                assertThat(i.unit()).isEqualTo(c.unit());
                assertThat(i.description()).isEqualTo(c.description());
              });
    }
    for (ServerCounter c : ServerCounter.values()) {
      assertThat(catalog.find(c.module().name(), c.counterName()))
          .as("%s %s", c.module(), c.counterName())
          .hasValueSatisfying(
              i -> {
                assertThat(i.kind()).isEqualTo(c.kind().name().toLowerCase());
                assertThat(i.replicationServerName()).isEqualTo(c.rsName());
              });
    }
    for (StsCounter c : StsCounter.values()) {
      assertThat(catalog.find("STS", c.counterName()))
          .as("STS %s", c.counterName())
          .hasValueSatisfying(i -> assertThat(i.unit()).isEqualTo(c.unit()));
    }
    for (DsiCounter c : DsiCounter.values()) {
      assertThat(catalog.find(c.module().name(), c.counterName()))
          .as("%s %s", c.module(), c.counterName())
          .hasValueSatisfying(
              i -> {
                assertThat(i.kind()).isEqualTo(c.kind().name().toLowerCase());
                assertThat(i.unit()).isEqualTo(c.unit());
                assertThat(i.replicationServerName()).isEqualTo(c.rsName());
              });
    }
    assertThat(catalog.all())
        .hasSize(
            QueueCounter.values().length
                + ServerCounter.values().length
                + DsiCounter.values().length
                + 3);
  }

  @Test
  void namesAreUniquePerModule() {
    Set<String> seen = new HashSet<>();
    for (CounterInfo c : catalog.all()) {
      assertThat(seen.add(c.module() + " " + c.name())).as("%s %s", c.module(), c.name()).isTrue();
    }
  }

  @Test
  void aSecondEntryOfOneNameInOneModuleIsRefused() {
    CounterInfo a = new CounterInfo("CmdsX", "SQM", "counter", "messages", "a", false);
    assertThatThrownBy(() -> new CounterCatalog(List.of(a, a)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CmdsX listed twice in module SQM");
  }

  @Test
  void oneNameWithTwoPrometheusShapesIsRefused() {
    CounterInfo a = new CounterInfo("CmdsX", "SQM", "counter", "messages", "a", false);
    CounterInfo b = new CounterInfo("CmdsX", "DIST", "gauge", "messages", "b", false);
    assertThatThrownBy(() -> new CounterCatalog(List.of(a, b)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("openrs_cmds_x_total")
        .hasMessageContaining("openrs_cmds_x");
  }

  @Test
  void everyServerCounterHasAMeaningfulUnit() {
    for (ServerCounter c : ServerCounter.values()) {
      assertThat(c.unit()).as(c.counterName()).isNotEqualTo("events");
    }
    assertThat(catalog.find("SQT", "CacheMemUsed").orElseThrow().unit()).isEqualTo("bytes");
    assertThat(catalog.find("REPAGENT", "RAWriteWaitsTime").orElseThrow().unit())
        .isEqualTo("seconds");
    assertThat(catalog.find("SQT", "CmdsMaxTran").orElseThrow().unit()).isEqualTo("commands");
  }

  @Test
  void describeByModuleIgnoringCaseListsTheModuleInDeclarationOrder() {
    List<CounterInfo> sqm = catalog.describe("sqm");
    assertThat(sqm).isNotEmpty().allMatch(c -> c.module().equals("SQM"));
    assertThat(sqm.get(0).name()).isEqualTo("CmdsWritten");
    assertThat(catalog.describe("STS"))
        .extracting(CounterInfo::name)
        .containsExactly("STSCacheHits", "STSCacheMisses", "STSCacheExceed");
  }

  @Test
  void describeByNameOrKeywordMatchesSubstringsIgnoringCase() {
    assertThat(catalog.describe("cmdsread"))
        .extracting(c -> c.module() + " " + c.name())
        .containsExactly("SQMR CmdsRead", "DIST CmdsRead", "DSI DSICmdsRead");
    assertThat(catalog.describe("backlog"))
        .extracting(CounterInfo::name)
        .containsExactlyInAnyOrder(
            "SQMBacklogBytes", "SQMRBacklogBlock", "SQMRBacklogSeg", "DSIBacklogBytes");
    assertThat(catalog.describe("nosuchthing")).isEmpty();
    assertThat(catalog.describe(" ")).isEqualTo(catalog.all());
  }

  @Test
  void modulesComeInPipelineOrder() {
    assertThat(catalog.modules())
        .containsExactly("REPAGENT", "NRM", "SQM", "SQMR", "SQT", "DIST", "DSI", "DSIEXEC", "STS");
  }

  @Test
  void withAddsAModulesCatalogue() {
    CounterCatalog more =
        catalog.with(
            List.of(new CounterInfo("RSIMsgSent", "RSI", "counter", "messages", "x", true)));
    assertThat(more.describe("rsi")).extracting(CounterInfo::name).containsExactly("RSIMsgSent");
    assertThat(more.modules()).containsSubsequence("DIST", "DSI", "RSI", "STS");
  }
}
