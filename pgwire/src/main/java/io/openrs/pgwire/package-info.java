/**
 * A server for PostgreSQL's frontend/backend protocol version 3, so that psql, the PostgreSQL JDBC
 * driver and other SQL tools can be the admin client: startup, SSLRequest and TLS, SCRAM-SHA-256
 * authentication (with SCRAM-SHA-256-PLUS channel binding over TLS), simple and extended query
 * flows, row descriptions and error responses with SQLSTATEs. What is implemented, message by
 * message, is in {@code docs/formats/pgwire.md}.
 *
 * <p>Owns the protocol only: what a command means is the {@link io.openrs.pgwire.PgBackend}'s
 * business. Knows nothing of replication, queues or the RSSD, and must not import any other {@code
 * io.openrs} module or {@code java.sql} ({@code ModuleBoundariesTest} enforces it).
 *
 * <p>API: {@link io.openrs.pgwire.PgServer}, {@link io.openrs.pgwire.PgServerSettings}, {@link
 * io.openrs.pgwire.PgBackend}, {@link io.openrs.pgwire.PgSession}, {@link io.openrs.pgwire.PgUser},
 * {@link io.openrs.pgwire.PgResult}, {@link io.openrs.pgwire.PgColumn}, {@link
 * io.openrs.pgwire.PgType}, {@link io.openrs.pgwire.PgException}, {@link
 * io.openrs.pgwire.PgSqlState} and {@link io.openrs.pgwire.PgScram} (verifiers for whoever stores
 * users); {@link io.openrs.pgwire.ScramExchange} and {@link io.openrs.pgwire.LoginThrottle} share
 * the admin port's SCRAM exchange and per-address login backoff with the LTL port. Everything else
 * is package-private machinery.
 *
 * <p>Threads: {@code rs-pgwire-accept} accepts; {@code rs-pgwire-io-*} (Netty event loops) frame
 * bytes ({@code PgFrameDecoder}) and negotiate TLS, nothing else; each connection's messages are
 * handled in order, one at a time, by {@code PgConnection} on the {@code rs-pgwire-worker-*} pool
 * through a per-connection {@code SerialExecutor}, so {@link io.openrs.pgwire.PgBackend} calls may
 * block without stalling the network or other sessions.
 *
 * <p>Bounded per input: the decoder checks every length before buffering and skips (never buffers)
 * statements above {@code maxStatementBytes}; {@code SqlLexer} caps statements per query string and
 * tokens per statement. Admission: connections not yet logged in are capped apart from sessions
 * ({@code PgServerContext}, oldest closed first), must log in within the authentication timeout,
 * and failed logins back off per client address ({@code LoginThrottle}, injected {@link
 * java.time.Clock}); events a client can repeat at will are logged through {@code RateLimitedLog}.
 */
package io.openrs.pgwire;
