package io.openrs.config.param;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One configuration parameter, declared as data. Validation and the canonical text form live here;
 * the labels ({@link #typeLabel()}, {@link #defaultLabel()}, {@link #rangeLabel()}) are what {@code
 * docs/parameters.md} and {@code admin config} show.
 *
 * @param name lower_snake_case; the Replication Server name where RS has the parameter
 * @param area the part of the server it tunes (the docs' table it is listed in)
 * @param scopes where it can be set; a value set at a narrower scope (connection, queue) overrides
 *     the server's
 * @param type how its text is read
 * @param unit what an INTEGER counts (blocks, commands, ...); empty when the type says it all
 * @param defaultValue the value used when none is set, in canonical form
 * @param min numeric types: smallest value; STRING: shortest length. Empty for other types
 * @param max numeric types: largest value; STRING: longest length. Empty for other types
 * @param multipleOf numeric types only: the value must be a multiple of this
 * @param allowedValues ENUM and ENUM_SET: the values, lower case. Numeric types: if not empty, the
 *     only values accepted within the range (e.g. the five block sizes)
 * @param takesEffect when a changed value is used
 * @param configFileOnly read from the start-up file only, never set by a command nor kept in the
 *     RSSD (e.g. the RSSD's own address); such parameters are server-scoped and take effect at
 *     restart
 * @param replicationServerName true when SAP Replication Server (or its agents) has a parameter of
 *     exactly this name and purpose; units or defaults may still differ, as the description says
 * @param description one to three sentences for the DBA, including where we differ from RS
 */
public record Parameter(
    String name,
    Area area,
    Set<Scope> scopes,
    ParamType type,
    String unit,
    String defaultValue,
    OptionalLong min,
    OptionalLong max,
    OptionalLong multipleOf,
    List<String> allowedValues,
    TakesEffect takesEffect,
    boolean configFileOnly,
    boolean replicationServerName,
    String description) {

  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]*(_[a-z0-9]+)*");
  private static final Pattern INTEGER_TEXT = Pattern.compile("[+-]?[0-9]+");
  private static final Pattern BYTES_TEXT =
      Pattern.compile("([+-]?[0-9]+)\\s*([kmg])?", Pattern.CASE_INSENSITIVE);
  private static final long KIB = 1024;
  private static final long MIB = KIB * KIB;
  private static final long GIB = MIB * KIB;
  private static final long TIB = GIB * KIB;
  private static final String NONE = "none";
  private static final int MAX_SHOWN_CHARS = 100;

  /** Checks the declaration itself: a bad declaration is a programming error. */
  public Parameter(
      String name,
      Area area,
      Set<Scope> scopes,
      ParamType type,
      String unit,
      String defaultValue,
      OptionalLong min,
      OptionalLong max,
      OptionalLong multipleOf,
      List<String> allowedValues,
      TakesEffect takesEffect,
      boolean configFileOnly,
      boolean replicationServerName,
      String description) {
    this.name = Objects.requireNonNull(name, "name");
    this.area = Objects.requireNonNull(area, "area");
    Objects.requireNonNull(scopes, "scopes");
    if (scopes.isEmpty()) {
      throw new IllegalArgumentException(name + ": a parameter needs at least one scope");
    }
    this.scopes = Collections.unmodifiableSet(EnumSet.copyOf(scopes));
    this.type = Objects.requireNonNull(type, "type");
    this.unit = Objects.requireNonNull(unit, "unit");
    this.defaultValue = Objects.requireNonNull(defaultValue, "defaultValue");
    this.min = Objects.requireNonNull(min, "min");
    this.max = Objects.requireNonNull(max, "max");
    this.multipleOf = Objects.requireNonNull(multipleOf, "multipleOf");
    this.allowedValues = List.copyOf(allowedValues);
    this.takesEffect = Objects.requireNonNull(takesEffect, "takesEffect");
    this.configFileOnly = configFileOnly;
    this.replicationServerName = replicationServerName;
    this.description = Objects.requireNonNull(description, "description");
    checkDeclaration();
  }

  private void checkDeclaration() {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("parameter name is not lower_snake_case: " + name);
    }
    if (description.isBlank()) {
      throw new IllegalArgumentException(name + ": no description");
    }
    if (configFileOnly
        && (!scopes.equals(EnumSet.of(Scope.SERVER)) || takesEffect != TakesEffect.RESTART)) {
      throw new IllegalArgumentException(
          name + ": a start-up-file parameter is server-scoped and takes effect at restart");
    }
    switch (type) {
      case INTEGER, BYTES, DURATION_MS -> {
        if (min.isEmpty() || max.isEmpty() || min.getAsLong() > max.getAsLong()) {
          throw new IllegalArgumentException(name + ": a numeric parameter needs min <= max");
        }
        if (multipleOf.isPresent() && multipleOf.getAsLong() <= 0) {
          throw new IllegalArgumentException(name + ": multipleOf must be positive");
        }
        for (String v : allowedValues) {
          long n = Long.parseLong(v);
          if (n < min.getAsLong() || n > max.getAsLong()) {
            throw new IllegalArgumentException(name + ": allowed value " + v + " is out of range");
          }
        }
      }
      case ENUM, ENUM_SET -> {
        if (allowedValues.isEmpty()
            || min.isPresent()
            || max.isPresent()
            || multipleOf.isPresent()) {
          throw new IllegalArgumentException(name + ": an enum has values and no range");
        }
        for (String v : allowedValues) {
          if (!v.equals(v.toLowerCase(Locale.ROOT)) || v.isBlank() || v.contains(",")) {
            throw new IllegalArgumentException(name + ": bad allowed value '" + v + "'");
          }
        }
        if (type == ParamType.ENUM_SET && !allowedValues.contains(NONE)) {
          throw new IllegalArgumentException(name + ": a list parameter must allow 'none'");
        }
      }
      case STRING -> {
        if (!allowedValues.isEmpty()
            || multipleOf.isPresent()
            || min.isPresent() != max.isPresent()) {
          throw new IllegalArgumentException(name + ": a string has at most a length range");
        }
      }
      case BOOLEAN, PATH -> {
        if (!allowedValues.isEmpty()
            || min.isPresent()
            || max.isPresent()
            || multipleOf.isPresent()) {
          throw new IllegalArgumentException(name + ": " + type + " takes no range or values");
        }
      }
    }
    String canonical;
    try {
      canonical = normalize(defaultValue);
    } catch (InvalidParameterValueException e) {
      throw new IllegalArgumentException("invalid default: " + e.getMessage(), e);
    }
    if (!canonical.equals(defaultValue)) {
      throw new IllegalArgumentException(
          name + ": default '" + defaultValue + "' is not in canonical form '" + canonical + "'");
    }
  }

  /** Whether a value can be set for this parameter at {@code scope}. */
  public boolean settableAt(Scope scope) {
    return scopes.contains(scope);
  }

  /**
   * Checks {@code text} and returns its canonical form: the text stored in the RSSD and shown by
   * {@code admin config}.
   *
   * @throws InvalidParameterValueException naming this parameter, the value and what is allowed
   */
  public String normalize(String text) {
    Objects.requireNonNull(text, "text");
    String t = text.trim();
    return switch (type) {
      case INTEGER, DURATION_MS -> String.valueOf(checkNumber(t, parseInteger(t), t));
      case BYTES -> normalizeBytes(t);
      case BOOLEAN -> normalizeBoolean(t);
      case ENUM -> normalizeEnum(t);
      case ENUM_SET -> normalizeEnumSet(t);
      case STRING -> checkLength(t);
      case PATH -> checkPath(t);
    };
  }

  /**
   * Checks {@code text} and returns its value: a {@code Long} (INTEGER, BYTES), {@code Boolean},
   * {@code String} (ENUM in lower case, STRING), {@code List<String>} (ENUM_SET, empty for {@code
   * none}), {@code Duration} (DURATION_MS) or {@code Path} (PATH).
   *
   * @throws InvalidParameterValueException naming this parameter, the value and what is allowed
   */
  public Object parse(String text) {
    return valueOf(normalize(text));
  }

  /** The value of text already in canonical form (as {@link #normalize} returns). */
  Object valueOf(String canonical) {
    return switch (type) {
      case INTEGER, BYTES -> Long.parseLong(canonical);
      case DURATION_MS -> Duration.ofMillis(Long.parseLong(canonical));
      case BOOLEAN -> canonical.equals("on");
      case ENUM, STRING -> canonical;
      case ENUM_SET -> canonical.equals(NONE) ? List.of() : List.of(canonical.split(","));
      case PATH -> Path.of(canonical);
    };
  }

  // ---- parsing -------------------------------------------------------------------------------

  private long parseInteger(String t) {
    if (!INTEGER_TEXT.matcher(t).matches()) {
      String what =
          type == ParamType.DURATION_MS ? "an integer number of milliseconds" : "an integer";
      throw invalid(t, quote(t) + " is not " + what);
    }
    try {
      return Long.parseLong(t);
    } catch (NumberFormatException tooLarge) {
      throw outOfRange(t);
    }
  }

  private String normalizeBytes(String t) {
    Matcher m = BYTES_TEXT.matcher(t);
    if (!m.matches()) {
      throw invalid(
          t, quote(t) + " is not a byte count (an integer, optionally followed by k, m or g)");
    }
    long n;
    try {
      n = Long.parseLong(m.group(1));
    } catch (NumberFormatException tooLarge) {
      throw outOfRange(t);
    }
    long factor = 1;
    if (m.group(2) != null) {
      factor =
          switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> KIB;
            case "m" -> MIB;
            default -> GIB;
          };
    }
    long v;
    try {
      v = Math.multiplyExact(n, factor);
    } catch (ArithmeticException tooLarge) {
      throw outOfRange(t);
    }
    String shown = t.equals(String.valueOf(v)) ? t : t + " (" + v + ")";
    return String.valueOf(checkNumber(shown, v, t));
  }

  private long checkNumber(String shown, long v, String text) {
    long lo = min.getAsLong();
    long hi = max.getAsLong();
    if (v < lo || v > hi) {
      throw invalid(text, shown + " is out of range " + lo + ".." + hi);
    }
    if (!allowedValues.isEmpty() && !allowedValues.contains(String.valueOf(v))) {
      throw invalid(text, shown + " is not one of " + String.join(", ", allowedValues));
    }
    if (multipleOf.isPresent() && v % multipleOf.getAsLong() != 0) {
      throw invalid(text, shown + " is not a multiple of " + multipleOf.getAsLong());
    }
    return v;
  }

  private InvalidParameterValueException outOfRange(String t) {
    return invalid(t, t + " is out of range " + min.getAsLong() + ".." + max.getAsLong());
  }

  private String normalizeBoolean(String t) {
    return switch (t.toLowerCase(Locale.ROOT)) {
      case "on", "true" -> "on";
      case "off", "false" -> "off";
      default -> throw invalid(t, quote(t) + " is not a boolean (on, off, true or false)");
    };
  }

  private String normalizeEnum(String t) {
    String lower = t.toLowerCase(Locale.ROOT);
    if (!allowedValues.contains(lower)) {
      throw invalid(t, quote(t) + " is not one of " + String.join(", ", allowedValues));
    }
    return lower;
  }

  private String normalizeEnumSet(String t) {
    Set<String> given = new LinkedHashSet<>();
    for (String item : t.split(",", -1)) {
      String v = item.trim().toLowerCase(Locale.ROOT);
      if (!allowedValues.contains(v)) {
        throw invalid(
            t,
            quote(item.trim())
                + " is not one of "
                + String.join(", ", allowedValues)
                + (t.contains(",") ? " (in " + quote(t) + ")" : ""));
      }
      if (!given.add(v)) {
        throw invalid(t, quote(t) + " lists " + v + " twice");
      }
    }
    if (given.contains(NONE) && given.size() > 1) {
      throw invalid(t, quote(t) + ": none cannot be combined with other values");
    }
    List<String> ordered = new ArrayList<>(allowedValues);
    ordered.retainAll(given);
    return String.join(",", ordered);
  }

  private String checkLength(String t) {
    if (min.isPresent()) {
      int n = t.length();
      if (n < min.getAsLong() || n > max.getAsLong()) {
        throw invalid(
            t,
            quote(t)
                + " has "
                + n
                + " characters, outside "
                + min.getAsLong()
                + ".."
                + max.getAsLong());
      }
    }
    return t;
  }

  private String checkPath(String t) {
    if (t.isEmpty()) {
      throw invalid(t, "'' is not a path");
    }
    try {
      Path.of(t);
    } catch (InvalidPathException e) {
      throw invalid(t, quote(t) + " is not a path: " + e.getReason());
    }
    return t;
  }

  private InvalidParameterValueException invalid(String text, String detail) {
    return new InvalidParameterValueException(name, text, name + ": " + detail);
  }

  private static String quote(String t) {
    String shown = t.length() > MAX_SHOWN_CHARS ? t.substring(0, MAX_SHOWN_CHARS) + "..." : t;
    return "'" + shown + "'";
  }

  // ---- labels for docs and admin config ------------------------------------------------------

  /** Scopes in declaration order, e.g. {@code server, connection}. */
  public String scopeLabel() {
    return scopes.stream().map(Scope::label).collect(Collectors.joining(", "));
  }

  /** The type with its unit, e.g. {@code integer (blocks)}, {@code bytes}, {@code on/off}. */
  public String typeLabel() {
    return unit.isEmpty() ? type.label() : type.label() + " (" + unit + ")";
  }

  /**
   * The default as shown to DBAs: byte sizes get a readable form, e.g. {@code 131072 (128 KiB)}.
   */
  public String defaultLabel() {
    if (defaultValue.isEmpty()) {
      return "(empty)";
    }
    if (type == ParamType.BYTES) {
      long v = Long.parseLong(defaultValue);
      String readable = readableBytes(v);
      return readable.equals(defaultValue) ? defaultValue : defaultValue + " (" + readable + ")";
    }
    return defaultValue;
  }

  /**
   * What is accepted, e.g. {@code 1..64}, {@code 16 KiB, 32 KiB, 64 KiB, 128 KiB, 256 KiB}, {@code
   * on, off, dio}, {@code 1..30 characters}.
   */
  public String rangeLabel() {
    return switch (type) {
      case INTEGER, DURATION_MS, BYTES -> numericRangeLabel();
      case BOOLEAN -> "on, off";
      case ENUM -> String.join(", ", allowedValues);
      case ENUM_SET ->
          "none, or a list of: "
              + allowedValues.stream()
                  .filter(v -> !v.equals(NONE))
                  .collect(Collectors.joining(", "));
      case STRING ->
          min.isPresent() ? min.getAsLong() + ".." + max.getAsLong() + " characters" : "any";
      case PATH -> "a path";
    };
  }

  private String numericRangeLabel() {
    if (!allowedValues.isEmpty()) {
      return allowedValues.stream()
          .map(v -> shownNumber(Long.parseLong(v)))
          .collect(Collectors.joining(", "));
    }
    String range = shownNumber(min.getAsLong()) + ".." + shownNumber(max.getAsLong());
    if (multipleOf.isPresent()) {
      range += ", a multiple of " + shownNumber(multipleOf.getAsLong());
    }
    return range;
  }

  private String shownNumber(long v) {
    return type == ParamType.BYTES ? readableBytes(v) : String.valueOf(v);
  }

  /** {@code 131072} as {@code 128 KiB}; values that are no whole KiB/MiB/GiB/TiB stay bytes. */
  static String readableBytes(long v) {
    if (v != 0) {
      if (v % TIB == 0) {
        return v / TIB + " TiB";
      }
      if (v % GIB == 0) {
        return v / GIB + " GiB";
      }
      if (v % MIB == 0) {
        return v / MIB + " MiB";
      }
      if (v % KIB == 0) {
        return v / KIB + " KiB";
      }
    }
    return String.valueOf(v);
  }
}
