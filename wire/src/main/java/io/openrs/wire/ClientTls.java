package io.openrs.wire;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLParameters;

/**
 * TLS of the agent's side of an LTL link, with libpq's {@code sslmode} meanings: {@link Mode#OFF}
 * plaintext; {@link Mode#REQUIRE} encrypted, the server's certificate not checked; {@link
 * Mode#VERIFY_CA} encrypted, the server's certificate must chain to {@code rootCertificates};
 * {@link Mode#VERIFY_FULL} that and the certificate must name the host the agent connects to
 * (subject alternative name, as HTTPS checks it). A client certificate and its key are presented
 * when given (the server asks for one when {@code ltl_tls_client_ca} is set). Files are PEM, the
 * key unencrypted PKCS#8; they are read at each connect, so renewed files take effect at the next
 * one.
 *
 * @param rootCertificates PEM bundle of the CAs trusted for the server's certificate (needed by
 *     {@link Mode#VERIFY_CA} and {@link Mode#VERIFY_FULL})
 * @param certificate the agent's client certificate (chain), given iff {@code privateKey} is
 */
public record ClientTls(
    Mode mode,
    Optional<Path> rootCertificates,
    Optional<Path> certificate,
    Optional<Path> privateKey) {

  /** Plaintext. */
  public static final ClientTls OFF =
      new ClientTls(Mode.OFF, Optional.empty(), Optional.empty(), Optional.empty());

  /** How much of TLS the agent insists on. */
  public enum Mode {
    OFF("off"),
    REQUIRE("require"),
    VERIFY_CA("verify-ca"),
    VERIFY_FULL("verify-full");

    private final String configName;

    Mode(String configName) {
      this.configName = configName;
    }

    /** The name in configuration files. */
    public String configName() {
      return configName;
    }

    /** The mode named {@code name} (case-insensitive), or empty. */
    public static Optional<Mode> byName(String name) {
      String n = name.strip().toLowerCase(Locale.ROOT);
      for (Mode m : values()) {
        if (m.configName.equals(n)) {
          return Optional.of(m);
        }
      }
      return Optional.empty();
    }
  }

  public ClientTls {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(rootCertificates, "rootCertificates");
    Objects.requireNonNull(certificate, "certificate");
    Objects.requireNonNull(privateKey, "privateKey");
    List<String> problems = new ArrayList<>();
    if ((mode == Mode.VERIFY_CA || mode == Mode.VERIFY_FULL) && rootCertificates.isEmpty()) {
      problems.add("TLS mode " + mode.configName + " needs the root certificates to check with");
    }
    if (certificate.isPresent() != privateKey.isPresent()) {
      problems.add("a client certificate and its private key go together: give both or neither");
    }
    if (mode == Mode.OFF && (certificate.isPresent() || rootCertificates.isPresent())) {
      problems.add("TLS files are given but the TLS mode is off");
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("bad LTL TLS settings: " + String.join("; ", problems));
    }
  }

  /** Whether the link is encrypted. */
  public boolean enabled() {
    return mode != Mode.OFF;
  }

  /**
   * A new client-side TLS handler for a connection to {@code host:port} (the first handler of the
   * pipeline), from a context of {@link #newContext()}. With {@link Mode#VERIFY_FULL} the engine
   * checks that the server's certificate names {@code host}.
   */
  public SslHandler newHandler(SslContext context, ByteBufAllocator alloc, String host, int port) {
    SslHandler handler = context.newHandler(alloc, host, port);
    if (mode == Mode.VERIFY_FULL) {
      SSLParameters parameters = handler.engine().getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      handler.engine().setSSLParameters(parameters);
    }
    return handler;
  }

  /**
   * Reads the files into a client TLS context.
   *
   * @throws IOException naming the file that cannot be read or used
   */
  public SslContext newContext() throws IOException {
    if (!enabled()) {
      throw new IllegalStateException("TLS is off");
    }
    SslContextBuilder builder = SslContextBuilder.forClient();
    if (mode == Mode.REQUIRE) {
      builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
    } else {
      Path roots = readable(rootCertificates.orElseThrow(), "root certificates");
      try {
        builder.trustManager(roots.toFile());
      } catch (IllegalArgumentException e) {
        throw new IOException("cannot read the root certificates " + roots + " (PEM): " + e, e);
      }
    }
    if (certificate.isPresent()) {
      Path cert = readable(certificate.get(), "client certificate");
      Path key = readable(privateKey.orElseThrow(), "client private key");
      try {
        builder.keyManager(cert.toFile(), key.toFile());
      } catch (IllegalArgumentException e) {
        throw new IOException(
            "cannot load the client certificate "
                + cert
                + " and key "
                + key
                + " (PEM, key in unencrypted PKCS#8): "
                + e.getMessage(),
            e);
      }
    }
    try {
      return builder.build();
    } catch (javax.net.ssl.SSLException e) {
      throw new IOException("cannot set up TLS for the LTL link: " + e.getMessage(), e);
    }
  }

  private static Path readable(Path file, String what) throws IOException {
    if (!Files.isReadable(file)) {
      throw new IOException(
          "the TLS " + what + " file " + file + " does not exist or cannot be read");
    }
    return file;
  }

  /** Names the mode and the files, never their content. */
  @Override
  public String toString() {
    return "ClientTls["
        + mode.configName
        + rootCertificates.map(p -> ", root " + p).orElse("")
        + certificate.map(p -> ", certificate " + p).orElse("")
        + "]";
  }
}
