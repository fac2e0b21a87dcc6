package io.openrs.repserver.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StatsReporterTest {

  private final MockClock clock = new MockClock();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);
  private final AtomicLong cmdsWritten = new AtomicLong(100);
  private final AtomicLong writes = new AtomicLong();
  private final AtomicLong writeNanos = new AtomicLong();
  private final AtomicLong backlogBytes = new AtomicLong();
  private final AtomicLong cmdsRead = new AtomicLong();
  private final AtomicLong cmdsRecv = new AtomicLong();

  StatsReporterTest() {
    Tags sqm = Tags.of("module", "SQM", "instance", "101:1");
    FunctionCounter.builder("CmdsWritten", cmdsWritten, AtomicLong::get)
        .tags(sqm)
        .register(registry);
    FunctionTimer.builder(
            "SQMWriteTime",
            this,
            t -> t.writes.get(),
            t -> t.writeNanos.get(),
            TimeUnit.NANOSECONDS)
        .tags(sqm)
        .register(registry);
    Gauge.builder("SQMBacklogBytes", backlogBytes, AtomicLong::get).tags(sqm).register(registry);
    FunctionCounter.builder("CmdsRead", cmdsRead, AtomicLong::get)
        .tags("module", "SQMR", "instance", "101:1", "reader", "SQT")
        .register(registry);
    FunctionCounter.builder("CmdsRecv", cmdsRecv, AtomicLong::get)
        .tags("module", "REPAGENT", "instance", "pds.pdb")
        .register(registry);
    // Not a monitor counter: no module tag.
    Gauge.builder("jvm.threads.live", () -> 12).register(registry);
  }

  private StatsRow row(StatsReporter r, String module, String counter) {
    return r.report(Optional.of(module), Optional.empty()).stream()
        .filter(x -> x.counter().equals(counter))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void countersCountFromTheResetWithLastAndMaxPerInterval() {
    StatsReporter r = new StatsReporter(registry, clock);
    clock.add(Duration.ofSeconds(10));
    cmdsWritten.addAndGet(50);
    StatsRow first = row(r, "SQM", "CmdsWritten");
    assertThat(first.observations()).isEqualTo(50);
    assertThat(first.total()).isEqualTo(50);
    assertThat(first.last()).isEqualTo(50);
    assertThat(first.max()).isEqualTo(50);
    assertThat(first.ratePerSecond()).isCloseTo(5.0, within(1e-9));

    clock.add(Duration.ofSeconds(10));
    cmdsWritten.addAndGet(10);
    StatsRow second = row(r, "SQM", "CmdsWritten");
    assertThat(second.total()).isEqualTo(60);
    assertThat(second.last()).isEqualTo(10);
    assertThat(second.max()).isEqualTo(50);
    assertThat(second.ratePerSecond()).isCloseTo(3.0, within(1e-9));
    assertThat(second.average()).isEqualTo(1.0);
  }

  @Test
  void timersReportObservationsMillisecondsAndMeanPerInterval() {
    StatsReporter r = new StatsReporter(registry, clock);
    clock.add(Duration.ofSeconds(10));
    writes.set(4);
    writeNanos.set(TimeUnit.MILLISECONDS.toNanos(40));
    StatsRow a = row(r, "SQM", "SQMWriteTime");
    assertThat(a.observations()).isEqualTo(4);
    assertThat(a.total()).isCloseTo(40, within(1e-9));
    assertThat(a.last()).isCloseTo(10, within(1e-9));
    assertThat(a.ratePerSecond()).isCloseTo(0.4, within(1e-9));

    clock.add(Duration.ofSeconds(10));
    writes.set(5);
    writeNanos.set(TimeUnit.MILLISECONDS.toNanos(70));
    StatsRow b = row(r, "SQM", "SQMWriteTime");
    assertThat(b.observations()).isEqualTo(5);
    assertThat(b.total()).isCloseTo(70, within(1e-9));
    assertThat(b.last()).isCloseTo(30, within(1e-9));
    assertThat(b.max()).isCloseTo(30, within(1e-9));
    assertThat(b.average()).isCloseTo(14, within(1e-9));

    // An interval without observations keeps the last mean.
    clock.add(Duration.ofSeconds(10));
    assertThat(row(r, "SQM", "SQMWriteTime").last()).isCloseTo(30, within(1e-9));
  }

  @Test
  void gaugesAreSampledWhenShown() {
    StatsReporter r = new StatsReporter(registry, clock);
    backlogBytes.set(1000);
    StatsRow a = row(r, "SQM", "SQMBacklogBytes");
    assertThat(a.observations()).isEqualTo(1);
    assertThat(a.last()).isEqualTo(1000);
    assertThat(a.max()).isEqualTo(1000);
    backlogBytes.set(500);
    StatsRow b = row(r, "SQM", "SQMBacklogBytes");
    assertThat(b.observations()).isEqualTo(2);
    assertThat(b.total()).isEqualTo(1500);
    assertThat(b.last()).isEqualTo(500);
    assertThat(b.max()).isEqualTo(1000);
    assertThat(b.average()).isEqualTo(750);
    assertThat(b.ratePerSecond()).isZero();
  }

  @Test
  void resetMovesTheBaseline() {
    StatsReporter r = new StatsReporter(registry, clock);
    cmdsWritten.addAndGet(40);
    clock.add(Duration.ofSeconds(4));
    assertThat(row(r, "SQM", "CmdsWritten").total()).isEqualTo(40);
    r.reset();
    assertThat(r.resetAt().toEpochMilli()).isEqualTo(clock.wallTime());
    assertThat(row(r, "SQM", "CmdsWritten").isZero()).isTrue();
    clock.add(Duration.ofSeconds(5));
    cmdsWritten.addAndGet(5);
    StatsRow after = row(r, "SQM", "CmdsWritten");
    assertThat(after.total()).isEqualTo(5);
    assertThat(after.max()).isEqualTo(5);
    assertThat(after.ratePerSecond()).isCloseTo(1.0, within(1e-9));
    assertThat(r.sinceReset()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void aMeterRegisteredAfterTheResetCountsFromZeroAndARestartedOneKeepsItsCounts() {
    StatsReporter r = new StatsReporter(registry, clock);
    AtomicLong late = new AtomicLong(7);
    FunctionCounter.builder("CmdsWritten", late, AtomicLong::get)
        .tags("module", "SQM", "instance", "102:0")
        .register(registry);
    assertThat(r.report(Optional.of("SQM"), Optional.of("102:0")).get(0).total()).isEqualTo(7);

    cmdsWritten.addAndGet(20);
    assertThat(row(r, "SQM", "CmdsWritten").total()).isEqualTo(20);
    // The queue is closed and opened again: its meter comes back with fresh counts.
    Meter old = registry.find("CmdsWritten").tag("instance", "101:1").meter();
    registry.remove(old);
    AtomicLong fresh = new AtomicLong(3);
    FunctionCounter.builder("CmdsWritten", fresh, AtomicLong::get)
        .tags("module", "SQM", "instance", "101:1")
        .register(registry);
    StatsRow row = r.report(Optional.of("SQM"), Optional.of("101:1")).get(0);
    assertThat(row.counter()).isEqualTo("CmdsWritten");
    assertThat(row.total()).isEqualTo(23);
    assertThat(row.last()).isEqualTo(3);
  }

  @Test
  void reportSelectsModuleAndInstanceIgnoringCaseAndOrdersByPipeline() {
    StatsReporter r = new StatsReporter(registry, clock);
    List<StatsRow> all = r.report(Optional.empty(), Optional.empty());
    assertThat(all)
        .extracting(x -> x.module() + " " + x.counter())
        .containsExactly(
            "REPAGENT CmdsRecv",
            "SQM CmdsWritten",
            "SQM SQMBacklogBytes",
            "SQM SQMWriteTime",
            "SQMR CmdsRead");
    assertThat(r.report(Optional.of("sqmr"), Optional.empty()))
        .singleElement()
        .satisfies(
            x -> {
              assertThat(x.extraTags()).isEqualTo(Map.of("reader", "SQT"));
              assertThat(x.instanceLabel()).isEqualTo("101:1 reader=SQT");
            });
    assertThat(r.report(Optional.empty(), Optional.of("PDS.PDB")))
        .extracting(StatsRow::counter)
        .containsExactly("CmdsRecv");
    assertThat(r.report(Optional.of("DSI"), Optional.empty())).isEmpty();
  }

  @Test
  void throughputAndBacklogReportsShowTheirCountersInPipelineOrder() {
    FunctionCounter.builder("BlocksRead", cmdsRead, AtomicLong::get)
        .tags("module", "SQMR", "instance", "101:1", "reader", "SQT")
        .register(registry);
    Gauge.builder("SQMRBacklogSeg", () -> 3)
        .tags("module", "SQMR", "instance", "101:1", "reader", "SQT")
        .register(registry);
    StatsReporter r = new StatsReporter(registry, clock);
    clock.add(Duration.ofSeconds(2));
    cmdsRecv.addAndGet(10);
    cmdsWritten.addAndGet(8);
    cmdsRead.addAndGet(6);
    List<StatsRow> cps = r.rate(Throughput.parse("CPS"));
    assertThat(cps)
        .extracting(x -> x.module() + " " + x.counter() + " " + x.ratePerSecond())
        .containsExactly("REPAGENT CmdsRecv 5.0", "SQM CmdsWritten 4.0", "SQMR CmdsRead 3.0");
    assertThat(r.backlog())
        .extracting(x -> x.module() + " " + x.counter() + " " + x.last())
        .containsExactly("SQM SQMBacklogBytes 0.0", "SQMR SQMRBacklogSeg 3.0");
    assertThat(r.rate(Throughput.TPS)).isEmpty();
  }
}
