package io.openrs.repagent;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Materialization through Debezium's incremental snapshot ({@code create subscription ... with
 * materialization} at the server): the server inserts an {@code execute-snapshot} signal into the
 * signal table {@code <rs_ticket_schema>.rs_signal}; the connector then reads the tables in chunks
 * between watermarks it writes into that table, interleaved with the log. The rows of a chunk come
 * out when the connector reads the chunk's closing watermark from the log, and they are the table's
 * state at that point of the log (rows changed inside the window were dropped from the chunk: their
 * changes were streamed).
 *
 * <p>So the rows must be applied exactly there: before every transaction that commits after the
 * closing watermark's. The connector hands them over while it processes the watermark's insert,
 * before that transaction's BEGIN; they are kept here (one chunk, {@code
 * incremental.snapshot.chunk.size} rows, bounds the memory) and put at the start of the next
 * transaction, the watermark's own, so they get OQIDs at its commit position. The LTL of such a
 * transaction (see docs/ltl.md, materialization):
 *
 * <pre>
 * begin ...
 * ticket ... headers ('rs_materialize', '')                   the snapshot inserts of this
 *                                                               transaction are materialization rows
 * insert ... snapshot after (...)                               one per row of the chunk
 * ticket ... headers ('rs_materialized', '&lt;request id&gt;')   only after the last chunk: done
 * ...                                                           the transaction's own commands
 * commit ...
 * </pre>
 *
 * <p>The completion comes from Debezium's notification ({@code Incremental Snapshot}, {@code
 * COMPLETED}, through the sink channel: a record in the same stream, after the last chunk's rows);
 * its id is the signal's id. The signal table's own rows are never sent.
 *
 * <p>Owned by the engine's thread (one per session, like the mapper).
 */
final class Materialization {
  private static final Logger LOG = LoggerFactory.getLogger(Materialization.class);

  /** The signal table, in {@code rs_ticket_schema}. */
  static final String SIGNAL_TABLE = "rs_signal";

  /** First header of the ticket that marks a transaction's snapshot inserts as materialization. */
  static final String ROWS_HEADER = "rs_materialize";

  /** First header of the ticket that says the snapshot requested by its second header is done. */
  static final String DONE_HEADER = "rs_materialized";

  private final TableName signalTable;
  private final String notificationTopic;
  private final List<TransactionAssembler.CommandFactory> pending = new ArrayList<>();
  private boolean rowsMarked;
  private int pendingRows;

  Materialization(String schema, String topicPrefix) {
    this.signalTable = new TableName(schema, SIGNAL_TABLE);
    this.notificationTopic = notificationTopic(topicPrefix);
  }

  static String notificationTopic(String topicPrefix) {
    return topicPrefix + ".rs_notifications";
  }

  /** The connector properties for signals and notifications. */
  static void addProperties(Properties p, String schema, String topicPrefix) {
    p.setProperty("signal.enabled.channels", "source");
    p.setProperty("signal.data.collection", schema + "." + SIGNAL_TABLE);
    p.setProperty("notification.enabled.channels", "sink");
    p.setProperty("notification.sink.topic.name", notificationTopic(topicPrefix));
  }

  /** The signal table's {@code schema.table} pattern for the connector's include list. */
  static String includePattern(String schema) {
    return schema + "." + SIGNAL_TABLE;
  }

