package io.openrs.wire;

import com.ongres.scram.common.ScramFunctions;
import com.ongres.scram.common.ScramMechanism;
import com.ongres.scram.common.StringPreparation;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The server's half of a SCRAM-SHA-256 exchange for client tests, computed with the library's
 * {@link ScramFunctions} from a password the test chooses (the real server is pgwire's ScramServer,
 * tested in repserver): checks the agent's proof and signs the exchange, or signs it with another
 * password's key to play a server that does not know the verifier.
 */
final class ScramServerScript {
  private static final ScramMechanism SHA256 = ScramMechanism.SCRAM_SHA_256;
  private static final byte[] SALT = "openrs-test-salt".getBytes(StandardCharsets.US_ASCII);

  private final byte[] saltedPassword;
  private final int iterations;
  private String clientFirstBare;
  private String serverFirst;

  ScramServerScript(String password, int iterations) {
    this.iterations = iterations;
    this.saltedPassword =
        ScramFunctions.saltedPassword(
            SHA256,
            StringPreparation.POSTGRESQL_PREPARATION,
            password.toCharArray(),
            SALT,
            iterations);
  }

  /** The server-first-message for the agent's client-first-message. */
  Frame.ScramServerFirst serverFirst(Frame.ScramClientFirst clientFirst) {
    String text = new String(clientFirst.message(), StandardCharsets.UTF_8);
    clientFirstBare = text.substring(text.indexOf(",", text.indexOf(",") + 1) + 1);
    String clientNonce = clientFirstBare.substring(clientFirstBare.indexOf("r=") + 2);
    serverFirst =
        "r="
            + clientNonce
            + "server-nonce,s="
            + Base64.getEncoder().encodeToString(SALT)
            + ",i="
            + iterations;
    return new Frame.ScramServerFirst(serverFirst.getBytes(StandardCharsets.UTF_8));
  }

  /** Whether the agent's proof is right for this script's password. */
  boolean proofIsRight(Frame.ScramClientFinal clientFinal) {
    String text = new String(clientFinal.message(), StandardCharsets.UTF_8);
    int proofAt = text.lastIndexOf(",p=");
    byte[] proof = Base64.getDecoder().decode(text.substring(proofAt + 3));
    byte[] storedKey =
        ScramFunctions.storedKey(SHA256, ScramFunctions.clientKey(SHA256, saltedPassword));
    return ScramFunctions.verifyClientProof(
        SHA256, proof, storedKey, authMessage(text.substring(0, proofAt)));
  }

  /** The server-final-message signed with this script's password's server key. */
  Frame.ScramServerFinal serverFinal(Frame.ScramClientFinal clientFinal) {
    String text = new String(clientFinal.message(), StandardCharsets.UTF_8);
    String withoutProof = text.substring(0, text.lastIndexOf(",p="));
    byte[] signature =
        ScramFunctions.serverSignature(
            SHA256, ScramFunctions.serverKey(SHA256, saltedPassword), authMessage(withoutProof));
    return new Frame.ScramServerFinal(
        ("v=" + Base64.getEncoder().encodeToString(signature)).getBytes(StandardCharsets.UTF_8));
  }

  private String authMessage(String clientFinalWithoutProof) {
    return clientFirstBare + "," + serverFirst + "," + clientFinalWithoutProof;
  }
}
