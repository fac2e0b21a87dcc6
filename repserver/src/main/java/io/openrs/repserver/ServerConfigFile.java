package io.openrs.repserver;

import io.openrs.config.param.InvalidConfigurationException;
import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import io.openrs.config.rssd.RssdSettings;
import io.openrs.queue.file.PartitionSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads the server's start-up configuration file: one {@code name = value} per line, {@code #}
 * comments, blank lines ignored. Keys are the server-scope parameters of the catalog ({@code
 * docs/parameters.md}) plus:
 *
 * <pre>
 * partition.&lt;name&gt; = &lt;directory&gt; &lt;size&gt;   # a stable queue partition, e.g. /srv/openrs/p1 4g
 * kafka.&lt;property&gt; = &lt;value&gt;               # a Kafka client property (queue_engine = kafka)
 * rssd_user = &lt;user&gt;                          # RSSD login when rssd_url is a JDBC URL
 * rssd_password_env | rssd_password_file       # where its password is (never the password)
 * admin_password_env | admin_password_file     # the first administrator's password, first start
 * </pre>
 *
 * Passwords are given only by reference (an environment variable or a file) so they never sit in
 * the configuration file or in logs; a line setting a password directly is an error. A {@code
 * kafka.} line is passed to the Kafka engine's clients as it is (e.g. {@code
 * kafka.security.protocol = SASL_SSL}); its value is never logged, since some ({@code
 * sasl.jaas.config}, {@code ssl.keystore.password}) hold secrets, which Kafka's config providers
 * can keep out of the file. Partition lines belong to the file engine and are refused with {@code
 * queue_engine = kafka}. Every error names the file and line.
 */
public final class ServerConfigFile {

  /** Environment variable read for the first administrator's password when the file names none. */
  public static final String ADMIN_PASSWORD_ENV = "OPENRS_ADMIN_PASSWORD";

  private static final String KAFKA_PREFIX = "kafka.";

  private ServerConfigFile() {}

  /** Parses {@code file}, resolving relative paths against the file's directory. */
  public static ServerSettings read(Path file) throws IOException {
    return parse(file, Files.readAllLines(file, StandardCharsets.UTF_8), System::getenv);
  }

