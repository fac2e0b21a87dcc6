package io.openrs.repserver.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.config.rssd.ErrorClassDef;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.Rssd;
import io.openrs.config.rssd.RssdSettings;
import io.openrs.dsi.ErrorAction;
import io.openrs.dsi.ErrorClass;
import io.openrs.repserver.dsi.StoredErrorClasses;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built-in error classes the RSSD migration stores are exactly the DSI dialects' defaults: a
 * change to a dialect's defaults needs a migration that updates {@code rs_erroractions}.
 */
class BuiltinErrorClassesIT {

  @TempDir Path dir;

  @Test
  void storedBuiltInClassesAreTheDialectsDefaults() {
    try (Rssd rssd = Rssd.open(RssdSettings.embedded(dir))) {
      for (Profile p : Profile.values()) {
        ErrorClass dialect = ErrorClassCommands.dialectDefaults(p);
        ErrorClassDef stored = rssd.errorClasses().find(dialect.name()).orElseThrow();
        assertThat(stored.builtin()).as(dialect.name()).isTrue();
        Map<String, String> expected = new TreeMap<>();
        dialect.actions().forEach((code, action) -> expected.put(code, action.label()));
        assertThat(stored.actions()).as(dialect.name()).isEqualTo(expected);
        assertThat(StoredErrorClasses.toDsi(stored)).isEqualTo(dialect);
      }
      assertThat(ErrorClassDef.BUILTIN)
          .containsExactlyInAnyOrder(
              ErrorClassCommands.dialectDefaults(Profile.POSTGRESQL).name(),
              ErrorClassCommands.dialectDefaults(Profile.MARIADB).name());
    }
  }

  @Test
  void theRssdsActionLabelsAreTheDsisActions() {
    assertThat(ErrorClassDef.ACTIONS)
        .containsExactly(
            java.util.Arrays.stream(ErrorAction.values())
                .map(ErrorAction::label)
                .toArray(String[]::new));
  }
}
