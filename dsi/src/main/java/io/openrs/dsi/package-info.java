/**
 * The DSI: applies a replicate connection's outbound queue to the replicate database, in the
 * origins' commit order, exactly once ({@code rs_lastcommit}), with error classes and actions.
 *
 * <p>This package is what the server calls: {@link io.openrs.dsi.DsiConnection} (lifecycle: start,
 * suspend, resume, resume skipping a transaction, close), its inputs ({@link
 * io.openrs.dsi.DsiTarget}, {@link io.openrs.dsi.DsiSettings}, {@link io.openrs.dsi.ErrorClass})
 * and outputs ({@link io.openrs.dsi.DsiState}, {@link io.openrs.dsi.DsiErrorSink}, {@link
 * io.openrs.dsi.LoggedTransaction}, the counter catalogue {@link io.openrs.dsi.DsiCounter}). The
 * target databases differ only inside {@code io.openrs.dsi.dialect}; the machinery (threads,
 * grouping, batching, error policy, parallel scheduling) is in {@code io.openrs.dsi.internal}.
 *
 * <p>Threads: {@code DsiConnection} is thread-safe; its work runs on the DSI's own threads ({@code
 * rs-dsi-s-<ds.db>}, {@code rs-dsi-exec-<ds.db>-<n>}), which call the {@code DsiErrorSink}.
 *
 * <p>Must not: parse LTL text (it reads the packed form from the outbound queue), or depend on the
 * server or the agent. Enforced by {@code ModuleBoundariesTest}. Behaviour and configuration:
 * {@code docs/dsi.md}.
 */
package io.openrs.dsi;
