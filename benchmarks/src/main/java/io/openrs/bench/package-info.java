/**
 * Benchmarks (JMH) and benchmark mains with their workload generators, shaded into {@code
 * benchmarks/target/benchmarks.jar}. Never part of the default test run: build with {@code mvn -pl
 * benchmarks -am package -DskipTests} and run {@code java -jar benchmarks/target/benchmarks.jar}
 * (JMH) or {@code java -cp benchmarks/target/benchmarks.jar <main class>}. The benchmarks that need
 * another module's test fixtures are JUnit classes in this module's tests ({@code
 * io.openrs.bench.dsi}, {@code io.openrs.bench.comparison}). Commands: docs/performance.md.
 */
package io.openrs.bench;
