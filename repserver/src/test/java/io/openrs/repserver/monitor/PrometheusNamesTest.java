package io.openrs.repserver.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusNamesTest {

  private final CounterCatalog catalog = CounterCatalog.standard();

  @Test
  void snakeCaseSplitsWordsAndAcronyms() {
    assertThat(PrometheusNames.snakeCase("CmdsWritten")).isEqualTo("cmds_written");
    assertThat(PrometheusNames.snakeCase("SQMWriteTime")).isEqualTo("sqm_write_time");
    assertThat(PrometheusNames.snakeCase("SQMRBacklogSeg")).isEqualTo("sqmr_backlog_seg");
    assertThat(PrometheusNames.snakeCase("RAWriteWaitsTime")).isEqualTo("ra_write_waits_time");
    assertThat(PrometheusNames.snakeCase("STSCacheExceed")).isEqualTo("sts_cache_exceed");
    assertThat(PrometheusNames.snakeCase("RSTicket")).isEqualTo("rs_ticket");
    assertThat(PrometheusNames.snakeCase("DISTOutboundWaitTime"))
        .isEqualTo("dist_outbound_wait_time");
    assertThat(PrometheusNames.snakeCase("Block2Read")).isEqualTo("block2_read");
  }

  @Test
  void exposedNamesOfTheCatalogue() {
    assertThat(name("SQM", "CmdsWritten")).isEqualTo("openrs_cmds_written_total");
    assertThat(name("SQM", "BytesWritten")).isEqualTo("openrs_bytes_written_total");
    assertThat(name("SQM", "SQMWriteTime")).isEqualTo("openrs_sqm_write_time_seconds");
    assertThat(name("SQM", "SQMBacklogBytes")).isEqualTo("openrs_sqm_backlog_bytes");
    assertThat(name("SQMR", "SQMRBacklogSeg")).isEqualTo("openrs_sqmr_backlog_seg");
    assertThat(name("SQT", "CacheMemUsed")).isEqualTo("openrs_cache_mem_used_bytes");
    assertThat(name("REPAGENT", "RAWriteWaitsTime"))
        .isEqualTo("openrs_ra_write_waits_time_seconds");
    assertThat(name("STS", "STSCacheHits")).isEqualTo("openrs_sts_cache_hits_total");
  }

  @Test
  void everyCataloguePrometheusNameIsValidAndNamesOneShape() {
    Map<String, String> kindByName = new HashMap<>();
    for (CounterInfo c : catalog.all()) {
      assertThat(c.prometheusName()).matches("openrs_[a-z][a-z0-9_]*[a-z0-9]");
      String other = kindByName.putIfAbsent(c.prometheusName(), c.kind());
      assertThat(other == null || other.equals(c.kind())).as(c.prometheusName()).isTrue();
    }
  }

  @Test
  void conventionLeavesMicrometerNamesToPrometheusDefaults() {
    MonitorNamingConvention convention = new MonitorNamingConvention(catalog);
    assertThat(convention.name("jvm.memory.used", Meter.Type.GAUGE, "bytes"))
        .isEqualTo("jvm_memory_used_bytes");
    assertThat(convention.name("CmdsWritten", Meter.Type.COUNTER, "messages"))
        .isEqualTo("openrs_cmds_written");
    assertThat(convention.name("CacheMemUsed", Meter.Type.GAUGE, null))
        .isEqualTo("openrs_cache_mem_used_bytes");
    assertThat(convention.name("SQMWriteTime", Meter.Type.TIMER, null))
        .isEqualTo("openrs_sqm_write_time_seconds");
    assertThat(convention.name("CmdsTotal", Meter.Type.COUNTER, null)).isEqualTo("openrs_cmds");
    assertThat(convention.tagKey("instance")).isEqualTo("instance_id");
    assertThat(convention.tagKey("reader")).isEqualTo("reader");
  }

  private String name(String module, String counter) {
    return catalog.find(module, counter).orElseThrow().prometheusName();
  }
}
