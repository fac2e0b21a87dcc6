package io.openrs.repserver.monitor;

import static io.openrs.repserver.support.Origin.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Clock;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.openrs.config.rssd.CounterSample;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.RepDefColumn;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.TableName;
import io.openrs.repserver.ReplicationServer;
import io.openrs.repserver.support.Origin;
import io.openrs.repserver.support.OutboundContents;
import io.openrs.repserver.support.TestServers;
import io.openrs.wire.BatchAnswer;
import io.openrs.wire.LtlClient;
import io.openrs.wire.WireProtocol;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real server on the monitoring registry, with an origin, a replicate and traffic: every meter it
 * registers is catalogued and exported, admin stats sees the traffic, a save lands in the RSSD, and
 * Prometheus scrapes it over HTTP.
 */
class MonitorServerIT {

  private static final TableName ORDERS = new TableName("shop", "orders");
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;
  private final List<String> refused = new ArrayList<>();
  private ReplicationServer server;
  private LtlClient client;
  private PrometheusEndpoint endpoint;
  private ScheduledExecutorService executor;

  @AfterEach
  void stop() {
    if (endpoint != null) {
      endpoint.close();
    }
    if (executor != null) {
      executor.shutdownNow();
    }
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aRunningServersCountersAreCataloguedReportedSavedAndScraped() throws Exception {
    CounterCatalog catalog = CounterCatalog.standard();
    PrometheusMeterRegistry registry = MonitorRegistries.prometheus(catalog, Clock.SYSTEM);
    registry.config().onMeterRegistrationFailed((id, reason) -> refused.add(id + ": " + reason));
    server = TestServers.start(dir, Map.of(), registry);
    StatsReporter stats = new StatsReporter(registry, Clock.SYSTEM);

    int primary = server.createConnection("pds", "pdb", Profile.POSTGRESQL, true, Map.of()).id();
    server.createConnection("rds", "rdb", Profile.POSTGRESQL, false, Map.of());
    server
        .catalog()
        .createRepDef(
            new RepDef(
                "orders_rd",
                primary,
                "shop",
                "orders",
                "public",
                "orders",
                List.of(new RepDefColumn("id", "int"), new RepDefColumn("note", "text")),
                List.of("id"),
                List.of()));
    server
        .catalog()
        .subscriptions()
        .create("orders_sub", "orders_rd", false, "rds", "rdb", Optional.empty());

    client =
        LtlClient.connect(
            "127.0.0.1",
            server.ltlPort(),
            new LtlCommand.Connect(
                "pds",
                "pdb",
                WireProtocol.MIN_VERSION,
                WireProtocol.MAX_VERSION,
                "sa",
                TestServers.ADMIN_PASSWORD,
                Optional.of("test-agent")),
            WAIT);
    Origin o = new Origin();
    List<LtlCommand> tran = new ArrayList<>();
    tran.add(o.begin(1));
    for (int i = 0; i < 10; i++) {
      tran.add(o.insert(1, ORDERS, col("id", i), col("note", "n" + i)));
    }
    tran.add(o.commit(1));
    assertThat(client.sendBatch(o.text(tran)).get(30, TimeUnit.SECONDS))
        .isInstanceOf(BatchAnswer.Accepted.class);
    await()
        .atMost(WAIT)
        .until(
            () ->
                OutboundContents.read(server.outboundQueue("rds", "rdb").orElseThrow()).size()
                    == 1);

    // Every meter is catalogued and Prometheus took every one.
    int checked = CatalogCoverage.assertCatalogued(registry, catalog);
    assertThat(checked).isGreaterThan(40);
    assertThat(refused).isEmpty();

    // admin stats sees the traffic.
    List<StatsRow> cps = stats.rate(Throughput.CPS);
    assertThat(cps)
        .filteredOn(r -> r.module().equals("REPAGENT") && r.counter().equals("CmdsRecv"))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.instance()).isEqualTo("pds.pdb");
              assertThat(r.total()).isEqualTo(12);
              assertThat(r.ratePerSecond()).isPositive();
            });
    assertThat(stats.report(Optional.of("dist"), Optional.of("pds.pdb")))
        .filteredOn(r -> r.counter().equals("TransProcessed"))
        .singleElement()
        .satisfies(r -> assertThat(r.total()).isEqualTo(1));
    assertThat(stats.backlog()).extracting(StatsRow::counter).contains("SQMRBacklogSeg");

    // A save writes to rs_statdetail.
    executor = Executors.newSingleThreadScheduledExecutor();
    StatsSampler sampler =
        new StatsSampler(stats, server.rssd().counterSamples(), executor, Duration.ofMillis(10));
    Instant before = Instant.now().minusSeconds(1);
    sampler.start(
        new StatsSampler.SaveRequest(
            Optional.of("REPAGENT"),
            Optional.empty(),
            Duration.ofMillis(50),
            Duration.ofMillis(100)));
    await().atMost(WAIT).until(() -> sampler.status().state() == StatsSampler.State.FINISHED);
    List<CounterSample> saved =
        server
            .rssd()
            .counterSamples()
            .query(
                before, Instant.now().plusSeconds(60), Optional.of("REPAGENT"), Optional.empty());
    assertThat(saved)
        .extracting(CounterSample::counter)
        .contains("CmdsRecv", "RAWriteWaitsTime", "RAWriteWaitsTime.obs");
    assertThat(saved).filteredOn(s -> s.counter().equals("CmdsRecv")).hasSize(2);
    assertThat(StatsCsv.format(saved))
        .startsWith("sampled_at,module,instance,counter,value\r\n")
        .contains(",REPAGENT,pds.pdb,CmdsRecv,0\r\n");

    // Prometheus scrapes it over HTTP.
    endpoint = PrometheusEndpoint.start("127.0.0.1", 0, registry);
    HttpResponse<String> scrape =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(scrape.statusCode()).isEqualTo(200);
    assertThat(scrape.body())
        .contains("openrs_cmds_recv_total{instance_id=\"pds.pdb\",module=\"REPAGENT\"} 12")
        .contains("openrs_trans_processed_total{instance_id=\"pds.pdb\",module=\"DIST\"} 1")
        .contains("openrs_cmds_distributed_total{")
        .contains("openrs_sts_cache_");
  }
}
