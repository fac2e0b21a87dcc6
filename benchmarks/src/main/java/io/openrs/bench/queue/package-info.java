/**
 * JMH benchmarks of the stable queue (module {@code stable-queue}): write throughput against the
 * device's physical limit measured in the same run ({@code QueueWriteRatio} runs both, round by
 * round, and prints the ratios), read throughput from the cache and from the files, and the heap a
 * large backlog costs ({@code QueueHeapFootprint}, a plain main). Figures and commands: {@code
 * docs/performance.md}.
 *
 * <p>Threads: JMH's. Must not: import {@code io.openrs.ltl}, {@code java.sql}, {@code io.netty}.
 */
package io.openrs.bench.queue;
