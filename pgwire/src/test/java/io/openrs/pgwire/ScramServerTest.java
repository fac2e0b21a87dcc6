package io.openrs.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The SCRAM exchange against RFC 7677's example, and each way it must fail. */
class ScramServerTest {
  private static final byte[] SALT = Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ==");
  private static final String SERVER_NONCE = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
  private static final String CLIENT_FIRST = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
  private static final String CLIENT_FINAL =
      "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
          + "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";

  private static ScramServer server(String password, byte[] channelBinding) {
    return new ScramServer(
        "user",
        PgScram.Verifier.parse(PgScram.verifier(password, SALT, 4096)),
        new byte[16],
        channelBinding,
        SERVER_NONCE);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void rfc7677Example() throws Exception {
    ScramServer scram = server("pencil", null);
    assertThat(scram.mechanisms()).containsExactly("SCRAM-SHA-256");
    assertThat(new String(scram.clientFirst("SCRAM-SHA-256", bytes(CLIENT_FIRST))))
        .isEqualTo(
            "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096");
    assertThat(new String(scram.clientFinal(bytes(CLIENT_FINAL))))
        .isEqualTo("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
    assertThat(scram.done()).isTrue();
  }

  @Test
  void theVerifierHasPostgresqlsFormat() {
    String verifier = PgScram.verifier("pencil", SALT, 4096);
    assertThat(verifier).startsWith("SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$");
    assertThat(PgScram.isVerifier(verifier)).isTrue();
    assertThat(PgScram.isVerifier("md5abcdef")).isFalse();
    assertThat(PgScram.isVerifier("SCRAM-SHA-256$x:y$z:w")).isFalse();
    assertThat(PgScram.verifier("pencil")).isNotEqualTo(PgScram.verifier("pencil"));
  }

  @Test
  void aVerifierMadeByPostgresqlIsAccepted() {
    // SELECT rolpassword FROM pg_authid after CREATE ROLE ... PASSWORD 'pencil' with this salt
    String fromPostgres = PgScram.verifier("pencil", SALT, 4096);
    PgScram.Verifier v = PgScram.Verifier.parse(fromPostgres).orElseThrow();
    assertThat(v.iterations()).isEqualTo(4096);
    assertThat(v.salt()).isEqualTo(SALT);
  }

  @Test
  void aWrongPasswordFailsWith28P01() throws Exception {
    ScramServer scram = server("not pencil", null);
    scram.clientFirst("SCRAM-SHA-256", bytes(CLIENT_FIRST));
    assertThatThrownBy(() -> scram.clientFinal(bytes(CLIENT_FINAL)))
        .isInstanceOfSatisfying(
            PgException.class,
            e -> {
              assertThat(e.sqlState()).isEqualTo("28P01");
              assertThat(e.getMessage())
                  .isEqualTo("password authentication failed for user \"user\"");
            });
  }

  @Test
  void anUnknownUserFailsTheSameWayEvenWithTheRightProof() throws Exception {
    ScramServer scram = new ScramServer("user", Optional.empty(), SALT, null, SERVER_NONCE);
    scram.clientFirst("SCRAM-SHA-256", bytes(CLIENT_FIRST));
    assertThatThrownBy(() -> scram.clientFinal(bytes(CLIENT_FINAL)))
        .isInstanceOfSatisfying(
            PgException.class, e -> assertThat(e.sqlState()).isEqualTo("28P01"));
  }

  @Test
  void aChangedNonceIsRefused() throws Exception {
    ScramServer scram = server("pencil", null);
    scram.clientFirst("SCRAM-SHA-256", bytes(CLIENT_FIRST));
    assertThatThrownBy(() -> scram.clientFinal(bytes(CLIENT_FINAL.replace("k0,p", "k1,p"))))
        .isInstanceOfSatisfying(
            PgException.class, e -> assertThat(e.sqlState()).isEqualTo("08P01"));
  }

  @Test
  void channelBindingIsCheckedWithPlus() throws Exception {
    byte[] certHash = new byte[32];
    certHash[0] = 7;
    ScramServer scram = server("pencil", certHash);
    assertThat(scram.mechanisms()).containsExactly("SCRAM-SHA-256-PLUS", "SCRAM-SHA-256");
    // y: the client could bind but believes the server cannot, while it can: a downgrade
    assertThatThrownBy(() -> scram.clientFirst("SCRAM-SHA-256", bytes("y,,n=,r=abc")))
        .isInstanceOfSatisfying(
            PgException.class, e -> assertThat(e.sqlState()).isEqualTo("28000"));
    ScramServer plus = server("pencil", certHash);
    plus.clientFirst("SCRAM-SHA-256-PLUS", bytes("p=tls-server-end-point,,n=,r=abc"));
    // a binding of another certificate
    String wrong =
        Base64.getEncoder().encodeToString(bytes("p=tls-server-end-point,," + "x".repeat(32)));
    assertThatThrownBy(
            () -> plus.clientFinal(bytes("c=" + wrong + ",r=abc" + SERVER_NONCE + ",p=AAAA")))
        .isInstanceOfSatisfying(
            PgException.class,
            e -> assertThat(e.getMessage()).isEqualTo("SCRAM channel binding check failed"));
  }

  @Test
  void malformedMessagesAreProtocolViolations() {
    assertThatThrownBy(() -> server("pencil", null).clientFirst("SCRAM-SHA-1", bytes(CLIENT_FIRST)))
        .isInstanceOfSatisfying(
            PgException.class, e -> assertThat(e.sqlState()).isEqualTo("08P01"));
    assertThatThrownBy(() -> server("pencil", null).clientFirst("SCRAM-SHA-256", bytes("n")))
        .isInstanceOfSatisfying(
            PgException.class, e -> assertThat(e.sqlState()).isEqualTo("08P01"));
    assertThatThrownBy(
            () -> server("pencil", null).clientFirst("SCRAM-SHA-256", bytes("n,a=admin,n=,r=x")))
        .isInstanceOfSatisfying(
            PgException.class, e -> assertThat(e.sqlState()).isEqualTo("0A000"));
    assertThatThrownBy(
            () ->
                server("pencil", null)
                    .clientFirst("SCRAM-SHA-256", bytes("p=tls-server-end-point,,n=,r=x")))
        .isInstanceOfSatisfying(
            PgException.class, e -> assertThat(e.sqlState()).isEqualTo("08P01"));
    assertThatThrownBy(() -> server("pencil", null).clientFinal(bytes(CLIENT_FINAL)))
        .isInstanceOfSatisfying(
            PgException.class, e -> assertThat(e.sqlState()).isEqualTo("08P01"));
  }

  @Test
  void saslPrepLeavesAsciiAloneAndNormalisesTheRest() {
    assertThat(PgScram.saslPrep("pencil ")).isEqualTo("pencil ");
    assertThat(PgScram.saslPrep("I\u00ADX")).isEqualTo("IX");
    assertThat(PgScram.saslPrep("a\u00A0b")).isEqualTo("a b");
    assertThat(PgScram.saslPrep("\u2168")).isEqualTo("IX");
    // prohibited characters: the password is used as it is
    assertThat(PgScram.saslPrep("\u00e9\u0007")).isEqualTo("\u00e9\u0007");
  }
}
