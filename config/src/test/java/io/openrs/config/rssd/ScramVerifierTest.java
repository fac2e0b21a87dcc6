package io.openrs.config.rssd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class ScramVerifierTest {
  @Test
  void derivedVerifierHasPostgresqlFormAndMatchesOnlyItsPassword() {
    String v = ScramVerifier.derive("correct horse".toCharArray());
    assertThat(v)
        .matches("SCRAM-SHA-256\\$4096:[A-Za-z0-9+/=]{24}\\$[A-Za-z0-9+/=]{44}:[A-Za-z0-9+/=]{44}");
    assertThat(ScramVerifier.matches(v, "correct horse".toCharArray())).isTrue();
    assertThat(ScramVerifier.matches(v, "correct horsE".toCharArray())).isFalse();
    assertThat(ScramVerifier.matches(v, new char[0])).isFalse();
  }

  @Test
  void saltIsRandom() {
    assertThat(ScramVerifier.derive("pw".toCharArray()))
        .isNotEqualTo(ScramVerifier.derive("pw".toCharArray()));
  }

  /** RFC 5802 section 3 spelled out with the JDK primitives, against the class under test. */
  @Test
  void keysFollowRfc5802() throws Exception {
    byte[] salt = Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ==");
    String v = ScramVerifier.derive("pencil".toCharArray(), salt, 4096);

    byte[] salted =
        SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
            .generateSecret(new PBEKeySpec("pencil".toCharArray(), salt, 4096, 256))
            .getEncoded();
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(salted, "HmacSHA256"));
    byte[] clientKey = mac.doFinal("Client Key".getBytes(StandardCharsets.US_ASCII));
    byte[] serverKey = mac.doFinal("Server Key".getBytes(StandardCharsets.US_ASCII));
    byte[] storedKey = MessageDigest.getInstance("SHA-256").digest(clientKey);
    Base64.Encoder b64 = Base64.getEncoder();
    assertThat(v)
        .isEqualTo(
            "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$"
                + b64.encodeToString(storedKey)
                + ":"
                + b64.encodeToString(serverKey));
    ScramVerifier.Parts parts = ScramVerifier.parse(v);
    assertThat(parts.iterations()).isEqualTo(4096);
    assertThat(parts.salt()).isEqualTo(salt);
    assertThat(parts.storedKey()).isEqualTo(storedKey);
    assertThat(parts.serverKey()).isEqualTo(serverKey);
    assertThat(parts.format()).isEqualTo(v);
    assertThat(parts.toString()).doesNotContain(b64.encodeToString(storedKey));
  }

  @Test
  void malformedVerifiersAreRejectedAndNeverMatch() {
    String good = ScramVerifier.derive("pw".toCharArray());
    for (String bad :
        new String[] {
          "",
          "md5abcdef",
          "SCRAM-SHA-256$4096:c2FsdA==",
          "SCRAM-SHA-256$x:c2FsdA==$" + good.substring(good.lastIndexOf('$') + 1),
          "SCRAM-SHA-256$0:c2FsdA==$" + good.substring(good.lastIndexOf('$') + 1),
          "SCRAM-SHA-256$4096:c2FsdA==$AAAA:AAAA",
          "SCRAM-SHA-256$4096:!!!$" + good.substring(good.lastIndexOf('$') + 1)
        }) {
      assertThatThrownBy(() -> ScramVerifier.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(ScramVerifier.matches(bad, "pw".toCharArray())).as(bad).isFalse();
    }
  }

  @Test
  void unicodeIsNormalizedBeforeHashing() {
    // U+00C5 (Å) and U+212B (Angstrom sign) are the same after NFKC.
    String v = ScramVerifier.derive("\u00c5ngstr\u00f6m".toCharArray());
    assertThat(ScramVerifier.matches(v, "\u212bngstr\u00f6m".toCharArray())).isTrue();
  }

  @Test
  void passwordsAreSaslPreppedAsTheAdminPortsClientsDo() {
    // SASLprep maps a soft hyphen to nothing and a no-break space to a space; NFKC alone does
    // not. A verifier made here must accept what psql or pgjdbc prove at login.
    byte[] salt = new byte[16];
    assertThat(ScramVerifier.derive("I\u00adX y".toCharArray(), salt, 4096))
        .isEqualTo(ScramVerifier.derive("IX\u00a0y".toCharArray(), salt, 4096))
        .isEqualTo(io.openrs.pgwire.PgScram.verifier("IX y", salt, 4096));
  }
}
