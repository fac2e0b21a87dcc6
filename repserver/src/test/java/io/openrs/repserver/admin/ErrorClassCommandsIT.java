package io.openrs.repserver.admin;

import static io.openrs.repserver.support.AdminSql.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.ErrorClassDef;
import io.openrs.repserver.ReplicationServer;
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
import org.postgresql.util.PSQLException;

/**
 * Error classes and the exceptions log through the real PostgreSQL JDBC driver against a started
 * server: what a DBA types, what the RSSD then holds, and each refusal with its SQLSTATE.
 */
class ErrorClassCommandsIT {

  @TempDir Path dir;
  private ReplicationServer server;

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dir, Map.of());
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private Connection connect(String user, String password) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    p.setProperty("password", password);
    p.setProperty("sslmode", "disable");
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + server.adminPort() + "/rssd", p);
  }

  private Connection sa() throws SQLException {
    return connect("sa", TestServers.ADMIN_PASSWORD);
  }

  private static List<String> columns(Statement s, String command) throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(command)) {
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        out.add(rs.getMetaData().getColumnName(i));
      }
    }
    return out;
  }

  private static void fails(Statement s, String command, String sqlState, String... parts) {
    assertThatThrownBy(() -> s.execute(command))
        .as(command)
        .isInstanceOfSatisfying(
            SQLException.class,
            e -> {
              assertThat(e.getSQLState()).as("%s: %s", command, e.getMessage()).isEqualTo(sqlState);
              assertThat(e.getMessage()).contains(parts);
            });
  }

  private static String notice(Statement s) throws SQLException {
    SQLWarning w = s.getWarnings();
    return w == null ? "" : w.getMessage();
  }

  @Test
  void aDbaDefinesAnErrorClassUsesItAtAConnectionAndCannotDropItWhileUsed() throws Exception {
    try (Connection c = sa();
        Statement s = c.createStatement()) {
      // create from a built-in template, then assign
      s.execute("create error class sales_ec set template to rs_postgresql_error_class");
      assertThat(notice(s)).contains("sales_ec created with 7 actions copied from");
      s.execute("assign action ignore for sales_ec to 23505, '1062'");
      s.execute("assign action retry_log for sales_ec to 40p01");
      assertThat(notice(s)).contains("no connection uses it yet");

      assertThat(columns(s, "admin show_error_class sales_ec"))
          .containsExactly("class", "code", "action", "source", "template");
      List<List<String>> shown = rows(s, "admin show_error_class sales_ec");
      assertThat(shown)
          .contains(
              List.of("sales_ec", "1062", "ignore", "assigned", "rs_postgresql_error_class"),
              List.of("sales_ec", "23505", "ignore", "assigned", "rs_postgresql_error_class"),
              List.of("sales_ec", "40P01", "retry_log", "assigned", "rs_postgresql_error_class"),
              List.of("sales_ec", "40001", "retry_stop", "template", "rs_postgresql_error_class"));
      assertThat(shown).hasSize(9);

      // every class: built-in ones first
      List<List<String>> all = rows(s, "admin show_error_class");
      assertThat(all.get(0).get(0)).isIn(ErrorClassDef.BUILTIN);
      assertThat(all.get(all.size() - 1).get(0)).isEqualTo("sales_ec");
      assertThat(all)
          .contains(
              java.util.Arrays.asList(
                  "rs_mariadb_error_class", "1213", "retry_stop", "builtin", null));

      // the connection property, checked against the classes
      s.execute(
          "create connection to rds.rdb using profile postgresql set server to 'h', set port to"
              + " '5432', set user to 'u', set error class to sales_ec");
      ConnectionDef rdb = server.rssd().connections().find("rds", "rdb").orElseThrow();
      assertThat(rdb.properties()).containsEntry("error_class", "sales_ec");
      assertThat(server.rssd().errorClasses().find(rdb.properties().get("error_class")))
          .hasValueSatisfying(d -> assertThat(d.actions()).containsEntry("23505", "ignore"));
      fails(
          s,
          "create connection to rds.other using profile postgresql set server to 'h', set port"
              + " to '5432', set user to 'u', set error class to no_such_ec",
          "42704",
          "no error class no_such_ec",
          "sales_ec");
      assertThat(server.rssd().connections().find("rds", "other")).isEmpty();
      fails(s, "alter connection to rds.rdb set error_class to 'nope'", "42704", "nope");

      // drop refused while a connection names it
      fails(s, "drop error class sales_ec", "2BP01", "used by connection rds.rdb");
      s.execute("assign action log for sales_ec to 23");
      assertThat(notice(s)).contains("rds.rdb use it from the next resume");

      // alter: copy a template over the class
      s.execute("create error class strict_ec");
      assertThat(rows(s, "admin show_error_class strict_ec"))
          .containsExactly(java.util.Arrays.asList("strict_ec", null, null, null, null));
      s.execute("assign action stop_replication for strict_ec to 23505");
      s.execute("alter error class sales_ec set template to strict_ec");
      assertThat(server.rssd().errorClasses().find("sales_ec").orElseThrow().actions())
          .containsEntry("23505", "stop_replication")
          .containsEntry("1062", "ignore");

      // rs_helperror: every class, or what a connection does
      assertThat(rows(s, "rs_helperror 23505"))
          .contains(
              java.util.Arrays.asList(null, "sales_ec", "23505", "23505", "stop_replication"),
              java.util.Arrays.asList(null, "strict_ec", "23505", "23505", "stop_replication"));
      assertThat(rows(s, "rs_helperror 23503, rds.rdb"))
          .containsExactly(List.of("rds.rdb", "sales_ec", "23503", "23", "log"));
      assertThat(rows(s, "rs_helperror 55P03, rds.rdb"))
          .containsExactly(List.of("rds.rdb", "sales_ec", "55P03", "55P03", "retry_stop"));
      assertThat(rows(s, "rs_helperror 42P01, rds.rdb"))
          .containsExactly(
              java.util.Arrays.asList("rds.rdb", null, "42P01", null, "stop_replication"));

      // switch the connection away, then the class can go
      s.execute("alter connection to rds.rdb set error class to strict_ec");
      s.execute("drop error class sales_ec");
      assertThat(server.rssd().errorClasses().find("sales_ec")).isEmpty();
      fails(s, "drop error class sales_ec", "42704", "no error class sales_ec");
      s.execute("alter connection to rds.rdb set error_class to ''");
      s.execute("drop error class strict_ec");

      // the server-level value is a user too
      s.execute("create error class server_ec");
      s.execute("configure replication server set error_class to 'server_ec'");
      fails(s, "drop error class server_ec", "2BP01", "server");
      fails(s, "configure replication server set error_class to 'ghost_ec'", "42704", "ghost_ec");
    }
  }

  @Test
  void builtInClassesAreTemplatesOnlyAndMistakesAreNamed() throws Exception {
    try (Connection c = sa();
        Statement s = c.createStatement()) {
      fails(
          s,
          "assign action ignore for rs_postgresql_error_class to 23505",
          "22023",
          "built-in error class");
      fails(s, "drop error class rs_mariadb_error_class", "22023", "built-in error class");
      fails(
          s,
          "alter error class rs_mariadb_error_class set template to rs_postgresql_error_class",
          "22023",
          "built-in");
      fails(s, "create error class rs_mariadb_error_class", "42710", "already exists");
      fails(
          s,
          "create error class x set template to nothing_ec",
          "42704",
          "no error class nothing_ec");
      fails(s, "assign action log for ghost to 1", "42704", "no error class ghost");
      fails(s, "admin show_error_class ghost", "42704", "no error class ghost");
      s.execute("create error class ec");
      fails(s, "create error class ec", "42710", "error class ec already exists");
      fails(s, "alter error class ec set template to ec", "22023", "its own template");
      String bad = "assign action log for ec to 23505, 1.5";
      assertThatThrownBy(() -> s.execute(bad))
          .isInstanceOfSatisfying(
              PSQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("42601");
                assertThat(e.getServerErrorMessage().getPosition())
                    .isEqualTo(bad.indexOf("1.5") + 1);
                assertThat(e.getMessage()).contains("found '1.5'");
              });
      String badConn =
          "alter connection to a.b set dsi_num_threads to '2', set error class to missing_ec";
      s.execute(
          "create connection to a.b using profile mariadb set server to 'h', set port to '3306',"
              + " set user to 'u'");
      assertThatThrownBy(() -> s.execute(badConn))
          .isInstanceOfSatisfying(
              PSQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("42704");
                assertThat(e.getServerErrorMessage().getPosition())
                    .isEqualTo(badConn.indexOf("error class") + 1);
              });
      assertThat(server.rssd().connections().find("a", "b").orElseThrow().properties())
          .as("a refused alter changes nothing")
          .doesNotContainKey("dsi_num_threads");
    }
  }

  @Test
  void theExceptionsLogIsListedShownAndDeleted() throws Exception {
    ConnectionDef pdb =
        server.createConnection(
            "pds", "pdb", io.openrs.config.rssd.Profile.POSTGRESQL, true, Map.of());
    ConnectionDef rdb =
        server.createConnection(
            "rds", "rdb", io.openrs.config.rssd.Profile.MARIADB, false, Map.of());
    String text =
        "begin transaction 'T1' for pds.pdb 0x0a\n"
            + "insert into shop.orders (id) values (1)\n"
            + "commit transaction 0x0a\n";
    long first =
        server
            .rssd()
            .exceptions()
            .add(pdb.id(), rdb.id(), new byte[] {0x0a, 0x0b}, "T1", "SQLSTATE 23000: dup", text);
    long second =
        server.rssd().exceptions().add(pdb.id(), 999, new byte[0], "", "skipped", "one\n");
    long third = server.rssd().exceptions().add(pdb.id(), rdb.id(), new byte[] {1}, "T3", "e", "");
    try (Connection c = sa();
        Statement s = c.createStatement()) {
      assertThat(columns(s, "rs_helpexception"))
          .containsExactly(
              "id", "origin", "replicate", "origin_qid", "tran_id", "error", "logged", "commands");
      List<List<String>> list = rows(s, "rs_helpexception");
      assertThat(list).hasSize(3);
      assertThat(list.get(0).subList(0, 6))
          .containsExactly(
              String.valueOf(first), "pds.pdb", "rds.rdb", "0x0a0b", "T1", "SQLSTATE 23000: dup");
      assertThat(list.get(0).get(7)).isEqualTo("3");
      assertThat(list.get(1).subList(0, 5))
          .containsExactly(String.valueOf(second), "pds.pdb", "999 (dropped)", null, null);
      try (ResultSet rs = s.executeQuery("rs_helpexception")) {
        assertThat(rs.getMetaData().getColumnTypeName(1)).isEqualTo("int8");
        assertThat(rs.getMetaData().getColumnTypeName(7)).isEqualTo("timestamptz");
      }

      assertThat(rows(s, "rs_helpexception " + first))
          .singleElement()
          .satisfies(r -> assertThat(r).hasSize(8).startsWith(String.valueOf(first)));
      List<List<String>> verbose = rows(s, "rs_helpexception " + first + ", v");
      assertThat(verbose.get(0)).hasSize(9);
      assertThat(verbose.get(0).get(8)).isEqualTo(text);
      fails(s, "rs_helpexception 424242", "42704", "no logged transaction with id 424242");

      s.execute("rs_delexception " + first);
      assertThat(notice(s)).contains("logged transaction " + first + " deleted");
      fails(s, "rs_delexception " + first, "42704", String.valueOf(first));
      s.execute("rs_delexception_id " + second + ", " + (third + 10));
      assertThat(notice(s)).contains("2 logged transactions deleted");
      assertThat(rows(s, "rs_helpexception")).isEmpty();
      assertThat(server.rssd().exceptions().count()).isZero();
    }
  }

  @Test
  void theMonitorRoleShowsButChangesNothing() throws Exception {
    long id = server.rssd().exceptions().add(101, 102, new byte[] {1}, "T", "err", "cmd\n");
    try (Connection c = sa();
        Statement s = c.createStatement()) {
      s.execute("create user watcher set password 'watch-only-42'");
      s.execute("create error class ec");
    }
    try (Connection c = connect("watcher", "watch-only-42");
        Statement s = c.createStatement()) {
      assertThat(rows(s, "admin show_error_class")).isNotEmpty();
      assertThat(rows(s, "rs_helperror 40001")).hasSize(2);
      assertThat(rows(s, "rs_helpexception")).hasSize(1);
      assertThat(rows(s, "rs_helpexception " + id + ", v")).hasSize(1);
      for (String change :
          List.of(
              "create error class ec2",
              "alter error class ec set template to rs_postgresql_error_class",
              "assign action ignore for ec to 23505",
              "drop error class ec",
              "rs_delexception " + id,
              "rs_delexception_id 1, " + id)) {
        fails(s, change, "42501", "monitor role");
      }
    }
    assertThat(server.rssd().errorClasses().find("ec").orElseThrow().actions()).isEmpty();
    assertThat(server.rssd().exceptions().find(id)).isPresent();
  }
}
