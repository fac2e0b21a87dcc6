package io.openrs.repserver.admin.rcl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each kind of syntax error: the exact message, the position, what was found and expected. */
class RclSyntaxErrorTest {

  private static final String COMMANDS =
      "a command (admin, alter, assign, check, configure, create, drop, grant, resume, revoke,"
          + " rs_delexception, rs_delexception_id, rs_dump_stats, rs_helpcounter, rs_helperror,"
          + " rs_helpexception, rs_helprep, rs_helpsub, rs_helpuser, rs_ticket, shutdown, suspend,"
          + " sysadmin)";

  private static RclSyntaxException fail(String text) {
    RclSyntaxException e =
        catchThrowableOfType(() -> RclParser.parse(text), RclSyntaxException.class);
    assertThat(e).as("parse(%s) should fail", text).isNotNull();
    return e;
  }

  static Stream<Arguments> errors() {
    return Stream.of(
        // unknown first word: the known words and the nearest one
        Arguments.of(
            "crate connection to a.b",
            1,
            "crate",
            "syntax error at position 1: expected "
                + COMMANDS
                + ", found 'crate'; did you mean 'create'?"),
        Arguments.of(
            "  xyzzy",
            3,
            "xyzzy",
            "syntax error at position 3: expected " + COMMANDS + ", found 'xyzzy'"),
        Arguments.of(
            "'admin' who",
            1,
            "'admin'",
            "syntax error at position 1: expected " + COMMANDS + ", found 'admin'"),
        // empty
        Arguments.of(
            " -- only a comment",
            1,
            "end of command",
            "syntax error at position 1: expected " + COMMANDS + ", found end of command"),
        // a misspelt keyword deeper in
        Arguments.of(
            "admin whoo, sqm",
            7,
            "whoo",
            "syntax error at position 7: expected one of 'config', 'disk_space', 'echo', 'health',"
                + " 'show_connections', 'show_error_class', 'statistics', 'stats', 'ticket_history',"
                + " 'version', 'who' or 'who_is_down' after 'admin', found 'whoo'; did you mean"
                + " 'who'?"),
        Arguments.of(
            "sysadmin dump_quue, 101, 1",
            10,
            "dump_quue",
            "syntax error at position 10: expected 'dump_queue' or 'sqm_purge_queue' after"
                + " 'sysadmin', found 'dump_quue'; did you mean 'dump_queue'?"),
        // missing 'to'
        Arguments.of(
            "alter connection to pg.db set dsi_num_threads too '4'",
            47,
            "too",
            "syntax error at position 47: expected 'to' after 'set dsi_num_threads', found 'too'"),
        Arguments.of(
            "configure replication server set x 'y'",
            36,
            "'y'",
            "syntax error at position 36: expected 'to' after 'set x', found 'y'"),
        // unterminated string, quoted name, comment
        Arguments.of(
            "create connection to pg.db using profile postgresql set password to 'abc",
            69,
            "'abc",
            "syntax error at position 69: unterminated string literal 'abc: expected a closing '"
                + " before end of command (write '' for a ' inside a string literal)"),
        Arguments.of(
            "drop connection to \"Pg.db",
            20,
            "\"Pg.db",
            "syntax error at position 20: unterminated quoted name \"Pg.db: expected a closing \""
                + " before end of command (write \"\" for a \" inside a quoted name)"),
        Arguments.of(
            "drop connection to pg.db /* never closed",
            26,
            "/* never closed",
            "syntax error at position 26: unterminated comment /* never closed: expected a"
                + " closing */ before end of command"),
        Arguments.of(
            "drop connection to \"\".db",
            20,
            "\"\"",
            "syntax error at position 20: expected a name between the double quotes, found '\"\"'"),
        // unexpected end
        Arguments.of(
            "create connection to pg.db",
            27,
            "end of command",
            "syntax error at position 27: expected 'using' after 'create connection to pg.db', found"
                + " end of command"),
        Arguments.of(
            "create connection to pg.db using profile postgresql set port to '1',   ",
            69,
            "end of command",
            "syntax error at position 69: expected 'set' after 'set port to '1',', found end of"
                + " command"),
        Arguments.of(
            "create subscription s for rd with replicate at ds.db where -- none\n",
            59,
            "end of command",
            "syntax error at position 59: expected a condition after 'where', found end of command"),
        Arguments.of(
            "drop connection to pg",
            22,
            "end of command",
            "syntax error at position 22: expected '.' and a database name (<dataserver>.<database>)"
                + " after 'drop connection to pg', found end of command"),
        // trailing garbage
        Arguments.of(
            "admin who, sqm extra",
            16,
            "extra",
            "syntax error at position 16: expected end of command after 'admin who, sqm', found"
                + " 'extra'"),
        Arguments.of(
            "admin who; admin health",
            12,
            "admin",
            "syntax error at position 12: expected end of command after 'admin who;', found"
                + " 'admin'"),
        Arguments.of(
            "drop connection to a.b @",
            24,
            "@",
            "syntax error at position 24: expected end of command after 'drop connection to a.b',"
                + " found '@'"),
        Arguments.of(
            "create subscription s for rd with replicate at ds.db where a = 1; extra",
            67,
            "extra",
            "syntax error at position 67: expected end of command after '... with replicate at"
                + " ds.db where a = 1;', found 'extra'"),
        // values out of the grammar's range
        Arguments.of(
            "sysadmin dump_queue, 101, 2",
            27,
            "2",
            "syntax error at position 27: expected a queue type, 0 (outbound) or 1 (inbound) after"
                + " 'sysadmin dump_queue, 101,', found '2'"),
        Arguments.of(
            "resume connection to a.b skip 0 transaction",
            31,
            "0",
            "syntax error at position 31: expected a number of transactions (1 or more) after"
                + " 'skip', found '0'"),
        Arguments.of(
            "admin stats, \"all\", save, 20, \"1:99\"",
            31,
            "\"1:99\"",
            "syntax error at position 31: expected a sample period in seconds or as \"hh:mm[:ss]\""
                + " after 'admin stats, \"all\", save, 20,', found '\"1:99\"'"),
        Arguments.of(
            "rs_ticket 'abcdefghijk'",
            11,
            "'abcdefghijk'",
            "syntax error at position 11: expected header h1 of at most 10 characters, found"
                + " 'abcdefghijk' (11 characters)"),
        Arguments.of(
            "rs_ticket 'a', 'b', 'c', 'd', 'e'",
            31,
            "'e'",
            "syntax error at position 31: expected end of command (rs_ticket takes at most 4"
                + " headers) after 'rs_ticket 'a', 'b', 'c', 'd',', found 'e'"),
        Arguments.of(
            "create connection to pg.db using profile p set port to '1', set port to '2'",
            65,
            "port",
            "syntax error at position 65: parameter 'port' is set twice (first at position 48)"),
        // structure
        Arguments.of(
            "create replication definition rd with primary at ds.db (id int not null) primary key"
                + " (id)",
            64,
            "not",
            "syntax error at position 64: expected ',' or ')' after '(id int', found 'not'"),
        Arguments.of(
            "create replication definition rd with primary at ds.db with primry table named t (id"
                + " int) primary key (id)",
            61,
            "primry",
            "syntax error at position 61: expected one of 'all', 'primary' or 'replicate' after"
                + " 'with', found 'primry'; did you mean 'primary'?"),
        Arguments.of(
            "create subscription s for rd with replicate at ds.db where a = 1 with"
                + " materialisation",
            71,
            "materialisation",
            "syntax error at position 71: expected 'materialization' after 'with', found"
                + " 'materialisation'"),
        Arguments.of(
            "admin stats, sqm, inbound, 101, garbage",
            33,
            "garbage",
            "syntax error at position 33: expected 'display' or 'save' after 'admin stats, sqm,"
                + " inbound, 101,', found 'garbage'"),
        Arguments.of(
            "grant root to u",
            7,
            "root",
            "syntax error at position 7: expected one of 'sa', 'monitor' or 'connect' after 'grant',"
                + " found 'root'"),
        Arguments.of(
            "grant connect source on pg1 to u",
            29,
            "to",
            "syntax error at position 29: expected '.' and a database name"
                + " (<dataserver>.<database>) after 'grant connect source on pg1', found 'to'"),
        Arguments.of(
            "create user u set password 'longenough' with role root",
            51,
            "root",
            "syntax error at position 51: expected one of 'sa', 'monitor' or 'none' after 'with"
                + " role', found 'root'"),
        // error classes and the exceptions log
        Arguments.of(
            "create eror class ec",
            8,
            "eror",
            "syntax error at position 8: expected one of 'connection', 'replication', 'database',"
                + " 'subscription', 'user' or 'error' after 'create', found 'eror'; did you mean"
                + " 'error'?"),
        Arguments.of(
            "create error class ec set templat to rs_postgresql_error_class",
            27,
            "templat",
            "syntax error at position 27: expected 'template' after 'set', found 'templat'"),
        Arguments.of(
            "alter error class ec",
            21,
            "end of command",
            "syntax error at position 21: expected 'set' after 'alter error class ec', found end"
                + " of command"),
        Arguments.of(
            "assign action retry_stp for ec to 23505",
            15,
            "retry_stp",
            "syntax error at position 15: expected one of 'ignore', 'warn', 'retry_log', 'log',"
                + " 'retry_stop' or 'stop_replication' after 'assign action', found 'retry_stp';"
                + " did you mean 'retry_stop'?"),
        Arguments.of(
            "assign action log for ec to 23505, 2350.5, 1062",
            36,
            "2350.5",
            "syntax error at position 36: expected an error code (a vendor error number such as"
                + " 1062, a five-character SQLSTATE such as 23505 or a two-character SQLSTATE class"
                + " such as 23), found '2350.5'"),
        Arguments.of(
            "assign action log for ec to '0123'",
            29,
            "'0123'",
            "syntax error at position 29: expected an error code (a vendor error number such as"
                + " 1062, a five-character SQLSTATE such as 23505 or a two-character SQLSTATE class"
                + " such as 23), found '0123'"),
        Arguments.of(
            "assign action log for ec to",
            28,
            "end of command",
            "syntax error at position 28: expected an error code (a vendor error number such as"
                + " 1062, a five-character SQLSTATE such as 23505 or a two-character SQLSTATE class"
                + " such as 23) after 'to', found end of command"),
        Arguments.of(
            "assign action log for ec to 23505, '23505'",
            36,
            "'23505'",
            "syntax error at position 36: error code 23505 is listed twice (first at position"
                + " 29)"),
        Arguments.of(
            "rs_helpexception 12, verbose",
            22,
            "verbose",
            "syntax error at position 22: expected 'v' (show the commands) after 'rs_helpexception"
                + " 12,', found 'verbose'"),
        Arguments.of(
            "rs_delexception",
            16,
            "end of command",
            "syntax error at position 16: expected an exceptions-log id (1 or more) after"
                + " 'rs_delexception', found end of command"),
        Arguments.of(
            "rs_delexception_id 9, 3",
            23,
            "3",
            "syntax error at position 23: expected a last id at or above the first (9), found"
                + " '3'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errors")
  void reportsWhereWhatAndWhy(String text, int position, String found, String message) {
    RclSyntaxException e = fail(text);
    assertThat(e.getMessage()).isEqualTo(message);
    assertThat(e.position()).isEqualTo(position);
    assertThat(e.found()).isEqualTo(found);
    assertThat(e.expected()).isNotEmpty();
    if (message.contains(": expected ")) {
      assertThat(message).contains(": expected " + e.expected());
    }
  }

  @Test
  void positionPointsAtTheOffendingWord() {
    String text = "alter connection to pg.db set dsi_num_threads too '4'";
    RclSyntaxException e = fail(text);
    assertThat(text.substring(e.position() - 1)).startsWith("too");
  }

  @Test
  void positionCountsCharactersAcrossLinesAndComments() {
    String text = "admin /* a\ncomment */\n  stats,\n  bogus bogus";
    RclSyntaxException e = fail(text);
    assertThat(e.position()).isEqualTo(text.lastIndexOf("bogus") + 1);
    assertThat(e.getMessage())
        .isEqualTo(
            "syntax error at position "
                + e.position()
                + ": expected end of command after 'admin stats, bogus', found 'bogus'");
  }

  @Test
  void expectedIsMachineReadable() {
    RclSyntaxException e = fail("suspend connection from a.b");
    assertThat(e.expected()).isEqualTo("'to'");
    assertThat(e.found()).isEqualTo("from");
    assertThat(RclSyntaxException.SQLSTATE).isEqualTo("42601");
  }
}
