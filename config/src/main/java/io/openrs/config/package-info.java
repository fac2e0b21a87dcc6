/**
 * Configuration and the system database: the catalog of every configuration parameter (name, scope,
 * type, default, range, when a change takes effect), the RSSD system tables on an embedded database
 * by default or any JDBC database, and the STS cache in front of them.
 *
 * <p>Threads: called by the server's threads; owns no pipeline thread.
 *
 * <p>Must not: start threads of the pipeline, or depend on the agent, server or DSI modules.
 * Enforced by {@code ModuleBoundariesTest}.
 */
package io.openrs.config;
