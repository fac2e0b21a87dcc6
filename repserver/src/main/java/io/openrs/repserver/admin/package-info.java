/**
 * The admin port's commands: {@link io.openrs.repserver.admin.AdminService} is the pgwire backend
 * that parses each statement ({@code admin.rcl}) and hands it to the command class of its kind
 * (definitions, status, statistics, control, users, error classes, the exceptions log); errors
 * become SQLSTATEs in {@link io.openrs.repserver.admin.AdminErrors}.
 *
 * <p>Threads: none long-lived of its own; commands run on pgwire's worker threads ({@code
 * rs-pgwire-worker-<n>}), one statement of a session at a time. {@code shutdown} starts the {@code
 * rs-repserver-admin-shutdown} thread, which runs the process's exit.
 *
 * <p>Must not: import the server class or the root package, the RSSD ({@code Rssd}, {@code
 * StsCache}) or the queue manager. Commands read and change the RSSD through {@code
 * catalog.Catalog} and its {@code CatalogView}, and reach the running server (queues' state,
 * pipelines, DSIs, counters; connection, log transfer and distributor control) through {@link
 * io.openrs.repserver.admin.ServerControl}, which {@code ReplicationServer} implements. Nothing
 * below this package imports it. Enforced by {@code ModuleBoundariesTest}.
 */
package io.openrs.repserver.admin;
