/**
 * The benchmark against PostgreSQL's native logical replication (issue 9, "The benchmark"): {@link
 * io.openrs.consistency.bench.NativeComparisonBenchmark}, tagged {@code benchmark}, excluded from
 * the default run. Method, command and figures: docs/performance.md.
 */
package io.openrs.consistency.bench;
