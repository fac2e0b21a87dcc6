/**
 * SQT: sorts an inbound queue's interleaved commands into whole transactions in commit order
 * ({@link io.openrs.repserver.sqt.TransactionSorter}), within {@code sqt_max_cache_size}, re-reads
 * removed transactions ({@link io.openrs.repserver.sqt.InboundRereader}) and works out how far the
 * inbound queue may be truncated ({@link io.openrs.repserver.sqt.TruncationTracker}).
 *
 * <p>Threads: none of its own; everything here runs on its origin's {@code
 * rs-repserver-sqtdist-<origin>} thread (package {@code origin}) and is not thread-safe, except
 * {@code SqtStats}, read by meters.
 *
 * <p>Must not: import any other package of the server: DIST consumes what SQT sorts, not the other
 * way round. Enforced by {@code ModuleBoundariesTest}.
 */
package io.openrs.repserver.sqt;
