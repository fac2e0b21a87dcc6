/**
 * The catalog: the one door through which the RSSD's configuration changes ({@link
 * io.openrs.repserver.catalog.Catalog}): replication definitions, subscriptions and their
 * materialization bookkeeping, users, connection settings, server configuration values and error
 * classes; each change is checked, written to the RSSD and announced to the replication rules,
 * whose moving version drops the lookups cached over the STS cache. Creating and dropping
 * connections (which open and close queues, pipelines and DSIs) are still done by {@code
 * ReplicationServer}, under the same lock; a new subscription asks the server to start its
 * replicate through {@link io.openrs.repserver.catalog.Catalog.Replicates}.
 *
 * <p>Threads: none of its own; called from admin sessions (pgwire workers) and the server's own
 * API, one change at a time; a finished materialization is recorded on the server's {@code RSSD
 * writer} thread.
 *
 * <p>Must not: import {@code admin}, {@code monitor}, {@code exec}, {@code origin} or the root
 * package; it checks definitions with {@code nrm}'s column types and {@code dist}'s where clauses,
 * and reaches primaries (snapshot signals) through {@code dsi}'s targets. The pipeline packages
 * never import it. Enforced by {@code ModuleBoundariesTest}.
 */
package io.openrs.repserver.catalog;
