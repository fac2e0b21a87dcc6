/**
 * Monitor counters as operators see them: the merged counter catalogue ({@code rs_helpcounter}),
 * {@code admin stats} computed from the Micrometer registry, background sampling to the RSSD
 * ({@code admin stats, ..., save}) and its CSV export ({@code rs_dump_stats}), and the Prometheus
 * scrape endpoint with its naming convention.
 *
 * <p>Threads: {@link io.openrs.repserver.monitor.StatsReporter} is called by admin sessions and the
 * sampler (thread-safe, one lock); {@link io.openrs.repserver.monitor.StatsSampler} runs its
 * observations on the {@code ScheduledExecutorService} it is given; {@link
 * io.openrs.repserver.monitor.PrometheusEndpoint} serves scrapes on its own thread {@code
 * rs-repserver-prometheus-<port>}. Nothing here is on a data path: modules keep their counters in
 * plain fields read by Micrometer function meters, and this package only reads the registry.
 *
 * <p>{@link io.openrs.repserver.monitor.ServerCounter} is the catalogue of the inbound side's
 * counters; {@link io.openrs.repserver.monitor.OriginMeters} registers one origin's as meters (the
 * pipeline only keeps plain counters, see {@code origin.PipelineCounters}).
 *
 * <p>Must not: import {@code admin} or the root package; start pipeline threads, change counters,
 * or reach databases except through module {@code config} ({@link
 * io.openrs.config.rssd.CounterSamplesTable}).
 */
package io.openrs.repserver.monitor;
