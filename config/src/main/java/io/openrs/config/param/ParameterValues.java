package io.openrs.config.param;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The values of one scope instance (the server, one connection, one queue), immutable. A lookup
 * takes, in order: the value set explicitly in this instance; else the value of the lower layer it
 * was put {@link #over}; else the parameter's default. Typical layering:
 *
 * <pre>{@code
 * ParameterValues file = ParameterValues.of(Scope.SERVER, startupFile);        // start-up file
 * ParameterValues server = ParameterValues.of(Scope.SERVER, rsConfigRows).over(file); // RSSD
 * ParameterValues conn = ParameterValues.of(Scope.CONNECTION, connRows).over(server);
 * int threads = conn.getInt("dsi_num_threads"); // connection, else server, else file, else 1
 * }</pre>
 *
 * <p>Explicit values are validated when set and kept in canonical text form. Components read their
 * values once (at start or resume) into their own settings record; the getters parse on every call
 * and are not meant for hot paths.
 */
public final class ParameterValues {
  private final ParameterCatalog catalog;
  private final Scope scope;
  private final Map<String, String> explicit;
  private final ParameterValues lower;

  private ParameterValues(
      ParameterCatalog catalog, Scope scope, Map<String, String> explicit, ParameterValues lower) {
    this.catalog = catalog;
    this.scope = scope;
    this.explicit = Collections.unmodifiableMap(explicit);
    this.lower = lower;
  }

  /** No explicit values: every lookup gives the standard catalog's default. */
  public static ParameterValues defaults(Scope scope) {
    return defaults(ParameterCatalog.standard(), scope);
  }

  /** No explicit values: every lookup gives the default. */
  public static ParameterValues defaults(ParameterCatalog catalog, Scope scope) {
    return new ParameterValues(
        Objects.requireNonNull(catalog, "catalog"),
        Objects.requireNonNull(scope, "scope"),
        new TreeMap<>(),
        null);
  }

  /** {@link #of(ParameterCatalog, Scope, Map)} with the standard catalog. */
  public static ParameterValues of(Scope scope, Map<String, String> values) {
    return of(ParameterCatalog.standard(), scope, values);
  }

  /**
   * Values set explicitly at {@code scope}, e.g. the lines of the start-up file or the RSSD rows of
   * one connection. Names may be in any case. Start-up-file parameters are accepted here: it is the
   * command path ({@link ParameterCatalog#requireForCommand}) that refuses them.
   *
   * @throws InvalidConfigurationException listing every unknown name, every parameter that cannot
   *     be set at this scope and every invalid value, not just the first
   */
  public static ParameterValues of(
      ParameterCatalog catalog, Scope scope, Map<String, String> values) {
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(scope, "scope");
    Map<String, String> explicit = new TreeMap<>();
    Map<String, ParameterException> problems = new TreeMap<>();
    for (Map.Entry<String, String> e : values.entrySet()) {
      try {
        Parameter p = catalog.require(e.getKey());
        ParameterCatalog.checkScope(p, scope);
        String canonical = p.normalize(Objects.requireNonNull(e.getValue(), e.getKey()));
        String earlier = explicit.put(p.name(), canonical);
        if (earlier != null) {
          problems.put(
              p.name(),
              new ParameterException(
                  p.name(),
                  p.name() + ": set twice, to '" + earlier + "' and '" + canonical + "'"));
        }
      } catch (ParameterException problem) {
        problems.merge(problem.parameterName(), problem, (a, b) -> a);
      }
    }
    if (!problems.isEmpty()) {
      throw new InvalidConfigurationException(
          scope.phrase() + "'s configuration", new ArrayList<>(problems.values()));
    }
    return new ParameterValues(catalog, scope, explicit, null);
  }

  /**
   * A copy with {@code name} set explicitly to {@code value}.
   *
   * @throws UnknownParameterException for an unknown name
   * @throws ParameterScopeException if the parameter cannot be set at this scope
   * @throws InvalidParameterValueException if the value is not accepted
   */
  public ParameterValues with(String name, String value) {
    Parameter p = catalog.require(name);
    ParameterCatalog.checkScope(p, scope);
    String canonical = p.normalize(value);
    Map<String, String> copy = new TreeMap<>(explicit);
    copy.put(p.name(), canonical);
    return new ParameterValues(catalog, scope, copy, lower);
  }

  /** A copy without an explicit value for {@code name}: lookups fall through again. */
  public ParameterValues without(String name) {
    Parameter p = catalog.require(name);
    if (!explicit.containsKey(p.name())) {
      return this;
    }
    Map<String, String> copy = new TreeMap<>(explicit);
    copy.remove(p.name());
    return new ParameterValues(catalog, scope, copy, lower);
  }

  /**
   * These values layered over {@code lowerLayer}: a parameter without an explicit value here takes
   * the lower layer's value. The lower layer is server-scoped (a connection or queue over the
   * server) or of this same scope (the RSSD's server values over the start-up file's); it replaces
   * any lower layer this instance had.
   */
  public ParameterValues over(ParameterValues lowerLayer) {
    Objects.requireNonNull(lowerLayer, "lowerLayer");
    if (lowerLayer.catalog != catalog) {
      throw new IllegalArgumentException("layers must share one catalog");
    }
    if (lowerLayer.scope != Scope.SERVER && lowerLayer.scope != scope) {
      throw new IllegalArgumentException(
          scope.label() + " values cannot be layered over " + lowerLayer.scope.label() + " values");
    }
    return new ParameterValues(catalog, scope, new TreeMap<>(explicit), lowerLayer);
  }

  /** The scope these values are set at. */
  public Scope scope() {
    return scope;
  }

  /** The catalog names are resolved in. */
  public ParameterCatalog catalog() {
    return catalog;
  }

  /** The values set explicitly in this layer (not the lower layers), canonical, sorted by name. */
  public Map<String, String> explicitValues() {
    return explicit;
  }

  /** The value set explicitly in this layer, if any. */
  public Optional<String> explicitValue(String name) {
    return Optional.ofNullable(explicit.get(catalog.require(name).name()));
  }

  /** The effective value of {@code name} in canonical text form. */
  public String get(String name) {
    return resolve(catalog.require(name));
  }

  /** Every parameter's effective value, canonical, sorted by name ({@code admin config}). */
  public Map<String, String> effectiveValues() {
    Map<String, String> all = new LinkedHashMap<>();
    for (Parameter p : catalog.all()) {
      all.put(p.name(), resolve(p));
    }
    return Collections.unmodifiableMap(all);
  }

  private String resolve(Parameter p) {
    for (ParameterValues v = this; v != null; v = v.lower) {
      String value = v.explicit.get(p.name());
      if (value != null) {
        return value;
      }
    }
    return p.defaultValue();
  }

  // ---- typed getters -------------------------------------------------------------------------

  /** An INTEGER, BYTES or DURATION_MS (milliseconds) value. */
  public long getLong(String name) {
    Parameter p = typed(name, ParamType.INTEGER, ParamType.BYTES, ParamType.DURATION_MS);
    return Long.parseLong(resolve(p));
  }

  /**
   * An INTEGER, BYTES or DURATION_MS value that fits an {@code int}.
   *
   * @throws IllegalArgumentException if the parameter's range goes beyond an int (use {@link
   *     #getLong}), whatever the current value
   */
  public int getInt(String name) {
    Parameter p = typed(name, ParamType.INTEGER, ParamType.BYTES, ParamType.DURATION_MS);
    if (p.max().getAsLong() > Integer.MAX_VALUE || p.min().getAsLong() < Integer.MIN_VALUE) {
      throw new IllegalArgumentException(
          p.name() + " ranges up to " + p.max().getAsLong() + ", beyond an int: use getLong");
    }
    return Integer.parseInt(resolve(p));
  }

  /** A BOOLEAN value. */
  public boolean getBoolean(String name) {
    return resolve(typed(name, ParamType.BOOLEAN)).equals("on");
  }

  /** The value of any parameter, in canonical text form (same as {@link #get}). */
  public String getString(String name) {
    return get(name);
  }

  /**
   * An ENUM value as a constant of {@code type}, matched by name ignoring case ({@code
   * wait_for_commit} gives {@code WAIT_FOR_COMMIT}).
   *
   * @throws IllegalArgumentException if {@code type} has no constant for the value
   */
  public <E extends Enum<E>> E getEnum(String name, Class<E> type) {
    Parameter p = typed(name, ParamType.ENUM);
    String value = resolve(p);
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(value)) {
        return e;
      }
    }
    throw new IllegalArgumentException(
        type.getName() + " has no constant for " + p.name() + " value '" + value + "'");
  }

  /** A DURATION_MS value. */
  public Duration getDuration(String name) {
    return Duration.ofMillis(Long.parseLong(resolve(typed(name, ParamType.DURATION_MS))));
  }

  /** A PATH value. */
  public Path getPath(String name) {
    return Path.of(resolve(typed(name, ParamType.PATH)));
  }

  /** An ENUM_SET value: the listed values in the catalog's order, empty for {@code none}. */
  public List<String> getList(String name) {
    Parameter p = typed(name, ParamType.ENUM_SET);
    @SuppressWarnings("unchecked")
    List<String> values = (List<String>) p.valueOf(resolve(p));
    return values;
  }

  private Parameter typed(String name, ParamType... types) {
    Parameter p = catalog.require(name);
    for (ParamType t : types) {
      if (p.type() == t) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        p.name() + " is of type " + p.type() + ", not " + List.of(types));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ParameterValues v
        && catalog == v.catalog
        && scope == v.scope
        && explicit.equals(v.explicit)
        && Objects.equals(lower, v.lower);
  }

  @Override
  public int hashCode() {
    return Objects.hash(scope, explicit, lower);
  }

  @Override
  public String toString() {
    return "ParameterValues["
        + scope.label()
        + ", explicit="
        + explicit
        + (lower == null ? "" : ", over " + lower)
        + "]";
  }
}
