/**
 * The RSSD (Replication Server System Database) and the STS cache in front of it.
 *
 * <p>Owns: the system tables ({@code rs_connections}, {@code rs_config}, {@code rs_objects}/{@code
 * rs_columns}, {@code rs_dbreps}/{@code rs_dbsubsets}, {@code rs_subscriptions}, {@code
 * rs_locater}, {@code rs_users}, {@code rs_exceptshdr}/{@code rs_exceptscmd}, {@code
 * rs_statdetail}, {@code rs_ticket_history}, {@code rs_classes}/{@code rs_erroractions}) on
 * embedded H2 or PostgreSQL, their Flyway migrations ({@code db/migration/rssd}), one small JDBC
 * class per table behind a public interface, SCRAM verifiers for {@code rs_users}, and {@link
 * io.openrs.config.rssd.StsCache}. {@code docs/rssd.md} describes it.
 *
 * <p>Threads: none of its own (HikariCP runs its pool housekeeper). {@link
 * io.openrs.config.rssd.Rssd}, the tables and the STS cache are thread-safe and called by any
 * server thread.
 *
 * <p>Must not: depend on the agent, server, queue or DSI modules, or start pipeline threads
 * (enforced by {@code ModuleBoundariesTest}).
 */
package io.openrs.config.rssd;
