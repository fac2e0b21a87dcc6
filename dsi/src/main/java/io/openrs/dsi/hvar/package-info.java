/**
 * HVAR (High Volume Adaptive Replication): compiling many source transactions into one net-change
 * set per replicate table ({@link io.openrs.dsi.hvar.NetChangeDb}) and applying it set-based
 * through the target's bulk interface ({@link io.openrs.dsi.hvar.BulkApplier}), ordered by the
 * replicate's foreign keys ({@link io.openrs.dsi.hvar.ForeignKeyOrder}).
 *
 * <p>Threads: each object here is owned by one DSI thread at a time (the compiling thread, then the
 * executor applying the group); none is thread-safe.
 *
 * <p>Must not: depend on {@code io.openrs.dsi.internal} (the executors there drive this package:
 * grouping, rs_lastcommit, error actions, fallback to continuous mode), talk to the outbound queue,
 * or parse LTL text. Enforced by {@code ModuleBoundariesTest}. Behaviour: {@code docs/dsi.md}.
 */
package io.openrs.dsi.hvar;