  /** Parses configuration lines; {@code env} resolves environment variables. */
  public static ServerSettings parse(Path file, List<String> lines, Function<String, String> env)
      throws IOException {
    Path base = file.toAbsolutePath().getParent();
    Map<String, String> parameters = new LinkedHashMap<>();
    List<PartitionSpec> partitions = new ArrayList<>();
    List<Integer> partitionLines = new ArrayList<>();
    Map<String, String> extra = new LinkedHashMap<>();
    Map<String, String> kafka = new LinkedHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      int lineNo = i + 1;
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        throw error(file, lineNo, "expected name = value, found '" + line + "'");
      }
      String key = line.substring(0, eq).strip().toLowerCase(Locale.ROOT);
      String value = unquote(line.substring(eq + 1).strip());
      if (key.startsWith("partition.")) {
        partitions.add(partition(file, lineNo, base, key.substring("partition.".length()), value));
        partitionLines.add(lineNo);
      } else if (key.startsWith(KAFKA_PREFIX)) {
        String property = key.substring(KAFKA_PREFIX.length());
        if (property.isEmpty()
            || kafka.put(property, kafkaValue(file, lineNo, key, value, env)) != null) {
          throw error(file, lineNo, key + " is empty or set twice");
        }
      } else if (key.endsWith("password")) {
        throw error(
            file,
            lineNo,
            key
                + ": passwords are not written in the configuration file; use "
                + key
                + "_env (an environment variable) or "
                + key
                + "_file (a file readable only by the server)");
      } else if (key.equals("rssd_user")
          || key.endsWith("_password_env")
          || key.endsWith("_password_file")) {
        if (extra.put(key, value) != null) {
          throw error(file, lineNo, key + " is set twice");
        }
      } else if (parameters.put(key, value) != null) {
        throw error(file, lineNo, key + " is set twice");
      }
    }
    ParameterValues values;
    try {
      values = ParameterValues.of(Scope.SERVER, parameters);
    } catch (InvalidConfigurationException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
    if (values.getString("queue_engine").equals("kafka") && !partitions.isEmpty()) {
      throw error(
          file,
          partitionLines.get(0),
          "partition lines are for queue_engine = file; with kafka the brokers hold the queues");
    }
    long segmentBytes = values.getLong("sqm_segment_size");
    for (int i = 0; i < partitions.size(); i++) {
      try {
        partitions.get(i).requireRoomForSegment(segmentBytes);
      } catch (IllegalArgumentException e) {
        throw error(
            file,
            partitionLines.get(i),
            "partition." + partitions.get(i).name() + ": " + e.getMessage());
      }
    }
    Path dataDirectory = base.resolve(values.getPath("data_directory")).normalize();
    if (partitions.isEmpty()) {
      partitions.add(
          new PartitionSpec("p1", dataDirectory.resolve("partitions/p1"), 4L * 1024 * 1024 * 1024));
    }
    String rssdUrl = values.getString("rssd_url");
    RssdSettings rssd =
        rssdUrl.equalsIgnoreCase("embedded")
            ? RssdSettings.embedded(dataDirectory)
            : new RssdSettings(
                rssdUrl,
                extra.getOrDefault("rssd_user", ""),
                secret(file, extra, "rssd_password", env).map(String::new).orElse(""),
                Optional.empty());
    Optional<char[]> admin = secret(file, extra, "admin_password", env);
    if (admin.isEmpty()) {
      String fromEnv = env.apply(ADMIN_PASSWORD_ENV);
      if (fromEnv != null && !fromEnv.isEmpty()) {
        admin = Optional.of(fromEnv.toCharArray());
      }
    }
    return new ServerSettings(
        values.getString("rs_name"), dataDirectory, values, partitions, rssd, admin, kafka);
  }

  private static Optional<char[]> secret(
      Path file, Map<String, String> extra, String name, Function<String, String> env)
      throws IOException {
    String var = extra.get(name + "_env");
    String path = extra.get(name + "_file");
    if (var != null && path != null) {
      throw new IllegalArgumentException(
          file + ": give " + name + "_env or " + name + "_file, not both");
    }
    if (var != null) {
      String v = env.apply(var);
      if (v == null || v.isEmpty()) {
        throw new IllegalArgumentException(
            file + ": " + name + "_env names environment variable " + var + ", which is not set");
      }
      return Optional.of(v.toCharArray());
    }
    if (path != null) {
      Path p = file.toAbsolutePath().getParent().resolve(path);
      String v = Files.readString(p, StandardCharsets.UTF_8).strip();
      if (v.isEmpty()) {
        throw new IllegalArgumentException(file + ": " + name + "_file " + p + " is empty");
      }
      return Optional.of(v.toCharArray());
    }
    return Optional.empty();
  }

  private static PartitionSpec partition(
      Path file, int line, Path base, String name, String value) {
    String[] parts = value.split("\\s+");
    if (name.isEmpty() || parts.length != 2) {
      throw error(
          file, line, "partition." + name + ": expected '<directory> <size>', e.g. /srv/p1 4g");
    }
    long size;
    try {
      size = bytes(parts[1]);
    } catch (NumberFormatException e) {
      throw error(
          file,
          line,
          "partition." + name + ": size '" + parts[1] + "' is not a size (e.g. 512m, 4g)");
    }
    return new PartitionSpec(name, base.resolve(parts[0]).normalize(), size);
  }

  static long bytes(String text) {
    String t = text.toLowerCase(Locale.ROOT);
    long unit = 1;
    char last = t.charAt(t.length() - 1);
    if (last == 'k' || last == 'm' || last == 'g' || last == 't') {
      unit = 1L << (10 * ("kmgt".indexOf(last) + 1));
      t = t.substring(0, t.length() - 1);
    }
    long v = Long.parseLong(t);
    if (v <= 0) {
      throw new NumberFormatException(text);
    }
    return Math.multiplyExact(v, unit);
  }

  private static String unquote(String v) {
    if (v.length() >= 2
        && ((v.startsWith("'") && v.endsWith("'")) || (v.startsWith("\"") && v.endsWith("\"")))) {
      return v.substring(1, v.length() - 1);
    }
    return v;
  }

  /**
   * Whether a Kafka client property holds a secret: a password or secret by name ({@link
   * Secrets#isSecretName}), a JAAS configuration (it carries the password) or a private key.
   */
  static boolean isKafkaSecret(String property) {
    String p = property.toLowerCase(java.util.Locale.ROOT);
    return io.openrs.config.secret.Secrets.isSecretName(p)
        || p.endsWith("jaas.config")
        || p.endsWith("keystore.key");
  }

  /**
   * The value of a {@code kafka.} line: a secret must be a reference, {@code env:NAME} or {@code
   * file:/path} (resolved now, as the server's other secrets), or a placeholder of Kafka's own
   * config providers ({@code ${provider:path:key}}, which Kafka resolves); any other value as
   * written.
   */
  private static String kafkaValue(
      Path file, int line, String key, String value, Function<String, String> env) {
    String property = key.substring(KAFKA_PREFIX.length());
    if (!isKafkaSecret(property) || value.startsWith("${")) {
      return value;
    }
    if (!io.openrs.config.secret.Secrets.isReference(value)) {
      throw error(
          file,
          line,
          key
              + ": secrets are not written in the configuration file; give env:NAME (an"
              + " environment variable), file:/path (a file readable only by the server) or a"
              + " Kafka config provider placeholder ${provider:path:key}");
    }
    try {
      return new io.openrs.config.secret.Secrets(java.util.Optional.empty(), env)
          .reveal(value, key);
    } catch (RuntimeException e) {
      throw error(file, line, e.getMessage());
    }
  }

  private static IllegalArgumentException error(Path file, int line, String message) {
    return new IllegalArgumentException(file + ":" + line + ": " + message);
  }
}
