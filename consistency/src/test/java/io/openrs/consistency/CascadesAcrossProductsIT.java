package io.openrs.consistency;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.consistency.support.Database;
import io.openrs.consistency.support.Kind;
import io.openrs.consistency.support.Pipeline;
import io.openrs.consistency.support.TableText;
import java.nio.file.Path;
import java.time.Duration;
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
 * Cascading foreign keys wherever the log does and does not hold the cascaded changes, with default
 * parameters and the replicate declaring the same cascades as the primary: MariaDB's binlog lacks
 * InnoDB's cascaded deletes and updates, so the replicate's own cascade must run (MariaDB to
 * MariaDB, MariaDB to PostgreSQL); PostgreSQL's log holds them, so a MariaDB replicate must not
 * cascade again (PostgreSQL to MariaDB). A self-referencing tree and SET NULL too. Every table of
 * the replicate must equal the primary's.
 */
class CascadesAcrossProductsIT {

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  private static final List<String> TABLES = List.of("parent", "child", "setnull_child", "tree");

  private static List<String> ddl(Kind kind) {
    String engine = kind == Kind.MARIADB ? " ENGINE=InnoDB" : "";
    return List.of(
        "CREATE TABLE %s.parent (id int PRIMARY KEY, name varchar(20))" + engine,
        "CREATE TABLE %s.child (id int PRIMARY KEY, parent_id int, v varchar(20),"
            + " FOREIGN KEY (parent_id) REFERENCES %s.parent (id) ON DELETE CASCADE"
            + " ON UPDATE CASCADE)"
            + engine,
        "CREATE TABLE %s.setnull_child (id int PRIMARY KEY, parent_id int, FOREIGN KEY"
            + " (parent_id) REFERENCES %s.parent (id) ON DELETE SET NULL)"
            + engine,
        "CREATE TABLE %s.tree (id int PRIMARY KEY, up int, FOREIGN KEY (up) REFERENCES"
            + " %s.tree (id) ON DELETE CASCADE)"
            + engine);
  }

  private static final List<String> WRITES =
      List.of(
          "INSERT INTO %s.parent VALUES (1, 'one'), (2, 'two'), (3, 'three')",
          "INSERT INTO %s.child VALUES (11, 1, 'a'), (12, 1, 'b'), (21, 2, 'c')",
          "INSERT INTO %s.setnull_child VALUES (31, 3), (32, 3)",
          "INSERT INTO %s.tree VALUES (1, NULL), (2, 1), (3, 2), (4, NULL)",
          "DELETE FROM %s.parent WHERE id = 1",
          "UPDATE %s.parent SET id = 20 WHERE id = 2",
          "DELETE FROM %s.parent WHERE id = 3",
          "DELETE FROM %s.tree WHERE id = 1",
          "INSERT INTO %s.child VALUES (22, 20, 'd')");

  static Stream<Arguments> pairs() {
    List<Arguments> out = new ArrayList<>();
    Kind[][] pairs = {
      {Kind.MARIADB, Kind.MARIADB}, {Kind.MARIADB, Kind.POSTGRESQL}, {Kind.POSTGRESQL, Kind.MARIADB}
    };
    for (Kind[] p : pairs) {
      for (String mode : List.of("continuous", "hvar")) {
        out.add(Arguments.of(p[0], p[1], mode));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} to {1}, {2}")
  @MethodSource("pairs")
  void cascadesActOnce(Kind primary, Kind replicate, String mode) throws Exception {
    Map<String, String> parameters = ReplicationMatrixIT.MODES.get(mode);
    Pipeline.Spec spec =
        Scenarios.oneToOne(primary, replicate, parameters).extraTables(primary, ddl(primary));
    if (replicate != primary) {
      spec.extraTables(replicate, ddl(replicate));
    }
    try (Pipeline p = Pipeline.start(dir, spec)) {
      String schema = p.primary().schema();
      for (String w : WRITES) {
        p.primary().exec(w.replace("%s", schema));
      }
      p.awaitDelivered(Duration.ofSeconds(120));
      Database r = p.replicates().get(0).db();
      List<String> differences = TableText.differingTables(p.primary(), r, TABLES, "1");
      assertThat(differences).as("tables that differ").isEmpty();
      assertThat(TableText.rows(p.primary(), "SELECT * FROM %s.child ORDER BY 1"))
          .containsExactly("[21, 20, c]", "[22, 20, d]");
      assertThat(TableText.rows(p.primary(), "SELECT * FROM %s.tree")).containsExactly("[4, null]");
      p.stop();
    }
  }
}
