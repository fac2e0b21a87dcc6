/**
 * The parallel DSI ({@link io.openrs.dsi.ApplyMode#PARALLEL}, {@code dsi_num_threads} above 1):
 * {@link io.openrs.dsi.internal.parallel.ParallelCoordinator} numbers groups of transactions into
 * units in commit order and hands them out as {@code dsi_serialization_method} allows ({@link
 * io.openrs.dsi.internal.parallel.DependencyKeys}: the rows a group writes); each {@link
 * io.openrs.dsi.internal.parallel.ParallelWorker} applies its units on its own replicate session
 * and commits them in commit order, waiting on its predecessor's {@code rs_threads} row. With
 * {@code dsi_num_large_xact_threads}, the last threads take large transactions that DSI-S streams
 * before their commit is read.
 *
 * <p>Threads: the DSIEXEC threads {@code rs-dsi-exec-<ds.db>-<n>} ({@code ParallelWorker}); the
 * coordinator is shared by them and guarded by one lock (it never waits on the database).
 *
 * <p>Must not: import {@code io.openrs.dsi.internal.hvar} or {@code io.openrs.dsi.internal.run}
 * (the run builds this package's threads; the modes know nothing of each other), talk to the
 * outbound queue (DSI-S does) or parse LTL text. Enforced by {@code ModuleBoundariesTest}.
 * Behaviour: {@code docs/dsi.md}, "Parallel DSI".
 */
package io.openrs.dsi.internal.parallel;
