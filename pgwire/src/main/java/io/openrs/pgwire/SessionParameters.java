package io.openrs.pgwire;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A session's run-time parameters (PostgreSQL's GUCs) as {@code SET}, {@code SHOW}, {@code RESET}
 * and the startup message see them: the ones clients care about are known with their default,
 * whether they may change and whether a change is reported to the client (ParameterStatus); values
 * the server depends on are checked (only UTF8, DateStyle ISO, standard_conforming_strings on, a
 * TimeZone Java knows, extra_float_digits -15..3). Any other name is accepted and stored
 * (lower-cased), so tools that set e.g. {@code statement_timeout} or {@code search_path} work.
 *
 * <p>Not thread-safe: owned by the connection's worker. The values live in the {@link PgSession}'s
 * map, which other threads may read.
 */
final class SessionParameters {

  /** A parameter this server knows. */
  record Known(String name, boolean readOnly, boolean reported, String description) {}

  private static final Map<String, Known> KNOWN = new LinkedHashMap<>();

  private static void known(String name, boolean readOnly, boolean reported, String description) {
    KNOWN.put(name.toLowerCase(Locale.ROOT), new Known(name, readOnly, reported, description));
  }

  static {
    known("application_name", false, true, "Sets the application name to be reported.");
    known("bytea_output", false, false, "Sets the output format for bytea (hex only).");
    known("client_encoding", false, true, "Sets the client's character set encoding (UTF8 only).");
    known("DateStyle", false, true, "Sets the display format for date and time values (ISO).");
    known(
        "default_transaction_isolation",
        false,
        false,
        "Sets the transaction isolation level of each new transaction.");
    known(
        "default_transaction_read_only",
        false,
        true,
        "Sets the default read-only status of new transactions.");
    known("extra_float_digits", false, false, "Sets the number of digits displayed for floats.");
    known("in_hot_standby", true, true, "Shows whether hot standby is currently active.");
    known("integer_datetimes", true, true, "Shows whether datetimes are integer based.");
    known("IntervalStyle", false, true, "Sets the display format for interval values.");
    known("is_superuser", true, true, "Shows whether the current user is a superuser.");
    known("max_identifier_length", true, false, "Shows the maximum identifier length.");
    known("search_path", false, false, "Sets the schema search order (not used by this server).");
    known("server_encoding", true, true, "Shows the server (database) character set encoding.");
    known("server_version", true, true, "Shows the server version.");
    known("server_version_num", true, false, "Shows the server version as an integer.");
    known("session_authorization", true, true, "Shows the session user name.");
    known(
        "standard_conforming_strings",
        false,
        true,
        "Causes '...' strings to treat backslashes literally (always on).");
    known("statement_timeout", false, false, "Accepted for compatibility; not enforced.");
    known("TimeZone", false, true, "Sets the time zone for displaying timestamps.");
    known(
        "transaction_isolation", false, false, "Shows the current transaction's isolation level.");
    known("transaction_read_only", false, false, "Shows whether the transaction is read-only.");
  }

  private static final Map<String, String> ZONES_BY_LOWER_CASE = new HashMap<>();

  static {
    for (String id : ZoneId.getAvailableZoneIds()) {
      ZONES_BY_LOWER_CASE.put(id.toLowerCase(Locale.ROOT), id);
    }
  }

  private final Map<String, String> values;
  private final Map<String, String> sessionDefaults = new LinkedHashMap<>();
  private final Set<String> changedReported = new LinkedHashSet<>();
  private PgValues.TextStyle textStyle = PgValues.TextStyle.DEFAULT;

  /**
   * @param values where the values live (the session's map, case-insensitive keys)
   * @param serverDefaults the values every session starts with
   */
  SessionParameters(Map<String, String> values, Map<String, String> serverDefaults) {
    this.values = values;
    values.putAll(serverDefaults);
    updateTextStyle();
  }

  /** The server-wide starting values. */
  static Map<String, String> serverDefaults(
      PgServerSettings settings, String user, boolean superuser) {
    Map<String, String> d = new LinkedHashMap<>();
    d.put("application_name", "");
    d.put("bytea_output", "hex");
    d.put("client_encoding", "UTF8");
    d.put("DateStyle", "ISO, MDY");
    d.put("default_transaction_isolation", "read committed");
    d.put("default_transaction_read_only", "off");
    d.put("extra_float_digits", "1");
    d.put("in_hot_standby", "off");
    d.put("integer_datetimes", "on");
    d.put("IntervalStyle", "postgres");
    d.put("is_superuser", superuser ? "on" : "off");
    d.put("max_identifier_length", "63");
    d.put("search_path", "\"$user\", public");
    d.put("server_encoding", "UTF8");
    d.put("server_version", settings.serverVersion());
    d.put("server_version_num", Integer.toString(settings.serverVersionNum()));
    d.put("session_authorization", user);
    d.put("standard_conforming_strings", "on");
    d.put("statement_timeout", "0");
    d.put("TimeZone", "UTC");
    d.put("transaction_isolation", "read committed");
    d.put("transaction_read_only", "off");
    return d;
  }

