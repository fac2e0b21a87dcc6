/**
 * The replication server process: the LTL listener (EXEC), normalization (NRM), the transaction
 * sorter (SQT), the distributor (DIST), the admin command interface, monitor counters, lifecycle
 * and {@code main}.
 *
 * <p>Must not: contain apply logic (that is module {@code dsi}) or talk to databases except through
 * module {@code config}. Enforced by {@code ModuleBoundariesTest}.
 */
package io.openrs.repserver;
