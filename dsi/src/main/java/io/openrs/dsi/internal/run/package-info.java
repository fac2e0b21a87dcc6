/**
 * One run of a DSI (start or resume until stop): {@link io.openrs.dsi.internal.run.DsiRun} opens
 * the HikariCP pool, builds the run's shared state and starts its threads. It is the only place
 * that switches on the settings' {@link io.openrs.dsi.ApplyMode}: which DSIEXEC threads run
 * (continuous, {@code io.openrs.dsi.internal.parallel}, {@code io.openrs.dsi.internal.hvar}) and
 * how DSI-S holds what it reads for them. The switch names every mode, so a mode added to {@code
 * ApplyMode} and not handled here does not compile.
 *
 * <p>Threads: none of its own. {@code DsiRun} is called by {@code io.openrs.dsi.DsiConnection}
 * under its lock; it starts DSI-S ({@code rs-dsi-s-<ds.db>}) and the DSIEXEC threads of the mode.
 *
 * <p>Must not: be used by anything but {@code io.openrs.dsi.DsiConnection}, or be imported by the
 * packages it assembles (it stands above them all). Enforced by {@code ModuleBoundariesTest}.
 */
package io.openrs.dsi.internal.run;
