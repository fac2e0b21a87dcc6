package io.openrs.consistency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import io.openrs.config.rssd.RssdSettings;
import io.openrs.consistency.support.Admin;
import io.openrs.consistency.support.Database;
import io.openrs.consistency.support.Kind;
import io.openrs.queue.file.PartitionSpec;
import io.openrs.repagent.AgentConfigFile;
import io.openrs.repagent.RepAgent;
import io.openrs.repserver.ReplicationServer;
import io.openrs.repserver.ServerSettings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code create subscription ... with materialization} end to end: a PostgreSQL primary whose
 * {@code orders} already holds rows, a server and an agent (in this JVM), and a writer that keeps
 * inserting, updating (also moving rows in and out of the where clause) and deleting while the
 * agent's incremental snapshot copies the table. Replicate A (subscribed with materialization,
 * {@code where region = 'EU'}) ends holding exactly the primary's EU rows, and its subscription
 * goes MATERIALIZING -> VALID. Replicate B, loaded beforehand and subscribed without
 * materialization, gets the changes but none of the snapshot's rows (its rows nobody changed keep
 * the note it was loaded with).
 */
class MaterializationIT {

  private static final String PW = "mat-admin-secret";
  private static final int ROWS = 12_000;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  /**
   * @param restartAgent stop the agent after the first chunk reached A and start a new one (its
   *     Debezium offsets, kept by the server, hold the snapshot's progress)
   */
  @ParameterizedTest(name = "restart the agent mid-snapshot: {0}")
  @ValueSource(booleans = {false, true})
  @Timeout(300)
  void materializesWhileThePrimaryWrites(boolean restartAgent) throws Exception {
    for (String logger : List.of("io.openrs.repagent", "io.openrs.repserver")) {
      ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(logger))
          .setLevel(ch.qos.logback.classic.Level.INFO);
    }
    String stem = Database.newStem();
    String agentName = stem.replace("openrs_cs_", "mat_") + "_ra";
    try (Database primary = Database.create(Kind.POSTGRESQL, stem, "p");
        Database a = Database.create(Kind.POSTGRESQL, stem, "a");
        Database b = Database.create(Kind.POSTGRESQL, stem, "b")) {
      String ddl =
          "CREATE TABLE "
              + stem
              + ".orders (id int PRIMARY KEY, region varchar(8) NOT NULL, amount int NOT NULL,"
              + " note text)";
      for (Database d : List.of(primary, a, b)) {
        d.exec(ddl);
      }
      primary.exec("ALTER TABLE " + stem + ".orders REPLICA IDENTITY FULL");
      primary.exec(
          "INSERT INTO "
              + stem
              + ".orders SELECT g, CASE WHEN g % 3 = 0 THEN 'EU' ELSE 'US' END, g, 'initial'"
              + " FROM generate_series(1, "
              + ROWS
              + ") g");
      b.exec(
          "INSERT INTO "
              + stem
              + ".orders SELECT g, CASE WHEN g % 3 = 0 THEN 'EU' ELSE 'US' END, g, 'loaded-b'"
              + " FROM generate_series(1, "
              + ROWS
              + ") g");

      Map<String, String> p = new HashMap<>();
      p.put("ltl_port", "0");
      p.put("admin_port", "0");
      p.put("prometheus_port", "0");
      p.put("listen_address", "127.0.0.1");
      ServerSettings settings =
          new ServerSettings(
              "MAT_RS",
              dir.resolve("server"),
              ParameterValues.of(Scope.SERVER, p),
              List.of(new PartitionSpec("p1", dir.resolve("p1"), 1L << 30)),
              RssdSettings.embedded(dir.resolve("server")),
              Optional.of(PW.toCharArray()));
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      try (ReplicationServer server = ReplicationServer.start(settings, registry)) {
        Admin admin = new Admin(server.adminPort(), PW);
        String origin = "pg." + primary.name();
        String ra = "rpg." + a.name();
        String rb = "rpg." + b.name();
        admin.exec(connection(origin, primary) + " with log transfer on");
        admin.exec(connection(ra, a));
        admin.exec(connection(rb, b));
        admin.exec(
            "create replication definition orders_rd with primary at "
                + origin
                + " with all tables named "
                + stem
                + ".orders (id int, region varchar(8), amount int, note text) primary key (id)"
                + " searchable columns (region)");
        admin.exec(
            "create subscription orders_b for orders_rd with replicate at "
                + rb
                + " without materialization");

        RepAgent[] agents = new RepAgent[1];
        RepAgent agent =
            agents[0] =
                new RepAgent(agentSettings(dir, stem, agentName, primary, server), registry);
        agent.start();
        try {
          // changes flow once the agent's slot exists: update row 1 until B has the update
          Set<Integer> touched = ConcurrentHashMap.newKeySet();
          touched.add(1);
          AtomicInteger mark = new AtomicInteger();
          await()
              .atMost(Duration.ofSeconds(120))
              .pollInterval(Duration.ofSeconds(1))
              .until(
                  () -> {
                    String seen = b.scalar("SELECT amount FROM " + stem + ".orders WHERE id = 1");
                    if (seen != null && Integer.parseInt(seen) < 0) {
                      return true;
                    }
                    primary.exec(
                        "UPDATE "
                            + stem
                            + ".orders SET amount = "
                            + (-mark.incrementAndGet())
                            + " WHERE id = 1");
                    return false;
                  });

          // refused while A checks row counts
          String create =
              "create subscription orders_a for orders_rd with replicate at "
                  + ra
                  + " where region = 'EU' with materialization";
          assertThatThrownBy(() -> admin.exec(create))
              .hasMessageContaining("dsi_row_count_validation");
          admin.exec("alter connection to " + ra + " set dsi_row_count_validation to 'off'");

          AtomicBoolean stop = new AtomicBoolean();
          AtomicReference<Throwable> writerFailed = new AtomicReference<>();
          AtomicInteger writes = new AtomicInteger();
          Thread writer =
              new Thread(
                  () -> {
                    try {
                      write(primary, stem, touched, stop, writes);
                    } catch (Throwable e) {
                      writerFailed.set(e);
                    }
                  },
                  "writer");
          writer.start();
          await().until(() -> writes.get() > 50);

          List<String> notices = admin.exec(create);
          assertThat(String.join("\n", notices)).contains("materializing");
          assertThat(state(admin, "orders_a", ra)).isEqualTo("MATERIALIZING");
          if (restartAgent) {
            await()
                .atMost(Duration.ofSeconds(120))
                .until(() -> !rows(a, stem, "note = 'initial'").isEmpty());
            agents[0].close();
            assertThat(state(admin, "orders_a", ra)).isEqualTo("MATERIALIZING");
            agents[0] =
                new RepAgent(agentSettings(dir, stem, agentName, primary, server), registry);
            agents[0].start();
          }
          assertThat(admin.rows("rs_helpsub orders_a").get(0).get("state"))
              .isEqualTo("MATERIALIZING");
          // one materialization per primary at a time
          assertThatThrownBy(
                  () ->
                      admin.exec(
                          "create subscription orders_a2 for orders_rd with replicate at "
                              + ra
                              + " with materialization"))
              .hasMessageContaining("is materializing from the same primary");

          await()
              .atMost(Duration.ofSeconds(180))
              .pollInterval(Duration.ofMillis(200))
              .until(() -> state(admin, "orders_a", ra).equals("VALID"));
          int atValid = writes.get();
          await().atMost(Duration.ofSeconds(60)).until(() -> writes.get() > atValid + 100);
          stop.set(true);
          writer.join();
          assertThat(writerFailed.get()).isNull();

          // a last change after everything else: when both replicates have it, they are current
          primary.exec("INSERT INTO " + stem + ".orders VALUES (-1, 'EU', 0, 'final marker')");
          await()
              .atMost(Duration.ofSeconds(120))
              .until(
                  () ->
                      a.scalar("SELECT note FROM " + stem + ".orders WHERE id = -1") != null
                          && b.scalar("SELECT note FROM " + stem + ".orders WHERE id = -1")
                              != null);

          Map<Integer, String> expectedA = rows(primary, stem, "region = 'EU'");
          assertThat(rows(a, stem, "true")).isEqualTo(expectedA);
          assertThat(expectedA.size()).isGreaterThan(ROWS / 4);

          // B: the primary's rows, and no snapshot row reached it
          Map<Integer, String> all = rows(primary, stem, "true");
          Map<Integer, String> atB = rows(b, stem, "true");
          assertThat(atB.keySet()).isEqualTo(all.keySet());
          int untouched = 0;
          for (Map.Entry<Integer, String> e : atB.entrySet()) {
            if (touched.contains(e.getKey()) || e.getKey() < 0) {
              assertThat(e.getValue()).as("row %s at B", e.getKey()).isEqualTo(all.get(e.getKey()));
            } else {
              untouched++;
              assertThat(e.getValue())
                  .as("untouched row %s at B", e.getKey())
                  .endsWith("|loaded-b");
            }
          }
          assertThat(untouched).isGreaterThan(ROWS / 2);
          assertThat(state(admin, "orders_b", rb)).isEqualTo("VALID");
        } finally {
          agents[0].close();
        }
      }
    }
  }

  private static String connection(String name, Database d) {
    return "create connection to "
        + name
        + " using profile postgresql set server to '"
        + Database.HOST
        + "', set port to '5432', set user to '"
        + Database.USER
        + "', set password to '"
        + Database.PASSWORD
        + "'";
  }

  private static io.openrs.repagent.AgentSettings agentSettings(
      Path dir, String stem, String agentName, Database primary, ReplicationServer server) {
    Map<String, String> m = new HashMap<>();
    m.put("agent_name", agentName);
    m.put("origin", "pg." + primary.name());
    m.put("rs_host", "127.0.0.1");
    m.put("rs_port", Integer.toString(server.ltlPort()));
    m.put("rs_user", "sa");
    m.put("rs_password_env", "RS_PW");
    m.put("source_profile", "postgresql");
    m.put("source_host", Database.HOST);
    m.put("source_port", "5432");
    m.put("source_database", primary.name());
    m.put("source_user", Database.USER);
    m.put("source_password_env", "PG_PW");
    m.put("table_include_list", stem + ".%");
    m.put("heartbeat_table", stem + ".openrs_heartbeat");
    m.put("heartbeat_interval_ms", "1000");
    m.put("offset_flush_interval_ms", "500");
    m.put("data_directory", "agent");
    return AgentConfigFile.fromMap(
        "MaterializationIT",
        m,
        env -> env.equals("RS_PW") ? PW : env.equals("PG_PW") ? Database.PASSWORD : null,
        dir);
  }

  private static String state(Admin admin, String sub, String replicate) throws SQLException {
    return admin
        .rows("check subscription " + sub + " for orders_rd with replicate at " + replicate)
        .get(0)
        .get("state");
  }

  /** id -> "region|amount|note" of the rows matching {@code where}. */
  private static Map<Integer, String> rows(Database d, String stem, String where)
      throws SQLException {
    Map<Integer, String> out = new TreeMap<>();
    try (Connection c = d.connect();
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT id, region, amount, note FROM " + stem + ".orders WHERE " + where)) {
      while (r.next()) {
        out.put(r.getInt(1), r.getString(2) + "|" + r.getInt(3) + "|" + r.getString(4));
      }
    }
    return out;
  }

  /** Small transactions of inserts, updates (some move rows between regions) and deletes. */
  private static void write(
      Database primary, String stem, Set<Integer> touched, AtomicBoolean stop, AtomicInteger writes)
      throws SQLException {
    java.util.Random random = new java.util.Random(42);
    int nextId = ROWS + 1;
    String t = stem + ".orders";
    try (Connection c = primary.connect()) {
      c.setAutoCommit(false);
      try (PreparedStatement ins = c.prepareStatement("INSERT INTO " + t + " VALUES (?, ?, ?, ?)");
          PreparedStatement upd =
              c.prepareStatement(
                  "UPDATE " + t + " SET amount = amount + 1, note = ? WHERE id = ?");
          PreparedStatement move =
              c.prepareStatement(
                  "UPDATE "
                      + t
                      + " SET region = CASE region WHEN 'EU' THEN 'US' ELSE 'EU' END,"
                      + " note = ? WHERE id = ?");
          PreparedStatement del = c.prepareStatement("DELETE FROM " + t + " WHERE id = ?")) {
        while (!stop.get()) {
          int n = 1 + random.nextInt(3);
          List<Integer> ids = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            int op = random.nextInt(10);
            int id = 1 + random.nextInt(nextId - 1);
            if (op < 3) {
              id = nextId++;
              ins.setInt(1, id);
              ins.setString(2, random.nextBoolean() ? "EU" : "US");
              ins.setInt(3, id);
              ins.setString(4, "inserted");
              ins.executeUpdate();
            } else if (op < 6) {
              upd.setString(1, "updated " + writes.get());
              upd.setInt(2, id);
              upd.executeUpdate();
            } else if (op < 8) {
              move.setString(1, "moved " + writes.get());
              move.setInt(2, id);
              move.executeUpdate();
            } else {
              del.setInt(1, id);
              del.executeUpdate();
            }
            ids.add(id);
          }
          touched.addAll(ids);
          c.commit();
          writes.incrementAndGet();
        }
      }
    }
  }
}
