package io.openrs.dsi;

import static io.openrs.dsi.testkit.Txs.i64;
import static io.openrs.dsi.testkit.Txs.row;
import static io.openrs.dsi.testkit.Txs.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import io.openrs.config.rssd.Profile;
import io.openrs.dsi.testkit.Awaits;
import io.openrs.dsi.testkit.OutboundQueueFixture;
import io.openrs.dsi.testkit.RecordingSink;
import io.openrs.dsi.testkit.Replicate;
import io.openrs.dsi.testkit.TestDb;
import io.openrs.dsi.testkit.Txs;
import io.openrs.dsi.testkit.Workload;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.Value;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The replicate's own rules do not act twice (design invariant 9), with default parameters and a
 * replicate schema like the primary's, in continuous, parallel and HVAR modes: cascaded deletes and
 * updates and trigger rows a PostgreSQL origin logged are applied without the replicate repeating
 * them, while the cascades a MariaDB origin's binlog lacks are made by the replicate; truncates of
 * tables a foreign key links go together; deferrable constraints are checked at the replicate's
 * commit; identity columns keep the origin's values; a MariaDB boolean (an integer) goes into a
 * PostgreSQL boolean; a statement the replicate refuses puts the connection down instead of
 * reconnecting; a user who may not turn replica mode on is told which GRANT to run.
 */
class OriginRulesIT {
  private static final int REPLICATE = 201;
  private static final int PG_ORIGIN = 101;
  private static final int MARIADB_ORIGIN = 102;
  private static final OriginProfiles ORIGINS =
      OriginProfiles.of(Map.of(PG_ORIGIN, Profile.POSTGRESQL, MARIADB_ORIGIN, Profile.MARIADB));

  @TempDir Path dir;

  /** The DSI modes, default parameters otherwise. */
  enum Mode {
    CONTINUOUS,
    PARALLEL,
    HVAR;

    DsiSettings settings() {
      ParameterValues v = ParameterValues.defaults(Scope.CONNECTION);
      if (this == PARALLEL) {
        v = v.with("dsi_num_threads", "4");
      } else if (this == HVAR) {
        v = v.with("dsi_compile_enable", "on");
      }
      return DsiSettings.from(v);
    }
  }

  static Stream<Arguments> everyReplicateAndMode() {
    List<Arguments> out = new ArrayList<>();
    for (TestDb db : TestDb.values()) {
      for (Mode m : Mode.values()) {
        out.add(Arguments.of(db, m));
      }
    }
    return out.stream();
  }

  // ---- cascades and trigger rows -------------------------------------------------------------

  private static String[] fkTables(TestDb db) {
    String text = db == TestDb.POSTGRESQL ? "text" : "varchar(40)";
    return new String[] {
      "CREATE TABLE parent (id bigint PRIMARY KEY, name " + text + ")",
      "CREATE TABLE child (id bigint PRIMARY KEY, parent_id bigint, note "
          + text
          + ", FOREIGN KEY (parent_id) REFERENCES parent (id) ON DELETE CASCADE"
          + " ON UPDATE CASCADE)",
      "CREATE TABLE orphan (id bigint PRIMARY KEY, parent_id bigint,"
          + " FOREIGN KEY (parent_id) REFERENCES parent (id) ON DELETE SET NULL)",
      "CREATE TABLE tree (id bigint PRIMARY KEY, up bigint,"
          + " FOREIGN KEY (up) REFERENCES tree (id) ON DELETE CASCADE)"
    };
  }

