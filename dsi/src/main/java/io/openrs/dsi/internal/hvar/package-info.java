/**
 * HVAR (High Volume Adaptive Replication, {@link io.openrs.dsi.ApplyMode#HVAR}, {@code
 * dsi_compile_enable on}), all of it. Two halves:
 *
 * <ul>
 *   <li>the compiler and bulk apply, which know nothing of a run: many source transactions become
 *       one net-change set per replicate table ({@link io.openrs.dsi.internal.hvar.NetChangeDb}),
 *       applied set-based through the target's bulk interface ({@link
 *       io.openrs.dsi.internal.hvar.BulkApplier}), tables ordered by the replicate's foreign keys
 *       ({@link io.openrs.dsi.internal.ForeignKeyOrder});
 *   <li>the threads that drive them in a run: {@link io.openrs.dsi.internal.hvar.HvarExecutor}
 *       compiles groups and hands them through the {@link io.openrs.dsi.internal.hvar.HvarPipeline}
 *       to the DSIEXEC threads, which apply them ({@link io.openrs.dsi.internal.hvar.HvarApply}) on
 *       their replicate session; a group's new rows go ahead while it compiles ({@link
 *       io.openrs.dsi.internal.hvar.AheadInserts}, on a {@link
 *       io.openrs.dsi.internal.hvar.SharedApplySession}); {@link
 *       io.openrs.dsi.internal.hvar.HvarTables} caches what HVAR knows of the replicate's tables.
 * </ul>
 *
 * <p>Threads: the compiling thread {@code rs-dsi-hvar-<ds.db>} and the DSIEXEC threads {@code
 * rs-dsi-exec-<ds.db>-<n>}. A group's objects are owned by one thread at a time (the compiling
 * thread, then the DSIEXEC thread applying it) and are not thread-safe; the pipeline and the shared
 * sessions are, each with one lock.
 *
 * <p>Must not: import {@code io.openrs.dsi.internal.parallel} or {@code io.openrs.dsi.internal.run}
 * (the run builds this package's threads; the modes know nothing of each other), talk to the
 * outbound queue (DSI-S does; HVAR takes transactions packed from the hand-off) or parse LTL text.
 * Enforced by {@code ModuleBoundariesTest}. Behaviour: {@code docs/dsi.md}, "HVAR".
 */
package io.openrs.dsi.internal.hvar;
