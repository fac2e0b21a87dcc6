package io.openrs.consistency;

import io.openrs.consistency.support.Kind;
import io.openrs.consistency.support.Pipeline;
import io.openrs.consistency.support.Values;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.Random;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Primary-key updates at a PostgreSQL primary (default replica identity) that leave a large
 * (TOASTed) column unchanged: PostgreSQL does not log the column's value, Debezium splits the
 * update into a delete and a create whose column holds the "unavailable" placeholder, and the agent
 * joins the two into one {@code update} whose after image marks the column {@code unchanged}. The
 * replicate must keep the value (once the known bug {@code
 * primaryKeyUpdateKeepsAnUnchangedLargeValue} of docs/consistency.md: the replicate held NULL).
 * Each DSI mode applies the update its own way (continuous and parallel: one UPDATE; HVAR: the
 * moved row's other columns from the saved old row).
 */
class PrimaryKeyUpdateIT {

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"continuous", "parallel", "hvar"})
  void primaryKeyUpdateKeepsAnUnchangedLargeValue(String mode) throws Exception {
    Pipeline.Spec spec =
        Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, ReplicationMatrixIT.MODES.get(mode));
    try (Pipeline p = Pipeline.start(dir, spec)) {
      String s = p.primary().schema();
      Values values = new Values(new Random(Scenarios.SEED), true);
      try (Connection c = p.primary().connect()) {
        for (int id = 1; id <= 3; id++) {
          try (PreparedStatement ps =
              c.prepareStatement("INSERT INTO " + s + ".acct (id, owner, big) VALUES (?, 0, ?)")) {
            ps.setInt(1, id);
            ps.setString(2, values.largeText(80));
            ps.executeUpdate();
          }
        }
        try (PreparedStatement ps =
            c.prepareStatement("UPDATE " + s + ".acct SET id = 11 WHERE id = 1")) {
          ps.executeUpdate();
        }
        // Several rows moved by one statement, one of them moved again in the same transaction.
        c.setAutoCommit(false);
        try (PreparedStatement ps =
            c.prepareStatement("UPDATE " + s + ".acct SET id = id + 100, owner = 7")) {
          ps.executeUpdate();
        }
        try (PreparedStatement ps =
            c.prepareStatement("UPDATE " + s + ".acct SET id = 5 WHERE id = 102")) {
          ps.executeUpdate();
        }
        c.commit();
      }
      p.awaitDelivered(Scenarios.DELIVERY);
      p.assertConsistent();
      p.stop();
    }
  }

  /** The default workload (its key updates keep large values), PostgreSQL to PostgreSQL. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"continuous", "hvar"})
  void workloadWithKeyUpdatesKeepingLargeValues(String mode) throws Exception {
    Pipeline.Spec spec =
        Scenarios.oneToOne(Kind.POSTGRESQL, Kind.POSTGRESQL, ReplicationMatrixIT.MODES.get(mode));
    try (Pipeline p = Pipeline.start(dir, spec)) {
      var w =
          Scenarios.startWorkload(
              p,
              Scenarios.workload(spec, 70)
                  .withKeyUpdatesKeepingLargeValues(true)
                  .withLargeTextOneIn(3));
      Scenarios.finish(p, w);
      p.stop();
    }
  }
}
