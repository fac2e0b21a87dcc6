package io.openrs.config.param;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Every configuration parameter, by name. Immutable and thread-safe. Names are looked up without
 * regard to case ({@code Block_Size} finds {@code block_size}); an unknown name is reported with
 * the closest known one.
 */
public final class ParameterCatalog {
  private static final ParameterCatalog STANDARD = of(StandardParameters.all());

  private final Map<String, Parameter> byName;
  private final List<Parameter> all;

  private ParameterCatalog(Map<String, Parameter> byName) {
    this.byName = byName;
    this.all = List.copyOf(byName.values());
  }

  /** The server's parameters, as listed in {@code docs/parameters.md}. */
  public static ParameterCatalog standard() {
    return STANDARD;
  }

  /**
   * A catalog of the given parameters (tests, tools).
   *
   * @throws IllegalArgumentException if two parameters share a name
   */
  public static ParameterCatalog of(Collection<Parameter> parameters) {
    Map<String, Parameter> byName = new TreeMap<>();
    for (Parameter p : parameters) {
      if (byName.put(p.name(), p) != null) {
        throw new IllegalArgumentException("parameter declared twice: " + p.name());
      }
    }
    return new ParameterCatalog(byName);
  }

  /** The parameter of this name, in any case and ignoring surrounding blanks. */
  public Optional<Parameter> find(String name) {
    return Optional.ofNullable(byName.get(key(name)));
  }

  /**
   * The parameter of this name, in any case.
   *
   * @throws UnknownParameterException naming it and the closest known name, if one is near
   */
  public Parameter require(String name) {
    Parameter p = byName.get(key(name));
    if (p == null) {
      throw new UnknownParameterException(key(name), suggest(name));
    }
    return p;
  }

  /**
   * The parameter a command may set at {@code scope} ({@code configure replication server}, {@code
   * alter connection}, {@code alter queue}).
   *
   * @throws UnknownParameterException if there is no such parameter
   * @throws ParameterScopeException if it cannot be set at that scope, or only in the start-up file
   */
  public Parameter requireForCommand(String name, Scope scope) {
    Parameter p = require(name);
    if (p.configFileOnly()) {
      throw new ParameterScopeException(
          p.name(),
          scope,
          p.name()
              + " is read from the start-up configuration file only; change it there and restart"
              + " the server");
    }
    checkScope(p, scope);
    return p;
  }

  static void checkScope(Parameter p, Scope scope) {
    if (!p.settableAt(scope)) {
      List<String> where = new ArrayList<>();
      for (Scope s : p.scopes()) {
        where.add(s.phrase() + " (" + s.command() + ")");
      }
      throw new ParameterScopeException(
          p.name(),
          scope,
          p.name()
              + " cannot be set for "
              + scope.phrase()
              + "; it is set for "
              + String.join(" or ", where));
    }
  }

  /** Every parameter, sorted by name. */
  public List<Parameter> all() {
    return all;
  }

  /** The parameters that can be set at {@code scope}, sorted by name. */
  public List<Parameter> inScope(Scope scope) {
    return all.stream().filter(p -> p.settableAt(scope)).toList();
  }

  /** The parameters of one area, sorted by name. */
  public List<Parameter> inArea(Area area) {
    return all.stream().filter(p -> p.area() == area).toList();
  }

  /**
   * The known name closest to {@code name} by edit distance, if it is near enough to be a typo: at
   * most a third of the longer name's length and at most 4 edits, or one name being a prefix of the
   * other (RS's {@code sts_full_cache_rs_users} suggests a {@code sts_full_cache_...}).
   */
  public Optional<String> suggest(String name) {
    String k = key(name);
    if (k.isEmpty()) {
      return Optional.empty();
    }
    Comparator<String> byDistance =
        Comparator.<String>comparingInt(n -> distance(k, n)).thenComparing(n -> n);
    Optional<String> closest =
        byName.keySet().stream()
            .filter(n -> distance(k, n) <= Math.min(4, Math.max(k.length(), n.length()) / 3))
            .min(byDistance);
    if (closest.isPresent()) {
      return closest;
    }
    return byName.keySet().stream()
        .filter(n -> commonPrefix(k, n) >= Math.max(8, Math.min(k.length(), n.length()) * 2 / 3))
        .max(
            Comparator.<String>comparingInt(n -> commonPrefix(k, n))
                .thenComparing(byDistance.reversed()));
  }

  private static String key(String name) {
    return name.trim().toLowerCase(Locale.ROOT);
  }

  private static int commonPrefix(String a, String b) {
    int n = Math.min(a.length(), b.length());
    int i = 0;
    while (i < n && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return i;
  }

  /** Levenshtein distance: insertions, deletions and substitutions each cost 1. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(substitute, Math.min(prev[j], cur[j - 1]) + 1);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
