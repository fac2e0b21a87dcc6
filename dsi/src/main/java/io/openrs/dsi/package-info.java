/**
 * The DSI: outbound queue reader, transaction grouping, DSIEXEC threads, parallel streams, the HVAR
 * compiler, bulk appliers per target dialect, and error actions.
 *
 * <p>Must not: parse LTL text (it reads the packed form from the outbound queue), or depend on the
 * server or the agent. Enforced by {@code ModuleBoundariesTest}.
 */
package io.openrs.dsi;
