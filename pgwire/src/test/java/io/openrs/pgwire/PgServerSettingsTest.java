package io.openrs.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PgServerSettingsTest {
  @Test
  void theSixArgumentFormTakesTheDefaultsForTheRest() {
    PgServerSettings s =
        new PgServerSettings("127.0.0.1", 5433, Optional.empty(), Optional.empty(), 10, "15.4 (x)");
    assertThat(s.requireTls()).isFalse();
    assertThat(s.maxMessageBytes()).isEqualTo(PgServerSettings.DEFAULT_MAX_MESSAGE_BYTES);
    assertThat(s.authenticationTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(s.maxStatementBytes()).isEqualTo(1024 * 1024);
    assertThat(s.maxUnauthenticated()).isEqualTo(16);
    assertThat(s.maxLoginFailures()).isEqualTo(5);
    assertThat(s.tlsEnabled()).isFalse();
    assertThat(s.serverVersionNum()).isEqualTo(150004);
    assertThat(s.withServerVersion("9.6.24").serverVersionNum()).isEqualTo(90624);
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    assertThatThrownBy(
            () ->
                new PgServerSettings(
                    " ",
                    70000,
                    Optional.of(Path.of("cert.pem")),
                    Optional.empty(),
                    0,
                    "openrs 1",
                    true,
                    10,
                    Duration.ZERO,
                    0,
                    0,
                    -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("host must be given")
        .hasMessageContaining("port must be 0..65535")
        .hasMessageContaining("give both or neither")
        .hasMessageContaining("maxConnections must be >= 1")
        .hasMessageContaining("serverVersion must start with a PostgreSQL version")
        .hasMessageContaining("maxMessageBytes must be 1024..")
        .hasMessageContaining("authenticationTimeout must be positive")
        .hasMessageContaining("maxStatementBytes must be 1024..")
        .hasMessageContaining("maxUnauthenticated must be >= 1")
        .hasMessageContaining("maxLoginFailures must be >= 0");
    assertThatThrownBy(() -> PgServerSettings.defaults("localhost", 0).withRequireTls(true))
        .hasMessageContaining("requireTls needs a certificate and key");
  }
}
