package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The ticket message format, header rules, DDL recognition and the rs_ticket settings. */
class RsTicketTest {

  @Test
  void payloadRoundTripsEveryHeaderExactly() {
    List<String> headers = List.of("bench", "", "a\\n b", "Zoë 'q' \\ \n\r\t 😀 表");
    long us = 1_795_238_351_339_814L;
    RsTicket.Payload p = RsTicket.parse(RsTicket.encode(us, headers));
    assertThat(p.headers()).isEqualTo(headers);
    assertThat(p.pdbTime()).isEqualTo(Instant.parse("2026-11-21T05:19:11.339814Z"));
    assertThat(RsTicket.parse(RsTicket.encode(-1, List.of())).pdbTime())
        .isEqualTo(Instant.parse("1969-12-31T23:59:59.999999Z"));
  }

  @Test
  void theFunctionsTextIsRead() {
    // What the PostgreSQL function wrote for rs_ticket('a', null, E'x\\y\nz', 'Zoë 😀').
    byte[] written =
        "openrs_ticket 1\npdb 1795238351339814\nh a\nh \nh x\\\\y\\nz\nh Zoë 😀"
            .getBytes(StandardCharsets.UTF_8);
    assertThat(RsTicket.parse(written).headers()).containsExactly("a", "", "x\\y\nz", "Zoë 😀");
  }

  @Test
  void contentNotWrittenByTheFunctionIsRefusedWithTheReason() {
    assertThatThrownBy(() -> RsTicket.parse("hello".getBytes(StandardCharsets.UTF_8)))
        .hasMessageContaining("does not start with 'openrs_ticket 1'");
    assertThatThrownBy(() -> RsTicket.parse("openrs_ticket 2\npdb 1".getBytes()))
        .hasMessageContaining("another format or version");
    assertThatThrownBy(() -> RsTicket.parse("openrs_ticket 1\npdb x".getBytes()))
        .hasMessageContaining("line 2 'pdb x' is not a whole number");
    assertThatThrownBy(() -> RsTicket.parse("openrs_ticket 1\npdb 1\nz".getBytes()))
        .hasMessageContaining("line 3 is not 'h <header>'");
    assertThatThrownBy(() -> RsTicket.parse("openrs_ticket 1\npdb 1\nh a\\".getBytes()))
        .hasMessageContaining("line 3 ends inside an escape");
    assertThatThrownBy(() -> RsTicket.parse("openrs_ticket 1\npdb 1\nh a\\t".getBytes()))
        .hasMessageContaining("unknown escape \\t");
    assertThatThrownBy(
            () -> RsTicket.parse("openrs_ticket 1\npdb 1\nh 1\nh 2\nh 3\nh 4\nh 5".getBytes()))
        .hasMessageContaining("5 headers, more than 4");
    assertThatThrownBy(() -> RsTicket.parse(new byte[] {(byte) 0xff}))
        .hasMessageContaining("not UTF-8");
    assertThatThrownBy(() -> RsTicket.parse(new byte[5000])).hasMessageContaining("5000 bytes");
  }

  @Test
  void trailingNullHeadersAreLeftOutAndInnerOnesEmpty() {
    assertThat(RsTicket.headers("a", null, "c", null)).containsExactly("a", "", "c");
    assertThat(RsTicket.headers(null, null, null, null)).isEmpty();
    assertThat(RsTicket.headers(null, "b", null, null)).containsExactly("", "b");
  }

  @Test
  void theMessagePrefixNamesTheSchemaAndTheFunctionEmitsIt() {
    assertThat(RsTicket.messagePrefix("sales")).isEqualTo("openrs_ticket.sales");
    String sql = RsTicket.postgresFunction("it's");
    assertThat(sql)
        .startsWith("CREATE FUNCTION \"it's\".rs_ticket(h1 text, h2 text DEFAULT NULL,")
        .contains("pg_logical_emit_message(true, 'openrs_ticket.it''s', convert_to(body,");
  }

  @Test
  void ddlOfTheTicketObjectsIsRecognisedAndNothingElse() {
    assertThat(MariaDbDialect.isTicketDdl("s", "rs_ticket_marker", "s", "s", "DROP TABLE x"))
        .isTrue();
    assertThat(MariaDbDialect.isTicketDdl("s", "rs_ticket_marker", "other", "s", "DROP TABLE x"))
        .isFalse();
    assertThat(
            MariaDbDialect.isTicketDdl(
                "s",
                null,
                null,
                "x",
                "CREATE DEFINER=`openrs`@`127.0.0.1` PROCEDURE `s`.`rs_ticket`(IN h1 TEXT)\nBEGIN"))
        .isTrue();
    assertThat(MariaDbDialect.isTicketDdl("s", null, null, "s", "DROP PROCEDURE rs_ticket"))
        .isTrue();
    assertThat(
            MariaDbDialect.isTicketDdl(
                "s", null, null, "x", "drop procedure if exists `s` . `rs_ticket`"))
        .isTrue();
    assertThat(MariaDbDialect.isTicketDdl("s", null, null, "x", "DROP PROCEDURE rs_ticket"))
        .isFalse();
    assertThat(MariaDbDialect.isTicketDdl("s", null, null, "s", "DROP PROCEDURE rs_ticket_2"))
        .isFalse();
    assertThat(MariaDbDialect.isTicketDdl("s", null, null, "s", "CREATE TABLE rs_ticket (a int)"))
        .isFalse();
    assertThat(
            MariaDbDialect.isTicketDdl(
                "s", "orders", "s", "s", "ALTER TABLE orders ADD COLUMN rs_ticket int"))
        .isFalse();
  }

  @Test
  void theTicketSchemaDefaultsToTheHeartbeatTablesAndCreationToOn() {
    Map<String, String> m = new HashMap<>();
    m.put("agent_name", "a1");
    m.put("origin", "pg1.sales");
    m.put("rs_password_env", "X");
    m.put("source_profile", "postgresql");
    m.put("source_database", "sales");
    m.put("source_user", "ra");
    m.put("source_password_env", "X");
    AgentSettings s = AgentConfigFile.fromMap("t", m, n -> "pw", Path.of("."));
    assertThat(s.source().ticketSchema()).isEqualTo("public");
    assertThat(s.source().createTicket()).isTrue();
    m.put("heartbeat_table", "ops.hb");
    assertThat(AgentConfigFile.fromMap("t", m, n -> "pw", Path.of(".")).source().ticketSchema())
        .isEqualTo("ops");
    m.put("rs_ticket_schema", "tickets");
    m.put("rs_ticket_create", "off");
    AgentSettings t = AgentConfigFile.fromMap("t", m, n -> "pw", Path.of("."));
    assertThat(t.source().ticketSchema()).isEqualTo("tickets");
    assertThat(t.source().createTicket()).isFalse();
    m.put("source_profile", "mariadb");
    m.remove("heartbeat_table");
    m.remove("rs_ticket_schema");
    assertThat(AgentConfigFile.fromMap("t", m, n -> "pw", Path.of(".")).source().ticketSchema())
        .isEqualTo("sales");
    m.put("rs_ticket_create", "maybe");
    assertThatThrownBy(() -> AgentConfigFile.fromMap("t", m, n -> "pw", Path.of(".")))
        .hasMessageContaining("rs_ticket_create = 'maybe' must be on or off");
  }
}
