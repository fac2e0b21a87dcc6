/**
 * DIST: resolves each committed transaction against the subscriptions ({@link
 * io.openrs.repserver.dist.SubscriptionRoute}, {@link io.openrs.repserver.dist.WhereClause}) and
 * appends each replicate's part, whole and contiguous, to that replicate's {@link
 * io.openrs.repserver.dist.OutboundQueue}.
 *
 * <p>Threads: none of its own; a {@link io.openrs.repserver.dist.Distributor} runs on its origin's
 * {@code rs-repserver-sqtdist-<origin>} thread. An outbound queue is shared by every origin's DIST:
 * a writer holds its lock for one transaction.
 *
 * <p>Must not: import {@code origin}, {@code exec}, {@code nrm}, {@code admin}, {@code monitor} or
 * {@code catalog}; it builds on {@code sqt} and {@code rules}. Enforced by {@code
 * ModuleBoundariesTest}.
 */
package io.openrs.repserver.dist;
