package io.openrs.config.rssd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RssdSettingsTest {
  @Test
  void embeddedIsAnH2FileInTheServerDirectoryWithDurableCommits() {
    RssdSettings s = RssdSettings.embedded(Path.of("/var/lib/openrs/rs1"));
    assertThat(s.jdbcUrl())
        .startsWith("jdbc:h2:file:/var/lib/openrs/rs1/rssd;")
        .contains(
            "MODE=PostgreSQL", "DATABASE_TO_LOWER=TRUE", "WRITE_DELAY=0", "DB_CLOSE_ON_EXIT=FALSE")
        .doesNotContain("AUTO_SERVER=TRUE");
    assertThat(s.password()).isEmpty();
    assertThat(s.schema()).isEmpty();
    assertThat(s.isH2()).isTrue();
  }

  @Test
  void toStringNeverShowsThePassword() {
    RssdSettings s =
        new RssdSettings(
            "jdbc:postgresql://db:5432/rs?user=rs&password=hunter2&ssl=true",
            "rs",
            "topsecret",
            Optional.of("rssd_rs1"));
    assertThat(s.toString())
        .doesNotContain("topsecret")
        .doesNotContain("hunter2")
        .contains("password=***", "user=rs", "schema=rssd_rs1", "ssl=true");
    assertThat(s.redactedUrl())
        .isEqualTo("jdbc:postgresql://db:5432/rs?user=rs&password=***&ssl=true");
  }

  @Test
  void nullPasswordMeansNone() {
    RssdSettings s = new RssdSettings("jdbc:h2:mem:x", "sa", null, Optional.empty());
    assertThat(s.password()).isEmpty();
    assertThat(s.toString()).contains("password=<none>");
  }

  @Test
  void badValuesAreRefused() {
    assertThatThrownBy(() -> new RssdSettings("postgresql://x", "u", "", Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must start with jdbc:");
    assertThatThrownBy(
            () -> new RssdSettings("jdbc:postgresql://x/db", "u", "", Optional.of("rs; drop")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("schema 'rs; drop'");
    assertThatThrownBy(
            () -> new RssdSettings("jdbc:postgresql://x/db", "u", "", Optional.of("RSSD")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RssdSettings.embedded(Path.of("/tmp/a;b")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("';'");
  }
}
