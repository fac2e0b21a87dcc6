package io.openrs.pgwire;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Locale;
import java.util.Optional;

/**
 * Channel binding data of type {@code tls-server-end-point} (RFC 5929 section 4.1): the hash of the
 * server certificate (DER), with the hash of its signature algorithm, except that MD5 and SHA-1
 * become SHA-256. Empty for algorithms without a defined hash (e.g. Ed25519, RSASSA-PSS), as
 * PostgreSQL then does not offer SCRAM-SHA-256-PLUS either.
 */
final class TlsServerEndPoint {
  private TlsServerEndPoint() {}

  /** The binding data for the first certificate of a PEM file. */
  static Optional<byte[]> of(Path certificatePem) throws IOException {
    try (InputStream in = Files.newInputStream(certificatePem)) {
      X509Certificate certificate =
          (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
      Optional<String> digest = digestFor(certificate.getSigAlgName());
      if (digest.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(MessageDigest.getInstance(digest.get()).digest(certificate.getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot read certificate " + certificatePem + ": " + e.getMessage(), e);
    }
  }

  /** The digest for a JCA signature algorithm name such as {@code SHA256withRSA}. */
  static Optional<String> digestFor(String signatureAlgorithm) {
    String name = signatureAlgorithm.toUpperCase(Locale.ROOT);
    int with = name.indexOf("WITH");
    if (with < 0) {
      return Optional.empty();
    }
    String hash = name.substring(0, with);
    switch (hash) {
      case "MD5":
      case "SHA1":
      case "SHA256":
        return Optional.of("SHA-256");
      case "SHA224":
        return Optional.of("SHA-224");
      case "SHA384":
        return Optional.of("SHA-384");
      case "SHA512":
        return Optional.of("SHA-512");
      case "SHA3-256":
      case "SHA3-384":
      case "SHA3-512":
        return Optional.of(hash);
      default:
        return Optional.empty();
    }
  }
}
