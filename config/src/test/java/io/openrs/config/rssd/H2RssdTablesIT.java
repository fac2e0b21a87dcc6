package io.openrs.config.rssd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.config.rssd.RssdException.Reason;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The RSSD tables on the embedded H2 file database. */
class H2RssdTablesIT extends RssdTablesContract {
  @TempDir static Path serverDirectory;

  @Override
  RssdSettings settings() {
    return RssdSettings.embedded(serverDirectory);
  }

  @Override
  void dropDatabase() {
    // The @TempDir goes away with the class.
  }

  @Test
  void embeddedRssdIsOneFileInTheServerDirectory() {
    assertThat(Files.exists(serverDirectory.resolve("rssd.mv.db"))).isTrue();
  }

  @Test
  void embeddedRssdCreatesAMissingServerDirectory(@TempDir Path parent) {
    Path dir = parent.resolve("a").resolve("rs1");
    try (Rssd other = Rssd.open(RssdSettings.embedded(dir))) {
      assertThat(other.schemaVersion()).isEqualTo("2");
    }
    assertThat(Files.exists(dir.resolve("rssd.mv.db"))).isTrue();
  }

  @Test
  void wrongCredentialsFailClearlyWithoutShowingThePassword() {
    RssdSettings wrong =
        new RssdSettings(
            settings().jdbcUrl(), settings().user(), "not-the-password", Optional.empty());
    assertThatThrownBy(() -> Rssd.open(wrong))
        .isInstanceOfSatisfying(
            RssdException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.DATABASE);
              assertThat(e.getMessage())
                  .contains("cannot open the RSSD at jdbc:h2:file:", "as rs")
                  .doesNotContain("not-the-password");
            });
  }
}
