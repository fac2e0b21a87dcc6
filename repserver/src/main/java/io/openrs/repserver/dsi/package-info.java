/**
 * The server's side of the replicate connections' DSIs (module {@code dsi} applies): {@link
 * io.openrs.repserver.dsi.ReplicateDsis} starts, suspends and resumes one {@code DsiConnection} per
 * replicate, {@link io.openrs.repserver.dsi.DsiTargets} tells it where the database is and with
 * which parameters, {@link io.openrs.repserver.dsi.ServerDsiSink} records what it reports in the
 * RSSD (exceptions log, tickets, a stopped connection's state).
 *
 * <p>Threads: none of its own; each DSI runs the threads of module {@code dsi}, which call the
 * sink. ReplicateDsis is called from admin and server threads (thread-safe).
 *
 * <p>Must not: import any other package of the server, nor {@code io.openrs.dsi.internal}. Enforced
 * by {@code ModuleBoundariesTest}.
 */
package io.openrs.repserver.dsi;
