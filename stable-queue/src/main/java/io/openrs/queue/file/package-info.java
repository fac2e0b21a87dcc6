/**
 * The file engine of the stable queue: segment files in partitions, the block format, the writer
 * thread (SQM), readers with a cache of recent blocks (SQMR), truncation, crash recovery and the
 * dump tool.
 *
 * <p>Owns: {@link io.openrs.queue.file.FileQueueManager} (partitions, queue lifecycle, space) and
 * everything behind it; only the manager, {@link io.openrs.queue.file.PartitionSpec}, {@link
 * io.openrs.queue.file.PartitionInfo} and the dump tool {@link io.openrs.queue.file.SegmentDump}
 * are public. Queues are handed out as {@link io.openrs.queue.StableQueue}.
 *
 * <p>Threads: two per queue on the write path. The packer ({@code rs-sqm-packer-<queue>}, {@code
 * SqmPacker}) takes producers' messages from the queue's bounded hand-off ({@code SqmHandoff}),
 * packs them into pages of blocks and completes the producers' futures once a page is durable; it
 * never touches files. The writer ({@code rs-sqm-writer-<queue>}, {@code SqmWriter}) is the one
 * thread that writes, forces, allocates, frees and purges the queue's segment files, one page at a
 * time, and publishes durable data to readers. Each keeps its own fields; pages move between them
 * under the hand-off's lock. Both are {@link io.openrs.runtime.WorkerThread}s: stopped in order
 * (packer, then writer) with a bounded wait each, they drain what they were handed first; the first
 * failure is logged once with the thread's name and stops the queue ({@code FAILED}). Each reader
 * belongs to one consumer thread. Admin calls may come from any thread. Shared state is published
 * through volatile fields and locks documented on each class.
 *
 * <p>Must not: import {@code io.openrs.ltl}, {@code java.sql}, {@code io.netty} or any server
 * module ({@code io.openrs.dsi}, {@code io.openrs.repserver}). Enforced by {@code
 * ModuleBoundariesTest}.
 */
package io.openrs.queue.file;
