package io.openrs.repserver.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PrometheusEndpointTest {

  private final PrometheusMeterRegistry registry =
      MonitorRegistries.prometheus(CounterCatalog.standard(), new MockClock());
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final AtomicLong cmds = new AtomicLong();
  private final AtomicLong writes = new AtomicLong();
  private final AtomicLong writeNanos = new AtomicLong();
  private PrometheusEndpoint endpoint;

  @AfterEach
  void stop() {
    if (endpoint != null) {
      endpoint.close();
    }
  }

  private PrometheusEndpoint start() throws Exception {
    FunctionCounter.builder("CmdsWritten", cmds, AtomicLong::get)
        .tags("module", "SQM", "instance", "101:1")
        .baseUnit("messages")
        .description("Messages written and made durable.")
        .register(registry);
    FunctionTimer.builder(
            "SQMWriteTime",
            this,
            t -> t.writes.get(),
            t -> t.writeNanos.get(),
            TimeUnit.NANOSECONDS)
        .tags("module", "SQM", "instance", "101:1")
        .register(registry);
    Gauge.builder("CacheMemUsed", () -> 4096)
        .tags("module", "SQT", "instance", "pds.pdb")
        .register(registry);
    endpoint = PrometheusEndpoint.start("127.0.0.1", 0, registry);
    return endpoint;
  }

  private HttpResponse<String> get(String path, String... headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + path))
            .timeout(Duration.ofSeconds(10));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void scrapeShowsCountersTimersAndGaugesUnderPrometheusNames() throws Exception {
    start();
    cmds.set(1234);
    writes.set(3);
    writeNanos.set(TimeUnit.MILLISECONDS.toNanos(1500));
    HttpResponse<String> r = get("/metrics");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue(PrometheusEndpoint.TEXT_004);
    assertThat(r.body())
        .contains("# TYPE openrs_cmds_written_total counter")
        .contains("openrs_cmds_written_total{instance_id=\"101:1\",module=\"SQM\"} 1234")
        .contains("openrs_sqm_write_time_seconds_count{instance_id=\"101:1\",module=\"SQM\"} 3")
        .contains("openrs_sqm_write_time_seconds_sum{instance_id=\"101:1\",module=\"SQM\"} 1.5")
        .contains("openrs_cache_mem_used_bytes{instance_id=\"pds.pdb\",module=\"SQT\"} 4096");

    cmds.set(2000);
    assertThat(get("/metrics").body())
        .contains("openrs_cmds_written_total{instance_id=\"101:1\",module=\"SQM\"} 2000");
  }

  @Test
  void openMetricsWhenAskedAndGzipWhenAllowed() throws Exception {
    start();
    HttpResponse<String> om = get("/metrics", "Accept", "application/openmetrics-text");
    assertThat(om.headers().firstValue("Content-Type")).hasValue(PrometheusEndpoint.OPENMETRICS);
    assertThat(om.body()).contains("openrs_cmds_written_total").endsWith("# EOF\n");

    HttpResponse<byte[]> gz =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics"))
                .header("Accept-Encoding", "gzip")
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(gz.headers().firstValue("Content-Encoding")).hasValue("gzip");
    String body;
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz.body()))) {
      body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(body).contains("openrs_cmds_written_total");
  }

  @Test
  void healthOtherPathsAndMethods() throws Exception {
    start();
    HttpResponse<String> health = get("/health");
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).isEqualTo("ok\n");
    assertThat(get("/").statusCode()).isEqualTo(404);
    assertThat(get("/metrics/x").statusCode()).isEqualTo(404);
    HttpResponse<String> post =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics"))
                .POST(HttpRequest.BodyPublishers.ofString("x"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
  }

  @Test
  void closeReleasesThePort() throws Exception {
    start();
    int port = endpoint.port();
    endpoint.close();
    endpoint.close();
    endpoint = PrometheusEndpoint.start("127.0.0.1", port, registry);
    assertThat(get("/health").statusCode()).isEqualTo(200);
  }
}
