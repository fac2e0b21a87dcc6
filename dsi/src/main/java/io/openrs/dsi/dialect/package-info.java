/**
 * Everything in which replicate databases differ: {@link io.openrs.dsi.dialect.Dialect} and one
 * class per target ({@link io.openrs.dsi.dialect.PostgresDialect}, {@link
 * io.openrs.dsi.dialect.MariaDbDialect}): quoting, catalog reads, statements, value binding, the
 * bulk interface, the progress tables and error classification. Stateless and thread-safe; every
 * database call gets the connection to use.
 *
 * <p>Must not depend on {@code io.openrs.dsi.internal} (enforced by {@code ModuleBoundariesTest}).
 */
package io.openrs.dsi.dialect;
