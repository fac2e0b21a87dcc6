package io.openrs.repserver.exec;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * TLS of the LTL port ({@code ltl_tls}, {@code ltl_tls_certificate}, {@code ltl_tls_private_key},
 * {@code ltl_tls_client_ca}). Files are PEM, the key unencrypted PKCS#8, as for the admin port.
 *
 * @param clientCa when present, a TLS agent must present a certificate signed by one of these CAs
 */
public record LtlTls(
    Mode mode, Optional<Path> certificate, Optional<Path> privateKey, Optional<Path> clientCa) {

  /** Plaintext only. */
  public static final LtlTls OFF =
      new LtlTls(Mode.OFF, Optional.empty(), Optional.empty(), Optional.empty());

  /** {@code ltl_tls}. */
  public enum Mode {
    /** Plaintext only. */
    OFF,
    /** TLS or plaintext, as the agent chooses. */
    ON,
    /** TLS only: a plaintext agent gets an Error naming {@code ltl_tls = required}. */
    REQUIRED;

    /** The parameter's value for {@code name}. */
    public static Mode of(String name) {
      return valueOf(name.strip().toUpperCase(Locale.ROOT));
    }

    /** The parameter's value. */
    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public LtlTls {
    Objects.requireNonNull(mode, "mode");
    List<String> problems = new ArrayList<>();
    if (mode != Mode.OFF && (certificate.isEmpty() || privateKey.isEmpty())) {
      problems.add(
          "ltl_tls "
              + mode.configName()
              + " needs ltl_tls_certificate and ltl_tls_private_key (PEM files)");
    }
    if (mode == Mode.OFF && clientCa.isPresent()) {
      problems.add("ltl_tls_client_ca is set but ltl_tls is off");
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
  }

  /** Whether agents may use TLS. */
  public boolean enabled() {
    return mode != Mode.OFF;
  }

  /**
   * Reads the files into a server TLS context.
   *
   * @throws IOException naming the file that cannot be read or used
   */
  SslContext newContext() throws IOException {
    Path cert = readable(certificate.orElseThrow(), "ltl_tls_certificate");
    Path key = readable(privateKey.orElseThrow(), "ltl_tls_private_key");
    SslContextBuilder builder;
    try {
      builder = SslContextBuilder.forServer(cert.toFile(), key.toFile());
    } catch (IllegalArgumentException e) {
      throw new IOException(
          "cannot load the LTL port's TLS certificate "
              + cert
              + " and key "
              + key
              + " (PEM, key in unencrypted PKCS#8): "
              + e.getMessage(),
          e);
    }
    if (clientCa.isPresent()) {
      Path ca = readable(clientCa.get(), "ltl_tls_client_ca");
      try {
        builder.trustManager(ca.toFile()).clientAuth(ClientAuth.REQUIRE);
      } catch (IllegalArgumentException e) {
        throw new IOException("cannot read ltl_tls_client_ca " + ca + " (PEM): " + e, e);
      }
    }
    try {
      return builder.build();
    } catch (javax.net.ssl.SSLException e) {
      throw new IOException("cannot set up TLS for the LTL port: " + e.getMessage(), e);
    }
  }

  private static Path readable(Path file, String parameter) throws IOException {
    if (!Files.isReadable(file)) {
      throw new IOException(parameter + " " + file + " does not exist or cannot be read");
    }
    return file;
  }

  @Override
  public String toString() {
    return mode == Mode.OFF
        ? "off"
        : mode.configName() + (clientCa.isPresent() ? ", client certificates required" : "");
  }
}
