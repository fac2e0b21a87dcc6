package io.openrs.consistency;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.consistency.support.Kind;
import io.openrs.consistency.support.Pipeline;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every product pair (PostgreSQL to PostgreSQL, MariaDB to PostgreSQL, PostgreSQL to MariaDB) in
 * every DSI mode (continuous, parallel with 4 threads, HVAR on one and on two DSIEXEC threads), no
 * faults: the replicate ends equal to the primary, table by table, values of every type normalized
 * across products.
 *
 * <p>HVAR is {@code dsi_compile_enable on}; those runs also check that the DSI compiled commands
 * into net-change groups ({@code HVARCmdsCompiled}), so they cannot pass on the continuous path
 * alone.
 */
class ReplicationMatrixIT {

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  static final Map<String, Map<String, String>> MODES =
      Map.of(
          "continuous",
          Scenarios.CONTINUOUS,
          "parallel",
          Scenarios.PARALLEL,
          "hvar",
          Scenarios.HVAR,
          "hvar, 2 threads",
          Scenarios.HVAR_TWO_THREADS);

  static Stream<Arguments> pairsAndModes() {
    List<Arguments> out = new ArrayList<>();
    Kind[][] pairs = {
      {Kind.POSTGRESQL, Kind.POSTGRESQL},
      {Kind.MARIADB, Kind.POSTGRESQL},
      {Kind.POSTGRESQL, Kind.MARIADB}
    };
    int seed = 0;
    for (Kind[] pair : pairs) {
      for (String mode : List.of("continuous", "parallel", "hvar", "hvar, 2 threads")) {
        out.add(Arguments.of(pair[0], pair[1], mode, seed++));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} to {1}, {2}")
  @MethodSource("pairsAndModes")
  void replicateEqualsPrimary(Kind primary, Kind replicate, String mode, int seedOffset)
      throws Exception {
    Pipeline.Spec spec = Scenarios.oneToOne(primary, replicate, MODES.get(mode));
    try (Pipeline p = Pipeline.start(dir, spec)) {
      Scenarios.finish(p, Scenarios.startWorkload(p, spec, seedOffset));
      if (mode.startsWith("hvar")) {
        assertThat(p.admin().total("DSI", "HVARCmdsCompiled"))
            .as("commands the DSI compiled into net-change groups")
            .isPositive();
      }
      p.stop();
    }
  }
}
