/**
 * The consistency suite: the whole pipeline (agent, server, DSI) in its real processes against the
 * machine's real PostgreSQL and MariaDB, a generated workload with fixed seeds, faults, and a
 * full-content comparison of every replicate with its primary at the end. See docs/consistency.md.
 */
package io.openrs.consistency;
