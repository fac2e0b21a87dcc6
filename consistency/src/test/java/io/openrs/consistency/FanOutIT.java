package io.openrs.consistency;

import io.openrs.consistency.support.Kind;
import io.openrs.consistency.support.Pipeline;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * One PostgreSQL primary, two PostgreSQL replicates whose subscriptions select different rows of
 * {@code orders} and {@code acct} with where clauses (rows move between them when an update changes
 * the columns the clauses read); the other tables go to both. Each replicate ends holding exactly
 * the primary's rows its clauses select.
 */
class FanOutIT {

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  /** Where clauses per table of replicate 1 (continuous DSI). */
  static final Map<String, String> EU =
      Map.of("orders", "region = 'EU'", "acct", "i < 0 and b = true");

  /** Where clauses per table of replicate 2 (parallel DSI). */
  static final Map<String, String> REST =
      Map.of(
          "orders",
          "region in ('US', 'APAC') or amount between -1000 and 1000",
          "acct",
          "i >= 0 or b is null or si between -100 and 100");

  static Pipeline.Spec spec(Map<String, String> mode1, Map<String, String> mode2) {
    // Subsets of a parent and its children: the replicates declare no foreign key. The where
    // clauses read non-key columns, so the primary sends old values of every column.
    return new Pipeline.Spec()
        .primary(Kind.POSTGRESQL)
        .replicaIdentityFull("orders")
        .replicaIdentityFull("acct")
        .replicate(new Pipeline.Replicate(Kind.POSTGRESQL, "a", mode1, EU, false))
        .replicate(new Pipeline.Replicate(Kind.POSTGRESQL, "b", mode2, REST, false));
  }

  @Test
  void onePrimaryTwoReplicatesWithDifferentWhereClauses() throws Exception {
    Scenarios.runWithoutFaults(dir, spec(Scenarios.CONTINUOUS, Scenarios.PARALLEL), 20);
  }
}
