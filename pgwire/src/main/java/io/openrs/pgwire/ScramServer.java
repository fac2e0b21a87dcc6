package io.openrs.pgwire;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The server side of one SCRAM-SHA-256 exchange (RFC 5802, RFC 7677) as PostgreSQL runs it inside
 * AuthenticationSASL: client-first-message, server-first-message, client-final-message,
 * server-final-message.
 *
 * <ul>
 *   <li>Mechanisms: {@code SCRAM-SHA-256}, and {@code SCRAM-SHA-256-PLUS} with channel binding
 *       {@code tls-server-end-point} (RFC 5929) when the connection is TLS and the certificate's
 *       hash is known.
 *   <li>gs2 header: {@code n,,} and {@code y,,} with SCRAM-SHA-256 ({@code y} is refused when PLUS
 *       was offered: the client thinks the server cannot bind, a downgrade, RFC 5802 section 6);
 *       {@code p=tls-server-end-point,,} with PLUS only. An authzid is refused; the user name in
 *       the SCRAM message is ignored (the startup message's counts), as PostgreSQL does.
 *   <li>An unknown user or a malformed verifier runs the whole exchange against a made-up salt
 *       derived from the user name and a per-server secret, so a guesser cannot tell an unknown
 *       user from a wrong password; both end in {@code 28P01 password authentication failed for
 *       user "x"}.
 * </ul>
 *
 * <p>Not thread-safe: owned by the connection's worker. Never logs or keeps the proof beyond the
 * check.
 */
final class ScramServer {
  static final String PLUS = "SCRAM-SHA-256-PLUS";
  static final String CHANNEL_BINDING = "tls-server-end-point";

  private final String user;
  private final PgScram.Verifier verifier;
  private final boolean authentic;
  private final byte[] channelBindingData;
  private final String serverNonce;

  private String gs2Header;
  private boolean plus;
  private String clientFirstBare;
  private String serverFirst;
  private String nonce;
  private boolean done;

  /**
   * @param user the startup message's user name, for messages
   * @param verifier the user's verifier; empty = unknown user or malformed verifier
   * @param mockSalt salt shown when there is no verifier
   * @param channelBindingData the certificate hash for {@code tls-server-end-point}, or null when
   *     PLUS is not offered
   * @param serverNonce the server's part of the nonce (printable ASCII without ',')
   */
  ScramServer(
      String user,
      Optional<PgScram.Verifier> verifier,
      byte[] mockSalt,
      byte[] channelBindingData,
      String serverNonce) {
    this.user = user;
    this.authentic = verifier.isPresent();
    this.verifier =
        verifier.orElseGet(
            () ->
                new PgScram.Verifier(
                    PgScram.DEFAULT_ITERATIONS, mockSalt, new byte[32], new byte[32]));
    this.channelBindingData = channelBindingData;
    this.serverNonce = serverNonce;
  }

  /** The mechanisms to offer in AuthenticationSASL, preferred first. */
  List<String> mechanisms() {
    List<String> m = new ArrayList<>();
    if (channelBindingData != null) {
      m.add(PLUS);
    }
    m.add(PgScram.MECHANISM);
    return m;
  }

  /** Whether the exchange succeeded (after {@link #clientFinal}). */
  boolean done() {
    return done;
  }

  /**
   * Handles SASLInitialResponse.
   *
   * @return the server-first-message for AuthenticationSASLContinue
   */
  byte[] clientFirst(String mechanism, byte[] message) throws PgException {
    if (!mechanisms().contains(mechanism)) {
      throw protocol("client selected an invalid SASL authentication mechanism", null);
    }
    plus = mechanism.equals(PLUS);
    String s = new String(message, StandardCharsets.UTF_8);
    int comma1 = s.indexOf(',');
    int comma2 = comma1 < 0 ? -1 : s.indexOf(',', comma1 + 1);
    if (comma2 < 0) {
      throw malformed("Comma expected after the channel-binding flag and the authzid.");
    }
    String flag = s.substring(0, comma1);
    if (flag.equals("n")) {
      if (plus) {
        throw malformed(
            "The client selected SCRAM-SHA-256-PLUS, but the SCRAM message does not include channel binding data.");
      }
    } else if (flag.equals("y")) {
      if (plus) {
        throw malformed(
            "The client selected SCRAM-SHA-256-PLUS, but the SCRAM message does not include channel binding data.");
      }
      if (channelBindingData != null) {
        throw new PgException(
            PgSqlState.INVALID_AUTHORIZATION_SPECIFICATION,
            "SCRAM channel binding negotiation error",
            0,
            null,
            "The client supports SCRAM channel binding but thinks the server does not."
                + "  However, this server does support channel binding.");
      }
    } else if (flag.startsWith("p=")) {
      if (!plus) {
        throw malformed(
            "The client selected SCRAM-SHA-256 without channel binding, but the SCRAM message includes channel binding data.");
      }
      if (!flag.substring(2).equals(CHANNEL_BINDING)) {
        throw protocol(
            "unsupported SCRAM channel-binding type \"" + flag.substring(2) + "\"", null);
      }
    } else {
      throw malformed("Unexpected channel-binding flag \"" + flag + "\".");
    }
    if (comma2 != comma1 + 1) {
      throw new PgException(
          PgSqlState.FEATURE_NOT_SUPPORTED,
          "client uses authorization identity, but it is not supported");
    }
    gs2Header = s.substring(0, comma2 + 1);
    clientFirstBare = s.substring(comma2 + 1);
    String[] attributes = clientFirstBare.split(",", -1);
    if (attributes.length > 0 && attributes[0].startsWith("m=")) {
      throw new PgException(
          PgSqlState.FEATURE_NOT_SUPPORTED, "client requires an unsupported SCRAM extension");
    }
    if (attributes.length < 2
        || !attributes[0].startsWith("n=")
        || !attributes[1].startsWith("r=")) {
      throw malformed("Expected \"n=<user>,r=<nonce>\".");
    }
    String clientNonce = attributes[1].substring(2);
    if (clientNonce.isEmpty() || !printable(clientNonce)) {
      throw malformed("The client nonce is empty or not printable.");
    }
    nonce = clientNonce + serverNonce;
    serverFirst =
        "r="
            + nonce
            + ",s="
            + Base64.getEncoder().encodeToString(verifier.salt())
            + ",i="
            + verifier.iterations();
    return serverFirst.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Handles SASLResponse: checks the channel binding, the nonce and the proof.
   *
   * @return the server-final-message for AuthenticationSASLFinal
   * @throws PgException 28P01 when the proof is wrong or the user unknown, 08P01 when malformed
   */
  byte[] clientFinal(byte[] message) throws PgException {
    if (serverFirst == null || done) {
      throw protocol("unexpected SASL response", null);
    }
    String s = new String(message, StandardCharsets.UTF_8);
    int proofAt = s.lastIndexOf(",p=");
    if (!s.startsWith("c=") || proofAt < 0) {
      throw malformed("Expected \"c=<binding>,r=<nonce>,...,p=<proof>\".");
    }
    String withoutProof = s.substring(0, proofAt);
    String[] attributes = withoutProof.split(",", -1);
    if (attributes.length < 2 || !attributes[1].startsWith("r=")) {
      throw malformed("Expected the nonce after the channel binding.");
    }
    byte[] binding;
    byte[] proof;
    try {
      binding = Base64.getDecoder().decode(attributes[0].substring(2));
      proof = Base64.getDecoder().decode(s.substring(proofAt + 3));
    } catch (IllegalArgumentException e) {
      throw malformed("Invalid base64.");
    }
    byte[] expectedBinding = gs2Header.getBytes(StandardCharsets.UTF_8);
    if (plus) {
      byte[] withData = new byte[expectedBinding.length + channelBindingData.length];
      System.arraycopy(expectedBinding, 0, withData, 0, expectedBinding.length);
      System.arraycopy(
          channelBindingData, 0, withData, expectedBinding.length, channelBindingData.length);
      expectedBinding = withData;
    }
    if (!MessageDigest.isEqual(binding, expectedBinding)) {
      throw protocol("SCRAM channel binding check failed", null);
    }
    if (!attributes[1].substring(2).equals(nonce)) {
      throw malformed("Nonce does not match.");
    }
    if (proof.length != 32) {
      throw malformed("Client proof has " + proof.length + " bytes, 32 expected.");
    }
    byte[] authMessage =
        (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
    byte[] clientSignature = PgScram.hmac(verifier.storedKey(), authMessage);
    byte[] clientKey = new byte[32];
    for (int i = 0; i < 32; i++) {
      clientKey[i] = (byte) (proof[i] ^ clientSignature[i]);
    }
    boolean proven = MessageDigest.isEqual(PgScram.sha256(clientKey), verifier.storedKey());
    if (!proven || !authentic) {
      throw passwordFailed(user);
    }
    done = true;
    byte[] serverSignature = PgScram.hmac(verifier.serverKey(), authMessage);
    return ("v=" + Base64.getEncoder().encodeToString(serverSignature))
        .getBytes(StandardCharsets.UTF_8);
  }

  /** The one answer for an unknown user and a wrong password. */
  static PgException passwordFailed(String user) {
    return new PgException(
        PgSqlState.INVALID_PASSWORD, "password authentication failed for user \"" + user + "\"");
  }

  private static boolean printable(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x21 || c > 0x7e || c == ',') {
        return false;
      }
    }
    return true;
  }

  private static PgException malformed(String detail) {
    return protocol("malformed SCRAM message", detail);
  }

  private static PgException protocol(String message, String detail) {
    return new PgException(PgSqlState.PROTOCOL_VIOLATION, message, 0, null, detail);
  }
}
