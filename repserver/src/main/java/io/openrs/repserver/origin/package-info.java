/**
 * One origin's inbound pipeline: {@link io.openrs.repserver.origin.OriginPipeline} builds and owns
 * the origin's state (log transfer, durable locator), its locator row, the hand-off from EXEC, the
 * NRM thread and the SQT/DIST thread, and hands its counters ({@link
 * io.openrs.repserver.origin.PipelineCounters}) to whoever publishes them.
 *
 * <p>Threads: {@code rs-repserver-nrm-<origin>} ({@code nrm.NrmThread}, when {@code nrm_thread} is
 * on) and {@code rs-repserver-sqtdist-<origin>} ({@link io.openrs.repserver.origin.SqtDistThread}),
 * one each per origin; {@code OriginState} is read by any thread, its durable locator written by
 * the inbound queue's writer thread.
 *
 * <p>Must not: import {@code admin}, {@code monitor} or {@code catalog} (meters are registered by
 * {@code monitor.OriginMeters}, above), nor the root package. Enforced by {@code
 * ModuleBoundariesTest}.
 */
package io.openrs.repserver.origin;
