/**
 * The replication agent: a Debezium embedded engine per primary database, change events to LTL,
 * batching, the client side of the LTL protocol, and its own counters ({@code docs/repagent.md}).
 *
 * <p>Entry points: {@link io.openrs.repagent.RepAgent} (embeddable), {@link
 * io.openrs.repagent.Main} ({@code bin/repagent}), settings from {@link
 * io.openrs.repagent.AgentConfigFile}.
 *
 * <p>Threads: the agent's control thread ({@code rs-repagent-control-<agent>}) runs sessions one
 * after another; a session runs the Debezium engine ({@code rs-repagent-engine-<agent>}, which owns
 * {@code RecordHandler}, the source mapper and {@code TransactionAssembler}) and one sender thread
 * ({@code rs-repagent-sender-<agent>}); answers from the server arrive on the wire client's I/O
 * thread.
 *
 * <p>Must not: know stable queues, the server or DSI internals (it speaks LTL to a server and
 * nothing else). Enforced by the Maven dependencies (the server is a test-scope dependency only,
 * for end-to-end tests) and {@code ModuleBoundariesTest}.
 */
package io.openrs.repagent;
