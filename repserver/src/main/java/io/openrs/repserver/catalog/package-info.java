/**
 * The catalog: the one door through which the RSSD's configuration changes ({@link
 * io.openrs.repserver.catalog.Catalog}): connections' rows and saved states, replication
 * definitions, users, connection settings, server configuration values, error classes and deletions
 * from the exceptions log; {@link io.openrs.repserver.catalog.Subscriptions} holds subscriptions
 * and their materialization bookkeeping. Each change is checked, written to the RSSD and announced
 * to the replication rules, whose moving version drops the lookups cached over the STS cache.
 * {@link io.openrs.repserver.catalog.CatalogView} is what the admin commands read: rows and lists,
 * never the RSSD's tables. The server opens and closes a connection's queues, pipeline and DSI
 * after the catalog changed its row; a new subscription asks the server to start its replicate
 * through {@link io.openrs.repserver.catalog.Catalog.Replicates}.
 *
 * <p>Threads: none of its own; called from admin sessions (pgwire workers) and the server, one
 * checked change at a time under the catalog's lock; a finished materialization is recorded on the
 * server's {@code rs-repserver-rssd-writer} thread.
 *
 * <p>Must not: import {@code admin}, {@code monitor}, {@code exec}, {@code origin} or the root
 * package; it checks definitions with {@code nrm}'s column types and {@code dist}'s where clauses,
 * and reaches primaries (snapshot signals) through {@code dsi}'s targets. The pipeline packages
 * never import it. Enforced by {@code ModuleBoundariesTest}.
 */
package io.openrs.repserver.catalog;
