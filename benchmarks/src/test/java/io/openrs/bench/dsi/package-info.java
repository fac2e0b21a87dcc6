/**
 * Benchmarks of the DSI alone, from an outbound queue backlog into the local PostgreSQL: {@link
 * io.openrs.bench.dsi.HvarBenchmark} (HVAR against continuous mode), {@link
 * io.openrs.bench.dsi.ApplyRateBenchmark} (parallel streams, bulk inserts) and {@link
 * io.openrs.bench.dsi.SmallTransactionsBenchmark} ({@code dsi_synchronous_commit}). JUnit classes
 * tagged {@code benchmark}, run one at a time by Failsafe; they build on the dsi module's testkit
 * (its test-jar) and its public API only. Commands and figures: docs/performance.md and
 * docs/dsi.md.
 */
package io.openrs.bench.dsi;
