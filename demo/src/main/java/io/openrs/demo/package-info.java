/**
 * The README's quick-start demo ({@code docs/demo.md}): prepares a primary and a replicate database
 * on the local servers, starts the replication server and the replication agent as child processes
 * with generated configuration files, configures them through the admin port with the RCL commands
 * a DBA would type (printed as they run), runs a bounded OLTP workload on the primary while
 * printing progress from {@code admin stats}, {@code admin who, sqm} and {@code admin
 * ticket_history}, and compares every table of the replicate with the primary.
 *
 * <p>Entry point: {@link io.openrs.demo.QuickstartDemo} (picocli). Threads: the main thread runs
 * the phases and samples progress; the workload runs one thread per client ({@code
 * openrs-demo-client-<n>}).
 *
 * <p>Must not: use the server's or the agent's classes. It knows them only as processes (their main
 * class names and their output lines), as a DBA and a script would, and talks to the server only
 * through the admin port over pgjdbc. Enforced by the Maven dependencies (the server and the agent
 * are runtime-scope only, to be on the children's classpath) and {@code ModuleBoundariesTest}.
 */
package io.openrs.demo;
