/**
 * What the consistency scenarios are built from: the databases ({@link
 * io.openrs.consistency.support.Database}), the schema and its values, the workload, the processes
 * ({@link io.openrs.consistency.support.ChildJvm}, {@link io.openrs.consistency.support.Pipeline}),
 * the admin client and the content comparison.
 */
package io.openrs.consistency.support;
