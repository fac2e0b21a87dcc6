package io.openrs.repserver;

import io.openrs.config.param.ParameterValues;
import io.openrs.pgwire.PgServerSettings;
import io.openrs.repserver.exec.AgentLogin;
import io.openrs.repserver.exec.LtlListener;
import io.openrs.repserver.exec.LtlTls;
import io.openrs.wire.LtlCompression;
import io.openrs.wire.WireProtocol;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/** The settings of the server's two ports, the LTL port and the admin port, from its parameters. */
final class PortSettings {
  private PortSettings() {}

  /** The LTL port's listener settings. */
  static LtlListener.Settings ltl(ServerSettings settings, ParameterValues p) throws IOException {
    return new LtlListener.Settings(
        p.getString("listen_address"),
        p.getInt("ltl_port"),
        p.getInt("exec_max_connections"),
        WireProtocol.DEFAULT_MAX_FRAME_LENGTH,
        p.getInt("exec_max_handshakes"),
        p.getDuration("exec_handshake_timeout"),
        p.getDuration("agent_heartbeat_interval"),
        p.getInt("agent_idle_heartbeats"),
        new AgentLogin.Settings(
            p.getInt("exec_max_login_failures"), p.getBoolean("exec_hello_password")),
        java.time.Clock.systemUTC(),
        ltlTls(settings, p),
        ltlCompression(p.getString("ltl_compression")));
  }

  /** The admin port's server settings. */
  static PgServerSettings admin(ServerSettings settings, ParameterValues p) {
    return new PgServerSettings(
            p.getString("listen_address"),
            p.getInt("admin_port"),
            pemFile(settings, p.getString("admin_tls_certificate")),
            pemFile(settings, p.getString("admin_tls_private_key")),
            PgServerSettings.DEFAULT_MAX_CONNECTIONS,
            "15.0 (openrs 0.1.0)")
        .withMaxStatementBytes(p.getInt("admin_max_statement_bytes"))
        .withMaxUnauthenticated(p.getInt("admin_max_unauthenticated"))
        .withAuthenticationTimeout(p.getDuration("admin_auth_timeout"))
        .withMaxLoginFailures(p.getInt("admin_max_login_failures"))
        .withRequireTls(adminTlsRequired(p));
  }

  private static LtlTls ltlTls(ServerSettings settings, ParameterValues p) throws IOException {
    try {
      return new LtlTls(
          LtlTls.Mode.of(p.getString("ltl_tls")),
          pemFile(settings, p.getString("ltl_tls_certificate")),
          pemFile(settings, p.getString("ltl_tls_private_key")),
          pemFile(settings, p.getString("ltl_tls_client_ca")));
    } catch (IllegalArgumentException e) {
      throw new IOException("bad LTL port TLS configuration: " + e.getMessage(), e);
    }
  }

  /** {@code ltl_compression}: the methods the server agrees to. */
  static java.util.Set<LtlCompression> ltlCompression(String value) {
    return switch (value) {
      case "any" -> java.util.EnumSet.of(LtlCompression.LZ4, LtlCompression.ZSTD);
      case "off" -> java.util.Set.of();
      default -> java.util.Set.of(LtlCompression.byName(value).orElseThrow());
    };
  }

  /** {@code admin_tls_required}, refused without the certificate and key it needs. */
  private static boolean adminTlsRequired(ParameterValues p) {
    boolean required = p.getBoolean("admin_tls_required");
    if (required
        && (p.getString("admin_tls_certificate").isEmpty()
            || p.getString("admin_tls_private_key").isEmpty())) {
      throw new IllegalArgumentException(
          "admin_tls_required = on needs admin_tls_certificate and admin_tls_private_key (PEM"
              + " files of the admin port's certificate and key); set both, or admin_tls_required"
              + " = off");
    }
    return required;
  }

  private static Optional<Path> pemFile(ServerSettings settings, String path) {
    return path.isEmpty() ? Optional.empty() : Optional.of(settings.directory().resolve(path));
  }
}
