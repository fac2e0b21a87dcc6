package io.openrs.repserver.monitor;

import io.openrs.config.rssd.StsCounter;
import io.openrs.dsi.DsiCounter;
import io.openrs.queue.QueueCounter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every monitor counter the server can register, merged from the modules' catalogues ({@link
 * QueueCounter}, {@link ServerCounter}, {@link DsiCounter}, {@link StsCounter}): what {@code
 * rs_helpcounter} lists and what the Prometheus naming convention consults for units. A counter is
 * identified by its module and name: the same name may exist in two modules ({@code CmdsRead} of
 * {@code SQMR} and {@code DIST}).
 *
 * <p>Immutable and thread-safe.
 */
public final class CounterCatalog {

  /**
   * Modules in pipeline order, the order {@code admin stats} and {@code rs_helpcounter} list them
   * in; modules not named here follow in alphabetical order.
   */
  public static final List<String> MODULE_ORDER =
      List.of(
          "REPAGENT",
          "NRM",
          "SQM",
          "SQMR",
          "SQT",
          "DIST",
          "DSI",
          "DSIEXEC",
          "RSI",
          "RSIUSER",
          "STS",
          "CM");

  /** Orders module names as {@link #MODULE_ORDER}, then alphabetically. */
  public static final Comparator<String> MODULE_COMPARATOR =
      Comparator.<String>comparingInt(
              m -> {
                int i = MODULE_ORDER.indexOf(m.toUpperCase(Locale.ROOT));
                return i < 0 ? MODULE_ORDER.size() : i;
              })
          .thenComparing(m -> m.toUpperCase(Locale.ROOT));

  /** Queue counters that Replication Server does not have (the enum does not say). */
  private static final Set<String> QUEUE_COUNTERS_NOT_IN_RS =
      Set.of("SQMFlushes", "SegsAllocated", "SegsDeallocated", "SQMBacklogBytes");

  /** STS counters whose name Replication Server has (the enum does not say). */
  private static final Set<String> STS_COUNTERS_IN_RS = Set.of("STSCacheExceed");

  private final List<CounterInfo> all;
  private final Map<String, String> unitByName;

  /**
   * A catalogue of {@code counters}.
   *
   * @throws IllegalArgumentException if a module lists a name twice, or one name has two kinds or
   *     two units that Prometheus would tell apart (seconds, bytes)
   */
  public CounterCatalog(List<CounterInfo> counters) {
    List<CounterInfo> sorted = new ArrayList<>(counters);
    // Stable: keeps each module's declaration order.
    sorted.sort(Comparator.comparing(CounterInfo::module, MODULE_COMPARATOR));
    Set<String> seen = new LinkedHashSet<>();
    Map<String, CounterInfo> byName = new HashMap<>();
    Map<String, String> units = new HashMap<>();
    for (CounterInfo c : sorted) {
      if (!seen.add(c.module().toUpperCase(Locale.ROOT) + " " + c.name())) {
        throw new IllegalArgumentException(
            "counter " + c.name() + " listed twice in module " + c.module());
      }
      CounterInfo other = byName.putIfAbsent(c.name(), c);
      if (other != null && !other.prometheusName().equals(c.prometheusName())) {
        throw new IllegalArgumentException(
            "counter "
                + c.name()
                + " of "
                + c.module()
                + " would be scraped as "
                + c.prometheusName()
                + " but the same name of "
                + other.module()
                + " as "
                + other.prometheusName()
                + "; use one kind and unit for one name");
      }
      units.putIfAbsent(c.name(), c.unit());
    }
    this.all = List.copyOf(sorted);
    this.unitByName = Map.copyOf(units);
  }

  /** The catalogue of every module's counters. */
  public static CounterCatalog standard() {
    List<CounterInfo> list = new ArrayList<>();
    for (QueueCounter c : QueueCounter.values()) {
      list.add(
          new CounterInfo(
              c.counterName(),
              c.module().name(),
              kind(c.kind().name()),
              c.unit(),
              c.description(),
              !QUEUE_COUNTERS_NOT_IN_RS.contains(c.counterName())));
    }
    for (ServerCounter c : ServerCounter.values()) {
      list.add(
          new CounterInfo(
              c.counterName(),
              c.module().name(),
              kind(c.kind().name()),
              c.unit(),
              c.description(),
              c.rsName()));
    }
    for (DsiCounter c : DsiCounter.values()) {
      list.add(
          new CounterInfo(
              c.counterName(),
              c.module().name(),
              kind(c.kind().name()),
              c.unit(),
              c.description(),
              c.rsName()));
    }
    for (StsCounter c : StsCounter.values()) {
      list.add(
          new CounterInfo(
              c.counterName(),
              StsCounter.MODULE,
              CounterInfo.COUNTER,
              c.unit(),
              c.description(),
              STS_COUNTERS_IN_RS.contains(c.counterName())));
    }
    return new CounterCatalog(list);
  }

  /** Returns a catalogue with {@code more} added (a module that brings its own catalogue). */
  public CounterCatalog with(List<CounterInfo> more) {
    List<CounterInfo> list = new ArrayList<>(all);
    list.addAll(more);
    return new CounterCatalog(list);
  }

  /**
   * Every counter, modules in {@link #MODULE_ORDER}, each module's counters as it declares them.
   */
  public List<CounterInfo> all() {
    return all;
  }

  /**
   * {@code rs_helpcounter <keyword>}: the counters of the module named {@code keyword}, or else
   * every counter whose name contains it, ignoring case. A blank keyword lists everything.
   */
  public List<CounterInfo> describe(String moduleOrCounterName) {
    String k = moduleOrCounterName == null ? "" : moduleOrCounterName.trim();
    if (k.isEmpty()) {
      return all;
    }
    List<CounterInfo> ofModule = all.stream().filter(c -> c.module().equalsIgnoreCase(k)).toList();
    if (!ofModule.isEmpty()) {
      return ofModule;
    }
    String lower = k.toLowerCase(Locale.ROOT);
    return all.stream().filter(c -> c.name().toLowerCase(Locale.ROOT).contains(lower)).toList();
  }

  /** The counter {@code name} of {@code module} (module ignoring case, name exactly). */
  public Optional<CounterInfo> find(String module, String name) {
    return all.stream()
        .filter(c -> c.module().equalsIgnoreCase(module) && c.name().equals(name))
        .findFirst();
  }

  /** The unit of the counters called {@code name}, if the catalogue has one. */
  public Optional<String> unitOf(String name) {
    return Optional.ofNullable(unitByName.get(name));
  }

  /** The modules that have counters, in {@link #MODULE_ORDER}. */
  public List<String> modules() {
    return all.stream().map(CounterInfo::module).distinct().toList();
  }

  private static String kind(String enumKind) {
    return enumKind.toLowerCase(Locale.ROOT);
  }
}
