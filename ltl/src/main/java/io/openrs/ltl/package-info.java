/**
 * LTL, the change language between replication agent and replication server: the command model.
 *
 * <p>Owns: the commands ({@link io.openrs.ltl.LtlCommand} and its records), the typed values
 * ({@link io.openrs.ltl.Value}), origin locators ({@link io.openrs.ltl.Oqid}) and transaction ids.
 * The text syntax lives in {@code io.openrs.ltl.text}, the packed binary form used inside stable
 * queues in {@code io.openrs.ltl.packed}.
 *
 * <p>Threads: everything here is immutable and may be shared between threads.
 *
 * <p>Must not: know about sockets, files or JDBC (no {@code java.net}, {@code java.nio.file},
 * {@code java.sql}, Netty); must not depend on any other OpenRS module. Enforced by {@code
 * ModuleBoundariesTest}.
 */
package io.openrs.ltl;
