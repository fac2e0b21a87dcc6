package io.openrs.repserver.monitor;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What {@code admin stats} shows, computed from the meter registry: for every meter with a {@code
 * module} tag, its observations, total, last, max and rate since the last {@link #reset()}.
 * Counters keep running in the modules; a reset only moves this reporter's baseline.
 *
 * <p>A <em>sample</em> is taken of each meter a call shows (every {@code report}, {@code backlog}
 * and {@code rate}); the span between two samples of a meter (or between the reset and its first
 * sample) is an <em>interval</em>, which defines {@code last} and {@code max}. {@code
 * docs/monitoring.md} gives the numbers per kind.
 *
 * <p>A meter registered after the reset counts from 0 (modules register meters when a queue or
 * origin starts, with fresh counts). A counter that goes backwards was registered again (a queue
 * reopened): what it had counted is kept and its new counts are added.
 *
 * <p>Thread-safe: admin sessions and the sampler call it; one lock. Reading a meter calls its
 * function; modules keep those to plain field reads.
 */
public final class StatsReporter {

  /** The counters of {@code admin stats, backlog}. */
  public static final List<Throughput.Source> BACKLOG =
      List.of(
          new Throughput.Source("SQM", "SQMBacklogBytes"),
          new Throughput.Source("SQMR", "SQMRBacklogSeg"),
          new Throughput.Source("SQMR", "SQMRBacklogBlock"));

  private final MeterRegistry registry;
  private final Clock clock;

  /** Guarded by this. */
  private final Map<Meter.Id, Track> tracks = new HashMap<>();

  /** Guarded by this. */
  private long resetMonotonicNanos;

  /** Guarded by this. */
  private long resetWallMillis;

  /** Starts with a reset: values count from now. */
  public StatsReporter(MeterRegistry registry, Clock clock) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.clock = Objects.requireNonNull(clock, "clock");
    reset();
  }

  public MeterRegistry registry() {
    return registry;
  }

  public Clock clock() {
    return clock;
  }

  /** {@code admin stats, reset}: values count from now. */
  public synchronized void reset() {
    tracks.clear();
    resetMonotonicNanos = clock.monotonicTime();
    resetWallMillis = clock.wallTime();
    for (Meter m : registry.getMeters()) {
      MeterReading.read(m).ifPresent(r -> tracks.put(m.getId(), Track.baseline(r)));
    }
  }

  /** When the last reset happened. */
  public synchronized Instant resetAt() {
    return Instant.ofEpochMilli(resetWallMillis);
  }

  /** Time since the last reset. */
  public synchronized Duration sinceReset() {
    return Duration.ofNanos(clock.monotonicTime() - resetMonotonicNanos);
  }

  /**
   * {@code admin stats, "all" | <module> [, <instance>]}: the counters of {@code module} (every
   * module when empty) and {@code instance} (every instance when empty), both ignoring case, by
   * module in pipeline order, instance, counter name and extra tags.
   */
  public synchronized List<StatsRow> report(Optional<String> module, Optional<String> instance) {
    return rows(
        id -> MeterReading.selected(id, module, instance),
        Comparator.comparing(Sampled::id, MeterReading.ID_ORDER));
  }

  /**
   * {@code admin stats, backlog}: {@code SQMBacklogBytes} per queue, {@code SQMRBacklogSeg} and
   * {@code SQMRBacklogBlock} per queue reader.
   */
  public synchronized List<StatsRow> backlog() {
    return bySources(BACKLOG);
  }

  /** {@code admin stats, tps | cps | bps}: the counters of {@code kind}, rate since reset. */
  public synchronized List<StatsRow> rate(Throughput kind) {
    return bySources(kind.sources());
  }

  private List<StatsRow> bySources(List<Throughput.Source> sources) {
    Predicate<Meter.Id> selected = id -> sourceIndex(sources, id) >= 0;
    Comparator<Sampled> order =
        Comparator.<Sampled>comparingInt(s -> sourceIndex(sources, s.id()))
            .thenComparing(Sampled::id, MeterReading.ID_ORDER);
    return rows(selected, order);
  }

  private static int sourceIndex(List<Throughput.Source> sources, Meter.Id id) {
    String module = MeterReading.module(id);
    for (int i = 0; i < sources.size(); i++) {
      Throughput.Source s = sources.get(i);
      if (s.counter().equals(id.getName()) && s.module().equalsIgnoreCase(module)) {
        return i;
      }
    }
    return -1;
  }

  private record Sampled(Meter.Id id, StatsRow row) {}

  private List<StatsRow> rows(Predicate<Meter.Id> selected, Comparator<Sampled> order) {
    double seconds = (clock.monotonicTime() - resetMonotonicNanos) / 1e9;
    List<Meter> meters = registry.getMeters();
    Set<Meter.Id> present = new HashSet<>();
    List<Sampled> out = new ArrayList<>();
    for (Meter m : meters) {
      Meter.Id id = m.getId();
      present.add(id);
      if (!selected.test(id)) {
        continue;
      }
      Optional<MeterReading> reading = MeterReading.read(m);
      if (reading.isEmpty()) {
        continue;
      }
      MeterReading r = reading.get();
      Track t = tracks.get(id);
      if (t == null || t.kind != r.kind()) {
        t = Track.registeredAfterReset(r.kind());
        tracks.put(id, t);
      }
      t.sample(r);
      out.add(new Sampled(id, t.row(id, seconds)));
    }
    tracks.keySet().retainAll(present);
    out.sort(order);
    return out.stream().map(Sampled::row).toList();
  }

  /** What this reporter remembers of one meter since the reset. Guarded by the reporter. */
  private static final class Track {
    final MeterReading.Kind kind;

    /** Counter value / timer count and time at the reset (0 if registered later). */
    double baseCount;

    double baseMillis;

    /** Counted before the meter was registered again (it went backwards). */
    double carriedCount;

    double carriedMillis;

    /** The previous sample. */
    double prevCount;

    double prevMillis;

    double last;
    double max;
    boolean hasMax;
    long samples;
    double gaugeSum;

    private Track(MeterReading.Kind kind) {
      this.kind = kind;
    }

    static Track baseline(MeterReading r) {
      Track t = new Track(r.kind());
      if (r.kind() != MeterReading.Kind.GAUGE) {
        t.baseCount = r.count();
        t.baseMillis = r.totalMillis();
        t.prevCount = r.count();
        t.prevMillis = r.totalMillis();
      }
      return t;
    }

    static Track registeredAfterReset(MeterReading.Kind kind) {
      return new Track(kind);
    }

    void sample(MeterReading r) {
      switch (kind) {
        case GAUGE:
          samples++;
          gaugeSum += r.count();
          last = r.count();
          noteMax(last);
          break;
        case COUNTER:
          {
            double delta = advance(r);
            last = delta;
            noteMax(delta);
            break;
          }
        case TIMER:
          {
            double millisBefore = prevMillis;
            double countBefore = prevCount;
            boolean restarted = r.count() < prevCount || r.totalMillis() < prevMillis;
            advance(r);
            double dc = restarted ? r.count() : r.count() - countBefore;
            double dt = restarted ? r.totalMillis() : r.totalMillis() - millisBefore;
            if (dc > 0) {
              last = dt / dc;
              noteMax(last);
            }
            break;
          }
      }
    }

    /** Moves to reading {@code r}; returns the count's increase. */
    private double advance(MeterReading r) {
      double delta;
      if (r.count() < prevCount || r.totalMillis() < prevMillis) {
        carriedCount += prevCount - baseCount;
        carriedMillis += prevMillis - baseMillis;
        baseCount = 0;
        baseMillis = 0;
        delta = r.count();
      } else {
        delta = r.count() - prevCount;
      }
      prevCount = r.count();
      prevMillis = r.totalMillis();
      return delta;
    }

    private void noteMax(double v) {
      if (!hasMax || v > max) {
        max = v;
        hasMax = true;
      }
    }

    StatsRow row(Meter.Id id, double seconds) {
      long obs;
      double total;
      double rate;
      switch (kind) {
        case GAUGE:
          obs = samples;
          total = gaugeSum;
          rate = 0;
          break;
        case TIMER:
          {
            double count = carriedCount + prevCount - baseCount;
            obs = Math.round(count);
            total = carriedMillis + prevMillis - baseMillis;
            rate = seconds > 0 ? count / seconds : 0;
            break;
          }
        default:
          {
            total = carriedCount + prevCount - baseCount;
            obs = Math.round(total);
            rate = seconds > 0 ? total / seconds : 0;
            break;
          }
      }
      return new StatsRow(
          MeterReading.module(id),
          MeterReading.instance(id),
          id.getName(),
          MeterReading.extraTags(id),
          obs,
          total,
          last,
          hasMax ? max : 0,
          rate);
    }
  }
}
