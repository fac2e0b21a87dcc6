package io.openrs.repagent;

import io.openrs.wire.ClientTls;
import io.openrs.wire.LtlCompression;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads an agent's configuration file: one {@code name = value} per line, {@code #} comments, blank
 * lines ignored. Names are the {@link AgentParameter}s, plus {@code debezium.<property>} lines
 * handed to the Debezium connector as they are (applied last; for tuning only).
 *
 * <p>Passwords are given only by reference ({@code ..._password_env} names an environment variable,
 * {@code ..._password_file} a file), so they never sit in the file or in logs; a line setting a
 * password directly is an error. Validation reports every problem at once, each naming the file and
 * line or the parameter, and nothing is silently replaced by a default.
 */
public final class AgentConfigFile {

  private static final int MIN_BATCH = 1024;
  private static final int MAX_BATCH = 16 * 1024 * 1024;

  private AgentConfigFile() {}

  /** Parses {@code file}; relative paths are resolved against the file's directory. */
  public static AgentSettings read(Path file) throws IOException {
    return parse(file, Files.readAllLines(file, StandardCharsets.UTF_8), System::getenv);
  }

  /**
   * Parses configuration lines.
   *
   * @throws AgentException with code {@link AgentException.Code#CONFIGURATION} listing every
   *     problem
   */
  public static AgentSettings parse(Path file, List<String> lines, Function<String, String> env) {
    Map<String, String> values = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        problems.add(file + ":" + (i + 1) + ": expected name = value, found '" + line + "'");
        continue;
      }
      String key = line.substring(0, eq).strip();
      if (!key.startsWith("debezium.")) {
        key = key.toLowerCase(Locale.ROOT);
      }
      String value = unquote(line.substring(eq + 1).strip());
      if (values.put(key, value) != null) {
        problems.add(file + ":" + (i + 1) + ": " + key + " is set twice");
      }
    }
    Path base = file.toAbsolutePath().getParent();
    return fromMap(file.toString(), values, env, base, problems);
  }

  /**
   * Builds settings from parameter values (tests and embedding use this without a file).
   *
   * @param where names the source of the values in messages
   * @param base directory relative paths are resolved against
   */
  public static AgentSettings fromMap(
      String where, Map<String, String> values, Function<String, String> env, Path base) {
    return fromMap(where, values, env, base, new ArrayList<>());
  }

  private static AgentSettings fromMap(
      String where,
      Map<String, String> raw,
      Function<String, String> env,
      Path base,
      List<String> problems) {
    Map<AgentParameter, String> v = new EnumMap<>(AgentParameter.class);
    Map<String, String> debezium = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : raw.entrySet()) {
      String key = e.getKey();
      if (key.startsWith("debezium.")) {
        debezium.put(key.substring("debezium.".length()), e.getValue());
        continue;
      }
      String k = key.toLowerCase(Locale.ROOT);
      if (k.endsWith("password")) {
        problems.add(
            where
                + ": "
                + k
                + ": passwords are not written in the configuration; use "
                + k
                + "_env (an environment variable) or "
                + k
                + "_file (a file readable only by the agent)");
        continue;
      }
      AgentParameter p = AgentParameter.byKey(k).orElse(null);
      if (p == null) {
        problems.add(where + ": unknown parameter " + k + " (see docs/repagent.md)");
        continue;
      }
      v.put(p, e.getValue());
    }
    for (AgentParameter p : AgentParameter.values()) {
      if (!v.containsKey(p)) {
        if (p.defaultValue().isEmpty()) {
          problems.add(where + ": " + p.key() + " is required: " + p.doc());
        } else {
          v.put(p, p.defaultValue().get());
        }
      }
    }
    Reader r = new Reader(where, v, problems);
    String agent = r.name(AgentParameter.AGENT_NAME);
    String origin = r.string(AgentParameter.ORIGIN);
    String originServer = "";
    String originDatabase = "";
    int dot = origin.indexOf('.');
    if (dot <= 0 || dot == origin.length() - 1 || origin.indexOf('.', dot + 1) >= 0) {
      if (v.containsKey(AgentParameter.ORIGIN)) {
        problems.add(where + ": origin must be dataserver.database, got '" + origin + "'");
      }
    } else {
      originServer = origin.substring(0, dot);
      originDatabase = origin.substring(dot + 1);
    }
    SourceProfile profile = SourceProfile.POSTGRESQL;
    try {
      if (v.containsKey(AgentParameter.SOURCE_PROFILE)) {
        profile = SourceProfile.parse(v.get(AgentParameter.SOURCE_PROFILE));
      }
    } catch (IllegalArgumentException e) {
      problems.add(where + ": source_profile: " + e.getMessage());
    }
    String database = r.string(AgentParameter.SOURCE_DATABASE);
    if (profile == SourceProfile.POSTGRESQL && database.isEmpty()) {
      problems.add(where + ": source_database is required for source_profile postgresql");
    }
    int sourcePort =
        r.string(AgentParameter.SOURCE_PORT).isEmpty()
            ? profile.defaultPort()
            : r.intIn(AgentParameter.SOURCE_PORT, 1, 65535);
    String slot = r.string(AgentParameter.SLOT_NAME);
    String publication = r.string(AgentParameter.PUBLICATION_NAME);
    String defaultName = "openrs_" + agent.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
    slot = slot.isEmpty() ? defaultName : slot;
    publication = publication.isEmpty() ? defaultName : publication;
    if (!slot.matches("[a-z0-9_]{1,63}")) {
      problems.add(
          where + ": slot_name '" + slot + "' must be 1-63 lower-case letters, digits or _");
    }
    String heartbeat = r.string(AgentParameter.HEARTBEAT_TABLE);
    if (heartbeat.isEmpty()) {
      heartbeat =
          (profile == SourceProfile.POSTGRESQL
                  ? "public"
                  : database.isEmpty() ? "openrs" : database)
              + ".openrs_heartbeat";
    }
    String[] hb = heartbeat.split("\\.", -1);
    if (hb.length != 2 || hb[0].isEmpty() || hb[1].isEmpty()) {
      problems.add(where + ": heartbeat_table must be schema.table, got '" + heartbeat + "'");
      hb = new String[] {"public", "openrs_heartbeat"};
    }
    String ticketSchema = r.string(AgentParameter.RS_TICKET_SCHEMA).strip();
    if (ticketSchema.isEmpty()) {
      ticketSchema = hb[0];
    } else if (ticketSchema.length() > 63) {
      problems.add(
          where + ": rs_ticket_schema '" + ticketSchema + "' is longer than 63 characters");
    }
    long serverId =
        r.string(AgentParameter.SERVER_ID).isEmpty()
            ? 5400 + Math.floorMod(agent.hashCode(), 1000)
            : r.longIn(AgentParameter.SERVER_ID, 1, 4294967295L);
    List<String> tables = new ArrayList<>();
    for (String t : r.string(AgentParameter.TABLE_INCLUDE_LIST).split(",")) {
      String s = t.strip();
      if (s.isEmpty()) {
        continue;
      }
      if (s.split("\\.", -1).length != 2) {
        problems.add(where + ": table_include_list entry '" + s + "' must be schema.table");
      }
      tables.add(s);
    }
    char[] rsPassword = r.secret("rs_password", env, base);
    char[] sourcePassword = r.secret("source_password", env, base);
    AgentSettings.SourceSettings source =
        new AgentSettings.SourceSettings(
            profile,
            r.string(AgentParameter.SOURCE_HOST),
            sourcePort,
            database,
            r.string(AgentParameter.SOURCE_USER),
            sourcePassword,
            slot,
            publication,
            hb[0],
            hb[1],
            ticketSchema,
            r.onOff(AgentParameter.RS_TICKET_CREATE),
            serverId,
            tables,
            r.onOff(AgentParameter.SNAPSHOT),
            r.onOff(AgentParameter.TIMETZ_AT_UTC));
    int batch = r.intIn(AgentParameter.LTL_BATCH_SIZE, MIN_BATCH, MAX_BATCH);
    int scan = r.intIn(AgentParameter.SCAN_BATCH_SIZE, 1, Integer.MAX_VALUE);
    long minBackoff = r.longIn(AgentParameter.RETRY_MIN_BACKOFF_MS, 1, 3_600_000);
    long maxBackoff = r.longIn(AgentParameter.RETRY_MAX_BACKOFF_MS, 1, 3_600_000);
    if (maxBackoff < minBackoff) {
      problems.add(
          where
              + ": retry_max_backoff_ms "
              + maxBackoff
              + " is below retry_min_backoff_ms "
              + minBackoff);
    }
    int rejections = r.intIn(AgentParameter.REJECTION_RETRY_LIMIT, 1, 1_000_000);
    long heartbeatMs = r.longIn(AgentParameter.HEARTBEAT_INTERVAL_MS, 0, 86_400_000);
    long scanSleepMs = r.longIn(AgentParameter.SCAN_SLEEP_MAX_MS, 1, 60_000);
    long flushMs = r.longIn(AgentParameter.OFFSET_FLUSH_INTERVAL_MS, 10, 86_400_000);
    long txBuffer = r.longIn(AgentParameter.TRANSACTION_BUFFER_SIZE, 64 * 1024, 1L << 40);
    Path dataDirectory = base.resolve(r.string(AgentParameter.DATA_DIRECTORY)).normalize();
    long connectMs = r.longIn(AgentParameter.CONNECT_TIMEOUT_MS, 100, 600_000);
    int serverPort = r.intIn(AgentParameter.RS_PORT, 1, 65535);
    List<ServerAddress> standbyServers = List.of();
    try {
      standbyServers = ServerAddress.parseList(r.string(AgentParameter.RS_STANDBY_SERVERS));
    } catch (IllegalArgumentException e) {
      problems.add(where + ": rs_standby_servers: " + e.getMessage());
    }
    ClientTls tls = tls(r, base, where, problems);
    List<String> compression =
        compression(r.string(AgentParameter.RS_COMPRESSION), where, problems);
    if (!problems.isEmpty()) {
      throw new AgentException(
          AgentException.Code.CONFIGURATION,
          "invalid agent configuration:\n  " + String.join("\n  ", problems));
    }
    return new AgentSettings(
        agent,
        originServer,
        originDatabase,
        r.string(AgentParameter.RS_HOST),
        serverPort,
        standbyServers,
        r.string(AgentParameter.RS_USER),
        rsPassword,
        source,
        batch,
        scan,
        Duration.ofMillis(minBackoff),
        Duration.ofMillis(maxBackoff),
        rejections,
        Duration.ofMillis(heartbeatMs),
        Duration.ofMillis(scanSleepMs),
        Duration.ofMillis(flushMs),
        txBuffer,
        dataDirectory,
        Duration.ofMillis(connectMs),
        debezium,
        tls,
        compression);
  }

  /** {@code rs_tls} and its files (relative to the configuration file's directory). */
  private static ClientTls tls(Reader r, Path base, String where, List<String> problems) {
    String modeName = r.string(AgentParameter.RS_TLS);
    Optional<ClientTls.Mode> mode = ClientTls.Mode.byName(modeName);
    if (mode.isEmpty()) {
      problems.add(
          where
              + ": rs_tls must be off, require, verify-ca or verify-full, got '"
              + modeName
              + "'");
      return ClientTls.OFF;
    }
    for (AgentParameter p :
        List.of(
            AgentParameter.RS_TLS_ROOT_CERT,
            AgentParameter.RS_TLS_CERT,
            AgentParameter.RS_TLS_KEY)) {
      Optional<Path> f = file(r.string(p), base);
      if (f.isPresent() && !Files.isReadable(f.get())) {
        problems.add(where + ": " + p.key() + " " + f.get() + " does not exist or cannot be read");
      }
    }
    try {
      return new ClientTls(
          mode.get(),
          file(r.string(AgentParameter.RS_TLS_ROOT_CERT), base),
          file(r.string(AgentParameter.RS_TLS_CERT), base),
          file(r.string(AgentParameter.RS_TLS_KEY), base));
    } catch (IllegalArgumentException e) {
      problems.add(
          where + ": " + e.getMessage() + " (rs_tls, rs_tls_root_cert, rs_tls_cert, rs_tls_key)");
      return ClientTls.OFF;
    }
  }

  private static Optional<Path> file(String value, Path base) {
    return value.isBlank()
        ? Optional.empty()
        : Optional.of(base.resolve(value.strip()).normalize());
  }

  /** {@code rs_compression}: {@code off} or known method names, most preferred first. */
  private static List<String> compression(String value, String where, List<String> problems) {
    if (value.strip().equalsIgnoreCase("off")) {
      return List.of();
    }
    List<String> methods = new ArrayList<>();
    for (String name : value.split(",")) {
      Optional<LtlCompression> method = LtlCompression.byName(name);
      if (method.isEmpty() || method.get() == LtlCompression.NONE) {
        problems.add(
            where + ": rs_compression must be off or a list of lz4 and zstd, got '" + value + "'");
        return List.of();
      }
      if (!methods.contains(method.get().configName())) {
        methods.add(method.get().configName());
      }
    }
    return methods;
  }

  private static String unquote(String v) {
    if (v.length() >= 2
        && ((v.startsWith("'") && v.endsWith("'")) || (v.startsWith("\"") && v.endsWith("\"")))) {
      return v.substring(1, v.length() - 1);
    }
    return v;
  }

  /** Typed access that records problems instead of failing at the first. */
  private static final class Reader {
    private final String where;
    private final Map<AgentParameter, String> values;
    private final List<String> problems;

    Reader(String where, Map<AgentParameter, String> values, List<String> problems) {
      this.where = where;
      this.values = values;
      this.problems = problems;
    }

    String string(AgentParameter p) {
      return values.getOrDefault(p, "");
    }

    String name(AgentParameter p) {
      String s = string(p);
      if (values.containsKey(p) && !s.matches("[A-Za-z0-9_][A-Za-z0-9_.-]{0,62}")) {
        problems.add(
            where + ": " + p.key() + " '" + s + "' must be 1-63 letters, digits, _ . or -");
      }
      return s;
    }

    long longIn(AgentParameter p, long min, long max) {
      String s = string(p);
      try {
        long n = Long.parseLong(s.strip());
        if (n < min || n > max) {
          problems.add(where + ": " + p.key() + " = " + n + " is outside " + min + " .. " + max);
          return min;
        }
        return n;
      } catch (NumberFormatException e) {
        problems.add(where + ": " + p.key() + " = '" + s + "' is not a whole number");
        return min;
      }
    }

    int intIn(AgentParameter p, int min, int max) {
      return (int) longIn(p, min, max);
    }

    boolean onOff(AgentParameter p) {
      String s = string(p).strip().toLowerCase(Locale.ROOT);
      if (s.equals("on") || s.equals("true")) {
        return true;
      }
      if (s.equals("off") || s.equals("false")) {
        return false;
      }
      problems.add(where + ": " + p.key() + " = '" + s + "' must be on or off");
      return false;
    }

    char[] secret(String name, Function<String, String> env, Path base) {
      String var = string(AgentParameter.byKey(name + "_env").orElseThrow());
      String file = string(AgentParameter.byKey(name + "_file").orElseThrow());
      if (!var.isEmpty() && !file.isEmpty()) {
        problems.add(where + ": give " + name + "_env or " + name + "_file, not both");
        return new char[0];
      }
      if (!var.isEmpty()) {
        String s = env.apply(var);
        if (s == null || s.isEmpty()) {
          problems.add(
              where
                  + ": "
                  + name
                  + "_env names environment variable "
                  + var
                  + ", which is not set");
          return new char[0];
        }
        return s.toCharArray();
      }
      if (!file.isEmpty()) {
        Path p = base.resolve(file);
        try {
          String s = Files.readString(p, StandardCharsets.UTF_8).strip();
          if (s.isEmpty()) {
            problems.add(where + ": " + name + "_file " + p + " is empty");
          }
          return s.toCharArray();
        } catch (IOException e) {
          problems.add(where + ": " + name + "_file " + p + " cannot be read: " + e);
          return new char[0];
        }
      }
      problems.add(where + ": " + name + "_env or " + name + "_file is required");
      return new char[0];
    }
  }
}
