package io.openrs.repagent;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * {@code rs_ticket} at the primary: what the agent creates there, and how what it writes to the log
 * becomes an LTL {@code ticket} (headers and the primary's clock, the PDB time).
 *
 * <p><b>PostgreSQL</b>: function {@code <rs_ticket_schema>.rs_ticket(h1 text, h2 text DEFAULT NULL,
 * h3 text DEFAULT NULL, h4 text DEFAULT NULL) RETURNS timestamptz} emitting a transactional logical
 * decoding message with prefix {@code openrs_ticket.<rs_ticket_schema>} whose content is UTF-8 text
 * (converted from the database encoding), lines separated by {@code \n}:
 *
 * <pre>
 * openrs_ticket 1                   format and version
 * pdb 1795238351339814              clock_timestamp() at the call, microseconds since 1970 UTC
 * h bench                           one line per header, h1 first; {@code \\ \n \r} escaped
 * h run 7
 * </pre>
 *
 * <p><b>MariaDB/MySQL</b>: table {@code <rs_ticket_schema>.rs_ticket_marker} and procedure {@code
 * rs_ticket(h1, h2, h3, h4)} inserting one row (the PDB time is {@code UTC_TIMESTAMP(6)}) after
 * deleting rows older than a day. Inserts into the table become tickets; nothing else of the table
 * (updates, deletes, DDL, snapshot rows) is ever sent.
 *
 * <p>Headers: as in Replication Server, at most four, h1 to h3 of at most 10 characters and h4 of
 * at most 50 (the primary refuses longer ones). Trailing NULL headers are left out; a NULL before a
 * given header is sent as an empty header.
 */
final class RsTicket {

  /** The function (PostgreSQL) or procedure (MariaDB/MySQL) name. */
  static final String NAME = "rs_ticket";

  /** The MariaDB/MySQL marker table. */
  static final String MARKER_TABLE = "rs_ticket_marker";

  /** The first line of a PostgreSQL ticket message: format name and version. */
  static final String PAYLOAD_MAGIC = "openrs_ticket 1";

  /** Bound on a message's content the agent reads (four headers take far less). */
  static final int MAX_PAYLOAD_BYTES = 4096;

  private static final int MAX_HEADERS = 4;

  private RsTicket() {}

  /** The logical decoding message prefix of the function in {@code schema}. */
  static String messagePrefix(String schema) {
    return "openrs_ticket." + schema;
  }

  /** A ticket read from the log: the primary's clock and the headers. */
  record Payload(Instant pdbTime, List<String> headers) {
    Payload {
      headers = Collections.unmodifiableList(new ArrayList<>(headers));
    }
  }

  /**
   * h1..h4 as given (any may be null) to the ticket's header list: trailing NULLs left out, a NULL
   * before a given header as an empty one.
   */
  static List<String> headers(String... given) {
    int n = given.length;
    while (n > 0 && given[n - 1] == null) {
      n--;
    }
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(given[i] == null ? "" : given[i]);
    }
    return out;
  }

  /** Microseconds since 1970 UTC as an instant. */
  static Instant ofMicros(long us) {
    return Instant.ofEpochSecond(
        Math.floorDiv(us, 1_000_000L), Math.floorMod(us, 1_000_000L) * 1000L);
  }

  /**
   * Reads a PostgreSQL ticket message's content.
   *
   * @throws IllegalArgumentException naming what is wrong, for content the function did not write
   */
  static Payload parse(byte[] content) {
    if (content.length > MAX_PAYLOAD_BYTES) {
      throw new IllegalArgumentException(
          content.length + " bytes, more than a ticket has (" + MAX_PAYLOAD_BYTES + ")");
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(java.nio.ByteBuffer.wrap(content))
              .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("content is not UTF-8");
    }
    List<String> lines = Arrays.asList(text.split("\n", -1));
    if (lines.isEmpty() || !lines.get(0).equals(PAYLOAD_MAGIC)) {
      throw new IllegalArgumentException(
          "content does not start with '" + PAYLOAD_MAGIC + "' (another format or version)");
    }
    if (lines.size() < 2 || !lines.get(1).startsWith("pdb ")) {
      throw new IllegalArgumentException("line 2 is not 'pdb <microseconds>'");
    }
    long pdb;
    try {
      pdb = Long.parseLong(lines.get(1).substring(4));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("line 2 '" + lines.get(1) + "' is not a whole number");
    }
    if (lines.size() - 2 > MAX_HEADERS) {
      throw new IllegalArgumentException((lines.size() - 2) + " headers, more than " + MAX_HEADERS);
    }
    List<String> headers = new ArrayList<>();
    for (int i = 2; i < lines.size(); i++) {
      String line = lines.get(i);
      if (!line.startsWith("h ")) {
        throw new IllegalArgumentException("line " + (i + 1) + " is not 'h <header>'");
      }
      headers.add(unescape(line.substring(2), i + 1));
    }
    return new Payload(ofMicros(pdb), headers);
  }

  /** What the PostgreSQL function writes for {@code headers} at {@code pdbMicros}. */
  static byte[] encode(long pdbMicros, List<String> headers) {
    StringBuilder b = new StringBuilder(PAYLOAD_MAGIC).append("\npdb ").append(pdbMicros);
    for (String h : headers) {
      b.append("\nh ").append(h.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r"));
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String unescape(String s, int line) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (i + 1 == s.length()) {
        throw new IllegalArgumentException("line " + line + " ends inside an escape");
      }
      char e = s.charAt(++i);
      switch (e) {
        case '\\':
          b.append('\\');
          break;
        case 'n':
          b.append('\n');
          break;
        case 'r':
          b.append('\r');
          break;
        default:
          throw new IllegalArgumentException("line " + line + " has unknown escape \\" + e);
      }
    }
    return b.toString();
  }

  // ---- what the agent creates at the primary ---------------------------------------------------

  /** The PostgreSQL function, created in {@code schema}. */
  static String postgresFunction(String schema) {
    String prefix = messagePrefix(schema).replace("'", "''");
    return "CREATE FUNCTION "
        + PostgresDialect.quoteIdent(schema)
        + ".rs_ticket(h1 text, h2 text DEFAULT NULL, h3 text DEFAULT NULL,"
        + " h4 text DEFAULT NULL)\n"
        + "RETURNS timestamptz LANGUAGE plpgsql VOLATILE\n"
        + "SET search_path = pg_catalog, pg_temp AS $rs_ticket$\n"
        + "DECLARE\n"
        + "  hs text[] := ARRAY[h1, h2, h3, h4];\n"
        + "  n int := 4;\n"
        + "  pdb timestamptz := clock_timestamp();\n"
        + "  body text;\n"
        + "BEGIN\n"
        + "  FOR i IN 1..4 LOOP\n"
        + "    IF char_length(hs[i]) > (ARRAY[10, 10, 10, 50])[i] THEN\n"
        + "      RAISE EXCEPTION 'rs_ticket: h% is % characters long; h1, h2 and h3 hold at most"
        + " 10 characters and h4 at most 50, as in Replication Server', i, char_length(hs[i])\n"
        + "        USING ERRCODE = 'string_data_right_truncation';\n"
        + "    END IF;\n"
        + "  END LOOP;\n"
        + "  WHILE n > 0 AND hs[n] IS NULL LOOP\n"
        + "    n := n - 1;\n"
        + "  END LOOP;\n"
        + "  body := '"
        + PAYLOAD_MAGIC
        + "' || E'\\n' || 'pdb ' || (extract(epoch FROM pdb) * 1000000)::bigint;\n"
        + "  FOR i IN 1..n LOOP\n"
        + "    body := body || E'\\n' || 'h ' || replace(replace(replace(coalesce(hs[i], ''),"
        + " E'\\\\', E'\\\\\\\\'), E'\\n', E'\\\\n'), E'\\r', E'\\\\r');\n"
        + "  END LOOP;\n"
        + "  PERFORM pg_logical_emit_message(true, '"
        + prefix
        + "', convert_to(body, 'UTF8'));\n"
        + "  RETURN pdb;\n"
        + "END\n"
        + "$rs_ticket$";
  }

  /** The comment the agent puts on the PostgreSQL function. */
  static String postgresComment(String schema) {
    return "COMMENT ON FUNCTION "
        + PostgresDialect.quoteIdent(schema)
        + ".rs_ticket(text, text, text, text) IS 'OpenRS rs_ticket (format 1): a latency"
        + " ticket through the replication agent, see docs/repagent.md'";
  }

  /** The MariaDB/MySQL marker table, created in database {@code db}. */
  static String mariaDbTable(String db) {
    return "CREATE TABLE "
        + MariaDbDialect.quote(db)
        + ".`rs_ticket_marker` (\n"
        + "  id BIGINT AUTO_INCREMENT PRIMARY KEY,\n"
        + "  h1 VARCHAR(10), h2 VARCHAR(10), h3 VARCHAR(10), h4 VARCHAR(50),\n"
        + "  pdb_time DATETIME(6) NOT NULL COMMENT 'UTC'\n"
        + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"
        + " COMMENT='OpenRS rs_ticket markers: the agent sends inserts as tickets, nothing else'";
  }

  /** The MariaDB/MySQL procedure, created in database {@code db}. */
  static String mariaDbProcedure(String db) {
    String table = MariaDbDialect.quote(db) + ".`rs_ticket_marker`";
    return "CREATE PROCEDURE "
        + MariaDbDialect.quote(db)
        + ".`rs_ticket`(IN h1 TEXT CHARACTER SET utf8mb4, IN h2 TEXT CHARACTER SET utf8mb4,"
        + " IN h3 TEXT CHARACTER SET utf8mb4, IN h4 TEXT CHARACTER SET utf8mb4)\n"
        + "MODIFIES SQL DATA\n"
        + "COMMENT 'OpenRS rs_ticket: a latency ticket through the replication agent'\n"
        + "BEGIN\n"
        + "  IF char_length(h1) > 10 OR char_length(h2) > 10 OR char_length(h3) > 10"
        + " OR char_length(h4) > 50 THEN\n"
        + "    SIGNAL SQLSTATE '22001' SET MESSAGE_TEXT = 'rs_ticket: h1, h2 and h3 hold at most"
        + " 10 characters and h4 at most 50, as in Replication Server';\n"
        + "  END IF;\n"
        + "  DELETE FROM "
        + table
        + " WHERE pdb_time < UTC_TIMESTAMP(6) - INTERVAL 1 DAY;\n"
        + "  INSERT INTO "
        + table
        + " (h1, h2, h3, h4, pdb_time) VALUES (h1, h2, h3, h4, UTC_TIMESTAMP(6));\n"
        + "END";
  }
}
