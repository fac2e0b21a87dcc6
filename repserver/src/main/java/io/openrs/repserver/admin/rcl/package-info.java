/**
 * The admin command language (RCL, close to Replication Server's): a hand-written tokenizer and
 * recursive-descent parser ({@link io.openrs.repserver.admin.rcl.RclParser}) that turns one command
 * into an immutable {@link io.openrs.repserver.admin.rcl.RclCommand} record, or fails with an
 * {@link io.openrs.repserver.admin.rcl.RclSyntaxException} naming the offending word, its position
 * and what was expected. The grammar is in {@code RclParser}'s javadoc.
 *
 * <p>Owns syntax only: nothing here checks that a connection, parameter or user exists, touches the
 * RSSD or runs anything; the admin executor does that against the AST.
 *
 * <p>Threads: none of its own; parsing is stateless and safe from any thread (each call uses its
 * own parser), the AST is immutable.
 *
 * <p>Must not: depend on anything in the server but the stable queue's value types ({@code
 * QueueId}, {@code QueuePosition}, {@code QueueType}), so the wire layer and tools can parse
 * without a running server. Enforced by {@code RclDependenciesTest}.
 */
package io.openrs.repserver.admin.rcl;
