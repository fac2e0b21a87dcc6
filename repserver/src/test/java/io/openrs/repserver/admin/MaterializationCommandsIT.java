package io.openrs.repserver.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.repserver.ReplicationServer;
import io.openrs.repserver.support.ReplicateDb;
import io.openrs.repserver.support.TestServers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code create subscription ... with materialization} at the admin port: what it refuses (each
 * with its SQLSTATE and a message naming the cause, nothing kept), and what it does when it may:
 * the subscription is MATERIALIZING (also after a restart) and the primary holds the snapshot
 * request in the agent's signal table. The snapshot itself runs in {@code MaterializationIT}
 * (module consistency).
 */
class MaterializationCommandsIT {

  @TempDir Path dir;
  private ReplicationServer server;
  private ReplicateDb primary;

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dir, Map.of());
    primary = ReplicateDb.create("openrs_matadm");
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    if (primary != null) {
      primary.close();
    }
  }

  private Connection sa() throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "sa");
    p.setProperty("password", TestServers.ADMIN_PASSWORD);
    p.setProperty("sslmode", "disable");
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + server.adminPort() + "/rssd", p);
  }

  private static String login() {
    return " set server to '127.0.0.1', set port to '5432', set user to 'openrs', set password to"
        + " 'openrs'";
  }

  private void define(Statement s) throws SQLException {
    s.execute(
        "create connection to pds."
            + primary.name()
            + " using profile postgresql"
            + login()
            + " with log transfer on");
    s.execute("create connection to rds.r1 using profile postgresql" + login());
    s.execute(
        "create connection to rds.r2 using profile postgresql"
            + login()
            + ", set dsi_row_count_validation to 'off'");
    s.execute(
        "create replication definition orders_rd with primary at pds."
            + primary.name()
            + " with all tables named shop.orders (id int, region varchar(8)) primary key (id)"
            + " searchable columns (region)");
  }

  private static void assertRefused(Statement s, String command, String state, String text) {
    assertThatThrownBy(() -> s.execute(command))
        .isInstanceOf(SQLException.class)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(state))
        .hasMessageContaining(text);
  }

  private static List<String> subscriptions(Statement s) throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet r = s.executeQuery("rs_helpsub")) {
      while (r.next()) {
        out.add(r.getString("subscription") + " " + r.getString("state"));
      }
    }
    return out;
  }

  @Test
  void refusalsNameTheCauseAndKeepNothing() throws Exception {
    try (Connection c = sa();
        Statement s = c.createStatement()) {
      define(s);
      s.execute(
          "create connection to mds.m1 using profile mariadb set server to '127.0.0.1', set port"
              + " to '3306', set user to 'openrs', set password to 'openrs' with log transfer on");
      s.execute(
          "create replication definition m_rd with primary at mds.m1 with all tables named"
              + " m1.t (id int) primary key (id)");
      s.execute(
          "create database replication definition all_rd with primary at pds." + primary.name());

      assertRefused(
          s,
          "create subscription x for nope_rd with replicate at rds.r2 with materialization",
          "42704",
          "no replication definition nope_rd");
      assertRefused(
          s,
          "create subscription x for orders_rd with replicate at rds.nowhere with materialization",
          "42704",
          "no connection rds.nowhere");
      assertRefused(
          s,
          "create subscription x for database replication definition all_rd with replicate at"
              + " rds.r2 with materialization",
          "0A000",
          "table replication definition");
      assertRefused(
          s,
          "create subscription x for m_rd with replicate at rds.r2 with materialization",
          "0A000",
          "PostgreSQL primaries only");
      assertRefused(
          s,
          "create subscription x for orders_rd with replicate at rds.r1 with materialization",
          "55000",
          "dsi_row_count_validation");
      // the primary has no signal table: its agent never started
      assertRefused(
          s,
          "create subscription x for orders_rd with replicate at rds.r2 with materialization",
          "55000",
          "has no table rs_signal");
      assertThat(subscriptions(s)).isEmpty();
    }
  }

  @Test
  void aMaterializingSubscriptionAsksThePrimaryForASnapshot() throws Exception {
    // what the agent creates at its start (docs/repagent.md, materialization)
    primary.exec(
        "CREATE TABLE public.rs_signal (id varchar(64) PRIMARY KEY, type varchar(32) NOT NULL,"
            + " data varchar(2048))");
    try (Connection c = sa();
        Statement s = c.createStatement()) {
      define(s);
      s.execute(
          "create subscription eu_m for orders_rd with replicate at rds.r2 where region = 'EU'"
              + " with materialization");
      List<String> notices = new ArrayList<>();
      for (SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) {
        notices.add(w.getMessage());
      }
      assertThat(String.join("\n", notices)).contains("eu_m is materializing");
      assertThat(subscriptions(s)).containsExactly("eu_m MATERIALIZING");
      try (ResultSet r =
          s.executeQuery("check subscription eu_m for orders_rd with replicate at rds.r2")) {
        assertThat(r.next()).isTrue();
        assertThat(r.getString("state")).isEqualTo("MATERIALIZING");
      }
      assertThat(primary.rows("SELECT type, data FROM public.rs_signal"))
          .containsExactly(
              "execute-snapshot|{\"data-collections\": [\"shop.orders\"], \"type\":"
                  + " \"incremental\"}");
      assertRefused(
          s,
          "create subscription other_m for orders_rd with replicate at rds.r2 with"
              + " materialization",
          "55000",
          "eu_m is materializing from the same primary");
      // without materialization is not held up
      s.execute("create subscription eu_v for orders_rd with replicate at rds.r1");
      assertThat(subscriptions(s)).containsExactlyInAnyOrder("eu_m MATERIALIZING", "eu_v VALID");
    }
    server.close();
    server = TestServers.start(dir, Map.of());
    try (Connection c = sa();
        Statement s = c.createStatement()) {
      assertThat(subscriptions(s)).containsExactlyInAnyOrder("eu_m MATERIALIZING", "eu_v VALID");
      // dropped while materializing: the agent's snapshot is told to stop, another may start
      s.execute("drop subscription eu_m for orders_rd with replicate at rds.r2");
      assertThat(primary.rows("SELECT type, data FROM public.rs_signal ORDER BY type"))
          .containsExactly(
              "execute-snapshot|{\"data-collections\": [\"shop.orders\"], \"type\":"
                  + " \"incremental\"}",
              "stop-snapshot|{\"data-collections\": [\"shop.orders\"], \"type\":"
                  + " \"incremental\"}");
      s.execute(
          "create subscription all_m for orders_rd with replicate at rds.r2 with"
              + " materialization");
      assertThat(subscriptions(s)).containsExactlyInAnyOrder("all_m MATERIALIZING", "eu_v VALID");
      assertThat(primary.rows("SELECT count(*) FROM public.rs_signal")).containsExactly("3");
    }
  }
}