  /** Names of the parameters sent as ParameterStatus after login, in PostgreSQL's order. */
  static final List<String> REPORTED_AT_LOGIN =
      List.of(
          "application_name",
          "client_encoding",
          "DateStyle",
          "default_transaction_read_only",
          "in_hot_standby",
          "integer_datetimes",
          "IntervalStyle",
          "is_superuser",
          "server_encoding",
          "server_version",
          "session_authorization",
          "standard_conforming_strings",
          "TimeZone");

  /** Applies a startup-message parameter; the values it sets are what RESET goes back to. */
  void applyStartup(String name, String value) throws PgException {
    set(name, value, 0);
    changedReported.clear();
  }

  /** Marks the current values as what RESET returns to (after the startup message). */
  void markSessionDefaults() {
    sessionDefaults.clear();
    sessionDefaults.putAll(values);
    changedReported.clear();
  }

  /** The name as PostgreSQL spells it ({@code datestyle} is {@code DateStyle}). */
  static String canonical(String name) {
    Known k = KNOWN.get(name.toLowerCase(Locale.ROOT));
    return k != null ? k.name() : name.toLowerCase(Locale.ROOT);
  }

  Optional<String> get(String name) {
    return Optional.ofNullable(values.get(name));
  }

  /** Every parameter, sorted by name, with its description where known. */
  List<String[]> all() {
    List<String[]> rows = new ArrayList<>();
    values.entrySet().stream()
        .sorted(Map.Entry.comparingByKey(String.CASE_INSENSITIVE_ORDER))
        .forEach(
            e -> {
              Known k = KNOWN.get(e.getKey().toLowerCase(Locale.ROOT));
              rows.add(new String[] {e.getKey(), e.getValue(), k != null ? k.description() : ""});
            });
    return rows;
  }

  /**
   * Sets a parameter after checking the value.
   *
   * @param position 1-based position of the value in the command, for errors (0 = none)
   */
  void set(String name, String value, int position) throws PgException {
    String canonical = canonical(name);
    Known known = KNOWN.get(canonical.toLowerCase(Locale.ROOT));
    if (known != null && known.readOnly()) {
      throw new PgException(
          PgSqlState.CANT_CHANGE_RUNTIME_PARAM,
          "parameter \"" + canonical + "\" cannot be changed",
          position);
    }
    String checked = check(canonical, value, position);
    String old = values.put(canonical, checked);
    if (known != null && known.reported() && !checked.equals(old)) {
      changedReported.add(canonical);
    }
    if (canonical.equals("TimeZone") || canonical.equals("extra_float_digits")) {
      updateTextStyle();
    }
  }

  /** Back to the value the session started with. */
  void reset(String name) throws PgException {
    String canonical = canonical(name);
    Known known = KNOWN.get(canonical.toLowerCase(Locale.ROOT));
    if (known != null && known.readOnly()) {
      throw new PgException(
          PgSqlState.CANT_CHANGE_RUNTIME_PARAM,
          "parameter \"" + canonical + "\" cannot be changed");
    }
    String startValue = sessionDefaults.get(canonical);
    String old;
    if (startValue == null) {
      old = values.remove(canonical);
    } else {
      old = values.put(canonical, startValue);
    }
    if (known != null && known.reported() && startValue != null && !startValue.equals(old)) {
      changedReported.add(canonical);
    }
    updateTextStyle();
  }

  /** RESET ALL. */
  void resetAll() throws PgException {
    for (String name : new ArrayList<>(values.keySet())) {
      Known known = KNOWN.get(name.toLowerCase(Locale.ROOT));
      if (known == null || !known.readOnly()) {
        reset(name);
      }
    }
  }

  /** The reported parameters changed since the last call (to send as ParameterStatus). */
  List<String> drainChangedReported() {
    List<String> changed = new ArrayList<>(changedReported);
    changedReported.clear();
    return changed;
  }

  PgValues.TextStyle textStyle() {
    return textStyle;
  }

  private void updateTextStyle() {
    ZoneId zone = zone(values.getOrDefault("TimeZone", "UTC")).orElse(ZoneOffset.UTC);
    int digits = 1;
    try {
      digits = Integer.parseInt(values.getOrDefault("extra_float_digits", "1"));
    } catch (NumberFormatException e) {
      // checked on SET; keep the default
    }
    textStyle = new PgValues.TextStyle(zone, digits);
  }

