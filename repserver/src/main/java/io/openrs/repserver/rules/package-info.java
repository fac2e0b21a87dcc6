/**
 * Which replication definitions cover a primary table, read through the STS cache ({@link
 * io.openrs.repserver.rules.ReplicationRules}); its {@code version()} moves on every change to
 * connections, definitions or subscriptions, so hot-path callers can keep their own lookups.
 *
 * <p>Threads: none of its own; read from NRM, SQT/DIST and admin threads (thread-safe).
 *
 * <p>Must not: import any other package of the server. Enforced by {@code ModuleBoundariesTest}.
 */
package io.openrs.repserver.rules;
