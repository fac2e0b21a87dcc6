package io.openrs.repserver.monitor;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Meter;
import io.openrs.config.rssd.CounterSample;
import io.openrs.config.rssd.CounterSamplesTable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code admin stats, "all" | <module> [, <instance>], save, <obs_interval>, <sample_period>}:
 * resets {@code admin stats}, then at the end of every observation interval writes one sample per
 * counter to the RSSD ({@code rs_statdetail} through {@link CounterSamplesTable}) until the sample
 * period ends. The period is cut into whole intervals; a remainder lengthens the last one, as in
 * Replication Server. One save runs at a time.
 *
 * <p>Sample values: a counter's increase over the interval; a timer's milliseconds over the
 * interval under its name and its observations under {@code <name>.obs}; a gauge's value at the end
 * of the interval. The instance column is {@link StatsRow#instanceLabel()} ({@code 101:1
 * reader=SQT}).
 *
 * <p>Observations run on the executor given at construction (not owned: the caller shuts it down).
 * A failed RSSD write stops the save; {@link #status()} says why. Thread-safe.
 */
public final class StatsSampler implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(StatsSampler.class);

  /** The shortest observation interval accepted (Replication Server: 15 s). */
  public static final Duration MIN_OBSERVATION_INTERVAL = Duration.ofSeconds(1);

  /**
   * The longest sample period accepted: 7 days. A save holds the sampler (one runs at a time) and
   * writes to the RSSD for its whole period; a week of 15 s observations is 40,320 of them. Longer
   * periods (a mistyped 31 years was accepted before) are refused; run another save after it.
   */
  public static final Duration MAX_SAMPLE_PERIOD = Duration.ofDays(7);

  /** Suffix of the sample holding a timer's observations in the interval. */
  public static final String OBSERVATIONS_SUFFIX = ".obs";

  private static final Pattern CLOCK_TIME = Pattern.compile("(\\d+):(\\d{1,2})(?::(\\d{1,2}))?");

  /** Where a save is. */
  public enum State {
    /** No save has run. */
    IDLE,
    RUNNING,
    /** The sample period ended and every observation was saved. */
    FINISHED,
    CANCELLED,
    /** Stopped by an error, see {@link Status#failure()}. */
    FAILED
  }

  /**
   * What to save.
   *
   * @param module the module to sample; empty for {@code "all"}
   * @param instance the instance to sample; empty for all
   * @param observationInterval time between two observations
   * @param samplePeriod how long to sample; at least one interval
   */
  public record SaveRequest(
      Optional<String> module,
      Optional<String> instance,
      Duration observationInterval,
      Duration samplePeriod) {
    public SaveRequest {
      Objects.requireNonNull(module, "module");
      Objects.requireNonNull(instance, "instance");
      Objects.requireNonNull(observationInterval, "observationInterval");
      Objects.requireNonNull(samplePeriod, "samplePeriod");
      if (observationInterval.isNegative() || observationInterval.isZero()) {
        throw new IllegalArgumentException(
            "observation interval must be positive, got " + observationInterval.toSeconds() + " s");
      }
      if (samplePeriod.compareTo(observationInterval) < 0) {
        throw new IllegalArgumentException(
            "sample period ("
                + format(samplePeriod)
                + ") must be at least one observation interval ("
                + format(observationInterval)
                + ")");
      }
    }

    /** Observations the save writes: whole intervals in the period. */
    public long observations() {
      return samplePeriod.toNanos() / observationInterval.toNanos();
    }
  }

  /**
   * {@code admin stats, status}: the running save, or the last one.
   *
   * @param state where the save is
   * @param request what it samples; empty when no save has run
   * @param started when it started
   * @param nextObservation when the next observation is due, while running
   * @param ends when the sample period ends
   * @param remaining time left in the period, 0 when not running
   * @param observationsSaved observations written so far
   * @param observationsPlanned observations the period holds
   * @param failure why a failed save stopped
   */
  public record Status(
      State state,
      Optional<SaveRequest> request,
      Optional<Instant> started,
      Optional<Instant> nextObservation,
      Optional<Instant> ends,
      Duration remaining,
      long observationsSaved,
      long observationsPlanned,
      Optional<String> failure) {
    public boolean running() {
      return state == State.RUNNING;
    }
  }

  private final StatsReporter reporter;
  private final CounterSamplesTable table;
  private final ScheduledExecutorService executor;
  private final Clock clock;
  private final Duration minimumInterval;

  /** The running save. Guarded by this. */
  private Run current;

  /** The running or last save. Guarded by this. */
  private Run latest;

  /**
   * A sampler over {@code reporter}'s registry and clock.
   *
   * @param executor runs the observations; not shut down by this sampler
   */
  public StatsSampler(
      StatsReporter reporter, CounterSamplesTable table, ScheduledExecutorService executor) {
    this(reporter, table, executor, MIN_OBSERVATION_INTERVAL);
  }

  /** With another minimum interval, for tests. */
  StatsSampler(
      StatsReporter reporter,
      CounterSamplesTable table,
      ScheduledExecutorService executor,
      Duration minimumInterval) {
    this.reporter = Objects.requireNonNull(reporter, "reporter");
    this.table = Objects.requireNonNull(table, "table");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.clock = reporter.clock();
    this.minimumInterval = minimumInterval;
  }

  /**
   * Starts a save: resets {@code admin stats} and schedules the first observation.
   *
   * @throws IllegalStateException if a save is running
   * @throws IllegalArgumentException if the interval is below {@link #MIN_OBSERVATION_INTERVAL} or
   *     the period above {@link #MAX_SAMPLE_PERIOD}
   */
  public synchronized Status start(SaveRequest request) {
    Objects.requireNonNull(request, "request");
    if (current != null) {
      throw new IllegalStateException(
          "a stats save is already running (started "
              + current.started
              + ", ends "
              + current.ends()
              + ", observation "
              + current.saved
              + " of "
              + current.planned
              + "); cancel it first or wait until it ends");
    }
    if (request.observationInterval().compareTo(minimumInterval) < 0) {
      throw new IllegalArgumentException(
          "observation interval "
              + format(request.observationInterval())
              + " is below the minimum of "
              + format(minimumInterval));
    }
    if (request.samplePeriod().compareTo(MAX_SAMPLE_PERIOD) > 0) {
      throw new IllegalArgumentException(
          "sample period "
              + format(request.samplePeriod())
              + " is above the maximum of "
              + format(MAX_SAMPLE_PERIOD)
              + " (7 days); a running save is stopped with admin stats, cancel");
    }
    reporter.reset();
    Run run = new Run(request, clock.monotonicTime(), Instant.ofEpochMilli(clock.wallTime()));
    run.previous = baseline(request);
    current = run;
    latest = run;
    scheduleNext(run);
    LOG.info(
        "stats save started: {} {}, {} observations every {}, ends {}",
        request.module().orElse("all"),
        request.instance().orElse(""),
        run.planned,
        format(request.observationInterval()),
        run.ends());
    return status();
  }

  /** The running save, or the last one; {@link State#IDLE} when none has run. */
  public synchronized Status status() {
    Run r = latest;
    if (r == null) {
      return new Status(
          State.IDLE,
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Duration.ZERO,
          0,
          0,
          Optional.empty());
    }
    boolean running = r == current;
    long now = clock.monotonicTime();
    Duration remaining =
        running
            ? Duration.ofNanos(Math.max(0, r.startNanos + r.request.samplePeriod().toNanos() - now))
            : Duration.ZERO;
    Optional<Instant> next =
        running
            ? Optional.of(r.started.plusNanos(r.dueOffsetNanos(r.saved + 1)))
            : Optional.empty();
    return new Status(
        r.state,
        Optional.of(r.request),
        Optional.of(r.started),
        next,
        Optional.of(r.ends()),
        remaining,
        r.saved,
        r.planned,
        Optional.ofNullable(r.failure));
  }

  /**
   * Stops the running save ({@code admin stats, cancel}); what was saved stays.
   *
   * @return whether a save was running
   */
  public synchronized boolean cancel() {
    Run r = current;
    if (r == null) {
      return false;
    }
    if (r.next != null) {
      r.next.cancel(false);
    }
    r.state = State.CANCELLED;
    current = null;
    LOG.info("stats save cancelled after {} of {} observations", r.saved, r.planned);
    return true;
  }

  /** Cancels a running save. */
  @Override
  public void close() {
    cancel();
  }

  /**
   * Parses a sample period or interval as {@code admin stats} takes it: seconds ({@code 120}) or a
   * clock time {@code hh:mm} or {@code hh:mm:ss} ({@code 01:30:00}).
   */
  public static Duration parseDuration(String text) {
    String t = text.trim();
    if (t.matches("\\d{1,9}")) {
      return Duration.ofSeconds(Long.parseLong(t));
    }
    Matcher m = CLOCK_TIME.matcher(t);
    if (m.matches()) {
      long h = Long.parseLong(m.group(1));
      long min = Long.parseLong(m.group(2));
      long s = m.group(3) == null ? 0 : Long.parseLong(m.group(3));
      if (min < 60 && s < 60 && h < 100_000) {
        return Duration.ofHours(h).plusMinutes(min).plusSeconds(s);
      }
    }
    throw new IllegalArgumentException(
        "'" + text + "' is not a duration; give seconds (120) or 'hh:mm[:ss]' ('01:30:00')");
  }

  // ---- the observations, on the executor -----------------------------------------------------

  private void scheduleNext(Run run) {
    long due = run.startNanos + run.dueOffsetNanos(run.saved + 1);
    long delay = Math.max(0, due - clock.monotonicTime());
    run.next = executor.schedule(() -> observe(run), delay, TimeUnit.NANOSECONDS);
  }

  private void observe(Run run) {
    List<CounterSample> samples = new ArrayList<>();
    synchronized (this) {
      if (current != run) {
        return;
      }
      try {
        run.previous = readings(run.request, samples, run.previous);
      } catch (RuntimeException e) {
        fail(run, "reading the counters failed: " + e, e);
        return;
      }
    }
    try {
      table.addAll(samples);
    } catch (RuntimeException e) {
      synchronized (this) {
        if (current == run) {
          fail(
              run,
              "saving observation " + (run.saved + 1) + " to the RSSD failed: " + e.getMessage(),
              e);
        }
      }
      return;
    }
    synchronized (this) {
      if (current != run) {
        return;
      }
      run.saved++;
      if (run.saved >= run.planned) {
        run.state = State.FINISHED;
        current = null;
        LOG.info("stats save finished: {} observations saved", run.saved);
        return;
      }
      try {
        scheduleNext(run);
      } catch (RuntimeException e) {
        fail(run, "scheduling the next observation failed: " + e, e);
      }
    }
  }

  /** Guarded by this. */
  private void fail(Run run, String message, RuntimeException e) {
    run.state = State.FAILED;
    run.failure = message;
    current = null;
    LOG.warn(
        "stats save stopped after {} of {} observations: {}", run.saved, run.planned, message, e);
  }

  /** The readings of the selected meters at the start of a save. */
  private Map<Meter.Id, MeterReading> baseline(SaveRequest request) {
    Map<Meter.Id, MeterReading> now = new HashMap<>();
    for (Meter m : reporter.registry().getMeters()) {
      if (MeterReading.selected(m.getId(), request.module(), request.instance())) {
        MeterReading.read(m).ifPresent(r -> now.put(m.getId(), r));
      }
    }
    return now;
  }

  /** Reads the selected meters and adds one observation's samples (against {@code previous}). */
  private Map<Meter.Id, MeterReading> readings(
      SaveRequest request, List<CounterSample> samples, Map<Meter.Id, MeterReading> previous) {
    Instant at = Instant.ofEpochMilli(clock.wallTime());
    List<Meter> meters = new ArrayList<>(reporter.registry().getMeters());
    meters.sort((a, b) -> MeterReading.ID_ORDER.compare(a.getId(), b.getId()));
    Map<Meter.Id, MeterReading> now = new HashMap<>();
    for (Meter m : meters) {
      Meter.Id id = m.getId();
      if (!MeterReading.selected(id, request.module(), request.instance())) {
        continue;
      }
      Optional<MeterReading> reading = MeterReading.read(m);
      if (reading.isEmpty()) {
        continue;
      }
      MeterReading r = reading.get();
      now.put(id, r);
      MeterReading before = previous.get(id);
      if (before != null && before.kind() != r.kind()) {
        before = null;
      }
      String module = MeterReading.module(id);
      String instance =
          StatsRow.instanceLabel(MeterReading.instance(id), MeterReading.extraTags(id));
      switch (r.kind()) {
        case GAUGE:
          samples.add(new CounterSample(at, module, instance, id.getName(), r.count()));
          break;
        case TIMER:
          {
            boolean restarted =
                before == null
                    || r.count() < before.count()
                    || r.totalMillis() < before.totalMillis();
            double dc = restarted ? r.count() : r.count() - before.count();
            double dt = restarted ? r.totalMillis() : r.totalMillis() - before.totalMillis();
            samples.add(new CounterSample(at, module, instance, id.getName(), dt));
            samples.add(
                new CounterSample(at, module, instance, id.getName() + OBSERVATIONS_SUFFIX, dc));
            break;
          }
        case COUNTER:
          {
            boolean restarted = before == null || r.count() < before.count();
            double delta = restarted ? r.count() : r.count() - before.count();
            samples.add(new CounterSample(at, module, instance, id.getName(), delta));
            break;
          }
      }
    }
    return now;
  }

  private static String format(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
  }

  /** One save. Guarded by the sampler. */
  private static final class Run {
    final SaveRequest request;
    final long startNanos;
    final Instant started;
    final long planned;
    State state = State.RUNNING;
    long saved;
    String failure;
    ScheduledFuture<?> next;
    Map<Meter.Id, MeterReading> previous = Map.of();

    Run(SaveRequest request, long startNanos, Instant started) {
      this.request = request;
      this.startNanos = startNanos;
      this.started = started;
      this.planned = request.observations();
    }

    /** Offset from the start of observation {@code k} (1-based); the last ends the period. */
    long dueOffsetNanos(long k) {
      if (k >= planned) {
        return request.samplePeriod().toNanos();
      }
      return k * request.observationInterval().toNanos();
    }

    Instant ends() {
      return started.plus(request.samplePeriod());
    }
  }
}