  private static String check(String name, String value, int position) throws PgException {
    switch (name) {
      case "client_encoding":
        {
          String e = value.toUpperCase(Locale.ROOT).replace("-", "").replace("_", "");
          if (e.equals("UTF8") || e.equals("UNICODE") || e.equals("SQLASCII")) {
            return "UTF8";
          }
          throw invalid(name, value, position, "only UTF8 is supported");
        }
      case "DateStyle":
        {
          String upper = value.toUpperCase(Locale.ROOT);
          boolean iso = false;
          String order = "MDY";
          for (String part : upper.split("[,\\s]+")) {
            if (part.equals("ISO")) {
              iso = true;
            } else if (part.equals("MDY") || part.equals("DMY") || part.equals("YMD")) {
              order = part;
            } else if (part.equals("US") || part.equals("NONEURO") || part.equals("NONEUROPEAN")) {
              order = "MDY";
            } else if (part.equals("EURO") || part.equals("EUROPEAN")) {
              order = "DMY";
            } else if (!part.isEmpty()) {
              throw invalid(name, value, position, "only the ISO output format is supported");
            }
          }
          if (!iso
              && !upper.matches("\\s*(MDY|DMY|YMD|US|EURO|EUROPEAN|NONEURO|NONEUROPEAN)\\s*")) {
            throw invalid(name, value, position, "only the ISO output format is supported");
          }
          return "ISO, " + order;
        }
      case "TimeZone":
        return zone(value)
            .map(ZoneId::getId)
            .orElseThrow(() -> invalid(name, value, position, "use a zone name such as UTC"));
      case "extra_float_digits":
        {
          int digits;
          try {
            digits = Integer.parseInt(value.trim());
          } catch (NumberFormatException e) {
            throw invalid(name, value, position, "an integer is expected");
          }
          if (digits < -15 || digits > 3) {
            throw new PgException(
                PgSqlState.INVALID_PARAMETER_VALUE,
                digits + " is outside the valid range for parameter \"" + name + "\" (-15 .. 3)",
                position);
          }
          return Integer.toString(digits);
        }
      case "standard_conforming_strings":
        if (isOn(value)) {
          return "on";
        }
        throw invalid(name, value, position, "standard_conforming_strings is always on here");
      case "bytea_output":
        if (value.equalsIgnoreCase("hex")) {
          return "hex";
        }
        throw invalid(name, value, position, "only hex is supported");
      case "IntervalStyle":
        {
          String v = value.toLowerCase(Locale.ROOT);
          if (List.of("postgres", "postgres_verbose", "sql_standard", "iso_8601").contains(v)) {
            return v;
          }
          throw invalid(name, value, position, null);
        }
      case "application_name":
        {
          StringBuilder sb = new StringBuilder();
          for (int i = 0; i < value.length() && sb.length() < 63; i++) {
            char c = value.charAt(i);
            sb.append(c >= 32 && c <= 126 ? c : '?');
          }
          return sb.toString();
        }
      default:
        return value;
    }
  }

  private static boolean isOn(String value) {
    String v = value.toLowerCase(Locale.ROOT);
    return v.equals("on") || v.equals("true") || v.equals("yes") || v.equals("1");
  }

  private static PgException invalid(String name, String value, int position, String hint) {
    return new PgException(
        PgSqlState.INVALID_PARAMETER_VALUE,
        "invalid value for parameter \"" + name + "\": \"" + value + "\"",
        position,
        hint,
        null);
  }

  /** A time zone by PostgreSQL-ish name: region ids in any case, UTC, GMT, offsets. */
  static Optional<ZoneId> zone(String text) {
    String v = text.trim();
    if (v.isEmpty()) {
      return Optional.empty();
    }
    String lower = v.toLowerCase(Locale.ROOT);
    if (lower.equals("utc") || lower.equals("gmt") || lower.equals("z") || lower.equals("zulu")) {
      return Optional.of(ZoneId.of("UTC"));
    }
    String id = ZONES_BY_LOWER_CASE.get(lower);
    if (id != null) {
      return Optional.of(ZoneId.of(id));
    }
    try {
      return Optional.of(ZoneId.of(v, ZoneId.SHORT_IDS));
    } catch (DateTimeException e) {
      // not a zone id; try a number of hours
    }
    try {
      double hours = Double.parseDouble(v);
      if (Math.abs(hours) <= 18) {
        return Optional.of(ZoneOffset.ofTotalSeconds((int) Math.round(hours * 3600)));
      }
    } catch (NumberFormatException | DateTimeException e) {
      // not a number either
    }
    return Optional.empty();
  }
}
