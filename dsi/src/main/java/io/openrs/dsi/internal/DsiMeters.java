package io.openrs.dsi.internal;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.openrs.dsi.DsiCounter;
import io.openrs.ltl.LtlCommand;
import io.openrs.runtime.CounterKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The meters of one DSI connection: {@code DSI} counters and, per executor thread, {@code DSIEXEC}
 * counters. Counters are {@link LongAdder}s bumped by whichever DSI thread does the work and read
 * by Micrometer {@link FunctionCounter}s. They live as long as the {@code DsiConnection} (across
 * suspend and resume) and are removed from the registry when it closes. Thread-safe.
 */
public final class DsiMeters implements AutoCloseable {
  private final MeterRegistry registry;
  private final String instance;
  private final Group dsi;
  private final Map<Integer, Group> exec = new ConcurrentHashMap<>();
  private final List<Meter> registered = new ArrayList<>();

  private volatile TransactionHandoff handoff;

  /** Registers the meters of connection {@code instance} ({@code ds.db}). */
  public DsiMeters(MeterRegistry registry, String instance) {
    this.registry = registry;
    this.instance = instance;
    this.dsi = new Group(Tags.of("module", "DSI", "instance", instance), DsiCounter.Module.DSI);
    gauge(
        DsiCounter.HANDOFF_BYTES,
        () -> {
          TransactionHandoff h = handoff;
          return h == null ? 0 : h.bytes();
        });
    gauge(
        DsiCounter.HVAR_COMPILE_RATIO,
        () -> {
          long rows =
              value(DsiCounter.HVAR_NET_INSERTS)
                  + value(DsiCounter.HVAR_NET_UPDATES)
                  + value(DsiCounter.HVAR_NET_DELETES);
          return rows == 0 ? 0 : (double) value(DsiCounter.HVAR_CMDS_COMPILED) / rows;
        });
  }

  /** Histogram buckets of the summaries (commands or rows). */
  private static final double[] BUCKETS = {1, 10, 100, 1_000, 10_000, 100_000};

  private final Map<String, DistributionSummary> perTable = new ConcurrentHashMap<>();

  /** Adds an observation to a {@code DSI} summary. */
  public void record(DsiCounter c, long amount) {
    dsi.summary(c).record(amount);
  }

  /**
   * Adds an observation to a summary kept per replicate table and operation ({@code
   * HVARBatchRows}).
   */
  public void recordPerTable(DsiCounter c, String table, String op, long amount) {
    if (!c.perTable()) {
      throw new IllegalArgumentException(c + " is not kept per table");
    }
    perTable
        .computeIfAbsent(
            c.counterName() + "\u0000" + table + "\u0000" + op,
            k -> {
              DistributionSummary s =
                  DistributionSummary.builder(c.counterName())
                      .tags(dsi.tags.and("table", table, "op", op))
                      .description(c.description())
                      .baseUnit(c.unit())
                      .serviceLevelObjectives(BUCKETS)
                      .register(registry);
              synchronized (registered) {
                registered.add(s);
              }
              return s;
            })
        .record(amount);
  }

  /** A {@code DSI} timer. */
  public Timer timer(DsiCounter c) {
    return dsi.timer(c);
  }

  /** Origin commit time (epoch micros) of the last transaction applied; MIN_VALUE: none yet. */
  private volatile long lastAppliedMicros = Long.MIN_VALUE;

  /** Transactions were committed at the replicate: remembers the latest origin commit time. */
  public void applied(List<SourceTransaction> txs) {
    long latest = lastAppliedMicros;
    for (SourceTransaction t : txs) {
      Optional<LtlCommand.Commit> c = t.commit();
      if (c.isPresent()) {
        Instant time = c.get().time();
        latest = Math.max(latest, time.getEpochSecond() * 1_000_000 + time.getNano() / 1_000);
      }
    }
    lastAppliedMicros = latest;
  }

  /** The origin commit time of the last transaction applied since the connection started. */
  public Optional<Instant> lastApplied() {
    long m = lastAppliedMicros;
    return m == Long.MIN_VALUE
        ? Optional.empty()
        : Optional.of(
            Instant.ofEpochSecond(
                Math.floorDiv(m, 1_000_000), Math.floorMod(m, 1_000_000) * 1_000));
  }

  /**
   * Registers the connection's state, backlog and lag gauges ({@code DSIActive}, {@code DSIDown},
   * {@code DSIBacklogBytes}, {@code DSILag}).
   *
   * @param active whether the DSI applies now
   * @param down whether it is Down after an error
   * @param backlogBytes bytes of the outbound queue after its reader's confirmed position
   */
  public void watchConnection(
      java.util.function.BooleanSupplier active,
      java.util.function.BooleanSupplier down,
      java.util.function.LongSupplier backlogBytes,
      java.time.Clock clock) {
    this.clock = clock;
    gauge(DsiCounter.DSI_ACTIVE, () -> active.getAsBoolean() ? 1 : 0);
    gauge(DsiCounter.DSI_DOWN, () -> down.getAsBoolean() ? 1 : 0);
    gauge(DsiCounter.DSI_BACKLOG_BYTES, backlogBytes::getAsLong);
    gauge(DsiCounter.DSI_LAG, () -> lagSeconds(backlogBytes.getAsLong()));
  }

