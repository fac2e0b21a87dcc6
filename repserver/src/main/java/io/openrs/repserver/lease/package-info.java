/**
 * The server lease: {@link io.openrs.repserver.lease.ServerLease} takes the RSSD's lease before the
 * server opens its queues and ports (a standby waits for it), renews it, and stops the server when
 * it is lost, so two servers sharing an RSSD never run the pipeline at once.
 *
 * <p>Threads: {@code rs-repserver-lease} (renews every third of {@code server_lease_ms}).
 *
 * <p>Must not: import any other package of the server; it knows the RSSD's {@code LeaseTable} only.
 * Enforced by {@code ModuleBoundariesTest}.
 */
package io.openrs.repserver.lease;
