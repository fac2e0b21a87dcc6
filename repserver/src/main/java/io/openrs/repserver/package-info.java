/**
 * The replication server process: {@link io.openrs.repserver.ReplicationServer} (lifecycle,
 * recovery, one pipeline per origin and one outbound queue and DSI per replicate connection, the
 * admin commands' {@code admin.ServerControl}; the composition root that builds the catalog and the
 * admin service), its settings, files and directory lock, and {@code main}.
 *
 * <p>The packages below, from the top: {@code admin} (commands, {@code admin.rcl} their language),
 * {@code catalog} (the one door for RSSD configuration changes), {@code monitor} (counters as
 * operators see them), {@code exec} (the LTL port), {@code origin} (one origin's pipeline and its
 * SQT/DIST thread), {@code nrm}, {@code dist}, {@code sqt}, {@code rules}, {@code dsi} (the
 * server's side of the replicate DSIs) and {@code lease} (the server lease of a standby pair).
 * {@code docs/architecture.md} draws them with their threads.
 *
 * <p>Threads: {@code rs-repserver-rssd-writer} (one scheduled thread: locators saved each second,
 * partition space warnings, materialization bookkeeping and counter samples, so RSSD writes never
 * run on a network or pipeline thread); {@code main} waits for the process's end, and the JVM's
 * shutdown hook {@code rs-repserver-shutdown-<server>} closes the server.
 *
 * <p>Must not: contain apply logic (that is module {@code dsi}) or talk to databases except through
 * module {@code config}. Only this package wires the others together; no package below imports it.
 * Enforced by {@code ModuleBoundariesTest}.
 */
package io.openrs.repserver;