  private volatile java.time.Clock clock = java.time.Clock.systemUTC();

  /**
   * {@code DSILag}: now minus the origin commit time of the last applied transaction while
   * transactions wait (in the outbound queue, {@code backlogBytes}, or the hand-off); 0 when none
   * waits; NaN while some wait and none has been applied since the connection started.
   */
  public double lagSeconds(long backlogBytes) {
    TransactionHandoff h = handoff;
    if (backlogBytes == 0 && (h == null || h.bytes() == 0)) {
      return 0.0;
    }
    return lastApplied()
        .map(t -> java.time.Duration.between(t, clock.instant()).toNanos() / 1e9)
        .orElse(Double.NaN);
  }

  /** The hand-off of the current run, for the {@code DSIHandoffBytes} gauge. */
  public void watch(TransactionHandoff h) {
    this.handoff = h;
  }

  /** Adds to a {@code DSI} counter. */
  public void add(DsiCounter c, long n) {
    dsi.add(c, n);
  }

  /** A counter's value; {@code DSIEXEC} counters summed over the threads (tests, logs). */
  public long value(DsiCounter c) {
    if (c.module() == DsiCounter.Module.DSI) {
      return dsi.value(c);
    }
    long sum = 0;
    for (Group g : exec.values()) {
      sum += g.value(c);
    }
    return sum;
  }

  /** Registers a {@code DSI} gauge read from {@code value}. */
  void gauge(DsiCounter c, Supplier<Number> value) {
    synchronized (registered) {
      registered.add(
          Gauge.builder(c.counterName(), value)
              .tags(dsi.tags)
              .description(c.description())
              .baseUnit(c.unit())
              .register(registry));
    }
  }

  /** The {@code DSIEXEC} meters of executor thread {@code thread} (1, 2, ...). */
  Group exec(int thread) {
    return exec.computeIfAbsent(
        thread,
        t ->
            new Group(
                Tags.of("module", "DSIEXEC", "instance", instance, "thread", Integer.toString(t)),
                DsiCounter.Module.DSIEXEC));
  }

  /** Removes every meter from the registry. */
  @Override
  public void close() {
    synchronized (registered) {
      registered.forEach(registry::remove);
      registered.clear();
    }
  }

  /** The meters of one module instance. */
  final class Group {
    private final Tags tags;
    private final Map<DsiCounter, LongAdder> counts = new EnumMap<>(DsiCounter.class);
    private final Map<DsiCounter, Timer> timers = new EnumMap<>(DsiCounter.class);
    private final Map<DsiCounter, DistributionSummary> summaries = new EnumMap<>(DsiCounter.class);

    private Group(Tags tags, DsiCounter.Module module) {
      this.tags = tags;
      List<Meter> made = new ArrayList<>();
      for (DsiCounter c : DsiCounter.values()) {
        if (c.module() != module || c.perTable()) {
          continue;
        }
        if (c.kind() == CounterKind.COUNTER) {
          LongAdder a = new LongAdder();
          counts.put(c, a);
          made.add(
              FunctionCounter.builder(c.counterName(), a, LongAdder::doubleValue)
                  .tags(tags)
                  .description(c.description())
                  .baseUnit(c.unit())
                  .register(registry));
        } else if (c.kind() == CounterKind.TIMER) {
          Timer t =
              Timer.builder(c.counterName())
                  .tags(tags)
                  .description(c.description())
                  .register(registry);
          timers.put(c, t);
          made.add(t);
        } else if (c.kind() == CounterKind.SUMMARY) {
          DistributionSummary s =
              DistributionSummary.builder(c.counterName())
                  .tags(tags)
                  .description(c.description())
                  .baseUnit(c.unit())
                  .serviceLevelObjectives(BUCKETS)
                  .register(registry);
          summaries.put(c, s);
          made.add(s);
        }
      }
      synchronized (registered) {
        registered.addAll(made);
      }
    }

    public void add(DsiCounter c, long n) {
      LongAdder a = counts.get(c);
      if (a == null) {
        throw new IllegalArgumentException(c + " is not a counter of this module");
      }
      a.add(n);
    }

    long value(DsiCounter c) {
      LongAdder a = counts.get(c);
      return a == null ? 0 : a.sum();
    }

    DistributionSummary summary(DsiCounter c) {
      DistributionSummary s = summaries.get(c);
      if (s == null) {
        throw new IllegalArgumentException(c + " is not a summary of this module");
      }
      return s;
    }

    public Timer timer(DsiCounter c) {
      Timer t = timers.get(c);
      if (t == null) {
        throw new IllegalArgumentException(c + " is not a timer of this module");
      }
      return t;
    }
  }
}
