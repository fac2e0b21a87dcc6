package io.openrs.repagent;

import io.openrs.runtime.CounterDefinition;
import io.openrs.runtime.CounterKind;
import io.openrs.runtime.CounterModule;

/**
 * The agent's counters, declared once: name (Replication Agent's where it has one), unit and
 * meaning; the {@link CounterDefinition} pattern of every module's catalogue. {@link AgentCounters}
 * keeps them and publishes them to Micrometer with tag {@code agent=<agent_name>}; {@code
 * docs/repagent.md} lists them ({@code AgentDocsTest}). "Longest" counters are gauges, the others
 * counts.
 */
public enum AgentCounter implements CounterDefinition {
  RA_IO_SEND(
      "ra_io_send",
      "frames",
      "Frames sent to the server: batches, truncation requests," + " resume blobs."),
  RA_SUM_IO_SEND_WAIT(
      "ra_sum_io_send_wait",
      "ms",
      "Time spent handing frames to the connection,"
          + " including waits for room when too much is unanswered (flow control)."),
  RA_LONGEST_IO_SEND_WAIT("ra_longest_io_send_wait", "ms", "Longest single such wait."),
  RA_IO_RECV("ra_io_recv", "frames", "Answers received: batch answers and truncation points."),
  RA_SUM_IO_RECV_WAIT(
      "ra_sum_io_recv_wait",
      "ms",
      "Time from sending a request (batch or"
          + " truncation request) to its answer, summed over answers."),
  RA_LONGEST_IO_RECV_WAIT("ra_longest_io_recv_wait", "ms", "Longest such time."),
  RA_LOG_RECORDS_SCANNED(
      "ra_log_records_scanned",
      "records",
      "Records read from the primary's"
          + " log (Debezium change, transaction and heartbeat records)."),
  RA_LOG_RECORDS_PROCESSED(
      "ra_log_records_processed",
      "records",
      "Records turned into LTL"
          + " commands (row changes, truncates, DDL, transaction begins and commits)."),
  RA_LOG_RECORDS_SKIPPED(
      "ra_log_records_skipped",
      "records",
      "Records read and not sent:"
          + " Debezium's heartbeat records, heartbeat table rows, rs_ticket marker rows other"
          + " than inserts, logical decoding messages that are not tickets, records of kinds LTL"
          + " has no command for."),
  RA_TICKETS(
      "ra_tickets",
      "tickets",
      "rs_ticket markers read from the primary's log and turned into LTL tickets (also counted"
          + " as processed)."),
  RA_BATCHES_SENT("ra_batches_sent", "batches", "LTL batches sent."),
  RA_BYTES_SENT("ra_bytes_sent", "bytes", "Bytes of LTL text sent."),
  RA_FRAME_BYTES_SENT(
      "ra_frame_bytes_sent",
      "bytes",
      "Bytes of frames sent to the server (LTL text plus frame headers), before compression."),
  RA_WIRE_BYTES_SENT(
      "ra_wire_bytes_sent",
      "bytes",
      "Bytes sent to the server on the wire, after compression (inside TLS);"
          + " ra_frame_bytes_sent / ra_wire_bytes_sent is the compression ratio."),
  RA_COMMANDS_SENT("ra_commands_sent", "commands", "LTL commands sent."),
  RA_COMMANDS_SKIPPED(
      "ra_commands_skipped",
      "commands",
      "Commands not sent because the server"
          + " already holds them (at or below its truncation point at connect)."),
  RA_TRANSACTIONS_SENT("ra_transactions_sent", "transactions", "Commits sent."),
  RA_SUM_COMMIT_TO_SEND(
      "ra_sum_commit_to_send",
      "ms",
      "Delay from the origin commit to the" + " send of its commit command, summed over commits."),
  RA_LONGEST_COMMIT_TO_SEND("ra_longest_commit_to_send", "ms", "Longest such delay."),
  RA_TRUNCATION_REQUESTS("ra_truncation_requests", "requests", "`get truncation` requests."),
  RA_RESUME_BLOBS_SENT(
      "ra_resume_blobs_sent",
      "blobs",
      "Resume blobs (log reader offsets)" + " handed to the server."),
  RA_LOG_RELEASES(
      "ra_log_releases",
      "records",
      "Log records whose position was released to"
          + " the log reader (covered by the server's durable point)."),
  RA_TRANSACTIONS_SPILLED(
      "ra_transactions_spilled",
      "transactions",
      "Transactions larger than"
          + " transaction_buffer_size, spilled to a file until their commit."),
  RA_RECONNECTS(
      "ra_reconnects",
      "sessions",
      "Sessions started after the first (reconnects" + " after a failure).");

  /** The module of every agent counter: the agent process (Replication Agent's counters). */
  public enum Module implements CounterModule {
    RA
  }

  private final String counterName;
  private final CounterKind kind;
  private final String unit;
  private final String description;

  AgentCounter(String counterName, String unit, String description) {
    this.counterName = counterName;
    this.kind = counterName.contains("_longest_") ? CounterKind.GAUGE : CounterKind.COUNTER;
    this.unit = unit;
    this.description = description;
  }

  @Override
  public String counterName() {
    return counterName;
  }

  @Override
  public Module module() {
    return Module.RA;
  }

  @Override
  public CounterKind kind() {
    return kind;
  }

  @Override
  public String unit() {
    return unit;
  }

  @Override
  public String description() {
    return description;
  }
}
