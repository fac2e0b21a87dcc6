package io.openrs.repagent;

import java.util.Locale;
import java.util.Optional;

/**
 * Every parameter of the agent's configuration file, declared once as data: name, default (none
 * when the parameter is required) and what it means. {@link AgentConfigFile} validates against this
 * list and {@code docs/repagent.md} lists it ({@code AgentDocsTest} checks both ways).
 */
public enum AgentParameter {
  AGENT_NAME("agent_name", null, "Name of this agent; names its slot, publication and logs."),
  ORIGIN(
      "origin",
      null,
      "The origin connection at the server, `dataserver.database` (as in `create connection`)."),
  RS_HOST("rs_host", "127.0.0.1", "Host of the replication server's LTL listener."),
  RS_PORT("rs_port", "11752", "Port of the replication server's LTL listener (`ltl_port`)."),
  RS_STANDBY_SERVERS(
      "rs_standby_servers",
      "",
      "Further servers to try, comma-separated `host:port` (`[::1]:11752` for IPv6): when the"
          + " server in use cannot be reached or its session ends, the agent connects to the next"
          + " address at once, in turn round the list from `rs_host`:`rs_port`; the retry backoff"
          + " applies after every address of a round has failed. TLS `verify-full` checks each"
          + " server's certificate against the host it was reached at."),
  RS_USER(
      "rs_user",
      "sa",
      "User the agent logs in to the server as (SCRAM-SHA-256); give it a user with connect source"
          + " on its origin only, not an administrator (docs/security.md)."),
  RS_TLS(
      "rs_tls",
      "off",
      "TLS to the server, as libpq's `sslmode`: `off`; `require` (encrypted, the server's"
          + " certificate not checked); `verify-ca` (signed by `rs_tls_root_cert`); `verify-full`"
          + " (that, and it names the host it was reached at: `rs_host` or a standby's). The"
          + " server's `ltl_tls` must be `on` or `required`."),
  RS_TLS_ROOT_CERT(
      "rs_tls_root_cert",
      "",
      "PEM file of the CA certificates that sign the server's certificate (for `verify-ca` and"
          + " `verify-full`)."),
  RS_TLS_CERT(
      "rs_tls_cert",
      "",
      "PEM file with the agent's client certificate, presented when given (needed when the"
          + " server sets `ltl_tls_client_ca`)."),
  RS_TLS_KEY(
      "rs_tls_key", "", "PEM file (unencrypted PKCS#8) with the private key of `rs_tls_cert`."),
  RS_COMPRESSION(
      "rs_compression",
      "lz4,zstd",
      "Compression methods offered to the server, most preferred first (`lz4`, `zstd`), or `off`;"
          + " the server's `ltl_compression` picks one or none."),
  RS_PASSWORD_ENV(
      "rs_password_env", "", "Environment variable holding the server password (or `_file`)."),
  RS_PASSWORD_FILE("rs_password_file", "", "File holding the server password."),
  SOURCE_PROFILE("source_profile", null, "`postgresql`, `mariadb` or `mysql`."),
  SOURCE_HOST("source_host", "127.0.0.1", "Host of the primary database."),
  SOURCE_PORT("source_port", "", "Port of the primary (default 5432 or 3306 by profile)."),
  SOURCE_DATABASE(
      "source_database",
      "",
      "Database to read (PostgreSQL: required; MariaDB/MySQL: limits capture to it when set)."),
  SOURCE_USER("source_user", null, "User the agent reads the primary's log as."),
  SOURCE_PASSWORD_ENV(
      "source_password_env",
      "",
      "Environment variable holding the primary's password (or `_file`)."),
  SOURCE_PASSWORD_FILE("source_password_file", "", "File holding the primary's password."),
  SLOT_NAME(
      "slot_name",
      "",
      "PostgreSQL replication slot (default `openrs_<agent_name>`), created when absent."),
  PUBLICATION_NAME(
      "publication_name",
      "",
      "PostgreSQL publication (default `openrs_<agent_name>`), created when absent."),
  HEARTBEAT_TABLE(
      "heartbeat_table",
      "",
      "Table the agent writes a heartbeat row to, so an idle primary's log is released"
          + " (default `public.openrs_heartbeat` on PostgreSQL, `<source_database>.openrs_heartbeat`"
          + " on MariaDB/MySQL); created when absent. Its changes are never sent."),
  RS_TICKET_SCHEMA(
      "rs_ticket_schema",
      "",
      "Schema (PostgreSQL) or database (MariaDB/MySQL) of the `rs_ticket` function or procedure"
          + " (and on MariaDB/MySQL of its marker table `rs_ticket_marker`); default the schema of"
          + " `heartbeat_table`."),
  RS_TICKET_CREATE(
      "rs_ticket_create",
      "on",
      "`on`: create `rs_ticket` in the primary at start when absent (failing with a message"
          + " naming the missing privilege); `off`: the DBA creates it. Tickets are sent either"
          + " way."),
  SERVER_ID(
      "server_id",
      "",
      "MariaDB/MySQL replica server id the agent registers with (default derived from the agent"
          + " name, 5400..6399); unique among the primary's replicas."),
  TABLE_INCLUDE_LIST(
      "table_include_list",
      "",
      "Comma-separated `schema.table` names to capture (`%` matches any run of characters);"
          + " empty = every table."),
  SNAPSHOT(
      "snapshot",
      "off",
      "`on`: on the first start (no resume blob at the server) read the captured tables first and"
          + " send their rows as snapshot inserts; `off`: only changes from now on."),
  TIMETZ_AT_UTC(
      "timetz_at_utc",
      "off",
      "PostgreSQL: `off`: a table with a `timetz` column (or a domain over it) is left out of the"
          + " capture and reported (`admin who, rep`), since Debezium's decoder moves every"
          + " `timetz` value to UTC before the agent sees it and drops its offset; `on`: such"
          + " tables replicate, their `timetz` values at UTC (`10:11:12+05:30` arrives as"
          + " `04:41:12+00`)."),
  LTL_BATCH_SIZE(
      "ltl_batch_size", "65536", "Most bytes of LTL text per batch sent (1 KiB .. 16 MiB)."),
  SCAN_BATCH_SIZE(
      "scan_batch_size",
      "1000",
      "Commands sent between two `get truncation` requests (also asked when idle)."),
  RETRY_MIN_BACKOFF_MS(
      "retry_min_backoff_ms", "500", "First wait before reconnecting after a failure."),
  RETRY_MAX_BACKOFF_MS(
      "retry_max_backoff_ms", "30000", "Longest wait between reconnects (exponential, jittered)."),
  REJECTION_RETRY_LIMIT(
      "rejection_retry_limit",
      "5",
      "How many times in a row the server may reject the same command before the agent stops."),
  HEARTBEAT_INTERVAL_MS(
      "heartbeat_interval_ms",
      "10000",
      "Interval of the heartbeat that lets an idle primary release its log (0 = off)."),
  SCAN_SLEEP_MAX_MS(
      "scan_sleep_max_ms",
      "10",
      "Longest wait of the log reader for more changes before it hands over what it has"
          + " (Debezium's `poll.interval.ms`): the delay a lone change may add under light load."
          + " Each wait costs the reader about 0.7 ms of busy CPU, so shorter waits cost CPU even"
          + " when the primary is idle (about 14 % of a core at 5 ms, 7.5 % at 10, 4 % at 20)."),
  OFFSET_FLUSH_INTERVAL_MS(
      "offset_flush_interval_ms",
      "1000",
      "How often the agent hands the server its log reader position (resume blob) and releases"
          + " the primary's log up to the server's durable point."),
  TRANSACTION_BUFFER_SIZE(
      "transaction_buffer_size",
      "16777216",
      "Bytes of LTL one transaction may hold in memory before it is spilled to a file in"
          + " `data_directory`."),
  DATA_DIRECTORY(
      "data_directory",
      ".",
      "Directory for spill files (and nothing the agent needs to restart: its position is kept"
          + " by the server)."),
  CONNECT_TIMEOUT_MS(
      "connect_timeout_ms", "10000", "Bound on connecting and the handshake with the server.");

  private final String key;
  private final String defaultValue;
  private final String doc;

  AgentParameter(String key, String defaultValue, String doc) {
    this.key = key;
    this.defaultValue = defaultValue;
    this.doc = doc;
  }

  /** The name in the configuration file. */
  public String key() {
    return key;
  }

  /** The default, or empty when the parameter must be given. */
  public Optional<String> defaultValue() {
    return Optional.ofNullable(defaultValue);
  }

  public String doc() {
    return doc;
  }

  /** The parameter named {@code key} (case-insensitive). */
  public static Optional<AgentParameter> byKey(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    for (AgentParameter p : values()) {
      if (p.key.equals(k)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }
}
