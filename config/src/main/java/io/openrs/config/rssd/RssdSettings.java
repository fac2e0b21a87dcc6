package io.openrs.config.rssd;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where the RSSD lives: a JDBC URL, credentials and optionally a schema. The embedded default is an
 * H2 file database in the server directory ({@link #embedded(Path)}); a shared PostgreSQL database
 * works with any schema, e.g. {@code new RssdSettings("jdbc:postgresql://db:5432/rs", "rs",
 * "secret", Optional.of("rssd_rs1"))}.
 *
 * @param jdbcUrl the JDBC URL (H2 or PostgreSQL)
 * @param user the database user
 * @param password the password; empty when none (embedded H2)
 * @param schema the schema holding the system tables; created by the first migration when missing.
 *     Empty = the connection's default schema ({@code public})
 */
public record RssdSettings(String jdbcUrl, String user, String password, Optional<String> schema) {
  /** H2 options of the embedded RSSD; see {@link #embedded(Path)}. */
  static final String H2_OPTIONS =
      ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH"
          + ";WRITE_DELAY=0;LOCK_TIMEOUT=10000;DB_CLOSE_ON_EXIT=FALSE";

  /** The user of the embedded RSSD. */
  static final String EMBEDDED_USER = "rs";

  private static final Pattern SCHEMA_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
  private static final Pattern URL_SECRET = Pattern.compile("(?i)(password|passwd|pwd)=[^;&]*");

  public RssdSettings {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(schema, "schema");
    password = password == null ? "" : password;
    if (!jdbcUrl.startsWith("jdbc:")) {
      throw new IllegalArgumentException(
          "RSSD jdbcUrl must start with jdbc: but is " + redact(jdbcUrl));
    }
    if (schema.isPresent() && !SCHEMA_NAME.matcher(schema.get()).matches()) {
      throw new IllegalArgumentException(
          "RSSD schema '"
              + schema.get()
              + "' is not a plain lower-case identifier (a-z, 0-9, _; at most 63 characters)");
    }
  }

  /**
   * The embedded RSSD: an H2 file database {@code <serverDirectory>/rssd.mv.db}, in PostgreSQL mode
   * with lower-case names. Commits are written to the file before they return ({@code
   * WRITE_DELAY=0}); the file is locked against a second process ({@code AUTO_SERVER} stays off, so
   * a second server on the same directory fails at open); H2's shutdown hook does not close the
   * database under the server ({@code DB_CLOSE_ON_EXIT=FALSE}); row lock waits give up after 10 s.
   */
  public static RssdSettings embedded(Path serverDirectory) {
    String dir = serverDirectory.toAbsolutePath().normalize().toString();
    if (dir.contains(";")) {
      throw new IllegalArgumentException(
          "the server directory must not contain ';' (H2 URL separator): " + dir);
    }
    return new RssdSettings(
        "jdbc:h2:file:" + dir.replace('\\', '/') + "/rssd" + H2_OPTIONS,
        EMBEDDED_USER,
        "",
        Optional.empty());
  }

  /** True for an H2 URL (embedded or any other H2 database). */
  public boolean isH2() {
    return jdbcUrl.startsWith("jdbc:h2:");
  }

  /** The URL with any password parameter replaced by {@code ***}; safe for logs and errors. */
  public String redactedUrl() {
    return redact(jdbcUrl);
  }

  private static String redact(String url) {
    return URL_SECRET.matcher(url).replaceAll("$1=***");
  }

  /** Never shows the password (nor a password inside the URL). */
  @Override
  public String toString() {
    return "RssdSettings[jdbcUrl="
        + redactedUrl()
        + ", user="
        + user
        + ", password="
        + (password.isEmpty() ? "<none>" : "***")
        + ", schema="
        + schema.orElse("<default>")
        + "]";
  }
}
