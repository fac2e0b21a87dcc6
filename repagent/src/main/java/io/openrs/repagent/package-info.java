/**
 * The replication agent: a Debezium embedded engine per primary database, change events to LTL,
 * batching, the client side of the LTL protocol, and its own counters.
 *
 * <p>Threads: the Debezium engine thread and one sender thread per agent.
 *
 * <p>Must not: know stable queues or DSI internals (it speaks LTL to a server and nothing else).
 * Enforced by the Maven dependencies and {@code ModuleBoundariesTest}.
 */
package io.openrs.repagent;
