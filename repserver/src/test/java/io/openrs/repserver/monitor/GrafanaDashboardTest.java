package io.openrs.repserver.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/grafana-dashboard.json is valid JSON in Grafana's dashboard shape, every panel uses the
 * {@code DS_PROMETHEUS} variable, and every metric a query names is one the counter catalogue
 * exports, with a module that has it.
 */
class GrafanaDashboardTest {

  /** Metrics announced by other work and documented in docs/monitoring.md, not yet catalogued. */
  private static final Set<String> ANNOUNCED = Set.of();

  private static final Pattern METRIC = Pattern.compile("\\b(openrs_[a-z0-9_]+)(\\{[^}]*\\})?");
  private static final Pattern MODULE = Pattern.compile("module=\"([A-Za-z]+)\"");

  private static final CounterCatalog CATALOG = CounterCatalog.standard();

  @SuppressWarnings("unchecked")
  private static Map<String, Object> dashboard() throws Exception {
    String text = Files.readString(Path.of("..", "docs", "grafana-dashboard.json"));
    return (Map<String, Object>) Json.parse(text);
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> panels(Map<String, Object> d) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Object p : (List<Object>) d.get("panels")) {
      out.add((Map<String, Object>) p);
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static List<String> expressions(Map<String, Object> d) {
    List<String> exprs = new ArrayList<>();
    for (Map<String, Object> p : panels(d)) {
      for (Object t : (List<Object>) p.getOrDefault("targets", List.of())) {
        exprs.add((String) ((Map<String, Object>) t).get("expr"));
      }
    }
    Map<String, Object> templating = (Map<String, Object>) d.get("templating");
    for (Object v : (List<Object>) templating.get("list")) {
      Object def = ((Map<String, Object>) v).get("definition");
      if (def != null) {
        exprs.add((String) def);
      }
    }
    return exprs;
  }

  @Test
  @SuppressWarnings("unchecked")
  void isAGrafanaDashboardOnThePrometheusVariable() throws Exception {
    Map<String, Object> d = dashboard();
    assertThat(d.get("schemaVersion")).isEqualTo(39.0);
    assertThat(d.get("uid")).isEqualTo("openrs-overview");
    List<Object> vars = (List<Object>) ((Map<String, Object>) d.get("templating")).get("list");
    assertThat(vars)
        .anySatisfy(
            v -> {
              Map<String, Object> m = (Map<String, Object>) v;
              assertThat(m.get("name")).isEqualTo("DS_PROMETHEUS");
              assertThat(m.get("type")).isEqualTo("datasource");
              assertThat(m.get("query")).isEqualTo("prometheus");
            });
    Set<Double> ids = new HashSet<>();
    for (Map<String, Object> p : panels(d)) {
      assertThat(ids.add((Double) p.get("id"))).as("unique panel id %s", p.get("id")).isTrue();
      assertThat(p.get("title")).isInstanceOf(String.class);
      assertThat((Map<String, Object>) p.get("gridPos")).containsKeys("h", "w", "x", "y");
      if (p.get("type").equals("row")) {
        continue;
      }
      assertThat(p.get("datasource"))
          .as("datasource of %s", p.get("title"))
          .isEqualTo(Map.of("type", "prometheus", "uid", "${DS_PROMETHEUS}"));
      List<Object> targets = (List<Object>) p.get("targets");
      assertThat(targets).as("targets of %s", p.get("title")).isNotEmpty();
      for (Object t : targets) {
        Map<String, Object> target = (Map<String, Object>) t;
        assertThat(target.get("expr")).asString().isNotBlank();
        assertThat(target.get("refId")).isNotNull();
      }
    }
  }

  @Test
  void everyMetricAQueryNamesIsExported() throws Exception {
    Set<String> exported = new HashSet<>(ANNOUNCED);
    CATALOG.all().forEach(c -> exported.add(c.prometheusName()));
    int seen = 0;
    for (String expr : expressions(dashboard())) {
      Matcher m = METRIC.matcher(expr);
      while (m.find()) {
        seen++;
        String series = m.group(1);
        String family = family(series, exported);
        assertThat(exported).as("metric %s in %s", series, expr).contains(family);
        if (m.group(2) != null) {
          Matcher module = MODULE.matcher(m.group(2));
          if (module.find()) {
            String mod = module.group(1);
            assertThat(CATALOG.all())
                .as("module %s has %s (in %s)", mod, family, expr)
                .anyMatch(c -> c.module().equals(mod) && c.prometheusName().equals(family));
          }
        }
      }
    }
    assertThat(seen).isGreaterThan(20);
  }

  @Test
  void theDashboardChartsTheCountersOperatorsReadFirst() throws Exception {
    String all = String.join("\n", expressions(dashboard()));
    for (String name :
        List.of(
            "openrs_cmds_recv_total",
            "openrs_cmds_written_total",
            "openrs_sqm_backlog_bytes",
            "openrs_sqmr_backlog_seg",
            "openrs_sqm_write_time_seconds_sum",
            "openrs_ra_write_waits_time_seconds_sum",
            "openrs_trans_removed_total",
            "openrs_cache_mem_used_bytes",
            "openrs_sts_cache_hits_total",
            "openrs_sts_cache_misses_total",
            "openrs_sts_cache_exceed_total",
            "openrs_ticket_latency_seconds_sum")) {
      assertThat(all).as(name).contains(name);
    }
  }

  /** A timer's series ({@code _sum}, {@code _count}, {@code _max}) belong to its family. */
  private static String family(String series, Set<String> exported) {
    for (String suffix : List.of("_sum", "_count", "_max")) {
      if (series.endsWith(suffix)) {
        String f = series.substring(0, series.length() - suffix.length());
        if (exported.contains(f) && f.endsWith("_seconds")) {
          return f;
        }
      }
    }
    return series;
  }
}
