package io.openrs.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's demo end to end against the machine's PostgreSQL and MariaDB: the real server and
 * agent processes, configured through the admin port, a short workload, the comparison. Each test
 * uses databases of its own ({@code openrs_demo_it<random>_primary/_replicate}) and free ports, so
 * it runs beside other tests; they are dropped afterwards.
 */
class QuickstartDemoIT {
  private static final Endpoint PG =
      new Endpoint(Source.POSTGRESQL, "127.0.0.1", 5432, "openrs", "openrs");
  private static final Endpoint MARIADB =
      new Endpoint(Source.MARIADB, "127.0.0.1", 3306, "openrs", "openrs");

  @TempDir Path dir;
  private final String prefix =
      ("openrs_demo_it" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36))
          .toLowerCase(Locale.ROOT);

  @AfterEach
  void dropDatabases() throws Exception {
    try (Connection c = PG.connect("postgres");
        Statement st = c.createStatement()) {
      st.execute(
          "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
              + " WHERE slot_name = '"
              + prefix
              + "_slot' AND NOT active");
      st.execute("DROP DATABASE IF EXISTS " + prefix + "_primary WITH (FORCE)");
      st.execute("DROP DATABASE IF EXISTS " + prefix + "_replicate WITH (FORCE)");
    }
    try (Connection c = MARIADB.connect("");
        Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + prefix + "_primary");
    }
  }

  record Outcome(int exit, String out, String err) {
    String all() {
      return out + "\n--- stderr ---\n" + err;
    }
  }

  private Outcome demo(String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--work-dir",
                dir.resolve("work").toString(),
                "--db-prefix",
                prefix,
                "--ltl-port",
                "0",
                "--admin-port",
                "0",
                "--prometheus-port",
                "0"));
    args.addAll(List.of(more));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        QuickstartDemo.run(
            args.toArray(String[]::new),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            name -> java.util.Optional.empty());
    Outcome o =
        new Outcome(
            exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    System.out.println(o.all());
    return o;
  }

  @Test
  void postgresqlToPostgresqlEndsIdenticalAndADifferenceWouldBeNamed() throws Exception {
    Outcome o = demo("--duration", "15", "--clients", "2", "--rate", "200");

    assertThat(o.exit()).as(o.all()).isEqualTo(QuickstartDemo.EXIT_IDENTICAL);
    assertThat(o.out())
        .contains("admin> create connection to pg." + prefix + "_primary using profile postgresql")
        .contains("with log transfer on")
        .contains("admin> create connection to pg." + prefix + "_replicate")
        .contains("set dsi_rs_ticket_report to 'on'")
        .contains("admin> create database replication definition demo_rd")
        .contains("admin> create subscription demo_sub")
        .contains("set password to '***'")
        .doesNotContain("set password to 'openrs'")
        .contains("the first rs_ticket arrived")
        .contains("caught up")
        .contains("rs_ticket   ")
        .contains("VERDICT: IDENTICAL");
    assertThat(o.out().lines().filter(l -> l.matches("\\s+\\d+s\\s+workload\\s+.*ms \\(.*\\)")))
        .as("progress lines with a ticket latency")
        .hasSizeGreaterThanOrEqualTo(5);
    for (String table : List.of("branches", "accounts", "history")) {
      assertThat(o.out()).containsPattern("  " + table + " +[\\d,]+ +[\\d,]+   identical");
    }

    // An independent look: the whole contents, hashed by PostgreSQL, are the same on both sides.
    for (DemoSchema.Table t : DemoSchema.TABLES) {
      String sql =
          "SELECT count(*), md5(string_agg(t::text, '|' ORDER BY "
              + t.key()
              + ")) FROM public."
              + t.name()
              + " t";
      assertThat(one(PG, prefix + "_replicate", sql))
          .as(t.name())
          .isEqualTo(one(PG, prefix + "_primary", sql));
    }
    assertThat(one(PG, prefix + "_primary", "SELECT count(*) FROM public.history"))
        .isNotEqualTo("0");

    // The processes are gone and the slot was dropped.
    for (String pidFile : List.of(WorkDir.SERVER_PID, WorkDir.AGENT_PID)) {
      long pid = Long.parseLong(Files.readString(dir.resolve("work").resolve(pidFile)).trim());
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
          .as(pidFile)
          .isFalse();
    }
    assertThat(
            one(
                PG,
                "postgres",
                "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '"
                    + prefix
                    + "_slot'"))
        .isEqualTo("0");

    // The demo's comparison names a changed and a missing row by their keys.
    try (Connection c = PG.connect(prefix + "_replicate");
        Statement st = c.createStatement()) {
      st.execute("UPDATE public.accounts SET owner = 'someone else' WHERE account_id = 7");
      st.execute(
          "DELETE FROM public.history WHERE history_id = (SELECT min(history_id) FROM"
              + " public.history)");
    }
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    List<TableCompare.Result> results =
        TableCompare.all(
            settings(Source.POSTGRESQL), new PrintStream(text, true, StandardCharsets.UTF_8));
    assertThat(results).extracting(TableCompare.Result::differences).containsExactly(0L, 1L, 1L);
    assertThat(text.toString(StandardCharsets.UTF_8))
        .contains("account_id=7: differs")
        .contains("'someone else'")
        .containsPattern(
            "history_id=\\d+: only at the primary|history_id=\\d+: missing at the replicate");
    assertThat(Report.verdict(results, true, List.of()))
        .startsWith("VERDICT: DIFFERENT (accounts: 1 of ");
  }

  @Test
  void mariadbToPostgresqlEndsIdenticalAndKeepsRunningForPsql() throws Exception {
    Outcome o =
        demo(
            "--source",
            "mariadb",
            "--duration",
            "10",
            "--clients",
            "2",
            "--rate",
            "200",
            "--keep-running");
    List<ProcessHandle> children = new ArrayList<>();
    try {
      for (String pidFile : List.of(WorkDir.AGENT_PID, WorkDir.SERVER_PID)) {
        Path file = dir.resolve("work").resolve(pidFile);
        if (Files.exists(file)) {
          ProcessHandle.of(Long.parseLong(Files.readString(file).trim())).ifPresent(children::add);
        }
      }
      assertThat(o.exit()).as(o.all()).isEqualTo(QuickstartDemo.EXIT_IDENTICAL);
      assertThat(o.out())
          .contains("MariaDB -> PostgreSQL")
          .contains("binlog_format = ROW")
          .contains(
              "admin> create connection to mariadb." + prefix + "_primary using profile mariadb")
          .contains("replicate tables in ('" + prefix + "_primary.%')")
          .contains("VERDICT: IDENTICAL")
          .contains("keep running")
          .doesNotContain("Stopping");
      assertThat(children).hasSize(2).allMatch(ProcessHandle::isAlive);

      // The printed psql command works: the password and the port as printed.
      Matcher psql =
          Pattern.compile("PGPASSWORD=(\\S+) psql -h 127\\.0\\.0\\.1 -p (\\d+) -U sa -d rssd")
              .matcher(o.out());
      assertThat(psql.find()).as(o.out()).isTrue();
      Properties login = new Properties();
      login.setProperty("user", "sa");
      login.setProperty("password", psql.group(1));
      try (Connection admin =
              DriverManager.getConnection(
                  "jdbc:postgresql://127.0.0.1:" + psql.group(2) + "/rssd", login);
          Statement st = admin.createStatement();
          ResultSet rs = st.executeQuery("rs_helpsub")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("subscription")).isEqualTo("demo_sub");
      }

      // A second run from the same directory names the processes still running.
      Outcome again = demo("--source", "mariadb");
      assertThat(again.exit()).isEqualTo(QuickstartDemo.EXIT_PROBLEM);
      assertThat(again.err())
          .contains("of an earlier --keep-running demo still run")
          .contains("kill " + children.get(0).pid() + " " + children.get(1).pid());
    } finally {
      for (ProcessHandle p : children) {
        p.destroy();
        p.onExit().get(60, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void anUnreachableMariaDbIsNamedBeforeAnythingChanges() throws Exception {
    int closed = ChecksTest.closedPort();
    Outcome o = demo("--source", "mariadb", "--mariadb-port", String.valueOf(closed));
    assertThat(o.exit()).isEqualTo(QuickstartDemo.EXIT_PROBLEM);
    assertThat(o.err())
        .contains("MariaDB is not reachable at 127.0.0.1:" + closed)
        .contains("--mariadb-port");
    assertThat(o.out()).doesNotContain("== Databases");
  }

  private DemoSettings settings(Source source) {
    return new DemoSettings(
        source,
        Duration.ofSeconds(1),
        1,
        42,
        0,
        1000,
        false,
        dir.resolve("work"),
        "127.0.0.1",
        0,
        0,
        0,
        PG,
        MARIADB,
        prefix,
        Duration.ofSeconds(1),
        Duration.ofSeconds(1),
        Duration.ofSeconds(1));
  }

  private static String one(Endpoint e, String database, String sql) throws SQLException {
    try (Connection c = e.connect(database);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      StringBuilder b = new StringBuilder();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        b.append(i > 1 ? "|" : "").append(rs.getString(i));
      }
      return b.toString();
    }
  }
}
