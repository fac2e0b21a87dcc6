package io.openrs.consistency;

import io.openrs.consistency.support.Kind;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL to PostgreSQL, no faults, in each DSI mode: the replicate ends equal to the primary,
 * table by table.
 */
class PostgresToPostgresIT {

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @Test
  void continuous() throws Exception {
    Scenarios.runWithoutFaults(
        dir, Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, Scenarios.CONTINUOUS), 0);
  }

  @Test
  void parallel() throws Exception {
    Scenarios.runWithoutFaults(
        dir, Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, Scenarios.PARALLEL), 1);
  }

  /**
   * {@code dsi_compile_enable on}. Until the DSI implements HVAR the parameter is read and ignored,
   * so this runs the continuous path; it checks HVAR as soon as HVAR exists.
   */
  @Test
  void hvar() throws Exception {
    Scenarios.runWithoutFaults(
        dir, Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, Scenarios.HVAR), 2);
  }
}