  /**
   * Creates the PostgreSQL signal table in {@code schema} when absent. A failure (no CREATE
   * privilege) is logged, not fatal: only {@code with materialization} needs the table, and the
   * server names it missing when it is asked to.
   */
  static void createPostgresSignalTable(Connection c, String schema) {
    String table =
        PostgresDialect.quoteIdent(schema) + "." + PostgresDialect.quoteIdent(SIGNAL_TABLE);
    try (Statement s = c.createStatement()) {
      try (java.sql.PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?)")) {
        ps.setString(1, table);
        try (java.sql.ResultSet r = ps.executeQuery()) {
          if (r.next() && r.getString(1) != null) {
            return;
          }
        }
      }
      s.execute(
          "CREATE TABLE IF NOT EXISTS "
              + table
              + " (id varchar(64) PRIMARY KEY, type varchar(32) NOT NULL, data varchar(2048))");
      s.execute(
          "COMMENT ON TABLE "
              + table
              + " IS 'OpenRS: Debezium signals (execute-snapshot from the replication server,"
              + " snapshot watermarks); see docs/repagent.md'");
    } catch (SQLException e) {
      LOG.warn(
          "cannot create the signal table {} (SQLSTATE {}): {}; subscriptions with"
              + " materialization from this primary need it (docs/repagent.md, materialization)",
          table,
          e.getSQLState(),
          e.getMessage());
    }
  }

  boolean isSignalTable(TableName table) {
    return table.equals(signalTable);
  }

  boolean isNotification(SourceRecord record) {
    return notificationTopic.equals(record.topic());
  }

  /** Whether a snapshot record ({@code op = r}) comes from an incremental snapshot. */
  static boolean isIncremental(Struct value) {
    Struct src = value.getStruct("source");
    return src != null
        && src.schema().field("snapshot") != null
        && "incremental".equals(src.getString("snapshot"));
  }

  /**
   * A row of a chunk: into the open transaction when there is one (the watermark's insert was not
   * the first change of its transaction), else kept for the next transaction's start.
   */
  void row(TransactionAssembler out, TableName table, List<Column> after) {
    if (!rowsMarked) {
      rowsMarked = true;
      pending.add((t, o) -> new LtlCommand.Ticket(t, o, now(), List.of(ROWS_HEADER, "")));
    }
    pending.add((t, o) -> new LtlCommand.Insert(t, o, table, true, after));
    pendingRows++;
    if (out.inTransaction()) {
      flushInto(out);
    }
  }

  /** A notification record: a completed incremental snapshot becomes the completion marker. */
  void notification(TransactionAssembler out, Struct value) {
    String aggregate = field(value, "aggregate_type");
    String type = field(value, "type");
    String id = field(value, "id");
    if ("IN_PROGRESS".equals(type)) {
      LOG.debug("Debezium notification: {} {} id {}", aggregate, type, id);
    } else {
      LOG.info("Debezium notification: {} {} id {}", aggregate, type, id);
    }
    if (!"Incremental Snapshot".equalsIgnoreCase(aggregate)) {
      return;
    }
    if ("COMPLETED".equals(type)) {
      String done = id == null ? "" : id;
      pending.add((t, o) -> new LtlCommand.Ticket(t, o, now(), List.of(DONE_HEADER, done)));
      if (out.inTransaction()) {
        flushInto(out);
      }
    } else if ("ABORTED".equals(type)) {
      LOG.warn(
          "the incremental snapshot {} was aborted (stop-snapshot signal?): its subscriptions stay"
              + " materializing; drop and create them again",
          id);
    }
  }

  /**
   * Whether rows or a marker wait for the next transaction: no record is a restart point then (the
   * connector's offsets past the chunk must not be released before the chunk is sent).
   */
  boolean holding() {
    return !pending.isEmpty();
  }

  /** Puts what is kept at the start of the transaction just opened. */
  void flushInto(TransactionAssembler out) {
    if (pending.isEmpty()) {
      return;
    }
    for (TransactionAssembler.CommandFactory f : pending) {
      out.add(f);
    }
    LOG.debug("{} materialization rows placed in the open transaction", pendingRows);
    pending.clear();
    pendingRows = 0;
    rowsMarked = false;
  }

  /** The agent's clock for marker tickets, with the microseconds LTL times carry. */
  private static Instant now() {
    return Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MICROS);
  }

  private static String field(Struct value, String name) {
    if (value.schema().field(name) == null) {
      return null;
    }
    Object v = value.get(name);
    return v == null ? null : v.toString();
  }
}
