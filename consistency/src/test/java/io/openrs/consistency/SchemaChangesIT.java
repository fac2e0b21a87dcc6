package io.openrs.consistency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.consistency.support.Database;
import io.openrs.consistency.support.Kind;
import io.openrs.consistency.support.Pipeline;
import io.openrs.consistency.support.TableText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Tables altered while the agent streams (PostgreSQL to PostgreSQL and MariaDB to MariaDB, default
 * parameters): a column added at the replicate and then at the primary is replicated from the
 * primary's first row that has it; a column dropped at the primary leaves the replicate's NULL; a
 * column added at the primary only stops the connection with an error naming the column, and
 * nothing after it is applied.
 */
class SchemaChangesIT {

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @ParameterizedTest
  @EnumSource(Kind.class)
  void addedAndDroppedColumnsFollowOrStopNamingTheColumn(Kind kind) throws Exception {
    Pipeline.Spec spec =
        Scenarios.oneToOne(kind, kind, Scenarios.CONTINUOUS)
            .extraTables(
                List.of("CREATE TABLE %s.t (id int PRIMARY KEY, a varchar(20), old varchar(20))"));
    try (Pipeline p = Pipeline.start(dir, spec)) {
      Database primary = p.primary();
      Database replicate = p.replicates().get(0).db();
      String s = primary.schema();
      primary.exec("INSERT INTO " + s + ".t VALUES (1, 'one', 'x')");
      replicate.exec("ALTER TABLE " + replicate.schema() + ".t ADD COLUMN b decimal(6,2)");
      primary.exec(
          "ALTER TABLE " + s + ".t ADD COLUMN b decimal(6,2)",
          "INSERT INTO " + s + ".t VALUES (2, 'two', 'y', 2.50)",
          "UPDATE " + s + ".t SET b = 1.0 WHERE id = 1",
          "ALTER TABLE " + s + ".t DROP COLUMN old",
          "INSERT INTO " + s + ".t VALUES (3, 'three', 3)");
      p.awaitDelivered(Duration.ofSeconds(120));
      String read = "SELECT id, a, b FROM %s.t ORDER BY id";
      assertThat(TableText.rows(replicate, read)).isEqualTo(TableText.rows(primary, read));
      assertThat(TableText.rows(replicate, read)).hasSize(3);
      assertThat(TableText.rows(replicate, "SELECT old FROM %s.t WHERE id = 3"))
          .containsExactly("[null]");

      primary.exec(
          "ALTER TABLE " + s + ".t ADD COLUMN c int",
          "INSERT INTO " + s + ".t VALUES (4, 'four', 4, 44)");
      await()
          .atMost(Duration.ofSeconds(120))
          .until(() -> !p.admin().rows("admin who_is_down").isEmpty());
      assertThat(p.admin().rows("admin who_is_down").toString()).containsPattern("[\"`]c[\"`]");
      assertThat(TableText.rows(replicate, "SELECT id FROM %s.t WHERE id = 4")).isEmpty();
      p.stop();
    }
  }
}
