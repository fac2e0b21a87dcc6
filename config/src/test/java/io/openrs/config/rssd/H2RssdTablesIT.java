package io.openrs.config.rssd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.config.rssd.RssdException.Reason;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
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

  /** Whether any file of the server directory holds {@code text}'s UTF-8 bytes. */
  private static boolean anyFileHolds(String text) throws Exception {
    byte[] needle = text.getBytes(StandardCharsets.UTF_8);
    try (Stream<Path> files = Files.list(serverDirectory)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        byte[] bytes = Files.readAllBytes(f);
        outer:
        for (int i = 0; i + needle.length <= bytes.length; i++) {
          for (int j = 0; j < needle.length; j++) {
            if (bytes[i + j] != needle[j]) {
              continue outer;
            }
          }
          return true;
        }
      }
    }
    return false;
  }

  @Test
  void noPasswordIsFoundInClearInTheDatabaseFiles() throws Exception {
    String fresh = "H2-Scan-Fresh-0815";
    String old = "H2-Scan-Old-0816";
    rssd.connections().create("PDS", "pdb", Profile.POSTGRESQL, true, Map.of("password", fresh));
    ConnectionDef r = rssd.connections().create("RDS", "rdb", Profile.POSTGRESQL, false, Map.of());
    TestDatabases.execute(
        rssd,
        "insert into rs_config (objid, optionname, charvalue, updated) values ("
            + r.id()
            + ", 'password', '"
            + old
            + "', current_timestamp)");
    rssd.close();
    rssd = null;
    assertThat(anyFileHolds(fresh)).as("a password set through the tables").isFalse();
    assertThat(anyFileHolds(old)).as("precondition: an older server's clear row").isTrue();

    Rssd.open(settings(), clock, BOX).close();

    assertThat(anyFileHolds(old)).as("the clear row after it was sealed at open").isFalse();
    rssd = Rssd.open(settings(), clock, BOX);
  }

  @Test
  void embeddedRssdIsOneFileInTheServerDirectory() {
    assertThat(Files.exists(serverDirectory.resolve("rssd.mv.db"))).isTrue();
  }

  @Test
  void embeddedRssdCreatesAMissingServerDirectory(@TempDir Path parent) {
    Path dir = parent.resolve("a").resolve("rs1");
    try (Rssd other = Rssd.open(RssdSettings.embedded(dir))) {
      assertThat(other.schemaVersion()).isEqualTo("4");
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
