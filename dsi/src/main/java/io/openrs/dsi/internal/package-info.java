/**
 * The DSI's shared machinery, what every {@link io.openrs.dsi.ApplyMode} uses: the DSI-S thread
 * ({@link io.openrs.dsi.internal.Scheduler}: sole owner of the outbound queue's reader, assembles
 * transactions with {@link io.openrs.dsi.internal.TransactionAssembler}, hands them on through the
 * bounded {@link io.openrs.dsi.internal.TransactionHandoff}, confirms behind commits), a run's
 * shared state ({@link io.openrs.dsi.internal.RunContext}), the replicate session of a DSIEXEC
 * thread ({@link io.openrs.dsi.internal.ReplicateSession}, its {@link
 * io.openrs.dsi.internal.Applier}, {@link io.openrs.dsi.internal.Planner} and statement cache,
 * {@code rs_lastcommit}), the one {@link io.openrs.dsi.internal.ErrorPolicy} that judges every
 * failure, the meters and continuous mode's executor ({@link
 * io.openrs.dsi.internal.SerialExecutor}, one class, so no package of its own).
 *
 * <p>The modes that need more live below it: {@code io.openrs.dsi.internal.parallel} and {@code
 * io.openrs.dsi.internal.hvar}; {@code io.openrs.dsi.internal.run} builds a run's threads for the
 * settings' mode.
 *
 * <p>Threads: DSI-S ({@code rs-dsi-s-<ds.db>}) and continuous mode's DSIEXEC thread ({@code
 * rs-dsi-exec-<ds.db>-1}) are defined here; a {@code ReplicateSession} belongs to one DSIEXEC
 * thread; {@code RunContext}, the hand-off and the meters are thread-safe. Every DSI thread is an
 * {@link io.openrs.runtime.WorkerThread} that stops after its current step when asked.
 *
 * <p>Must not: import the packages of the modes ({@code parallel}, {@code hvar}) or the run: they
 * build on this one. Only {@code io.openrs.dsi.DsiConnection} uses the machinery from outside
 * {@code io.openrs.dsi.internal..}. Enforced by {@code ModuleBoundariesTest}.
 */
package io.openrs.dsi.internal;