  /**
   * A PostgreSQL origin's transactions as its log holds them (each cascaded change after the change
   * that caused it), interleaved with a MariaDB origin's, whose binlog holds no cascaded change.
   */
  private static List<Workload.Tx> cascades(String schema) {
    Txs pg = new Txs(schema, PG_ORIGIN);
    Txs my = new Txs(schema, MARIADB_ORIGIN);
    List<Workload.Tx> out = new ArrayList<>();
    for (int base : new int[] {0, 100}) {
      Txs x = base == 0 ? pg : my;
      out.add(
          x.begin()
              .insert("parent", row("id", i64(base + 1), "name", text("p" + (base + 1))))
              .insert("parent", row("id", i64(base + 2), "name", text("p" + (base + 2))))
              .insert("child", row("id", i64(base + 10), "parent_id", i64(base + 1)))
              .insert("child", row("id", i64(base + 11), "parent_id", i64(base + 1)))
              .insert("child", row("id", i64(base + 20), "parent_id", i64(base + 2)))
              .insert("orphan", row("id", i64(base + 30), "parent_id", i64(base + 1)))
              .insert("tree", row("id", i64(base + 1), "up", Value.NULL))
              .insert("tree", row("id", i64(base + 2), "up", i64(base + 1)))
              .insert("tree", row("id", i64(base + 3), "up", i64(base + 2)))
              .commit());
    }
    // PostgreSQL: DELETE FROM parent WHERE id = 1 logs the cascaded deletes and the set null
    out.add(
        pg.begin()
            .delete("parent", row("id", i64(1), "name", text("p1")))
            .delete("child", row("id", i64(10), "parent_id", i64(1)))
            .delete("child", row("id", i64(11), "parent_id", i64(1)))
            .update(
                "orphan",
                row("id", i64(30), "parent_id", i64(1)),
                row("id", i64(30), "parent_id", Value.NULL))
            .commit());
    // MariaDB: the binlog holds the parent's delete only
    out.add(my.begin().delete("parent", row("id", i64(101), "name", text("p101"))).commit());
    // ON UPDATE CASCADE: the parent's key changes, the child follows
    out.add(
        pg.begin()
            .update(
                "parent",
                row("id", i64(2), "name", text("p2")),
                row("id", i64(22), "name", text("p2")))
            .update(
                "child",
                row("id", i64(20), "parent_id", i64(2)),
                row("id", i64(20), "parent_id", i64(22)))
            .commit());
    out.add(
        my.begin()
            .update(
                "parent",
                row("id", i64(102), "name", text("p102")),
                row("id", i64(122), "name", text("p102")))
            .commit());
    // a self-referencing tree: deleting the root cascades down
    out.add(
        pg.begin()
            .delete("tree", row("id", i64(1), "up", Value.NULL))
            .delete("tree", row("id", i64(2), "up", i64(1)))
            .delete("tree", row("id", i64(3), "up", i64(2)))
            .commit());
    out.add(my.begin().delete("tree", row("id", i64(101), "up", Value.NULL)).commit());
    return out;
  }

  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("everyReplicateAndMode")
  void cascadesHappenOnceWhetherTheOriginLoggedThemOrNot(TestDb db, Mode mode) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_cascade");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(fkTables(db));
      List<Workload.Tx> txs = cascades(s.name());
      q.append(txs);
      try (DsiConnection dsi = start(s, q, mode.settings(), new RecordingSink())) {
        Awaits.applied(dsi, s, lastCommits(txs));
        assertThat(rows(s, "SELECT id, name FROM parent ORDER BY id"))
            .containsExactly("22,p2", "122,p102");
        assertThat(rows(s, "SELECT id, parent_id FROM child ORDER BY id"))
            .containsExactly("20,22", "120,122");
        assertThat(rows(s, "SELECT id, parent_id FROM orphan ORDER BY id"))
            .containsExactly("30,null", "130,null");
        assertThat(rows(s, "SELECT id FROM tree")).isEmpty();
        if (mode == Mode.HVAR) {
          // a group is applied in one mode: the two origins' transactions alternate
          assertThat(dsi.counter(DsiCounter.HVAR_CLOSED_REPLICA_MODE)).isPositive();
        }
      }
    }
  }

  /**
   * HVAR's first group after a start holds a backlog of a PostgreSQL origin's transactions: the
   * session is switched to replica mode once, ahead of the group's inserts, and each further
   * transaction the group takes finds it so. (It sent the SET again into the connection whose COPY
   * the inserts ahead held open, and waited for ever: FaultsIT, a server killed under HVAR.)
   */
  @ParameterizedTest(name = "dsi_num_threads {0}")
  @org.junit.jupiter.params.provider.ValueSource(ints = {1, 2})
  void aBacklogInReplicaModeIsOneGroupWithItsInsertsAhead(int threads) throws Exception {
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("dsi_ahead_" + threads);
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(fkTables(TestDb.POSTGRESQL));
      Txs pg = new Txs(s.name(), PG_ORIGIN);
      List<Workload.Tx> txs = new ArrayList<>();
      // rows of 1 KB in groups of 100 transactions: the inserts ahead send a table's rows once 8
      // KiB of them wait (dsi_cmd_batch_size), so each group asks for its session several times
      // while its COPY is open
      long nameChars = 0;
      for (int i = 1; i <= 300; i++) {
        String name = ("p" + i).repeat(250);
        nameChars += name.length();
        txs.add(
            pg.begin()
                .insert("parent", row("id", i64(i), "name", text(name)))
                .insert("tree", row("id", i64(i), "up", Value.NULL))
                .commit());
      }
      q.append(txs);
      DsiSettings settings =
          DsiSettings.from(
              ParameterValues.defaults(Scope.CONNECTION)
                  .with("dsi_compile_enable", "on")
                  .with("dsi_compile_max_cmds", "200")
                  .with("dsi_cmd_batch_size", "8192")
                  .with("dsi_num_threads", String.valueOf(threads)));
      try (DsiConnection dsi = start(s, q, settings, new RecordingSink())) {
        Awaits.applied(dsi, s, lastCommits(txs));
        assertThat(rows(s, "SELECT count(*), sum(length(name)) FROM parent"))
            .containsExactly("300," + nameChars);
        assertThat(rows(s, "SELECT count(*) FROM tree")).containsExactly("300");
      }
    }
  }

  @Test
  void aModeSwitchTheReplicateRolledBackIsMadeAgain() throws Exception {
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("dsi_rollback");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(fkTables(TestDb.POSTGRESQL));
      s.exec(
          "INSERT INTO parent VALUES (1, 'p1'), (5, 'already here')",
          "INSERT INTO child VALUES (10, 1, NULL)");
      Txs pg = new Txs(s.name(), PG_ORIGIN);
      List<Workload.Tx> txs =
          List.of(
              // switches the session to replica mode inside the group's replicate transaction
              pg.begin()
                  .delete("parent", row("id", i64(1), "name", text("p1")))
                  .delete("child", row("id", i64(10), "parent_id", i64(1)))
                  .commit(),
              // fails the group (the replicate has key 5): PostgreSQL undoes the SET with it
              pg.begin().insert("parent", row("id", i64(5), "name", text("dup"))).commit());
      q.append(txs);
      try (DsiConnection dsi = start(s, q, Mode.CONTINUOUS.settings(), new RecordingSink())) {
        // applied one by one, the first needs replica mode set again, or its cascade would
        // leave the logged child delete nothing to delete (5185)
        DsiFailure f = Awaits.down(dsi).failure().orElseThrow();
        assertThat(f.commitOqid()).contains(txs.get(1).commitOqid());
        assertThat(f.sqlState()).contains("23505");
        assertThat(rows(s, "SELECT id FROM parent ORDER BY id")).containsExactly("5");
        assertThat(dsi.counter(DsiCounter.GROUPS_SPLIT)).isEqualTo(1);
      }
    }
  }

  @Test
  void dsiKeepTriggersOffAppliesEveryOriginInReplicaMode() throws Exception {
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("dsi_keepoff");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(fkTables(TestDb.POSTGRESQL));
      s.exec("INSERT INTO parent VALUES (1, 'p1')", "INSERT INTO child VALUES (10, 1, NULL)");
      Txs my = new Txs(s.name(), MARIADB_ORIGIN);
      List<Workload.Tx> txs =
          List.of(my.begin().delete("parent", row("id", i64(1), "name", text("p1"))).commit());
      q.append(txs);
      DsiSettings off =
          DsiSettings.from(
              ParameterValues.defaults(Scope.CONNECTION).with("dsi_keep_triggers", "off"));
      try (DsiConnection dsi = start(s, q, off, new RecordingSink())) {
        Awaits.applied(dsi, s, lastCommits(txs));
        // the MariaDB origin's binlog had no child delete, and the replicate made none
        assertThat(rows(s, "SELECT id, parent_id FROM child")).containsExactly("10,1");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Mode.class)
  void rowsAPostgresOriginsTriggerWroteAreNotWrittenAgain(Mode mode) throws Exception {
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("dsi_trigger");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(
          "CREATE TABLE item (id bigint PRIMARY KEY, name text)",
          "CREATE TABLE audit (id bigint PRIMARY KEY, what text)",
          "CREATE FUNCTION audit_item() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
              + " INSERT INTO audit VALUES (NEW.id, 'insert ' || NEW.name); RETURN NEW; END $$",
          "CREATE TRIGGER item_audit AFTER INSERT ON item FOR EACH ROW EXECUTE FUNCTION"
              + " audit_item()");
      Txs pg = new Txs(s.name(), PG_ORIGIN);
      List<Workload.Tx> txs = new ArrayList<>();
      for (int i = 1; i <= 3; i++) {
        txs.add(
            pg.begin()
                .insert("item", row("id", i64(i), "name", text("n" + i)))
                .insert("audit", row("id", i64(i), "what", text("insert n" + i)))
                .commit());
      }
      q.append(txs);
      try (DsiConnection dsi = start(s, q, mode.settings(), new RecordingSink())) {
        Awaits.applied(dsi, s, lastCommits(txs));
        assertThat(rows(s, "SELECT id, what FROM audit ORDER BY id"))
            .containsExactly("1,insert n1", "2,insert n2", "3,insert n3");
        assertThat(rows(s, "SELECT current_setting('session_replication_role')"))
            .containsExactly("origin"); // the test's own session is not touched
      }
    }
  }

  // ---- truncate ------------------------------------------------------------------------------

  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("everyReplicateAndMode")
  void truncatesOfTablesAForeignKeyLinksGoTogether(TestDb db, Mode mode) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_trunc");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      String[] ddl = fkTables(db);
      // a plain foreign key: the parent's rows may not go before the child's (MariaDB: 1451)
      s.exec(ddl[0], ddl[1].replace(" ON DELETE CASCADE ON UPDATE CASCADE", ""));
      Txs pg = new Txs(s.name(), PG_ORIGIN);
      Txs my = new Txs(s.name(), MARIADB_ORIGIN);
      List<Workload.Tx> txs = new ArrayList<>();
      for (Txs x : List.of(pg, my)) {
        int base = x == pg ? 0 : 100;
        txs.add(
            x.begin()
                .insert("parent", row("id", i64(base + 1), "name", text("p")))
                .insert("child", row("id", i64(base + 10), "parent_id", i64(base + 1)))
                .commit());
        // TRUNCATE parent CASCADE (PostgreSQL) / with foreign_key_checks off (MariaDB): the log
        // holds one truncate per table, the parent's first
        txs.add(x.begin().truncate("parent").truncate("child").commit());
        txs.add(
            x.begin()
                .insert("parent", row("id", i64(base + 2), "name", text("again")))
                .insert("child", row("id", i64(base + 20), "parent_id", i64(base + 2)))
                .commit());
      }
      q.append(txs);
      try (DsiConnection dsi = start(s, q, mode.settings(), new RecordingSink())) {
        Awaits.applied(dsi, s, lastCommits(txs));
        // a truncate empties the table, whichever origin's rows it holds
        assertThat(rows(s, "SELECT id, name FROM parent ORDER BY id")).containsExactly("102,again");
        assertThat(rows(s, "SELECT id, parent_id FROM child ORDER BY id"))
            .containsExactly("120,102");
        assertThat(dsi.counter(DsiCounter.RECONNECTS)).isZero();
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Mode.class)
  void aStatementTheReplicateRefusesPutsTheConnectionDownWithoutReconnecting(Mode mode)
      throws Exception {
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("dsi_refused");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      String[] ddl = fkTables(TestDb.POSTGRESQL);
      s.exec(ddl[0], ddl[1]);
      Txs pg = new Txs(s.name(), PG_ORIGIN);
      List<Workload.Tx> txs =
          List.of(
              pg.begin().insert("parent", row("id", i64(1), "name", text("p"))).commit(),
              // the parent alone: PostgreSQL refuses it (0A000) while child references it
              pg.begin().truncate("parent").commit(),
              pg.begin().insert("parent", row("id", i64(2), "name", text("q"))).commit());
      q.append(txs);
      RecordingSink sink = new RecordingSink();
      try (DsiConnection dsi = start(s, q, mode.settings(), sink)) {
        DsiState down = Awaits.down(dsi);
        DsiFailure f = down.failure().orElseThrow();
        assertThat(f.sqlState()).contains("0A000");
        assertThat(f.statement()).contains("TRUNCATE").contains("parent");
        assertThat(f.commitOqid()).contains(txs.get(1).commitOqid());
        assertThat(f.action()).isEqualTo(ErrorAction.STOP_REPLICATION);
        assertThat(dsi.counter(DsiCounter.RECONNECTS)).isZero();
        assertThat(rows(s, "SELECT id FROM parent")).containsExactly("1");
        // and it stays down: no reconnect loop behind a DOWN state
        await()
            .during(Duration.ofMillis(500))
            .atMost(Duration.ofSeconds(2))
            .until(
                () ->
                    dsi.state().status() == DsiState.Status.DOWN
                        && dsi.counter(DsiCounter.RECONNECTS) == 0);
      }
    }
  }

  // ---- deferrable constraints ----------------------------------------------------------------

  @ParameterizedTest(name = "{0}")
  @EnumSource(Mode.class)
  void deferrableConstraintsAreCheckedAtTheReplicatesCommit(Mode mode) throws Exception {
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("dsi_defer");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(
          "CREATE TABLE seat (id bigint PRIMARY KEY, holder text UNIQUE DEFERRABLE)",
          "CREATE TABLE line (id bigint PRIMARY KEY DEFERRABLE, body text)",
          "INSERT INTO seat VALUES (1, 'ann'), (2, 'bob')",
          "INSERT INTO line VALUES (1, 'a'), (2, 'b'), (3, 'c')");
      Txs pg = new Txs(s.name(), PG_ORIGIN);
      List<Workload.Tx> txs =
          List.of(
              // UPDATE seat SET holder = CASE id WHEN 1 THEN 'bob' ELSE 'ann' END
              pg.begin()
                  .update(
                      "seat",
                      row("id", i64(1), "holder", text("ann")),
                      row("id", i64(1), "holder", text("bob")))
                  .update(
                      "seat",
                      row("id", i64(2), "holder", text("bob")),
                      row("id", i64(2), "holder", text("ann")))
                  .commit(),
              // UPDATE line SET id = id + 1, in the order the primary happened to take
              pg.begin()
                  .update(
                      "line",
                      row("id", i64(1), "body", text("a")),
                      row("id", i64(2), "body", text("a")))
                  .update(
                      "line",
                      row("id", i64(2), "body", text("b")),
                      row("id", i64(3), "body", text("b")))
                  .update(
                      "line",
                      row("id", i64(3), "body", text("c")),
                      row("id", i64(4), "body", text("c")))
                  .commit());
      q.append(txs);
      try (DsiConnection dsi = start(s, q, mode.settings(), new RecordingSink())) {
        Awaits.applied(dsi, s, lastCommits(txs));
        assertThat(rows(s, "SELECT id, holder FROM seat ORDER BY id"))
            .containsExactly("1,bob", "2,ann");
        assertThat(rows(s, "SELECT id, body FROM line ORDER BY id"))
            .containsExactly("2,a", "3,b", "4,c");
      }
    }
  }

  // ---- identity columns ----------------------------------------------------------------------

  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("everyReplicateAndMode")
  void identityColumnsKeepThePrimarysValues(TestDb db, Mode mode) throws Exception {
    try (TestDb.Scratch s = db.scratch("dsi_ident");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      if (db == TestDb.POSTGRESQL) {
        s.exec(
            "CREATE TABLE always_id (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v text)",
            "CREATE TABLE default_id (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
                + " v text)");
      } else {
        s.exec(
            "CREATE TABLE always_id (id bigint AUTO_INCREMENT PRIMARY KEY, v varchar(20))",
            "CREATE TABLE default_id (id bigint AUTO_INCREMENT PRIMARY KEY, v varchar(20))");
      }
      Txs pg = new Txs(s.name(), PG_ORIGIN);
      List<Workload.Tx> txs = new ArrayList<>();
      for (long id : new long[] {7, 1000, 3}) {
        txs.add(
            pg.begin()
                .insert("always_id", row("id", i64(id), "v", text("a" + id)))
                .insert("default_id", row("id", i64(id), "v", text("d" + id)))
                .commit());
      }
      txs.add(
          pg.begin()
              .update(
                  "always_id",
                  row("id", i64(3), "v", text("a3")),
                  row("id", i64(4), "v", text("a4")))
              .commit());
      q.append(txs);
      try (DsiConnection dsi = start(s, q, mode.settings(), new RecordingSink())) {
        Awaits.applied(dsi, s, lastCommits(txs));
        assertThat(rows(s, "SELECT id, v FROM always_id ORDER BY id"))
            .containsExactly("4,a4", "7,a7", "1000,a1000");
        assertThat(rows(s, "SELECT id, v FROM default_id ORDER BY id"))
            .containsExactly("3,d3", "7,d7", "1000,d1000");
      }
    }
  }

  // ---- a MariaDB boolean into a PostgreSQL boolean ---------------------------------------------

  @ParameterizedTest(name = "{0}")
  @EnumSource(Mode.class)
  void aMariaDbBooleanGoesIntoAPostgresBoolean(Mode mode) throws Exception {
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("dsi_bool");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec("CREATE TABLE flag (id bigint PRIMARY KEY, on_off boolean, maybe boolean)");
      Txs my = new Txs(s.name(), MARIADB_ORIGIN);
      List<Workload.Tx> txs = new ArrayList<>();
      for (int i = 1; i <= 4; i++) {
        // Debezium gives tinyint(1) as an integer, of whichever width
        Value v = i % 2 == 0 ? new Value.Int16((short) 1) : new Value.Int32(0);
        txs.add(
            my.begin()
                .insert("flag", row("id", i64(i), "on_off", v, "maybe", Value.NULL))
                .commit());
      }
      txs.add(
          my.begin()
              .update(
                  "flag",
                  row("id", i64(1), "on_off", new Value.Int32(0), "maybe", Value.NULL),
                  row("id", i64(1), "on_off", new Value.Int64(1), "maybe", new Value.Int32(0)))
              .commit());
      // the first row alone, as the first change of a fresh replicate (bound as a parameter; in a
      // command batch of literals an untyped '1' is read as a boolean anyway)
      q.append(txs.subList(0, 1));
      try (DsiConnection dsi = start(s, q, mode.settings(), new RecordingSink())) {
        Awaits.applied(dsi, s, lastCommits(txs.subList(0, 1)));
        q.append(txs.subList(1, txs.size()));
        Awaits.applied(dsi, s, lastCommits(txs));
        assertThat(rows(s, "SELECT id, on_off, maybe FROM flag ORDER BY id"))
            .containsExactly("1,t,f", "2,t,null", "3,f,null", "4,t,null");
      }
    }
  }

  @Test
  void anIntegerOtherThanZeroOrOneForABooleanStopsNamingColumnAndValue() throws Exception {
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("dsi_bool2");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec("CREATE TABLE flag (id bigint PRIMARY KEY, on_off boolean)");
      Txs my = new Txs(s.name(), MARIADB_ORIGIN);
      List<Workload.Tx> txs =
          List.of(
              my.begin().insert("flag", row("id", i64(1), "on_off", new Value.Int32(2))).commit());
      q.append(txs);
      try (DsiConnection dsi = start(s, q, Mode.CONTINUOUS.settings(), new RecordingSink())) {
        DsiFailure f = Awaits.down(dsi).failure().orElseThrow();
        assertThat(f.message()).contains("on_off").contains("2").contains("boolean");
        assertThat(f.statement()).contains("flag");
        assertThat(rows(s, "SELECT id FROM flag")).isEmpty();
      }
    }
  }

  // ---- the privilege replica mode needs --------------------------------------------------------

  @Test
  void aUserWhoMayNotTurnReplicaModeOnIsToldWhichGrantToRun() throws Exception {
    String role = "openrs_dsi_nosu_" + Long.toString(System.nanoTime() % 1_000_000, 36);
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("dsi_grant");
        OutboundQueueFixture q = new OutboundQueueFixture(dir, REPLICATE)) {
      s.exec(
          "CREATE ROLE " + role + " LOGIN PASSWORD 'pw'",
          "GRANT USAGE, CREATE ON SCHEMA " + s.name() + " TO " + role,
          "CREATE TABLE parent (id bigint PRIMARY KEY, name text)",
          "GRANT ALL ON parent TO " + role);
      try {
        Txs my = new Txs(s.name(), MARIADB_ORIGIN);
        Txs pg = new Txs(s.name(), PG_ORIGIN);
        List<Workload.Tx> txs =
            List.of(
                my.begin().insert("parent", row("id", i64(1), "name", text("m"))).commit(),
                pg.begin().insert("parent", row("id", i64(2), "name", text("p"))).commit());
        q.append(txs);
        DsiTarget t = s.target(REPLICATE);
        DsiTarget asRole =
            new DsiTarget(t.connectionId(), t.name(), t.dialect(), t.jdbcUrl(), role, "pw");

        // dsi_keep_triggers off needs it for everything: down at connect, nothing applied
        DsiSettings off =
            DsiSettings.from(
                ParameterValues.defaults(Scope.CONNECTION).with("dsi_keep_triggers", "off"));
        try (DsiConnection dsi =
            DsiConnection.start(
                asRole, q.queue(), off, new RecordingSink(), new SimpleMeterRegistry(), ORIGINS)) {
          DsiFailure f = Awaits.down(dsi).failure().orElseThrow();
          assertThat(f.message())
              .contains("GRANT SET ON PARAMETER session_replication_role TO \"" + role + "\"");
          assertThat(f.commitOqid()).isEmpty();
          assertThat(Replicate.lastCommits(s)).isEmpty();
        }

        // defaults: the MariaDB origin's transaction applies; the PostgreSQL origin's stops
        // before any of its statements, naming the GRANT
        try (DsiConnection dsi =
            DsiConnection.start(
                asRole,
                q.queue(),
                DsiSettings.defaults(),
                new RecordingSink(),
                new SimpleMeterRegistry(),
                ORIGINS)) {
          DsiFailure f = Awaits.down(dsi).failure().orElseThrow();
          assertThat(f.message())
              .contains("GRANT SET ON PARAMETER session_replication_role TO \"" + role + "\"");
          assertThat(f.commitOqid()).contains(txs.get(1).commitOqid());
          assertThat(rows(s, "SELECT id FROM parent")).containsExactly("1");

          s.exec("GRANT SET ON PARAMETER session_replication_role TO " + role);
          dsi.resume();
          Awaits.applied(dsi, s, lastCommits(txs));
          assertThat(rows(s, "SELECT id FROM parent ORDER BY id")).containsExactly("1", "2");
        }
      } finally {
        s.exec(
            "REVOKE SET ON PARAMETER session_replication_role FROM " + role,
            "REVOKE ALL ON parent FROM " + role,
            "REVOKE ALL ON SCHEMA " + s.name() + " FROM " + role);
        s.exec("DROP OWNED BY " + role, "DROP ROLE " + role);
      }
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  private static DsiConnection start(
      TestDb.Scratch s, OutboundQueueFixture q, DsiSettings settings, RecordingSink sink) {
    return DsiConnection.start(
        s.target(REPLICATE), q.queue(), settings, sink, new SimpleMeterRegistry(), ORIGINS);
  }

  private static Map<Integer, Oqid> lastCommits(List<Workload.Tx> txs) {
    Map<Integer, Oqid> m = new TreeMap<>();
    for (Workload.Tx t : txs) {
      m.put(t.origin(), t.commitOqid());
    }
    return m;
  }

  /** Rows as their columns' text joined by commas; booleans as t/f, NULL as null. */
  private static List<String> rows(TestDb.Scratch s, String sql) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = s.connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          String v = rs.getString(i);
          sb.append(i == 1 ? "" : ",").append(v == null ? "null" : v.toLowerCase(Locale.ROOT));
        }
        out.add(sb.toString());
      }
    }
    return out;
  }
}
