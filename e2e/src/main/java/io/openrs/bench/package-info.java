/**
 * Benchmarks (JMH) and their workload generators. Never part of the default test run: build with
 * {@code mvn -pl e2e -am package -DskipTests} and run {@code java -jar e2e/target/benchmarks.jar}.
 */
package io.openrs.bench;
