package io.openrs.config.param;

import static io.openrs.config.param.ParamType.BOOLEAN;
import static io.openrs.config.param.ParamType.BYTES;
import static io.openrs.config.param.ParamType.DURATION_MS;
import static io.openrs.config.param.ParamType.ENUM;
import static io.openrs.config.param.ParamType.ENUM_SET;
import static io.openrs.config.param.ParamType.INTEGER;
import static io.openrs.config.param.ParamType.PATH;
import static io.openrs.config.param.ParamType.STRING;
import static io.openrs.config.param.Scope.CONNECTION;
import static io.openrs.config.param.Scope.QUEUE;
import static io.openrs.config.param.Scope.SERVER;
import static io.openrs.config.param.TakesEffect.CONNECTION_RESUME;
import static io.openrs.config.param.TakesEffect.IMMEDIATELY;
import static io.openrs.config.param.TakesEffect.RESTART;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The declarations behind {@link ParameterCatalog#standard()}. Sizes are bytes and times are
 * milliseconds throughout, even where RS counts KB, MB or pages: an RS-style number is then far out
 * of range and refused, never misread (RS {@code block_size '64'} means 64 KB; here {@code 64} is
 * refused and {@code 64k} is accepted).
 */
final class StandardParameters {
  private static final long KIB = 1024;
  private static final long MIB = 1024 * KIB;
  private static final long GIB = 1024 * MIB;
  private static final long INT_MAX = Integer.MAX_VALUE;

  private StandardParameters() {}

  static List<Parameter> all() {
    List<Parameter> all = new ArrayList<>();
    serverProcess(all);
    stableQueues(all);
    inbound(all);
    agent(all);
    dsi(all);
    monitoring(all);
    return all;
  }

  private static void serverProcess(List<Parameter> all) {
    all.add(
        startup("rs_name", STRING)
            .dflt("OPENRS_RS")
            .range(1, 30)
            .doc(
                "Name of this replication server: shown by admin commands, stamped into rs_ticket"
                    + " (RRS=) and recorded in the RSSD. At most 30 characters, as RS names.")
            .build());
    all.add(
        startup("rssd_url", STRING)
            .dflt("embedded")
            .range(1, 2000)
            .doc(
                "Where the RSSD lives: `embedded` for the H2 database under data_directory, or a"
                    + " JDBC URL such as `jdbc:postgresql://host:5432/rssd` (servers sharing"
                    + " work share one PostgreSQL RSSD). Read from the file only: configuration"
                    + " is stored in the RSSD, so the RSSD cannot say where it is.")
            .build());
    all.add(
        startup("server_lease_ms", INTEGER)
            .unit("ms")
            .dflt("0")
            .range(0, 600_000)
            .doc(
                "0: the server runs alone. Otherwise the time of the server lease in the RSSD"
                    + " (at least 1000): the server takes the lease before it opens its queues and"
                    + " ports, waiting as a standby while another server holds it, renews it every"
                    + " third of this time and stops at once when it cannot. Needs a shared RSSD"
                    + " (rssd_url on PostgreSQL); docs/scale-out.md.")
            .build());
    all.add(
        startup("queue_engine", ENUM)
            .dflt("file")
            .values("file", "kafka")
            .doc(
                "Where the stable queues are. file: segments in the partitions of the start-up"
                    + " file (partition.<name> lines; the default partition under data_directory)."
                    + " kafka: one topic per queue in the Kafka cluster of kafka_bootstrap_servers,"
                    + " named after rs_name, so the two servers of a standby pair share them;"
                    + " partition lines are refused. docs/stable-queue.md.")
            .build());
    all.add(
        startup("kafka_bootstrap_servers", STRING)
            .dflt("")
            .range(0, 2000)
            .doc(
                "With queue_engine kafka (needed then): the cluster's bootstrap.servers, e.g."
                    + " `k1:9092,k2:9092`. A cluster that does not answer at start: a server alone"
                    + " waits for it and says so; one of a standby pair (server_lease_ms) does not"
                    + " start, which frees the lease. Other client properties (TLS, SASL) are"
                    + " `kafka.<property> = value` lines of the start-up file.")
            .build());
    all.add(
        startup("kafka_operation_timeout_ms", INTEGER)
            .unit("ms")
            .dflt("30000")
            .range(1000, 600_000)
            .doc(
                "With queue_engine kafka: the bound on each blocking call to the cluster (reaching"
                    + " it at start, creating and describing topics, deleting records behind the"
                    + " slowest reader, committing a reader's position; a commit retries after"
                    + " it).")
            .build());
    all.add(
        startup("kafka_replication_factor", INTEGER)
            .unit("replicas")
            .dflt("3")
            .range(1, 32)
            .doc(
                "With queue_engine kafka: replicas of each queue topic the server creates (a topic"
                    + " that exists keeps its own).")
            .build());
    all.add(
        startup("kafka_min_insync_replicas", INTEGER)
            .unit("replicas")
            .dflt("2")
            .range(1, 32)
            .doc(
                "With queue_engine kafka: min.insync.replicas of each queue topic the server"
                    + " creates, at most kafka_replication_factor. A write is acknowledged to the"
                    + " agent only once this many replicas hold it.")
            .build());
    all.add(
        startup("data_directory", PATH)
            .dflt("data")
            .doc(
                "Directory for the server's own files: queue metadata and reader positions, the"
                    + " embedded RSSD, and the default partition when the start-up file names"
                    + " none. A relative path is resolved against the start-up file's directory.")
            .build());
    all.add(
        startup("listen_address", STRING)
            .dflt("127.0.0.1")
            .range(1, 255)
            .doc(
                "Host name or address the agent, admin and metrics listeners bind to. The default"
                    + " binds the loopback only, so a new server cannot be reached from other"
                    + " hosts; set `0.0.0.0` (every IPv4 interface) or one address of the host"
                    + " to let agents and administrators elsewhere connect (see security.md).")
            .build());
    all.add(
        startup("ltl_port", INTEGER)
            .unit("port")
            .dflt("11752")
            .range(0, 65535)
            .doc(
                "TCP port replication agents connect to (the LTL transport); 0 takes a free port,"
                    + " for tests. RS serves agents and admin sessions on one TDS port; here they"
                    + " have separate ports.")
            .build());
    all.add(
        startup("admin_port", INTEGER)
            .unit("port")
            .dflt("11753")
            .range(0, 65535)
            .doc(
                "TCP port of the admin interface, which speaks the PostgreSQL wire protocol"
                    + " (psql, JDBC and SQL tools are the clients); 0 takes a free port, for"
                    + " tests.")
            .build());
    all.add(
        startup("prometheus_port", INTEGER)
            .unit("port")
            .dflt("11754")
            .range(0, 65535)
            .doc(
                "TCP port of the HTTP endpoint Prometheus scrapes counters from (`/metrics`); 0"
                    + " starts no endpoint.")
            .build());
    all.add(
        startup("admin_tls_certificate", STRING)
            .dflt("")
            .range(0, 4096)
            .doc(
                "PEM file with the admin port's TLS certificate (chain). With it and"
                    + " admin_tls_private_key set, clients may switch to TLS (psql"
                    + " sslmode=require); empty: the admin port offers no TLS.")
            .build());
    all.add(
        startup("admin_tls_private_key", STRING)
            .dflt("")
            .range(0, 4096)
            .doc("PEM file (PKCS#8) with the private key of admin_tls_certificate.")
            .build());
    all.add(
        startup("admin_tls_required", BOOLEAN)
            .dflt("off")
            .doc(
                "on: the admin port accepts only sessions that switched to TLS; a client that"
                    + " connects without it (psql sslmode=disable) is refused with 28000 'this"
                    + " server accepts only TLS connections' before its password is asked. Needs"
                    + " admin_tls_certificate and admin_tls_private_key (the server does not start"
                    + " without them). off: TLS is offered when a certificate is set, plain"
                    + " sessions are accepted too.")
            .build());
    all.add(
        def("ltl_tls", Area.INBOUND, ENUM)
            .scopes(SERVER)
            .dflt("off")
            .values("off", "on", "required")
            .effect(RESTART)
            .doc(
                "TLS on the LTL port. off: plaintext only. on: agents may connect with TLS"
                    + " (ltl_tls_certificate, ltl_tls_private_key) or in plaintext. required: a"
                    + " plaintext agent is refused with an Error naming this parameter. The"
                    + " server tells TLS from plaintext by the first byte the agent sends.")
            .build());
    all.add(
        startup("ltl_tls_certificate", STRING)
            .dflt("")
            .range(0, 4096)
            .doc(
                "PEM file with the LTL port's TLS certificate (chain); needed when ltl_tls is on"
                    + " or required. Agents with rs_tls verify-full check that it names the host"
                    + " they connect to.")
            .build());
    all.add(
        startup("ltl_tls_private_key", STRING)
            .dflt("")
            .range(0, 4096)
            .doc("PEM file (unencrypted PKCS#8) with the private key of ltl_tls_certificate.")
            .build());
    all.add(
        startup("ltl_tls_client_ca", STRING)
            .dflt("")
            .range(0, 4096)
            .doc(
                "PEM bundle of the CAs that sign agents' client certificates. Set: an agent"
                    + " connecting with TLS must present a certificate signed by one of them, else"
                    + " its handshake fails. Empty: no client certificate is asked for.")
            .build());
    all.add(
        def("ltl_compression", Area.INBOUND, ENUM)
            .scopes(SERVER)
            .dflt("off")
            .values("off", "lz4", "zstd", "any")
            .effect(RESTART)
            .doc(
                "Compression of the LTL link the server agrees to (protocol version 4 agents"
                    + " offer methods in their connect command). off: none. lz4 or zstd: that"
                    + " method when the agent offers it, else none. any: the first method the"
                    + " agent offers.")
            .build());
    all.add(
        startup("admin_max_statement_bytes", BYTES)
            .dflt(String.valueOf(MIB))
            .range(KIB, 64 * MIB)
            .doc(
                "Largest statement the admin port reads: a Query, Parse or Bind message with a"
                    + " longer body is skipped as it arrives, never held in memory, and answered"
                    + " 54000 (program_limit_exceeded) naming this limit; the session stays"
                    + " usable. A query string may also hold at most 1000 statements, each of at"
                    + " most 50000 tokens.")
            .build());
    all.add(
        startup("admin_max_unauthenticated", INTEGER)
            .unit("connections")
            .dflt("16")
            .range(1, 10_000)
            .doc(
                "Most admin connections that have not logged in yet, counted apart from the"
                    + " sessions (which take a place only once the password is proven). When one"
                    + " more arrives, the oldest of them is closed (53300) to make way: a client"
                    + " that logs in promptly is never kept out by sockets that stay silent.")
            .build());
    all.add(
        startup("admin_auth_timeout", DURATION_MS)
            .dflt("10000")
            .range(100, 600_000)
            .doc(
                "Time an admin connection has from accept to a completed login (startup, TLS and"
                    + " SCRAM); a connection still not logged in is closed. PostgreSQL's"
                    + " authentication_timeout, shorter by default (PostgreSQL: 60 s).")
            .build());
    all.add(
        startup("admin_max_login_failures", INTEGER)
            .unit("failures")
            .dflt("5")
            .range(0, 1000)
            .doc(
                "Failed admin logins in a row from one client address before that address must"
                    + " wait: 1 s, doubling with each further failure up to 60 s; attempts while"
                    + " waiting are refused (28P01 'too many failed logins from <address>, retry"
                    + " in N s') without checking the password, and a successful login ends the"
                    + " wait. 0 turns the backoff off. At most 10000 addresses are remembered.")
            .build());
  }

  private static void stableQueues(List<Parameter> all) {
    all.add(
        def("block_size", Area.STABLE_QUEUE, BYTES)
            .scopes(SERVER)
            .dflt("131072")
            .range(16 * KIB, 256 * KIB)
            .values(16 * KIB, 32 * KIB, 64 * KIB, 128 * KIB, 256 * KIB)
            .effect(RESTART)
            .rs()
            .doc(
                "Size of a stable-queue block, the unit of packing, I/O and CRC. RS counts KB"
                    + " (default 16, so RS's '64' is written `64k` here); ours defaults to 128"
                    + " KiB for fewer, larger writes. A queue refuses to open with a block size"
                    + " other than the one it was created with: drain and purge queues first, as"
                    + " RS requires.")
            .build());
    all.add(
        def("sqm_page_size", Area.STABLE_QUEUE, INTEGER)
            .scopes(SERVER, QUEUE)
            .unit("blocks")
            .dflt("4")
            .range(1, 64)
            .effect(RESTART)
            .rs()
            .doc(
                "Blocks written per write call: the I/O and group-commit unit (4 blocks of 128"
                    + " KiB = 512 KiB per write).")
            .build());
    all.add(
        def("sqm_cache_enable", Area.STABLE_QUEUE, BOOLEAN)
            .scopes(SERVER, QUEUE)
            .dflt("on")
            .effect(RESTART)
            .rs()
            .doc(
                "Keep recently written blocks in memory so readers that keep up never read"
                    + " segment files. off: readers always read from disk.")
            .build());
    all.add(
        def("sqm_cache_size", Area.STABLE_QUEUE, BYTES)
            .scopes(SERVER, QUEUE)
            .dflt(String.valueOf(8 * MIB))
            .range(256 * KIB, 4 * GIB)
            .effect(RESTART)
            .rs()
            .doc(
                "Memory for recent blocks per queue (bytes; RS counts pages, default 16, of"
                    + " sqm_page_size blocks). Low BlocksReadCached against BlocksRead means"
                    + " readers fall behind the cache.")
            .build());
    all.add(
        def("sqm_write_flush", Area.STABLE_QUEUE, ENUM)
            .scopes(SERVER)
            .dflt("on")
            .values("on", "off", "dio")
            .effect(RESTART)
            .rs()
            .doc(
                "on: force (fdatasync) each write before it is acknowledged, so the agent's"
                    + " truncation point only moves over data on disk. off: acknowledged once in"
                    + " the OS cache, lost on an OS crash or power loss. dio: direct I/O plus the"
                    + " force, refused where the JDK or file system cannot do it.")
            .build());
    all.add(
        def("sqm_segment_size", Area.STABLE_QUEUE, BYTES)
            .scopes(SERVER)
            .dflt(String.valueOf(64 * MIB))
            .range(MIB, GIB)
            .multipleOf(MIB)
            .effect(RESTART)
            .doc(
                "Size of a segment file, the unit of allocation and truncation. RS fixes"
                    + " segments at 1 MB, only 8 blocks of 128 KiB, hence 64 MiB here. Whole MiB"
                    + " so every block size divides it; a queue keeps the size it was created"
                    + " with.")
            .build());
    all.add(
        def("sqm_max_message_size", Area.STABLE_QUEUE, BYTES)
            .scopes(SERVER)
            .dflt(String.valueOf(16 * MIB))
            .range(KIB, GIB)
            .effect(RESTART)
            .doc(
                "Largest message a queue accepts, and the largest length a reader trusts before"
                    + " allocating. A larger message is refused, never truncated.")
            .build());
    all.add(
        def("exec_sqm_write_request_limit", Area.STABLE_QUEUE, BYTES)
            .scopes(SERVER, CONNECTION)
            .dflt(String.valueOf(MIB))
            .range(16 * KIB, INT_MAX)
            .effect(RESTART)
            .rs()
            .doc(
                "Bytes of inbound messages waiting for the queue writer before the EXEC stops"
                    + " reading from the agent (RAWriteWaits). RS's default, 16 KB, is one small"
                    + " block; ours is 1 MiB so group commit can fill whole pages. Read when the"
                    + " queue opens.")
            .build());
    all.add(
        def("md_sqm_write_request_limit", Area.STABLE_QUEUE, BYTES)
            .scopes(SERVER)
            .dflt(String.valueOf(MIB))
            .range(16 * KIB, INT_MAX)
            .effect(RESTART)
            .rs()
            .doc(
                "The same limit for DIST writing to outbound queues: when reached, DIST waits for"
                    + " the writer. Read when the queue opens.")
            .build());
    all.add(
        def("sqm_warning_thr1", Area.STABLE_QUEUE, INTEGER)
            .scopes(SERVER)
            .unit("percent")
            .dflt("75")
            .range(1, 100)
            .effect(IMMEDIATELY)
            .rs()
            .doc(
                "Use of all partitions' space above which the server logs `WARNING: Stable"
                    + " Storage Use is Above N percent`, and a CANCEL message when use falls"
                    + " below it again.")
            .build());
    all.add(
        def("sqm_warning_thr2", Area.STABLE_QUEUE, INTEGER)
            .scopes(SERVER)
            .unit("percent")
            .dflt("90")
            .range(1, 100)
            .effect(IMMEDIATELY)
            .rs()
            .doc("A second, higher partition-use warning threshold, logged the same way.")
            .build());
    all.add(
        def("sqm_warning_thr_ind", Area.STABLE_QUEUE, INTEGER)
            .scopes(SERVER)
            .unit("percent")
            .dflt("70")
            .range(1, 100)
            .effect(IMMEDIATELY)
            .rs()
            .doc(
                "Share of all partitions' space used by one queue above which the server logs a"
                    + " warning naming that queue (a stuck reader: a DSI down, an open"
                    + " transaction).")
            .build());
    all.add(
        def("save_interval", Area.STABLE_QUEUE, INTEGER)
            .scopes(SERVER, CONNECTION)
            .unit("minutes")
            .dflt("0")
            .range(0, 525600)
            .effect(IMMEDIATELY)
            .rs()
            .doc(
                "Minutes an outbound segment is kept after the DSI has applied everything in it,"
                    + " so work can be re-sent to a replicate restored from a backup"
                    + " (`sysadmin restore_dsi_saved_segments`). 0: free at once.")
            .build());
  }

  private static void inbound(List<Parameter> all) {
    all.add(
        def("exec_nrm_request_limit", Area.INBOUND, BYTES)
            .scopes(SERVER, CONNECTION)
            .dflt(String.valueOf(8 * MIB))
            .range(16 * KIB, INT_MAX)
            .effect(CONNECTION_RESUME)
            .rs()
            .doc(
                "Bytes of parsed commands waiting between the EXEC (network) thread and the NRM"
                    + " thread (with nrm_thread on); when reached, the EXEC stops reading from the"
                    + " agent until NRM catches up. Same default as RS on 64-bit.")
            .build());
    all.add(
        def("nrm_thread", Area.INBOUND, BOOLEAN)
            .scopes(SERVER)
            .dflt("on")
            .effect(RESTART)
            .rs()
            .doc(
                "on: each primary connection normalizes commands and writes its inbound queue on"
                    + " its own NRM thread, so the EXEC answers the agent as soon as a batch is"
                    + " handed over. off: the EXEC does that work itself before answering. RS's"
                    + " default is off.")
            .build());
    all.add(
        def("exec_max_connections", Area.INBOUND, INTEGER)
            .scopes(SERVER)
            .unit("connections")
            .dflt("64")
            .range(1, 10_000)
            .effect(RESTART)
            .doc(
                "Most agents connected at once: sockets count from an admitted Hello on, so"
                    + " sockets that send nothing never take an agent's place (they are bounded"
                    + " by exec_max_handshakes). A further agent is refused"
                    + " (TOO_MANY_CONNECTIONS) and retries after its back-off (the agent's"
                    + " retry_min_backoff_ms .. retry_max_backoff_ms).")
            .build());
    all.add(
        def("exec_max_handshakes", Area.INBOUND, INTEGER)
            .scopes(SERVER)
            .unit("connections")
            .dflt("16")
            .range(1, 10_000)
            .effect(RESTART)
            .doc(
                "Most sockets on the LTL port that have not sent their Hello yet, apart from"
                    + " exec_max_connections. When one more arrives, the oldest of them is closed"
                    + " (TOO_MANY_CONNECTIONS) to make way: an agent sends its Hello at once, so"
                    + " idle or slow sockets cannot keep it out. Refusals are logged as one"
                    + " summary line per cause per minute.")
            .build());
    all.add(
        def("exec_handshake_timeout", Area.INBOUND, DURATION_MS)
            .scopes(SERVER)
            .dflt("10000")
            .range(100, 600_000)
            .effect(RESTART)
            .doc(
                "Time from accepting a socket on the LTL port to its Hello and, for a protocol"
                    + " version 4 agent, the end of its SCRAM login; a socket that is not that far"
                    + " in time is closed (PROTOCOL_ERROR) and counted in a summary log line.")
            .build());
    all.add(
        def("exec_max_login_failures", Area.INBOUND, INTEGER)
            .scopes(SERVER)
            .unit("failures")
            .dflt("5")
            .range(0, 1000)
            .effect(RESTART)
            .doc(
                "Failed agent logins in a row from one client address before that address must"
                    + " wait: 1 s, doubling with each further failure up to 60 s; logins while"
                    + " waiting are refused (TOO_MANY_CONNECTIONS 'too many failed logins from"
                    + " <address>, retry in N s', which the agent retries after its back-off)"
                    + " without checking the password, and a successful login ends the wait. 0"
                    + " turns the backoff off. At most 10000 addresses are remembered.")
            .build());
    all.add(
        def("exec_hello_password", Area.INBOUND, BOOLEAN)
            .scopes(SERVER)
            .dflt("off")
            .effect(RESTART)
            .doc(
                "on: agents of LTL protocol versions 1-3, which send their password in clear in"
                    + " the Hello, may log in. off: they are refused (AUTHENTICATION_FAILED,"
                    + " naming this parameter); agents of version 4 log in with SCRAM-SHA-256 and"
                    + " never send the password, whatever this says.")
            .build());
    all.add(
        def("sqt_max_cache_size", Area.INBOUND, BYTES)
            .scopes(SERVER, CONNECTION)
            .dflt(String.valueOf(16 * MIB))
            .range(MIB, 64 * GIB)
            .effect(CONNECTION_RESUME)
            .rs()
            .doc(
                "Memory per inbound SQT for putting transactions in commit order. A transaction"
                    + " that does not fit is dropped from memory and re-read from the queue"
                    + " (TransRemoved). RS's old 128-256 KB default is far too small today; ours"
                    + " is 16 MiB. Set per connection, it plays RS's dist_sqt_max_cache_size.")
            .build());
    all.add(
        def("sts_cachesize", Area.INBOUND, INTEGER)
            .scopes(SERVER)
            .unit("entries")
            .dflt("10000")
            .range(100, 10_000_000)
            .effect(RESTART)
            .rs()
            .doc(
                "Entries (one per lookup key) kept per RSSD table in the STS cache, for tables not"
                    + " fully cached. An entry swapped out costs an RSSD query on the data path"
                    + " (STSCacheExceed). RS documents no default.")
            .build());
    fullCache(all, "rs_connections", false, "connections, looked up by name and id");
    fullCache(
        all, "rs_objects", true, "table replication definitions with their columns, read by NRM");
    fullCache(
        all,
        "rs_columns",
        true,
        "repdef columns; they are cached with their repdef, so this acts as"
            + " sts_full_cache_rs_objects");
    fullCache(all, "rs_dbreps", true, "database replication definitions, read by DIST");
    fullCache(all, "rs_subscriptions", false, "subscriptions, read by DIST");
    fullCache(all, "rs_users", true, "users, read at every login");
  }

  /** One {@code sts_full_cache_<table>} per table the STS can cache whole; all on by default. */
  private static void fullCache(List<Parameter> all, String table, boolean rs, String what) {
    Def d =
        def("sts_full_cache_" + table, Area.INBOUND, BOOLEAN)
            .scopes(SERVER)
            .dflt("on")
            .effect(RESTART)
            .doc(
                "on: load all of RSSD table "
                    + table
                    + " ("
                    + what
                    + ") into the STS and keep it there, outside sts_cachesize. off: cache its"
                    + " rows like other tables.");
    if (rs) {
      d.rs();
    }
    all.add(d.build());
  }

  private static void agent(List<Parameter> all) {
    all.add(
        def("agent_heartbeat_interval", Area.AGENT, DURATION_MS)
            .scopes(SERVER)
            .dflt("5000")
            .range(100, 600_000)
            .effect(RESTART)
            .doc(
                "How often each side of an idle agent connection sends a heartbeat (LTL protocol"
                    + " version 3): the server sends it to the agent in the Welcome, and each side"
                    + " sends a Heartbeat frame when it has written nothing for this long. With"
                    + " agent_idle_heartbeats it bounds how late either side notices the other is"
                    + " gone.")
            .build());
    all.add(
        def("agent_idle_heartbeats", Area.AGENT, INTEGER)
            .scopes(SERVER)
            .unit("heartbeat intervals")
            .dflt("3")
            .range(2, 100)
            .effect(RESTART)
            .doc(
                "Heartbeat intervals of silence after which a side of the agent connection gives"
                    + " the other up: the server closes an agent's connection that sent nothing"
                    + " for agent_heartbeat_interval x agent_idle_heartbeats (15 s by default),"
                    + " which frees its origin for a replacement agent; a version 3 agent closes"
                    + " and reconnects when the server sent nothing for as long. Agents of"
                    + " protocol versions 1-2 send no heartbeats and must send some frame (a"
                    + " truncation request) within that time.")
            .build());
  }

  private static void dsi(List<Parameter> all) {
    all.add(
        dsiDef("batch", BOOLEAN)
            .dflt("on")
            .doc(
                "Send several commands per round trip to the replicate (JDBC batch). off: one"
                    + " statement per round trip.")
            .build());
    all.add(
        dsiDef("dsi_max_cmds_in_batch", INTEGER)
            .unit("commands")
            .dflt("100")
            .range(1, 1000)
            .doc("Most source commands in one batch.")
            .build());
    all.add(
        dsiDef("dsi_cmd_batch_size", BYTES)
            .dflt(String.valueOf(64 * KIB))
            .range(KIB, 16 * MIB)
            .doc(
                "Most bytes of statement text and values in one batch. RS's default, 8192, is"
                    + " raised to 64 KiB here.")
            .build());
    all.add(
        dsiDef("dsi_xact_group_size", BYTES)
            .dflt(String.valueOf(MIB))
            .range(64 * KIB, INT_MAX)
            .doc(
                "Most bytes of source transactions grouped into one replicate transaction. To"
                    + " turn grouping off, set dsi_max_xacts_in_group to 1.")
            .build());
    all.add(
        dsiDef("dsi_max_xacts_in_group", INTEGER)
            .unit("transactions")
            .dflt("20")
            .range(1, 1000)
            .doc(
                "Most source transactions grouped into one replicate transaction; 1 turns"
                    + " grouping off. Lower it when parallel threads contend.")
            .build());
    all.add(
        dsiDef("dsi_large_xact_size", INTEGER)
            .unit("commands")
            .dflt("100")
            .range(4, 4_294_967_295L)
            .doc(
                "A transaction with more commands is large: it is never grouped, and with"
                    + " dsi_num_large_xact_threads above 0 it starts on a large-transaction thread"
                    + " before its commit is seen.")
            .build());
    all.add(
        dsiDef("dsi_num_threads", INTEGER)
            .unit("threads")
            .dflt("1")
            .range(1, 255)
            .doc(
                "DSI executor threads, each with its own replicate connection. 1: continuous"
                    + " mode; more: parallel DSI, still committing in the primary's commit order.")
            .build());
    all.add(
        dsiDef("dsi_num_large_xact_threads", INTEGER)
            .unit("threads")
            .dflt("0")
            .range(0, 254)
            .doc(
                "Of dsi_num_threads, how many are kept for large transactions; must be less than"
                    + " dsi_num_threads (checked at resume). Not used with dsi_compile_enable.")
            .build());
    all.add(
        dsiDef("dsi_serialization_method", ENUM)
            .dflt("dependency_aware")
            .values(
                "dependency_aware",
                "no_wait",
                "wait_for_start",
                "wait_for_commit",
                "wait_after_commit")
            .doc(
                "When a parallel thread may start its next transaction: when no running one writes"
                    + " the same rows (dependency_aware, our default; RS's is wait_for_commit), at"
                    + " once (no_wait), once the previous one has started, once it is ready to"
                    + " commit, or once it has committed. Commits are always in commit order, so"
                    + " rs_lastcommit stays exact.")
            .build());
    all.add(
        dsiDef("dsi_isolation_level", ENUM)
            .dflt("default")
            .values(
                "default", "read_uncommitted", "read_committed", "repeatable_read", "serializable")
            .doc(
                "Isolation level of DSI transactions; default: the replicate's own. RS takes 0-3;"
                    + " the levels are named here.")
            .build());
    all.add(
        dsiDef("dsi_sqt_max_cache_size", BYTES)
            .dflt(String.valueOf(16 * MIB))
            .range(MIB, 64 * GIB)
            .doc(
                "Memory per DSI for assembling outbound transactions. RS's 0 (= use"
                    + " sqt_max_cache_size) is not accepted: the DSI value is always its own.")
            .build());
    all.add(
        dsiDef("dsi_bulk_copy", BOOLEAN)
            .dflt("off")
            .doc(
                "Apply a run of at least dsi_bulk_threshold inserts into one table through the"
                    + " bulk interface (PostgreSQL COPY, MariaDB LOAD DATA LOCAL).")
            .build());
    all.add(
        dsiDef("dsi_bulk_threshold", INTEGER)
            .unit("commands")
            .dflt("20")
            .range(1, INT_MAX)
            .doc(
                "Inserts in a row into one table (with HVAR: net rows per table and operation)"
                    + " from which the bulk interface is used.")
            .build());
    all.add(
        dsiDef("dsi_command_convert", ENUM_SET)
            .dflt("none")
            .values("none", "i2none", "u2none", "d2none", "t2none", "i2di", "u2di")
            .doc(
                "Rewrite operations before applying them: i2di applies an insert as delete plus"
                    + " insert (an upsert), u2di an update as delete plus insert, and x2none"
                    + " drops operation x (i insert, u update, d delete, t truncate).")
            .build());
    all.add(
        dsiDef("dsi_compile_enable", BOOLEAN)
            .dflt("off")
            .doc(
                "HVAR: compile many transactions into one net change per row and apply it in"
                    + " bulk, in one replicate transaction per group.")
            .build());
    all.add(
        dsiDef("dsi_compile_max_cmds", INTEGER)
            .unit("commands")
            .dflt("50000")
            .range(100, 100_000_000)
            .doc(
                "Most commands compiled into one HVAR group (a larger transaction is a group"
                    + " alone); under light load groups end sooner so latency stays low. RS"
                    + " documents no default; its examples use 50000.")
            .build());
    all.add(
        dsiDef("dsi_cdb_max_size", BYTES)
            .dflt(String.valueOf(256 * MIB))
            .range(MIB, 64 * GIB)
            .doc(
                "Most memory for one HVAR group: its net changes and the source transactions it"
                    + " keeps for a fallback; reaching it ends the group. RS counts MB (default"
                    + " 1024); ours is 256 MiB of heap per group, and a connection holds up to"
                    + " `dsi_num_threads` + 1 groups (one compiling, the others applying).")
            .build());
    all.add(
        dsiDef("dsi_compile_retry_threshold", INTEGER)
            .unit("failures")
            .dflt("3")
            .range(1, 1000)
            .doc(
                "HVAR: after this many failed bulk applies involving one replicate table, that"
                    + " table's changes are applied in continuous mode until the connection"
                    + " resumes. RS uses it as a group size below which a failed group is not split"
                    + " again.")
            .build());
    all.add(
        dsiDef("dsi_retry", INTEGER)
            .dflt("0")
            .range(0, 1)
            .doc(
                "When a group (HVAR, parallel or bulk) fails: 0 re-applies its transactions in"
                    + " continuous mode, logged and counted; 1 suspends the connection instead."
                    + " RS's value 2 is not offered.")
            .build());
    all.add(
        dsiDef("command_retry", INTEGER)
            .unit("retries")
            .dflt("3")
            .range(0, 1000)
            .doc(
                "Times a transaction that failed with a retryable error (deadlock, serialization"
                    + " failure, lost connection) is retried before the error action applies.")
            .build());
    all.add(
        dsiDef("dsi_row_count_validation", BOOLEAN)
            .dflt("on")
            .doc(
                "Check that every replicated update and delete touches exactly one row; a"
                    + " mismatch stops the connection unless the error class says otherwise.")
            .build());
    all.add(
        dsiDef("dsi_keep_triggers", BOOLEAN)
            .dflt("on")
            .doc(
                "on: the replicate's foreign-key actions and triggers act on the transactions of"
                    + " origins whose log lacks their effects (MariaDB/MySQL: InnoDB's cascades"
                    + " are not in the binlog); a PostgreSQL origin's transactions, whose log"
                    + " holds its cascaded changes and trigger rows, are applied in replica mode"
                    + " whatever this says (PostgreSQL replicate: session_replication_role ="
                    + " replica; MariaDB replicate: foreign_key_checks = 0). off: every"
                    + " transaction is applied in replica mode.")
            .build());
    all.add(
        def("dsi_apply_ddl", Area.DSI, BOOLEAN)
            .scopes(SERVER, CONNECTION)
            .effect(CONNECTION_RESUME)
            .dflt("off")
            .doc(
                "on: DDL commands from the primary are applied at this replicate; off: they are"
                    + " logged, counted (DSIEDdlSkipped) and skipped.")
            .build());
    all.add(
        def("error_class", Area.DSI, STRING)
            .scopes(SERVER, CONNECTION)
            .effect(CONNECTION_RESUME)
            .dflt("")
            .range(0, 255)
            .rs()
            .doc(
                "The error class (create error class) whose actions override the profile's"
                    + " defaults (rs_postgresql_error_class, rs_mariadb_error_class); empty: the"
                    + " defaults only. Set with create/alter connection ... set error class to"
                    + " <class>.")
            .build());
    all.add(
        def("dsi_synchronous_commit", Area.DSI, BOOLEAN)
            .scopes(SERVER, CONNECTION)
            .effect(CONNECTION_RESUME)
            .dflt("on")
            .doc(
                "off: replicate transactions commit without waiting for the replicate's log flush"
                    + " (PostgreSQL synchronous_commit = off, as PostgreSQL's own subscriptions"
                    + " apply); the outbound queue is truncated only behind the replicate's flushed"
                    + " log, so a crash of the replicate loses nothing (the DSI applies again from"
                    + " rs_lastcommit; not behind a connection pooler that keeps connections across"
                    + " a database restart, see dsi.md). No effect on MariaDB/MySQL.")
            .build());
    all.add(
        dsiDef("dsi_rs_ticket_report", BOOLEAN)
            .dflt("off")
            .doc("on: the DSI inserts every rs_ticket it applies into rs_ticket_history.")
            .build());
  }

  private static void monitoring(List<Parameter> all) {
    all.add(
        def("stats_sampling", Area.MONITORING, BOOLEAN)
            .scopes(SERVER)
            .dflt("on")
            .effect(IMMEDIATELY)
            .rs()
            .doc(
                "on: modules keep their monitor counters for admin stats and Prometheus. off:"
                    + " counters stand still; admin who columns are kept regardless.")
            .build());
    all.add(
        def("stats_show_zero_counters", Area.MONITORING, BOOLEAN)
            .scopes(SERVER)
            .dflt("off")
            .effect(IMMEDIATELY)
            .rs()
            .doc("on: admin stats also lists counters whose value is 0.")
            .build());
  }

  // ---- a small declaration helper -----------------------------------------------------------

  private static Def def(String name, Area area, ParamType type) {
    return new Def(name, area, type);
  }

  private static Def startup(String name, ParamType type) {
    return def(name, Area.SERVER_PROCESS, type).scopes(SERVER).effect(RESTART).fileOnly();
  }

  private static Def dsiDef(String name, ParamType type) {
    return def(name, Area.DSI, type).scopes(SERVER, CONNECTION).effect(CONNECTION_RESUME).rs();
  }

  /** Mutable while one declaration is written; {@link #build()} makes the record. */
  private static final class Def {
    private final String name;
    private final Area area;
    private final ParamType type;
    private Set<Scope> scopes = EnumSet.noneOf(Scope.class);
    private String unit = "";
    private String dflt;
    private OptionalLong min = OptionalLong.empty();
    private OptionalLong max = OptionalLong.empty();
    private OptionalLong multipleOf = OptionalLong.empty();
    private List<String> values = List.of();
    private TakesEffect effect;
    private boolean fileOnly;
    private boolean rs;
    private String doc;

    Def(String name, Area area, ParamType type) {
      this.name = name;
      this.area = area;
      this.type = type;
    }

    Def scopes(Scope first, Scope... rest) {
      this.scopes = EnumSet.of(first, rest);
      return this;
    }

    Def unit(String unit) {
      this.unit = unit;
      return this;
    }

    Def dflt(String value) {
      this.dflt = value;
      return this;
    }

    Def range(long min, long max) {
      this.min = OptionalLong.of(min);
      this.max = OptionalLong.of(max);
      return this;
    }

    Def multipleOf(long step) {
      this.multipleOf = OptionalLong.of(step);
      return this;
    }

    Def values(String... values) {
      this.values = List.of(values);
      return this;
    }

    Def values(long... values) {
      List<String> v = new ArrayList<>();
      for (long n : values) {
        v.add(String.valueOf(n));
      }
      this.values = v;
      return this;
    }

    Def effect(TakesEffect effect) {
      this.effect = effect;
      return this;
    }

    Def fileOnly() {
      this.fileOnly = true;
      return this;
    }

    Def rs() {
      this.rs = true;
      return this;
    }

    Def doc(String doc) {
      this.doc = doc;
      return this;
    }

    Parameter build() {
      return new Parameter(
          name,
          area,
          scopes,
          type,
          unit,
          dflt,
          min,
          max,
          multipleOf,
          values,
          effect,
          fileOnly,
          rs,
          doc);
    }
  }
}
