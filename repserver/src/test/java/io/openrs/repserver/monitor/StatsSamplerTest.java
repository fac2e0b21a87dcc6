package io.openrs.repserver.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.config.rssd.CounterSample;
import io.openrs.config.rssd.CounterSamplesTable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StatsSamplerTest {

  /** rs_statdetail in memory; fails writes while {@code failing} is set. */
  static final class MemorySamples implements CounterSamplesTable {
    final List<CounterSample> rows = new ArrayList<>();
    volatile boolean failing;

    @Override
    public void add(Instant at, String module, String instance, String counter, double value) {
      addAll(List.of(new CounterSample(at, module, instance, counter, value)));
    }

    @Override
    public synchronized void addAll(Collection<CounterSample> samples) {
      if (failing) {
        throw new IllegalStateException("RSSD is down");
      }
      rows.addAll(samples);
    }

    @Override
    public synchronized List<CounterSample> query(
        Instant from, Instant to, Optional<String> module, Optional<String> counter) {
      return rows.stream()
          .filter(s -> !s.sampledAt().isBefore(from) && s.sampledAt().isBefore(to))
          .filter(s -> module.map(s.module()::equals).orElse(true))
          .filter(s -> counter.map(s.counter()::equals).orElse(true))
          .toList();
    }

    @Override
    public synchronized long deleteAll() {
      long n = rows.size();
      rows.clear();
      return n;
    }

    @Override
    public synchronized long deleteBefore(Instant before) {
      long n = rows.size();
      rows.removeIf(s -> s.sampledAt().isBefore(before));
      return n - rows.size();
    }

    synchronized List<CounterSample> of(String counter) {
      return rows.stream().filter(s -> s.counter().equals(counter)).toList();
    }
  }

  private final MockClock clock = new MockClock();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);
  private final ManualScheduler scheduler = new ManualScheduler(clock);
  private final MemorySamples table = new MemorySamples();
  private final AtomicLong cmds = new AtomicLong(1000);
  private final AtomicLong writes = new AtomicLong();
  private final AtomicLong writeNanos = new AtomicLong();
  private final AtomicLong backlog = new AtomicLong();
  private final StatsReporter reporter;
  private final StatsSampler sampler;

  StatsSamplerTest() {
    FunctionCounter.builder("CmdsWritten", cmds, AtomicLong::get)
        .tags("module", "SQM", "instance", "101:1")
        .register(registry);
    FunctionTimer.builder(
            "SQMWriteTime",
            this,
            t -> t.writes.get(),
            t -> t.writeNanos.get(),
            TimeUnit.NANOSECONDS)
        .tags("module", "SQM", "instance", "101:1")
        .register(registry);
    Gauge.builder("SQMRBacklogSeg", backlog, AtomicLong::get)
        .tags("module", "SQMR", "instance", "101:1", "reader", "SQT")
        .register(registry);
    FunctionCounter.builder("STSCacheHits", cmds, AtomicLong::get)
        .tags("module", "STS", "instance", "rs_objects")
        .register(registry);
    reporter = new StatsReporter(registry, clock);
    sampler = new StatsSampler(reporter, table, scheduler);
  }

  private static StatsSampler.SaveRequest save(String module, long obsSeconds, long periodSeconds) {
    return new StatsSampler.SaveRequest(
        Optional.ofNullable(module),
        Optional.empty(),
        Duration.ofSeconds(obsSeconds),
        Duration.ofSeconds(periodSeconds));
  }

  @Test
  void writesOneSamplePerCounterPerIntervalUntilThePeriodEnds() {
    Instant start = Instant.ofEpochMilli(clock.wallTime());
    StatsSampler.Status s = sampler.start(save(null, 30, 90));
    assertThat(s.running()).isTrue();
    assertThat(s.observationsPlanned()).isEqualTo(3);
    assertThat(s.nextObservation()).contains(start.plusSeconds(30));
    assertThat(s.ends()).contains(start.plusSeconds(90));

    cmds.addAndGet(300);
    writes.set(10);
    writeNanos.set(TimeUnit.MILLISECONDS.toNanos(50));
    backlog.set(4);
    scheduler.advance(Duration.ofSeconds(30));
    assertThat(table.of("CmdsWritten"))
        .singleElement()
        .isEqualTo(new CounterSample(start.plusSeconds(30), "SQM", "101:1", "CmdsWritten", 300));
    assertThat(table.of("SQMWriteTime"))
        .singleElement()
        .extracting(CounterSample::value)
        .isEqualTo(50.0);
    assertThat(table.of("SQMWriteTime.obs"))
        .singleElement()
        .extracting(CounterSample::value)
        .isEqualTo(10.0);
    assertThat(table.of("SQMRBacklogSeg"))
        .singleElement()
        .isEqualTo(
            new CounterSample(
                start.plusSeconds(30), "SQMR", "101:1 reader=SQT", "SQMRBacklogSeg", 4));

    cmds.addAndGet(60);
    backlog.set(1);
    scheduler.advance(Duration.ofSeconds(30));
    assertThat(table.of("CmdsWritten"))
        .extracting(CounterSample::value)
        .containsExactly(300.0, 60.0);
    assertThat(table.of("SQMWriteTime.obs"))
        .extracting(CounterSample::value)
        .containsExactly(10.0, 0.0);
    assertThat(table.of("SQMRBacklogSeg"))
        .extracting(CounterSample::value)
        .containsExactly(4.0, 1.0);
    StatsSampler.Status mid = sampler.status();
    assertThat(mid.observationsSaved()).isEqualTo(2);
    assertThat(mid.remaining()).isEqualTo(Duration.ofSeconds(30));

    scheduler.advance(Duration.ofSeconds(30));
    assertThat(table.of("CmdsWritten")).hasSize(3);
    StatsSampler.Status done = sampler.status();
    assertThat(done.state()).isEqualTo(StatsSampler.State.FINISHED);
    assertThat(done.observationsSaved()).isEqualTo(3);
    assertThat(done.remaining()).isZero();
    assertThat(done.nextObservation()).isEmpty();
    assertThat(scheduler.pending()).isZero();
    // Nothing more is written after the period.
    scheduler.advance(Duration.ofMinutes(5));
    assertThat(table.of("CmdsWritten")).hasSize(3);
  }

  @Test
  void theRemainderOfThePeriodLengthensTheLastInterval() {
    Instant start = Instant.ofEpochMilli(clock.wallTime());
    assertThat(sampler.start(save("SQM", 20, 50)).observationsPlanned()).isEqualTo(2);
    scheduler.advance(Duration.ofSeconds(60));
    assertThat(table.of("CmdsWritten"))
        .extracting(CounterSample::sampledAt)
        .containsExactly(start.plusSeconds(20), start.plusSeconds(50));
  }

  @Test
  void aModuleSaveSamplesOnlyThatModuleAndResetsAdminStats() {
    cmds.addAndGet(5);
    sampler.start(save("sts", 15, 15));
    assertThat(reporter.resetAt().toEpochMilli()).isEqualTo(clock.wallTime());
    scheduler.advance(Duration.ofSeconds(15));
    assertThat(table.rows).extracting(CounterSample::module).containsOnly("STS");
  }

  @Test
  void aSecondSaveIsRefusedWhileOneRuns() {
    sampler.start(save(null, 15, 60));
    assertThatThrownBy(() -> sampler.start(save("SQM", 15, 60)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("a stats save is already running")
        .hasMessageContaining("observation 0 of 4");
    scheduler.advance(Duration.ofSeconds(60));
    assertThat(sampler.start(save("SQM", 15, 60)).running()).isTrue();
  }

  @Test
  void cancelStopsTheSaveAndKeepsWhatWasSaved() {
    assertThat(sampler.cancel()).isFalse();
    sampler.start(save(null, 10, 100));
    scheduler.advance(Duration.ofSeconds(25));
    assertThat(sampler.cancel()).isTrue();
    assertThat(sampler.status().state()).isEqualTo(StatsSampler.State.CANCELLED);
    assertThat(sampler.status().observationsSaved()).isEqualTo(2);
    assertThat(scheduler.pending()).isZero();
    scheduler.advance(Duration.ofSeconds(100));
    assertThat(table.of("CmdsWritten")).hasSize(2);
  }

  @Test
  void aFailedRssdWriteStopsTheSaveWithTheReason() {
    sampler.start(save(null, 10, 100));
    scheduler.advance(Duration.ofSeconds(10));
    table.failing = true;
    scheduler.advance(Duration.ofSeconds(10));
    StatsSampler.Status s = sampler.status();
    assertThat(s.state()).isEqualTo(StatsSampler.State.FAILED);
    assertThat(s.failure()).hasValueSatisfying(f -> assertThat(f).contains("RSSD is down"));
    assertThat(s.observationsSaved()).isEqualTo(1);
    assertThat(scheduler.pending()).isZero();
  }

  @Test
  void statusBeforeAnySaveIsIdle() {
    StatsSampler.Status s = sampler.status();
    assertThat(s.state()).isEqualTo(StatsSampler.State.IDLE);
    assertThat(s.request()).isEmpty();
  }

  @Test
  void intervalsBelowTheMinimumAndPeriodsShorterThanAnIntervalAreRefused() {
    assertThatThrownBy(
            () ->
                sampler.start(
                    new StatsSampler.SaveRequest(
                        Optional.empty(),
                        Optional.empty(),
                        Duration.ofMillis(500),
                        Duration.ofSeconds(5))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("below the minimum of 1 s");
    assertThatThrownBy(() -> save(null, 30, 20))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one observation interval");
    assertThat(sampler.status().state()).isEqualTo(StatsSampler.State.IDLE);
  }

  @Test
  void durationsAreSecondsOrClockTimes() {
    assertThat(StatsSampler.parseDuration("120")).isEqualTo(Duration.ofSeconds(120));
    assertThat(StatsSampler.parseDuration("01:30")).isEqualTo(Duration.ofMinutes(90));
    assertThat(StatsSampler.parseDuration("01:30:15"))
        .isEqualTo(Duration.ofMinutes(90).plusSeconds(15));
    assertThatThrownBy(() -> StatsSampler.parseDuration("1:75"))
        .hasMessageContaining("'1:75' is not a duration");
    assertThatThrownBy(() -> StatsSampler.parseDuration("ten"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void runsOnARealSchedulerToo() throws Exception {
    ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    try {
      SimpleMeterRegistry real = new SimpleMeterRegistry();
      AtomicLong n = new AtomicLong();
      FunctionCounter.builder("CmdsWritten", n, AtomicLong::get)
          .tags("module", "SQM", "instance", "101:1")
          .register(real);
      MemorySamples rows = new MemorySamples();
      StatsSampler s =
          new StatsSampler(
              new StatsReporter(real, Clock.SYSTEM), rows, executor, Duration.ofMillis(10));
      n.set(5);
      s.start(
          new StatsSampler.SaveRequest(
              Optional.empty(), Optional.empty(), Duration.ofMillis(20), Duration.ofMillis(60)));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> s.status().state() == StatsSampler.State.FINISHED);
      assertThat(rows.of("CmdsWritten")).hasSize(3);
      assertThat(rows.of("CmdsWritten").stream().mapToDouble(CounterSample::value).sum())
          .isEqualTo(0.0);
    } finally {
      executor.shutdownNow();
    }
  }
}
