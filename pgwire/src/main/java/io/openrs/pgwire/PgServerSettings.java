package io.openrs.pgwire;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Everything a {@link PgServer} is configured with. Start from {@link #defaults(String, int)} or
 * the six-argument constructor and change what differs with the {@code with...} methods; the
 * constructor checks every field and reports every problem at once.
 *
 * @param host address to listen on ({@code 127.0.0.1}, {@code 0.0.0.0}, a host name)
 * @param port port to listen on, 0 = any free port ({@link PgServer#port()} tells which)
 * @param tlsCertificatePem PEM file with the server certificate (then its chain); TLS is offered
 *     (SSLRequest answered 'S') exactly when given
 * @param tlsPrivateKeyPem PEM file with the certificate's unencrypted PKCS#8 private key ({@code
 *     BEGIN PRIVATE KEY}, what {@code openssl req -newkey ... -nodes} writes); given iff the
 *     certificate is
 * @param maxConnections sessions at most (counted from a successful login on, so connections still
 *     authenticating never take one); one more gets {@code 53300 sorry, too many clients already}
 * @param serverVersion reported as {@code server_version}; must start with PostgreSQL's {@code
 *     <major>.<minor>} (clients parse it), e.g. {@code "15.0 (openrs 0.1)"}
 * @param requireTls refuse sessions that did not switch to TLS (28000); needs a certificate
 * @param maxMessageBytes largest frontend message accepted, type byte and length excluded; a longer
 *     one is refused (08P01) before any of it is buffered
 * @param authenticationTimeout a connection must finish startup and authentication within this
 *     (PostgreSQL's {@code authentication_timeout}), or it is closed
 * @param maxStatementBytes largest Query, Parse or Bind message body (the SQL text and its
 *     parameter values); a longer one is skipped as it arrives, never buffered, and answered {@code
 *     54000 program_limit_exceeded}; the session stays usable. Above {@code maxMessageBytes} the
 *     message limit wins (08P01, the connection is closed).
 * @param maxUnauthenticated connections at most that have not logged in yet (from accept to
 *     authentication), counted apart from {@code maxConnections}; one more is answered {@code
 *     53300} and closed at once
 * @param maxLoginFailures failed logins in a row from one client address before that address must
 *     wait (1 s, doubling per further failure, at most {@link LoginThrottle#MAX_BACKOFF}); 0 turns
 *     the backoff off
 */
public record PgServerSettings(
    String host,
    int port,
    Optional<Path> tlsCertificatePem,
    Optional<Path> tlsPrivateKeyPem,
    int maxConnections,
    String serverVersion,
    boolean requireTls,
    int maxMessageBytes,
    Duration authenticationTimeout,
    int maxStatementBytes,
    int maxUnauthenticated,
    int maxLoginFailures) {

  /** The PostgreSQL version reported by default. */
  public static final String DEFAULT_SERVER_VERSION = "15.0 (openrs)";

  /** Sessions at most by default: 100. */
  public static final int DEFAULT_MAX_CONNECTIONS = 100;

  /** Largest frontend message by default: 64 MiB. */
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

  /** Smallest allowed {@link #maxMessageBytes}: 1 KiB. */
  public static final int MIN_MAX_MESSAGE_BYTES = 1024;

  /** Largest allowed {@link #maxMessageBytes}: 1 GiB - 1 (PostgreSQL's MaxAllocSize). */
  public static final int MAX_MAX_MESSAGE_BYTES = 0x3fffffff;

  /**
   * Startup and authentication must finish within: 10 s (PostgreSQL's 60 s lets a flood of silent
   * sockets hold the unauthenticated slots six times longer).
   */
  public static final Duration DEFAULT_AUTHENTICATION_TIMEOUT = Duration.ofSeconds(10);

  /** Largest Query, Parse or Bind body by default: 1 MiB. */
  public static final int DEFAULT_MAX_STATEMENT_BYTES = 1024 * 1024;

  /** Connections not yet logged in at most by default: 16. */
  public static final int DEFAULT_MAX_UNAUTHENTICATED = 16;

  /** Failed logins in a row from one address before it must wait, by default: 5. */
  public static final int DEFAULT_MAX_LOGIN_FAILURES = 5;

  public PgServerSettings {
    List<String> problems = new ArrayList<>();
    if (host == null || host.isBlank()) {
      problems.add("host must be given");
    }
    if (port < 0 || port > 65535) {
      problems.add("port must be 0..65535 (0 = any free port), got " + port);
    }
    if (tlsCertificatePem == null || tlsPrivateKeyPem == null) {
      problems.add(
          "tlsCertificatePem and tlsPrivateKeyPem must be given (Optional.empty() for none)");
    } else if (tlsCertificatePem.isPresent() != tlsPrivateKeyPem.isPresent()) {
      problems.add("tlsCertificatePem and tlsPrivateKeyPem go together: give both or neither");
    }
    if (maxConnections < 1) {
      problems.add("maxConnections must be >= 1, got " + maxConnections);
    }
    if (serverVersion == null || !serverVersion.matches("\\d+(\\.\\d+)*([^\\d.].*)?")) {
      problems.add(
          "serverVersion must start with a PostgreSQL version such as 15.0, got " + serverVersion);
    } else if (serverVersion.indexOf('\0') >= 0) {
      problems.add("serverVersion must not contain NUL");
    } else if (!serverVersion.matches("\\d{1,4}(\\.\\d{1,4}){0,2}([^\\d.].*)?")) {
      problems.add("serverVersion's numbers are too long: " + serverVersion);
    }
    if (requireTls && (tlsCertificatePem == null || tlsCertificatePem.isEmpty())) {
      problems.add("requireTls needs a certificate and key");
    }
    if (maxMessageBytes < MIN_MAX_MESSAGE_BYTES || maxMessageBytes > MAX_MAX_MESSAGE_BYTES) {
      problems.add(
          "maxMessageBytes must be "
              + MIN_MAX_MESSAGE_BYTES
              + ".."
              + MAX_MAX_MESSAGE_BYTES
              + ", got "
              + maxMessageBytes);
    }
    if (authenticationTimeout == null
        || authenticationTimeout.isNegative()
        || authenticationTimeout.isZero()) {
      problems.add("authenticationTimeout must be positive, got " + authenticationTimeout);
    }
    if (maxStatementBytes < MIN_MAX_MESSAGE_BYTES || maxStatementBytes > MAX_MAX_MESSAGE_BYTES) {
      problems.add(
          "maxStatementBytes must be "
              + MIN_MAX_MESSAGE_BYTES
              + ".."
              + MAX_MAX_MESSAGE_BYTES
              + ", got "
              + maxStatementBytes);
    }
    if (maxUnauthenticated < 1) {
      problems.add("maxUnauthenticated must be >= 1, got " + maxUnauthenticated);
    }
    if (maxLoginFailures < 0) {
      problems.add("maxLoginFailures must be >= 0 (0 = no backoff), got " + maxLoginFailures);
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "bad PostgreSQL protocol server settings: " + String.join("; ", problems));
    }
  }

  /**
   * Settings with plain TCP or TLS offered, and defaults for the rest: TLS not required, {@link
   * #DEFAULT_MAX_MESSAGE_BYTES}, {@link #DEFAULT_AUTHENTICATION_TIMEOUT}.
   */
  public PgServerSettings(
      String host,
      int port,
      Optional<Path> tlsCertificatePem,
      Optional<Path> tlsPrivateKeyPem,
      int maxConnections,
      String serverVersion) {
    this(
        host,
        port,
        tlsCertificatePem,
        tlsPrivateKeyPem,
        maxConnections,
        serverVersion,
        false,
        DEFAULT_MAX_MESSAGE_BYTES,
        DEFAULT_AUTHENTICATION_TIMEOUT,
        DEFAULT_MAX_STATEMENT_BYTES,
        DEFAULT_MAX_UNAUTHENTICATED,
        DEFAULT_MAX_LOGIN_FAILURES);
  }

  /** No TLS, {@link #DEFAULT_MAX_CONNECTIONS}, {@link #DEFAULT_SERVER_VERSION}. */
  public static PgServerSettings defaults(String host, int port) {
    return new PgServerSettings(
        host,
        port,
        Optional.empty(),
        Optional.empty(),
        DEFAULT_MAX_CONNECTIONS,
        DEFAULT_SERVER_VERSION);
  }

  /** These settings with TLS offered from the given PEM files. */
  public PgServerSettings withTls(Path certificatePem, Path privateKeyPem) {
    return new PgServerSettings(
        host,
        port,
        Optional.of(certificatePem),
        Optional.of(privateKeyPem),
        maxConnections,
        serverVersion,
        requireTls,
        maxMessageBytes,
        authenticationTimeout,
        maxStatementBytes,
        maxUnauthenticated,
        maxLoginFailures);
  }

  /** These settings with TLS required (or not). */
  public PgServerSettings withRequireTls(boolean require) {
    return new PgServerSettings(
        host,
        port,
        tlsCertificatePem,
        tlsPrivateKeyPem,
        maxConnections,
        serverVersion,
        require,
        maxMessageBytes,
        authenticationTimeout,
        maxStatementBytes,
        maxUnauthenticated,
        maxLoginFailures);
  }

  /** These settings with another connection limit. */
  public PgServerSettings withMaxConnections(int max) {
    return new PgServerSettings(
        host,
        port,
        tlsCertificatePem,
        tlsPrivateKeyPem,
        max,
        serverVersion,
        requireTls,
        maxMessageBytes,
        authenticationTimeout,
        maxStatementBytes,
        maxUnauthenticated,
        maxLoginFailures);
  }

  /** These settings with another reported server version. */
  public PgServerSettings withServerVersion(String version) {
    return new PgServerSettings(
        host,
        port,
        tlsCertificatePem,
        tlsPrivateKeyPem,
        maxConnections,
        version,
        requireTls,
        maxMessageBytes,
        authenticationTimeout,
        maxStatementBytes,
        maxUnauthenticated,
        maxLoginFailures);
  }

  /** These settings with another message size limit. */
  public PgServerSettings withMaxMessageBytes(int max) {
    return new PgServerSettings(
        host,
        port,
        tlsCertificatePem,
        tlsPrivateKeyPem,
        maxConnections,
        serverVersion,
        requireTls,
        max,
        authenticationTimeout,
        maxStatementBytes,
        maxUnauthenticated,
        maxLoginFailures);
  }

  /** These settings with another authentication timeout. */
  public PgServerSettings withAuthenticationTimeout(Duration timeout) {
    return new PgServerSettings(
        host,
        port,
        tlsCertificatePem,
        tlsPrivateKeyPem,
        maxConnections,
        serverVersion,
        requireTls,
        maxMessageBytes,
        timeout,
        maxStatementBytes,
        maxUnauthenticated,
        maxLoginFailures);
  }

  /** These settings with another statement size limit. */
  public PgServerSettings withMaxStatementBytes(int max) {
    return new PgServerSettings(
        host,
        port,
        tlsCertificatePem,
        tlsPrivateKeyPem,
        maxConnections,
        serverVersion,
        requireTls,
        maxMessageBytes,
        authenticationTimeout,
        max,
        maxUnauthenticated,
        maxLoginFailures);
  }

  /** These settings with another cap on connections not yet logged in. */
  public PgServerSettings withMaxUnauthenticated(int max) {
    return new PgServerSettings(
        host,
        port,
        tlsCertificatePem,
        tlsPrivateKeyPem,
        maxConnections,
        serverVersion,
        requireTls,
        maxMessageBytes,
        authenticationTimeout,
        maxStatementBytes,
        max,
        maxLoginFailures);
  }

  /** These settings with another number of failed logins before the per-address backoff. */
  public PgServerSettings withMaxLoginFailures(int max) {
    return new PgServerSettings(
        host,
        port,
        tlsCertificatePem,
        tlsPrivateKeyPem,
        maxConnections,
        serverVersion,
        requireTls,
        maxMessageBytes,
        authenticationTimeout,
        maxStatementBytes,
        maxUnauthenticated,
        max);
  }

  /** Whether TLS is offered. */
  public boolean tlsEnabled() {
    return tlsCertificatePem.isPresent();
  }

  /** {@code server_version_num}: major * 10000 + minor (for versions 10 and later). */
  public int serverVersionNum() {
    String[] parts = serverVersion.split("[^0-9.]", 2)[0].split("\\.");
    int major = Integer.parseInt(parts[0]);
    int minor = parts.length > 1 && !parts[1].isEmpty() ? Integer.parseInt(parts[1]) : 0;
    if (major >= 10) {
      return major * 10000 + minor;
    }
    int patch = parts.length > 2 && !parts[2].isEmpty() ? Integer.parseInt(parts[2]) : 0;
    return major * 10000 + minor * 100 + patch;
  }
}
