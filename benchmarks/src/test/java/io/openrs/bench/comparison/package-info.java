/**
 * The benchmark against PostgreSQL's native logical replication (issue 9, "The benchmark"): {@link
 * io.openrs.bench.comparison.NativeComparisonBenchmark}, tagged {@code benchmark}, excluded from
 * the default run. It starts the server, the agent and a Debezium drain as child JVMs through the
 * consistency suite's support package (its test-jar), on this module's test class path. Method,
 * command and figures: docs/performance.md.
 */
package io.openrs.bench.comparison;
