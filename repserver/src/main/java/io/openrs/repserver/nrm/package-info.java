/**
 * NRM: normalization of one origin's row changes against its replication definitions, and the write
 * of what is replicated to the origin's inbound queue ({@link
 * io.openrs.repserver.nrm.InboundWriter}). The origin is seen through {@link
 * io.openrs.repserver.nrm.InboundWriter.Origin}, so this package knows nothing of {@code origin}.
 *
 * <p>Threads: {@link io.openrs.repserver.nrm.NrmThread} ({@code rs-repserver-nrm-<origin>}), one
 * per origin when {@code nrm_thread} is on; with it off EXEC's event loop runs the writer inline.
 * The writer is used by one thread at a time.
 *
 * <p>Must not: import {@code origin}, {@code exec}, {@code sqt}, {@code dist}, {@code admin},
 * {@code monitor} or {@code catalog}; only {@code rules} of the server. Enforced by {@code
 * ModuleBoundariesTest}.
 */
package io.openrs.repserver.nrm;
