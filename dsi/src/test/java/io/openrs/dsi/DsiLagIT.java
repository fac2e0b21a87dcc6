package io.openrs.dsi;

import static io.openrs.dsi.testkit.Txs.i64;
import static io.openrs.dsi.testkit.Txs.row;
import static io.openrs.dsi.testkit.Txs.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.dsi.testkit.Awaits;
import io.openrs.dsi.testkit.OutboundQueueFixture;
import io.openrs.dsi.testkit.RecordingSink;
import io.openrs.dsi.testkit.TestDb;
import io.openrs.dsi.testkit.Txs;
import io.openrs.dsi.testkit.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connection's gauges against a real replicate: {@code DSILag} is 0 when caught up, rises while
 * the DSI is suspended with transactions waiting (now minus the origin commit time of the last
 * applied one), and falls back to 0 once it has applied them; {@code DSIActive} and {@code
 * DSIBacklogBytes} follow; an rs_ticket's way from the primary is timed ({@code TicketLatency}).
 */
class DsiLagIT {
  private static final int REPLICATE = 201;
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void lagRisesWhileSuspendedAndFallsToZeroWhenCaughtUp() throws Exception {
    TestDb db = TestDb.POSTGRESQL;
    MeterRegistry registry = new SimpleMeterRegistry();
    try (TestDb.Scratch s = db.scratch("dsi_lag");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(Workload.ddl(db).toArray(String[]::new));
      Txs x = new Txs(s.name(), 101);
      List<Workload.Tx> first = new ArrayList<>();
      for (int i = 1; i <= 3; i++) {
        first.add(
            x.begin()
                .insert("parent", row("id", i64(i), "code", text("c" + i)))
                .commit(Instant.now().truncatedTo(ChronoUnit.MICROS)));
      }
      q.append(first);
      try (DsiConnection dsi =
          DsiConnection.start(
              s.target(REPLICATE),
              q.queue(),
              DsiSettings.defaults(),
              new RecordingSink(),
              registry)) {
        String instance = s.target(REPLICATE).name();
        Awaits.applied(dsi, s, Map.of(101, first.get(2).commitOqid()));
        await().atMost(WAIT).until(() -> gauge(registry, "DSILag", instance) == 0.0);
        assertThat(gauge(registry, "DSIActive", instance)).isEqualTo(1.0);
        assertThat(gauge(registry, "DSIDown", instance)).isEqualTo(0.0);

        dsi.suspend();
        assertThat(gauge(registry, "DSIActive", instance)).isEqualTo(0.0);
        Workload.Tx waiting =
            x.begin()
                .insert("parent", row("id", i64(4), "code", text("c4")))
                .commit(Instant.now().truncatedTo(ChronoUnit.MICROS));
        q.append(List.of(waiting));
        await().atMost(WAIT).until(() -> gauge(registry, "DSIBacklogBytes", instance) > 0);
        double lag = gauge(registry, "DSILag", instance);
        assertThat(lag).isPositive();
        // While suspended the lag keeps growing with the clock.
        await().atMost(WAIT).until(() -> gauge(registry, "DSILag", instance) > lag + 1.0);

        dsi.resume();
        Awaits.applied(dsi, s, Map.of(101, waiting.commitOqid()));
        // An rs_ticket applied at the replicate times its way from the primary's commit.
        Workload.Tx ticket =
            x.begin().ticket("H1=lag").commit(Instant.now().truncatedTo(ChronoUnit.MICROS));
        q.append(List.of(ticket));
        Awaits.applied(dsi, s, Map.of(101, ticket.commitOqid()));
        await()
            .atMost(WAIT)
            .until(
                () ->
                    registry
                            .get("TicketLatency")
                            .tags("module", "DSI", "instance", instance)
                            .timer()
                            .count()
                        == 1);
        assertThat(
                registry
                    .get("TicketLatency")
                    .tags("module", "DSI", "instance", instance)
                    .timer()
                    .totalTime(java.util.concurrent.TimeUnit.SECONDS))
            .as("from the ticket's time at the primary (2026-01-01) to now")
            .isGreaterThan(
                Duration.between(Instant.parse("2026-01-01T00:00:01Z"), Instant.now()).toSeconds()
                    - 60.0);
        await().atMost(WAIT).until(() -> gauge(registry, "DSILag", instance) == 0.0);
        await().atMost(WAIT).until(() -> gauge(registry, "DSIBacklogBytes", instance) == 0.0);
        List<io.openrs.ltl.LtlCommand> last = ticket.commands();
        assertThat(dsi.lastApplied())
            .hasValue(((io.openrs.ltl.LtlCommand.Commit) last.get(last.size() - 1)).time());
      }
    }
  }

  private static double gauge(MeterRegistry registry, String name, String instance) {
    return registry.get(name).tags("module", "DSI", "instance", instance).gauge().value();
  }
}
