package io.openrs.config.rssd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.config.rssd.RssdException.Reason;
import io.openrs.config.secret.SecretBox;
import io.openrs.config.secret.Secrets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every RSSD table's behaviour, run on each supported database by a subclass: {@link
 * H2RssdTablesIT} (embedded H2 file database) and {@link PostgresRssdTablesIT} (a fresh schema in
 * the local PostgreSQL). One RSSD per class; every test starts from empty tables.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RssdTablesContract {
  static final Instant START = Instant.parse("2025-03-01T10:15:30.123456Z");

  /** The key this class's RSSD seals secrets with. */
  static final SecretBox BOX = SecretBox.of(SecretBox.newKey());

  static final String PASSWORD = "Clear-Text-Pw-4711";

  final ManualClock clock = new ManualClock(START);
  Rssd rssd;

  /** Settings of this class's RSSD; the same on every call. */
  abstract RssdSettings settings();

  /** Removes what {@link #settings()} created, after the RSSD is closed. */
  abstract void dropDatabase() throws Exception;

  @BeforeAll
  void openRssd() {
    rssd = Rssd.open(settings(), clock, BOX);
  }

  @AfterAll
  void closeRssd() throws Exception {
    if (rssd != null) {
      rssd.close();
    }
    dropDatabase();
  }

  @BeforeEach
  void emptyTables() throws Exception {
    clock.set(START);
    TestDatabases.deleteAllRows(rssd);
  }

  static void assertRssdError(ThrowingCallable call, Reason reason, String table, String... parts) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            RssdException.class,
            e -> {
              assertThat(e.reason()).as("reason of: %s", e.getMessage()).isEqualTo(reason);
              assertThat(e.table()).isEqualTo(table);
              assertThat(e.getMessage()).startsWith(table + ": ").contains(parts);
            });
  }

  ConnectionDef primary() {
    return rssd.connections()
        .create("PDS", "pdb", Profile.POSTGRESQL, true, Map.of("server", "pg1", "port", "5432"));
  }

  ConnectionDef replicate() {
    return rssd.connections()
        .create("RDS", "rdb", Profile.MARIADB, false, Map.of("server", "maria1"));
  }

  static RepDef authors(String name, int primaryId) {
    return new RepDef(
        name,
        primaryId,
        "public",
        "authors",
        "pubs",
        "authors_copy",
        List.of(
            new RepDefColumn("au_id", "varchar(11)"),
            new RepDefColumn("au_lname", "varchar(40)", "last_name"),
            new RepDefColumn("state", "char(2)"),
            new RepDefColumn("royalty", "numeric(12,2)")),
        List.of("state", "au_id"),
        List.of("state"));
  }

  // ---- schema -------------------------------------------------------------------------------

  @Test
  void migrationsCreateEverySystemTable() throws Exception {
    assertThat(rssd.schemaVersion()).isEqualTo("4");
    try (Connection c = rssd.dataSource().getConnection();
        Statement st = c.createStatement()) {
      for (SystemTable t : SystemTable.values()) {
        try (ResultSet rs =
            st.executeQuery(
                "select count(*) from "
                    + t.sqlName()
                    + (TestDatabases.NON_BUILTIN_ROWS.containsKey(t)
                        ? " where " + TestDatabases.NON_BUILTIN_ROWS.get(t)
                        : ""))) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1)).as(t.sqlName()).isZero();
        }
      }
    }
  }

  @Test
  void reopenKeepsData() {
    ConnectionDef p = primary();
    rssd.repDefs().create(authors("rd_authors", p.id()));
    rssd.locators().save(p.id(), new byte[] {1, 2, 3}, new byte[] {9});
    rssd.config().setServerValue("sqt_max_cache_size", "4194304");
    rssd.close();

    rssd = Rssd.open(settings(), clock, BOX);

    assertThat(rssd.connections().find("PDS", "pdb")).contains(p);
    assertThat(rssd.repDefs().find("rd_authors")).contains(authors("rd_authors", p.id()));
    assertThat(rssd.locators().find(p.id()).orElseThrow().oqid()).containsExactly(1, 2, 3);
    assertThat(rssd.config().serverValues()).containsEntry("sqt_max_cache_size", "4194304");
  }

  @Test
  void schemaNewerThanThisServerIsRefused() throws Exception {
    TestDatabases.execute(
        rssd,
        "insert into rs_schema_history (installed_rank, version, description, type, script,"
            + " checksum, installed_by, installed_on, execution_time, success) values"
            + " (999, '999', 'from the future', 'SQL', 'V999__future.sql', 0, 'test',"
            + " current_timestamp, 0, true)");
    rssd.close();
    try {
      assertRssdError(
          () -> Rssd.open(settings(), clock, BOX),
          Reason.SCHEMA,
          "rs_schema_history",
          "schema version 999",
          "newer than this server knows (up to 4)");
    } finally {
      // Remove the future row with a plain connection and carry on with a usable RSSD.
      try (Connection c =
              java.sql.DriverManager.getConnection(
                  settings().jdbcUrl(), settings().user(), settings().password());
          Statement st = c.createStatement()) {
        String prefix = settings().schema().map(s -> s + ".").orElse("");
        st.executeUpdate("delete from " + prefix + "rs_schema_history where installed_rank = 999");
      }
      rssd = Rssd.open(settings(), clock, BOX);
    }
  }

  // ---- secrets ------------------------------------------------------------------------------

  /** Every {@code rs_config} value as stored, read past the table classes. */
  Map<String, String> storedConfigRows() throws Exception {
    Map<String, String> rows = new java.util.TreeMap<>();
    try (Connection c = rssd.dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("select objid, optionname, charvalue from rs_config")) {
      while (rs.next()) {
        rows.put(rs.getInt(1) + "/" + rs.getString(2), rs.getString(3));
      }
    }
    return rows;
  }

  @Test
  void aConnectionPasswordIsStoredSealedAndRevealedOnlyOnRequest() throws Exception {
    ConnectionDef p =
        rssd.connections()
            .create(
                "PDS", "pdb", Profile.POSTGRESQL, true, Map.of("user", "u", "password", PASSWORD));
    rssd.connections().setProperty(p.id(), "replicate_pwd", PASSWORD + "-2");

    assertThat(storedConfigRows().values())
        .isNotEmpty()
        .noneSatisfy(v -> assertThat(v).contains(PASSWORD));
    String stored = rssd.connections().find(p.id()).orElseThrow().properties().get("password");
    assertThat(stored).startsWith("enc:1:").isEqualTo(p.properties().get("password"));
    assertThat(rssd.secrets().reveal(stored, Secrets.configContext(p.id(), "password")))
        .isEqualTo(PASSWORD);
    assertThat(rssd.connections().find(p.id()).orElseThrow().toString())
        .doesNotContain(PASSWORD)
        .doesNotContain(stored)
        .contains("password=***");

    rssd.close();
    rssd = Rssd.open(settings(), clock, BOX);
    String again = rssd.connections().find(p.id()).orElseThrow().properties().get("password");
    assertThat(rssd.secrets().reveal(again, Secrets.configContext(p.id(), "password")))
        .isEqualTo(PASSWORD);
  }

  @Test
  void aPasswordAnOlderServerStoredInClearIsSealedAtOpen() throws Exception {
    ConnectionDef p = rssd.connections().create("PDS", "pdb", Profile.POSTGRESQL, true, Map.of());
    TestDatabases.execute(
        rssd,
        "insert into rs_config (objid, optionname, charvalue, updated) values ("
            + p.id()
            + ", 'password', '"
            + PASSWORD
            + "', current_timestamp)");
    rssd.close();

    rssd = Rssd.open(settings(), clock, BOX);

    assertThat(storedConfigRows())
        .hasEntrySatisfying(p.id() + "/password", v -> assertThat(v).startsWith("enc:1:"));
    String stored = rssd.connections().find(p.id()).orElseThrow().properties().get("password");
    assertThat(rssd.secrets().reveal(stored, Secrets.configContext(p.id(), "password")))
        .isEqualTo(PASSWORD);
  }

  @Test
  void referencesAreStoredAsWrittenAndMalformedOnesRefused() throws Exception {
    ConnectionDef p =
        rssd.connections()
            .create(
                "PDS", "pdb", Profile.POSTGRESQL, true, Map.of("password", "env:OPENRS_TEST_PW"));
    assertThat(storedConfigRows()).containsEntry(p.id() + "/password", "env:OPENRS_TEST_PW");
    assertRssdError(
        () -> rssd.connections().setProperty(p.id(), "password", "file:relative/pw"),
        Reason.INVALID,
        "rs_config",
        "file: must give an absolute path");
    assertRssdError(
        () -> rssd.connections().setProperty(p.id(), "password", "env:"),
        Reason.INVALID,
        "rs_config",
        "env: must name an environment variable");
  }

  @Test
  void withoutAKeyASecretValueIsRefusedNotStoredInClear() throws Exception {
    rssd.close();
    rssd = Rssd.open(settings(), clock);
    try {
      assertRssdError(
          () ->
              rssd.connections()
                  .create("PDS", "pdb", Profile.POSTGRESQL, true, Map.of("password", PASSWORD)),
          Reason.INVALID,
          "rs_config",
          "opened without a key file");
      assertThat(storedConfigRows().values()).noneSatisfy(v -> assertThat(v).contains(PASSWORD));
    } finally {
      rssd.close();
      rssd = Rssd.open(settings(), clock, BOX);
    }
  }

  // ---- connections --------------------------------------------------------------------------

  @Test
  void connectionsAreCreatedFoundAndListed() {
    ConnectionDef p = primary();
    ConnectionDef r = replicate();

    assertThat(p.id()).isGreaterThanOrEqualTo(101);
    assertThat(r.id()).isGreaterThan(p.id());
    assertThat(p.name()).isEqualTo("PDS.pdb");
    assertThat(p.properties())
        .containsExactly(Map.entry("port", "5432"), Map.entry("server", "pg1"));
    assertThat(p.state()).isEqualTo(ConnectionState.ACTIVE);
    assertThat(p.logTransferState()).isEqualTo(ConnectionState.ACTIVE);
    assertThat(rssd.connections().find("PDS", "pdb")).contains(p);
    assertThat(rssd.connections().find(r.id())).contains(r);
    assertThat(rssd.connections().find("PDS", "nope")).isEmpty();
    assertThat(rssd.connections().find(99_999)).isEmpty();
    assertThat(rssd.connections().all()).containsExactly(p, r);
  }

  @Test
  void duplicateConnectionIsRefusedNamingIt() {
    primary();
    assertRssdError(
        () -> rssd.connections().create("PDS", "pdb", Profile.MARIADB, false, Map.of()),
        Reason.DUPLICATE,
        "rs_connections",
        "connection PDS.pdb already exists");
    assertThat(rssd.connections().all()).hasSize(1);
  }

  @Test
  void connectionNamesAreChecked() {
    assertRssdError(
        () -> rssd.connections().create(" ", "db", Profile.POSTGRESQL, false, Map.of()),
        Reason.INVALID,
        "rs_connections",
        "must not be blank");
    assertRssdError(
        () -> rssd.connections().create("a.b", "db", Profile.POSTGRESQL, false, Map.of()),
        Reason.INVALID,
        "rs_connections",
        "'a.b' must not contain '.'");
  }

  @Test
  void connectionPropertiesAndStatesChange() {
    ConnectionDef p = primary();
    rssd.connections().setProperty(p.id(), "port", "5433");
    rssd.connections().setProperty(p.id(), "dsi_num_threads", "4");
    assertThat(rssd.connections().removeProperty(p.id(), "server")).isTrue();
    assertThat(rssd.connections().removeProperty(p.id(), "server")).isFalse();
    rssd.connections().setState(p.id(), ConnectionState.SUSPENDED);
    rssd.connections().setLogTransferState(p.id(), ConnectionState.DOWN);

    ConnectionDef found = rssd.connections().find(p.id()).orElseThrow();
    assertThat(found.properties())
        .containsExactly(Map.entry("dsi_num_threads", "4"), Map.entry("port", "5433"));
    assertThat(found.state()).isEqualTo(ConnectionState.SUSPENDED);
    assertThat(found.logTransferState()).isEqualTo(ConnectionState.DOWN);
    assertThat(rssd.config().connectionValues(p.id())).isEqualTo(found.properties());
  }

  @Test
  void changesToAnUnknownConnectionAreRefused() {
    assertRssdError(
        () -> rssd.connections().setProperty(4242, "a", "b"),
        Reason.NOT_FOUND,
        "rs_connections",
        "no connection with id 4242");
    assertRssdError(
        () -> rssd.connections().setState(4242, ConnectionState.DOWN),
        Reason.NOT_FOUND,
        "rs_connections",
        "4242");
    assertRssdError(
        () -> rssd.connections().drop(4242), Reason.NOT_FOUND, "rs_connections", "4242");
  }

  @Test
  void droppedConnectionTakesItsPropertiesAndLocatorAndItsIdIsNotReused() {
    ConnectionDef p = primary();
    rssd.locators().save(p.id(), new byte[] {1}, null);
    rssd.connections().drop(p.id());

    assertThat(rssd.connections().find(p.id())).isEmpty();
    assertThat(rssd.config().connectionValues(p.id())).isEmpty();
    assertThat(rssd.locators().find(p.id())).isEmpty();
    assertThat(primary().id()).isGreaterThan(p.id());
  }

  @Test
  void connectionInUseCannotBeDropped() {
    ConnectionDef p = primary();
    ConnectionDef r = replicate();
    rssd.repDefs().create(authors("rd_authors", p.id()));
    rssd.subscriptions()
        .create("sub1", "rd_authors", false, r.id(), Optional.empty(), SubscriptionState.VALID);

    assertRssdError(
        () -> rssd.connections().drop(p.id()),
        Reason.IN_USE,
        "rs_connections",
        "connection PDS.pdb",
        "replication definitions rd_authors");
    assertRssdError(
        () -> rssd.connections().drop(r.id()),
        Reason.IN_USE,
        "rs_connections",
        "connection RDS.rdb",
        "subscriptions sub1");
    assertThat(rssd.connections().all()).hasSize(2);
  }

  // ---- replication definitions --------------------------------------------------------------

  @Test
  void repDefsAreStoredWithColumnsKeyAndSearchableColumns() {
    ConnectionDef p = primary();
    RepDef rd = authors("rd_authors", p.id());
    rssd.repDefs().create(rd);
    RepDef other =
        new RepDef(
            "rd_titles",
            p.id(),
            "public",
            "titles",
            "public",
            "titles",
            List.of(),
            List.of(),
            List.of());
    rssd.repDefs().create(other);

    RepDef found = rssd.repDefs().find("rd_authors").orElseThrow();
    assertThat(found).isEqualTo(rd);
    assertThat(found.primaryKey()).containsExactly("state", "au_id");
    assertThat(found.columns().get(1).replicateName()).isEqualTo("last_name");
    assertThat(found.columns().get(0).replicateName()).isEqualTo("au_id");
    assertThat(rssd.repDefs().find("rd_titles")).contains(other);
    assertThat(rssd.repDefs().find("nope")).isEmpty();
    assertThat(rssd.repDefs().forPrimaryTable(p.id(), "public", "authors")).containsExactly(rd);
    assertThat(rssd.repDefs().forPrimaryTable(p.id(), "other", "authors")).isEmpty();
    assertThat(rssd.repDefs().forPrimaryConnection(p.id())).containsExactly(rd, other);
  }

  @Test
  void repDefNamesAreUniqueAcrossTableAndDatabaseRepDefs() {
    ConnectionDef p = primary();
    rssd.repDefs().create(authors("rd_authors", p.id()));
    assertRssdError(
        () -> rssd.repDefs().create(authors("rd_authors", p.id())),
        Reason.DUPLICATE,
        "rs_objects",
        "replication definition named rd_authors already exists");
    assertRssdError(
        () ->
            rssd.repDefs()
                .createDatabaseRepDef(
                    new DatabaseRepDef("rd_authors", p.id(), List.of(), List.of())),
        Reason.DUPLICATE,
        "rs_dbreps",
        "rd_authors");
  }

  @Test
  void repDefOnUnknownConnectionIsRefused() {
    assertRssdError(
        () -> rssd.repDefs().create(authors("rd_authors", 777)),
        Reason.NOT_FOUND,
        "rs_objects",
        "rd_authors",
        "primary connection id 777");
    assertRssdError(
        () ->
            rssd.repDefs()
                .createDatabaseRepDef(new DatabaseRepDef("drd", 777, List.of(), List.of())),
        Reason.NOT_FOUND,
        "rs_dbreps",
        "777");
    assertThat(rssd.repDefs().find("rd_authors")).isEmpty();
  }

  @Test
  void repDefKeyAndSearchableColumnsMustBeColumns() {
    ConnectionDef p = primary();
    RepDef badKey =
        new RepDef(
            "rd",
            p.id(),
            "s",
            "t",
            "s",
            "t",
            List.of(new RepDefColumn("a", "int")),
            List.of("b"),
            List.of());
    assertRssdError(
        () -> rssd.repDefs().create(badKey),
        Reason.INVALID,
        "rs_objects",
        "primary key b is not a column");
    RepDef twice =
        new RepDef(
            "rd",
            p.id(),
            "s",
            "t",
            "s",
            "t",
            List.of(new RepDefColumn("a", "int"), new RepDefColumn("a", "text")),
            List.of(),
            List.of());
    assertRssdError(
        () -> rssd.repDefs().create(twice), Reason.INVALID, "rs_objects", "column a appears twice");
  }

  @Test
  void databaseRepDefsAreStoredFoundAndDropped() {
    ConnectionDef p = primary();
    DatabaseRepDef all = new DatabaseRepDef("drd_all", p.id(), List.of(), List.of());
    DatabaseRepDef some =
        new DatabaseRepDef(
            "drd_some", p.id(), List.of("public.%", "sales.orders"), List.of("public.tmp_%"));
    rssd.repDefs().createDatabaseRepDef(some);
    rssd.repDefs().createDatabaseRepDef(all);

    assertThat(rssd.repDefs().findDatabaseRepDef("drd_some")).contains(some);
    assertThat(rssd.repDefs().databaseRepDefsFor(p.id())).containsExactly(all, some);
    assertThat(rssd.repDefs().databaseRepDefsFor(p.id() + 1)).isEmpty();

    rssd.repDefs().dropDatabaseRepDef("drd_all");
    assertThat(rssd.repDefs().databaseRepDefsFor(p.id())).containsExactly(some);
    assertRssdError(
        () -> rssd.repDefs().dropDatabaseRepDef("drd_all"),
        Reason.NOT_FOUND,
        "rs_dbreps",
        "drd_all");
  }

  @Test
  void repDefInUseCannotBeDroppedAndTheErrorNamesTheSubscription() {
    ConnectionDef p = primary();
    ConnectionDef r = replicate();
    rssd.repDefs().create(authors("rd_authors", p.id()));
    rssd.repDefs().createDatabaseRepDef(new DatabaseRepDef("drd", p.id(), List.of(), List.of()));
    rssd.subscriptions()
        .create(
            "sub_ca",
            "rd_authors",
            false,
            r.id(),
            Optional.of("state = 'CA'"),
            SubscriptionState.VALID);
    rssd.subscriptions()
        .create("sub_db", "drd", true, r.id(), Optional.empty(), SubscriptionState.VALID);

    assertRssdError(
        () -> rssd.repDefs().drop("rd_authors"),
        Reason.IN_USE,
        "rs_objects",
        "rd_authors is used by subscription sub_ca (replicate RDS.rdb)");
    assertRssdError(
        () -> rssd.repDefs().dropDatabaseRepDef("drd"), Reason.IN_USE, "rs_dbreps", "sub_db");

    rssd.subscriptions().drop("sub_ca", r.id());
    rssd.repDefs().drop("rd_authors");
    assertThat(rssd.repDefs().find("rd_authors")).isEmpty();
    assertRssdError(
        () -> rssd.repDefs().drop("rd_authors"), Reason.NOT_FOUND, "rs_objects", "rd_authors");
  }

  // ---- subscriptions ------------------------------------------------------------------------

  @Test
  void subscriptionsAreCreatedListedChangedAndDropped() {
    ConnectionDef p = primary();
    ConnectionDef r = replicate();
    ConnectionDef r2 =
        rssd.connections().create("RDS", "rdb2", Profile.POSTGRESQL, false, Map.of());
    rssd.repDefs().create(authors("rd_authors", p.id()));

    Subscription s1 =
        rssd.subscriptions()
            .create(
                "sub1",
                "rd_authors",
                false,
                r.id(),
                Optional.of("state = 'CA'"),
                SubscriptionState.DEFINED);
    clock.advance(Duration.ofSeconds(1));
    Subscription s2 =
        rssd.subscriptions()
            .create(
                "sub1", "rd_authors", false, r2.id(), Optional.empty(), SubscriptionState.VALID);

    assertThat(s1.created()).isEqualTo(START);
    assertThat(s2.created()).isEqualTo(START.plusSeconds(1));
    assertThat(rssd.subscriptions().find("sub1", r.id())).contains(s1);
    assertThat(rssd.subscriptions().find("sub1", 4242)).isEmpty();
    assertThat(rssd.subscriptions().forRepDef("rd_authors")).containsExactly(s1, s2);
    assertThat(rssd.subscriptions().forReplicate(r2.id())).containsExactly(s2);
    assertThat(rssd.subscriptions().all()).containsExactly(s1, s2);

    rssd.subscriptions().setState("sub1", r.id(), SubscriptionState.ACTIVE);
    assertThat(rssd.subscriptions().find("sub1", r.id()).orElseThrow().state())
        .isEqualTo(SubscriptionState.ACTIVE);

    rssd.subscriptions().drop("sub1", r.id());
    assertThat(rssd.subscriptions().all()).containsExactly(s2);
    assertRssdError(
        () -> rssd.subscriptions().drop("sub1", r.id()),
        Reason.NOT_FOUND,
        "rs_subscriptions",
        "no subscription sub1");
    assertRssdError(
        () -> rssd.subscriptions().setState("sub1", r.id(), SubscriptionState.VALID),
        Reason.NOT_FOUND,
        "rs_subscriptions",
        "sub1");
  }

  @Test
  void subscriptionErrorsNameWhatIsWrong() {
    ConnectionDef p = primary();
    ConnectionDef r = replicate();
    rssd.repDefs().create(authors("rd_authors", p.id()));
    rssd.subscriptions()
        .create("sub1", "rd_authors", false, r.id(), Optional.empty(), SubscriptionState.VALID);

    assertRssdError(
        () ->
            rssd.subscriptions()
                .create(
                    "sub1", "rd_authors", false, r.id(), Optional.empty(), SubscriptionState.VALID),
        Reason.DUPLICATE,
        "rs_subscriptions",
        "subscription sub1 for replicate RDS.rdb already exists");
    assertRssdError(
        () ->
            rssd.subscriptions()
                .create(
                    "sub2", "rd_nope", false, r.id(), Optional.empty(), SubscriptionState.VALID),
        Reason.NOT_FOUND,
        "rs_subscriptions",
        "replication definition rd_nope, which does not exist");
    assertRssdError(
        () ->
            rssd.subscriptions()
                .create(
                    "sub2", "rd_authors", true, r.id(), Optional.empty(), SubscriptionState.VALID),
        Reason.NOT_FOUND,
        "rs_subscriptions",
        "database replication definition rd_authors");
    assertRssdError(
        () ->
            rssd.subscriptions()
                .create(
                    "sub2", "rd_authors", false, 4242, Optional.empty(), SubscriptionState.VALID),
        Reason.NOT_FOUND,
        "rs_subscriptions",
        "no connection with id 4242");
    assertRssdError(
        () ->
            rssd.subscriptions()
                .create("sub2", "drd", true, r.id(), Optional.of("a = 1"), SubscriptionState.VALID),
        Reason.INVALID,
        "rs_subscriptions",
        "cannot have a where-clause");
  }

  // ---- locators -----------------------------------------------------------------------------

  @Test
  void locatorNeverMovesBackwards() {
    int origin = primary().id();
    assertThat(rssd.locators().find(origin)).isEmpty();

    rssd.locators().save(origin, new byte[] {0x01, 0x00}, new byte[] {1});
    rssd.locators().save(origin, new byte[] {0x00, (byte) 0xff}, new byte[] {2});
    assertThat(rssd.locators().find(origin).orElseThrow().oqid()).containsExactly(0x01, 0x00);
    assertThat(rssd.locators().find(origin).orElseThrow().resumeBlob()).containsExactly(1);

    // Equal prefix: the longer one is greater.
    rssd.locators().save(origin, new byte[] {0x01, 0x00, 0x00}, null);
    assertThat(rssd.locators().find(origin).orElseThrow().oqid()).containsExactly(0x01, 0x00, 0x00);
    rssd.locators().save(origin, new byte[] {0x01, 0x00}, null);
    assertThat(rssd.locators().find(origin).orElseThrow().oqid()).containsExactly(0x01, 0x00, 0x00);

    // Unsigned: 0x80 is above 0x7f.
    rssd.locators().save(origin, new byte[] {(byte) 0x80}, null);
    rssd.locators().save(origin, new byte[] {0x7f, 0x7f, 0x7f, 0x7f}, null);
    assertThat(rssd.locators().find(origin).orElseThrow().oqid()).containsExactly(0x80);
  }

  @Test
  void locatorKeepsTheBlobWhenNullIsPassedAndReplacesItOtherwise() {
    int origin = primary().id();
    rssd.locators().save(origin, new byte[] {1}, null);
    assertThat(rssd.locators().find(origin).orElseThrow().resumeBlob()).isEmpty();

    rssd.locators().save(origin, new byte[] {2}, new byte[] {7, 7});
    clock.advance(Duration.ofMinutes(1));
    rssd.locators().save(origin, new byte[] {3}, null);
    Locator l = rssd.locators().find(origin).orElseThrow();
    assertThat(l.oqid()).containsExactly(3);
    assertThat(l.resumeBlob()).containsExactly(7, 7);
    assertThat(l.updated()).isEqualTo(START.plus(Duration.ofMinutes(1)));

    // An equal OQID still stores a new blob.
    rssd.locators().save(origin, new byte[] {3}, new byte[] {8});
    assertThat(rssd.locators().find(origin).orElseThrow().resumeBlob()).containsExactly(8);
  }

  @Test
  void locatorOfAnUnknownConnectionIsRefusedAndResetRemovesIt() {
    assertRssdError(
        () -> rssd.locators().save(4242, new byte[] {1}, null),
        Reason.NOT_FOUND,
        "rs_locater",
        "no connection with id 4242");
    int origin = primary().id();
    rssd.locators().save(origin, new byte[] {5}, null);
    assertThat(rssd.locators().reset(origin)).isTrue();
    assertThat(rssd.locators().reset(origin)).isFalse();
    rssd.locators().save(origin, new byte[] {1}, null);
    assertThat(rssd.locators().find(origin).orElseThrow().oqid()).containsExactly(1);
  }

  // ---- configuration ------------------------------------------------------------------------

  @Test
  void serverValuesAreSetReplacedAndRemoved() {
    rssd.config().setServerValue("block_size", "65536");
    rssd.config().setServerValue("sts_cachesize", "1000");
    rssd.config().setServerValue("block_size", "131072");
    assertThat(rssd.config().serverValues())
        .containsExactly(Map.entry("block_size", "131072"), Map.entry("sts_cachesize", "1000"));
    assertThat(rssd.config().removeServerValue("block_size")).isTrue();
    assertThat(rssd.config().removeServerValue("block_size")).isFalse();
    assertThat(rssd.config().serverValues()).containsOnlyKeys("sts_cachesize");
  }

  @Test
  void connectionValuesAreTheConnectionsProperties() {
    ConnectionDef p = primary();
    rssd.config().setConnectionValue(p.id(), "dsi_num_threads", "4");
    assertThat(rssd.connections().find(p.id()).orElseThrow().properties())
        .containsEntry("dsi_num_threads", "4");
    assertThat(rssd.config().removeConnectionValue(p.id(), "dsi_num_threads")).isTrue();
    assertThat(rssd.config().connectionValues(p.id())).doesNotContainKey("dsi_num_threads");
    assertThat(rssd.config().serverValues()).isEmpty();
    assertRssdError(
        () -> rssd.config().setConnectionValue(4242, "x", "y"),
        Reason.NOT_FOUND,
        "rs_config",
        "4242");
  }

  // ---- users --------------------------------------------------------------------------------

  @Test
  void usersAreCreatedChangedAndDropped() {
    String secret = ScramVerifier.derive("s3cret".toCharArray());
    RssdUser sa = new RssdUser("sa", UserRole.ADMIN, secret);
    RssdUser mon =
        new RssdUser("monitor", UserRole.MONITOR, ScramVerifier.derive("m".toCharArray()));
    rssd.users().create(sa);
    rssd.users().create(mon);

    assertThat(rssd.users().find("sa")).contains(sa);
    assertThat(rssd.users().all()).containsExactly(mon, sa);
    assertRssdError(
        () -> rssd.users().create(sa), Reason.DUPLICATE, "rs_users", "user sa already exists");

    String newSecret = ScramVerifier.derive("n3w".toCharArray());
    rssd.users().setSecret("sa", newSecret);
    rssd.users().setRole("monitor", UserRole.ADMIN);
    assertThat(
            ScramVerifier.matches(
                rssd.users().find("sa").orElseThrow().scramSha256(), "n3w".toCharArray()))
        .isTrue();
    assertThat(rssd.users().find("monitor").orElseThrow().role()).isEqualTo(UserRole.ADMIN);

    rssd.users().drop("monitor");
    assertThat(rssd.users().find("monitor")).isEmpty();
    assertRssdError(
        () -> rssd.users().drop("monitor"), Reason.NOT_FOUND, "rs_users", "no user monitor");
    assertRssdError(
        () -> rssd.users().setSecret("ghost", newSecret), Reason.NOT_FOUND, "rs_users", "ghost");
    assertRssdError(
        () -> rssd.users().create(new RssdUser("x", UserRole.ADMIN, "plaintext")),
        Reason.INVALID,
        "rs_users",
        "not a SCRAM-SHA-256 verifier");
  }

  @Test
  void connectSourceGrantsBelongToTheirUserAndGoWithIt() {
    String secret = ScramVerifier.derive("agent-pw".toCharArray());
    rssd.users().create(new RssdUser("ra_pg", UserRole.NONE, secret));
    rssd.users().create(new RssdUser("ra_all", UserRole.MONITOR, secret));

    assertThat(rssd.users().grantSource("ra_pg", SourceGrant.origin("pg1", "sales"))).isTrue();
    assertThat(rssd.users().grantSource("ra_pg", SourceGrant.origin("pg1", "sales"))).isFalse();
    assertThat(rssd.users().grantSource("ra_pg", SourceGrant.origin("pg2", "hr"))).isTrue();
    assertThat(rssd.users().grantSource("ra_all", SourceGrant.everyOrigin())).isTrue();

    RssdUser ra = rssd.users().find("ra_pg").orElseThrow();
    assertThat(ra.role()).isEqualTo(UserRole.NONE);
    assertThat(ra.sourceGrants())
        .containsExactly(SourceGrant.origin("pg1", "sales"), SourceGrant.origin("pg2", "hr"));
    assertThat(ra.mayConnectSource("pg1", "sales")).isTrue();
    assertThat(ra.mayConnectSource("pg1", "hr")).isFalse();
    assertThat(rssd.users().find("ra_all").orElseThrow().sourceGrants())
        .containsExactly(SourceGrant.everyOrigin());
    assertThat(rssd.users().find("ra_all").orElseThrow().mayConnectSource("any", "db")).isTrue();

    assertThat(rssd.users().revokeSource("ra_pg", SourceGrant.origin("pg2", "hr"))).isTrue();
    assertThat(rssd.users().revokeSource("ra_pg", SourceGrant.origin("pg2", "hr"))).isFalse();
    assertThat(rssd.users().find("ra_pg").orElseThrow().sourceGrants())
        .containsExactly(SourceGrant.origin("pg1", "sales"));
    assertThat(rssd.users().revokeAllSources("ra_all")).isEqualTo(1);
    assertThat(rssd.users().find("ra_all").orElseThrow().sourceGrants()).isEmpty();
    assertRssdError(
        () -> rssd.users().grantSource("ghost", SourceGrant.everyOrigin()),
        Reason.NOT_FOUND,
        "rs_users",
        "no user ghost");

    rssd.users().drop("ra_pg");
    rssd.users().create(new RssdUser("ra_pg", UserRole.NONE, secret));
    assertThat(rssd.users().find("ra_pg").orElseThrow().sourceGrants())
        .as("a dropped user's grants went with it")
        .isEmpty();
  }

  // ---- rs_lease ------------------------------------------------------------------------------

  @Test
  void aLeaseIsTakenOnceAndRenewedOnlyByItsHolder() {
    assertThat(rssd.lease().read().held()).isFalse();
    assertThat(rssd.lease().tryAcquire("rs-a", Duration.ofMinutes(5))).contains(1L);
    assertThat(rssd.lease().tryAcquire("rs-b", Duration.ofMinutes(5))).isEmpty();
    assertThat(rssd.lease().renew("rs-a", 1, Duration.ofMinutes(5))).isTrue();
    assertThat(rssd.lease().renew("rs-b", 1, Duration.ofMinutes(5))).isFalse();
    assertThat(rssd.lease().renew("rs-a", 2, Duration.ofMinutes(5)))
        .as("an epoch it never held")
        .isFalse();
    LeaseTable.LeaseState s = rssd.lease().read();
    assertThat(s.holder()).contains("rs-a");
    assertThat(s.epoch()).isEqualTo(1);
    assertThat(s.remaining()).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(5));
    assertThat(rssd.lease().tryAcquire("rs-a", Duration.ofMinutes(5)))
        .as("its holder may take it again (a retry whose first answer was lost)")
        .contains(2L);
  }

  @Test
  void anExpiredLeaseGoesToTheNextServerAndItsOldHolderCannotRenewIt() {
    assertThat(rssd.lease().tryAcquire("rs-a", Duration.ZERO)).contains(1L);
    assertThat(rssd.lease().read().held()).as("a lease of no time has expired").isFalse();
    assertThat(rssd.lease().tryAcquire("rs-b", Duration.ofMinutes(5))).contains(2L);
    assertThat(rssd.lease().renew("rs-a", 1, Duration.ofMinutes(5))).isFalse();
    assertThat(rssd.lease().read().holder()).contains("rs-b");
  }

  @Test
  void aReleasedLeaseIsFreeAtOnceAndOnlyItsHolderReleasesIt() {
    long epoch = rssd.lease().tryAcquire("rs-a", Duration.ofMinutes(5)).orElseThrow();
    rssd.lease().release("rs-b", epoch);
    assertThat(rssd.lease().read().holder()).as("not released by another").contains("rs-a");
    rssd.lease().release("rs-a", epoch);
    assertThat(rssd.lease().read().holder()).isEmpty();
    assertThat(rssd.lease().tryAcquire("rs-b", Duration.ofMinutes(5))).contains(epoch + 1);
    assertThat(rssd.lease().renew("rs-a", epoch, Duration.ofMinutes(5))).isFalse();
  }

  @Test
  void anRssdOfSchemaVersion2IsUpgradedAndItsUsersKeepTheirRoles() throws Exception {
    rssd.users()
        .create(new RssdUser("sa", UserRole.ADMIN, ScramVerifier.derive("pw".toCharArray())));
    // Back to schema version 2, as a server of an earlier release left it.
    TestDatabases.execute(rssd, "drop table rs_lease");
    TestDatabases.execute(rssd, "drop table rs_connect_source");
    TestDatabases.execute(rssd, "delete from rs_schema_history where version in ('3', '4')");
    rssd.close();

    rssd = Rssd.open(settings(), clock, BOX);

    assertThat(rssd.schemaVersion()).isEqualTo("4");
    RssdUser sa = rssd.users().find("sa").orElseThrow();
    assertThat(sa.role()).isEqualTo(UserRole.ADMIN);
    assertThat(sa.sourceGrants()).isEmpty();
    assertThat(sa.mayConnectSource("pg1", "sales")).as("sa keeps connecting agents").isTrue();
    assertThat(rssd.users().grantSource("sa", SourceGrant.origin("pg1", "sales"))).isTrue();
  }

  // ---- exceptions log -----------------------------------------------------------------------

  @Test
  void exceptionsAreLoggedListedAndDeleted() {
    String big = "insert into t values (1);\n".repeat(5_000);
    long first =
        rssd.exceptions().add(101, 102, new byte[] {1, 2}, "tx-1", "SQLSTATE 23505: dup", "cmd 1");
    clock.advance(Duration.ofSeconds(1));
    long second = rssd.exceptions().add(101, 102, new byte[] {1, 3}, "tx-2", "SQLSTATE 40001", big);
    long other = rssd.exceptions().add(101, 103, new byte[] {1, 4}, "tx-3", "err", "cmd 3");

    assertThat(second).isGreaterThan(first);
    ExceptionEntry e1 = rssd.exceptions().find(first).orElseThrow();
    assertThat(e1)
        .isEqualTo(
            new ExceptionEntry(
                new ExceptionHeader(
                    first,
                    101,
                    102,
                    new byte[] {1, 2},
                    "tx-1",
                    "SQLSTATE 23505: dup",
                    OptionalInt.of(1),
                    START),
                "cmd 1"));
    assertThat(rssd.exceptions().find(second).orElseThrow().commandText()).isEqualTo(big);
    assertThat(rssd.exceptions().list(102, 10))
        .extracting(ExceptionEntry::id)
        .containsExactly(first, second);
    assertThat(rssd.exceptions().list(102, 1))
        .extracting(ExceptionEntry::id)
        .containsExactly(first);
    assertThat(rssd.exceptions().list(103, 10))
        .extracting(ExceptionEntry::id)
        .containsExactly(other);

    rssd.exceptions().delete(first);
    assertThat(rssd.exceptions().find(first)).isEmpty();
    assertThat(rssd.exceptions().list(102, 10))
        .extracting(ExceptionEntry::id)
        .containsExactly(second);
    assertRssdError(
        () -> rssd.exceptions().delete(first),
        Reason.NOT_FOUND,
        "rs_exceptshdr",
        "no logged transaction with id " + first);
  }

  @Test
  void exceptionHeadersAreListedCountedAndDeletedByRange() {
    long a =
        rssd.exceptions()
            .add(
                101,
                102,
                new byte[] {1, 2},
                "tx-1",
                "SQLSTATE 23505: dup",
                "begin transaction\n-- a comment\n\ninsert\ncommit transaction\n");
    clock.advance(Duration.ofSeconds(1));
    long b = rssd.exceptions().add(101, 103, new byte[0], "", "skipped", "one command");
    long c = rssd.exceptions().add(104, 103, new byte[] {9}, "tx-3", "err", "");

    assertThat(rssd.exceptions().count()).isEqualTo(3);
    assertThat(rssd.exceptions().headers(10))
        .containsExactly(
            new ExceptionHeader(
                a,
                101,
                102,
                new byte[] {1, 2},
                "tx-1",
                "SQLSTATE 23505: dup",
                java.util.OptionalInt.of(3),
                START),
            new ExceptionHeader(
                b,
                101,
                103,
                new byte[0],
                "",
                "skipped",
                java.util.OptionalInt.of(1),
                START.plusSeconds(1)),
            new ExceptionHeader(
                c,
                104,
                103,
                new byte[] {9},
                "tx-3",
                "err",
                java.util.OptionalInt.of(0),
                START.plusSeconds(1)));
    assertThat(rssd.exceptions().headers(2)).extracting(ExceptionHeader::id).containsExactly(a, b);
    assertThat(rssd.exceptions().headers(0)).isEmpty();

    assertThat(rssd.exceptions().deleteRange(b, c + 100)).isEqualTo(2);
    assertThat(rssd.exceptions().deleteRange(b, c)).isZero();
    assertThat(rssd.exceptions().headers(10)).extracting(ExceptionHeader::id).containsExactly(a);
    assertRssdError(
        () -> rssd.exceptions().deleteRange(5, 4),
        Reason.INVALID,
        "rs_exceptshdr",
        "first id 5 is above last id 4");
    try (Connection conn = rssd.dataSource().getConnection();
        Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("select count(*) from rs_exceptscmd")) {
      rs.next();
      assertThat(rs.getLong(1)).as("command rows go with their header").isEqualTo(1);
    } catch (java.sql.SQLException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void headersOfEntriesLoggedBeforeCommandsWereCountedHaveNoCount() throws Exception {
    long id = rssd.exceptions().add(101, 102, new byte[] {1}, "tx", "err", "a\nb\n");
    TestDatabases.execute(rssd, "update rs_exceptshdr set cmd_count = null");
    assertThat(rssd.exceptions().headers(1).get(0).commandCount()).isEmpty();
    assertThat(rssd.exceptions().find(id).orElseThrow().commandText()).isEqualTo("a\nb\n");
  }

  // ---- error classes ------------------------------------------------------------------------

  @Test
  void builtInErrorClassesAreThereAndCannotBeChanged() {
    assertThat(rssd.errorClasses().all())
        .extracting(ErrorClassDef::name)
        .containsExactly("rs_mariadb_error_class", "rs_postgresql_error_class");
    ErrorClassDef pg = rssd.errorClasses().find(ErrorClassDef.POSTGRESQL_DEFAULTS).orElseThrow();
    assertThat(pg.builtin()).isTrue();
    assertThat(pg.template()).isEmpty();
    assertThat(pg.actions())
        .containsEntry("40P01", "retry_stop")
        .containsEntry("5185", "stop_replication");
    assertThat(rssd.errorClasses().assignments(ErrorClassDef.MARIADB_DEFAULTS))
        .contains(
            new ErrorClassAssignment("1213", "retry_stop", ErrorClassAssignment.Source.BUILTIN));

    for (String name : ErrorClassDef.BUILTIN) {
      assertRssdError(
          () -> rssd.errorClasses().drop(name),
          Reason.INVALID,
          "rs_classes",
          name + " is a built-in error class and cannot be dropped");
      assertRssdError(
          () -> rssd.errorClasses().assign(name, "ignore", List.of("23505")),
          Reason.INVALID,
          "rs_classes",
          "cannot be changed");
      assertRssdError(
          () -> rssd.errorClasses().alter(name, ErrorClassDef.POSTGRESQL_DEFAULTS),
          Reason.INVALID,
          "rs_classes",
          "cannot be altered");
      assertRssdError(
          () -> rssd.errorClasses().create(name, Optional.empty()),
          Reason.DUPLICATE,
          "rs_classes",
          "error class " + name + " already exists");
    }
    try (Connection c = rssd.dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("select classname, builtin from rs_classes")) {
      while (rs.next()) {
        assertThat(rs.getBoolean(2))
            .as("builtin column of %s", rs.getString(1))
            .isEqualTo(ErrorClassDef.BUILTIN.contains(rs.getString(1)));
      }
    } catch (java.sql.SQLException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void errorClassesAreCreatedFromATemplateAssignedAlteredAndDropped() {
    ErrorClassDef created =
        rssd.errorClasses().create("sales_ec", Optional.of(ErrorClassDef.POSTGRESQL_DEFAULTS));
    assertThat(created.template()).contains(ErrorClassDef.POSTGRESQL_DEFAULTS);
    assertThat(created.builtin()).isFalse();
    assertThat(created.actions())
        .isEqualTo(
            rssd.errorClasses().find(ErrorClassDef.POSTGRESQL_DEFAULTS).orElseThrow().actions());

    rssd.errorClasses().assign("sales_ec", "IGNORE", List.of("23505", "1062", "23", "40p01"));
    rssd.errorClasses().assign("sales_ec", "log", List.of("23"));
    ErrorClassDef after = rssd.errorClasses().find("sales_ec").orElseThrow();
    assertThat(after.actions())
        .containsEntry("23505", "ignore")
        .containsEntry("1062", "ignore")
        .containsEntry("23", "log")
        .containsEntry("40P01", "ignore")
        .containsEntry("40001", "retry_stop");
    assertThat(rssd.errorClasses().assignments("sales_ec"))
        .contains(
            new ErrorClassAssignment("23", "log", ErrorClassAssignment.Source.ASSIGNED),
            new ErrorClassAssignment("40001", "retry_stop", ErrorClassAssignment.Source.TEMPLATE));

    // alter copies the template over the class: its codes win, the class's other codes stay
    rssd.errorClasses().create("strict", Optional.empty());
    assertThat(rssd.errorClasses().find("strict").orElseThrow().actions()).isEmpty();
    rssd.errorClasses().assign("strict", "stop_replication", List.of("23505", "57014"));
    ErrorClassDef altered = rssd.errorClasses().alter("sales_ec", "strict");
    assertThat(altered.template()).contains("strict");
    assertThat(altered.actions())
        .containsEntry("23505", "stop_replication")
        .containsEntry("57014", "stop_replication")
        .containsEntry("1062", "ignore");

    assertThat(rssd.errorClasses().all())
        .extracting(ErrorClassDef::name)
        .containsExactly(
            "rs_mariadb_error_class", "rs_postgresql_error_class", "sales_ec", "strict");

    rssd.errorClasses().drop("strict");
    assertThat(rssd.errorClasses().find("strict")).isEmpty();
    assertThat(rssd.errorClasses().find("sales_ec").orElseThrow().template()).contains("strict");
    assertRssdError(
        () -> rssd.errorClasses().drop("strict"),
        Reason.NOT_FOUND,
        "rs_classes",
        "no error class strict");
  }

  @Test
  void errorClassMistakesAreNamed() {
    rssd.errorClasses().create("ec", Optional.empty());
    assertRssdError(
        () -> rssd.errorClasses().create("ec2", Optional.of("nope")),
        Reason.NOT_FOUND,
        "rs_classes",
        "no error class nope (the template of ec2)");
    assertThat(rssd.errorClasses().find("ec2")).isEmpty();
    assertRssdError(
        () -> rssd.errorClasses().create(" ", Optional.empty()),
        Reason.INVALID,
        "rs_classes",
        "error class name must not be blank");
    assertRssdError(
        () -> rssd.errorClasses().alter("ec", "ec"),
        Reason.INVALID,
        "rs_classes",
        "cannot be its own template");
    assertRssdError(
        () -> rssd.errorClasses().alter("ghost", "ec"),
        Reason.NOT_FOUND,
        "rs_classes",
        "no error class ghost");
    assertRssdError(
        () -> rssd.errorClasses().assign("ec", "skip_trans", List.of("1")),
        Reason.INVALID,
        "rs_classes",
        "unknown error action 'skip_trans'");
    assertRssdError(
        () -> rssd.errorClasses().assign("ec", "log", List.of("23505", "40P0")),
        Reason.INVALID,
        "rs_classes",
        "'40P0' is not an error code");
    assertRssdError(
        () -> rssd.errorClasses().assign("ec", "log", List.of("0123")),
        Reason.INVALID,
        "rs_classes",
        "'0123' is not an error code");
    assertRssdError(
        () -> rssd.errorClasses().assign("ec", "log", List.of()),
        Reason.INVALID,
        "rs_classes",
        "at least one code");
    assertRssdError(
        () -> rssd.errorClasses().assign("ghost", "log", List.of("1")),
        Reason.NOT_FOUND,
        "rs_classes",
        "no error class ghost");
    assertThat(rssd.errorClasses().find("ec").orElseThrow().actions())
        .as("a refused assign changes nothing")
        .isEmpty();
  }

  @Test
  void anErrorClassInUseCannotBeDroppedAndTheErrorNamesTheUsers() {
    rssd.errorClasses().create("ec", Optional.empty());
    ConnectionDef p = primary();
    ConnectionDef r = replicate();
    rssd.connections().setProperty(r.id(), "error_class", "ec");
    rssd.connections().setProperty(p.id(), "error_class", "other");
    assertThat(rssd.errorClasses().usedBy("ec")).containsExactly("RDS.rdb");
    rssd.config().setServerValue("error_class", "ec");
    assertThat(rssd.errorClasses().usedBy("ec")).containsExactly("server", "RDS.rdb");
    assertRssdError(
        () -> rssd.errorClasses().drop("ec"),
        Reason.IN_USE,
        "rs_classes",
        "error class ec is used by the server (configure replication server set error_class),"
            + " connection RDS.rdb; set another error class there first");

    rssd.config().removeServerValue("error_class");
    rssd.connections().setProperty(r.id(), "error_class", "");
    rssd.errorClasses().drop("ec");
    assertThat(rssd.errorClasses().find("ec")).isEmpty();
  }

  // ---- counter samples ----------------------------------------------------------------------

  @Test
  void counterSamplesAreSavedQueriedAndDeleted() {
    Instant t0 = START;
    Instant t1 = START.plusSeconds(15);
    rssd.counterSamples()
        .addAll(
            List.of(
                new CounterSample(t0, "SQM", "101:1", "BlocksWritten", 10),
                new CounterSample(t0, "SQM", "101:1", "CmdsWritten", 300),
                new CounterSample(t0, "STS", "rs_objects", "STSCacheExceed", 0)));
    rssd.counterSamples().add(t1, "SQM", "101:1", "BlocksWritten", 12.5);

    assertThat(
            rssd.counterSamples().query(t0, t1.plusSeconds(1), Optional.empty(), Optional.empty()))
        .hasSize(4);
    assertThat(
            rssd.counterSamples()
                .query(t0, t1.plusSeconds(1), Optional.of("SQM"), Optional.of("BlocksWritten")))
        .containsExactly(
            new CounterSample(t0, "SQM", "101:1", "BlocksWritten", 10),
            new CounterSample(t1, "SQM", "101:1", "BlocksWritten", 12.5));
    assertThat(rssd.counterSamples().query(t0, t1, Optional.of("SQM"), Optional.empty()))
        .extracting(CounterSample::counter)
        .containsExactly("BlocksWritten", "CmdsWritten");

    assertThat(rssd.counterSamples().deleteBefore(t1)).isEqualTo(3);
    assertThat(rssd.counterSamples().deleteAll()).isEqualTo(1);
    assertThat(
            rssd.counterSamples().query(t0, t1.plusSeconds(1), Optional.empty(), Optional.empty()))
        .isEmpty();
  }

  // ---- tickets ------------------------------------------------------------------------------

  @Test
  void ticketsAreStoredAndReadNewestFirst() {
    Map<String, Instant> times =
        Map.of(
            "pdb", START,
            "exec", START.plusMillis(17),
            "dist", START.plusMillis(30),
            "dsi", START.plusMillis(41),
            "rdb", START.plusMillis(50));
    long first = rssd.tickets().add(101, 102, "V=2;H1=profile1;H2=start", times);
    long second = rssd.tickets().add(101, 102, "V=2;H1=profile1;H2=end", Map.of("pdb", START));

    List<TicketEntry> recent = rssd.tickets().recent(10);
    assertThat(recent).extracting(TicketEntry::id).containsExactly(second, first);
    assertThat(recent.get(1).moduleTimes()).isEqualTo(times);
    assertThat(recent.get(1).headers()).isEqualTo("V=2;H1=profile1;H2=start");
    assertThat(recent.get(0).moduleTimes()).containsOnlyKeys("pdb");
    assertThat(rssd.tickets().recent(1)).extracting(TicketEntry::id).containsExactly(second);
    assertRssdError(
        () -> rssd.tickets().add(101, 102, "h", Map.of("rsi", START)),
        Reason.INVALID,
        "rs_ticket_history",
        "unknown ticket module 'rsi'");
  }
}
