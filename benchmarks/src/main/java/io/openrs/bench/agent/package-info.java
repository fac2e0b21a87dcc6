/**
 * Replication agent benchmarks against the PostgreSQL on this machine (issue 6): {@link
 * io.openrs.bench.agent.AgentDrainBenchmark}.
 */
package io.openrs.bench.agent;
