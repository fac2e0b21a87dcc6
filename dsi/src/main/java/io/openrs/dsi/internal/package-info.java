/**
 * The DSI's machinery. One run (start or resume until stop) is a {@link
 * io.openrs.dsi.internal.DsiRun}: a HikariCP pool, the DSI-S thread ({@link
 * io.openrs.dsi.internal.Scheduler}: sole owner of the outbound queue's reader, assembles
 * transactions, confirms behind commits) and the DSIEXEC threads ({@link
 * io.openrs.dsi.internal.SerialExecutor}, or {@link io.openrs.dsi.internal.ParallelWorker}s
 * scheduled by a {@link io.openrs.dsi.internal.ParallelCoordinator}), each owning one connection
 * and its {@link io.openrs.dsi.internal.ReplicateSession}, {@link io.openrs.dsi.internal.Applier}
 * and statement cache. With {@code dsi_compile_enable} the DSIEXEC side is HVAR's ({@link
 * io.openrs.dsi.internal.HvarExecutor} compiles groups with {@code io.openrs.dsi.hvar}, {@link
 * io.openrs.dsi.internal.HvarApply} applies them on a session; DSI-S then holds transactions
 * {@linkplain io.openrs.dsi.internal.PackedBody packed}). Every failure is judged by the one {@link
 * io.openrs.dsi.internal.ErrorPolicy}. Only {@code io.openrs.dsi.DsiConnection} uses this package.
 */
package io.openrs.dsi.internal;
