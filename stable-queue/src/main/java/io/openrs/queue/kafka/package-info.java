/**
 * The Kafka engine of the stable queue: each queue is one single-partition topic of a Kafka
 * cluster, written by an idempotent producer with {@code acks=all}; readers' positions are
 * committed offsets of one consumer group per reader; truncation deletes records behind the slowest
 * reader with {@code deleteRecords}. Layouts: topic and group names in {@code KafkaNames}, the
 * record in {@code QueueRecordFormat}, a reader's committed offset in {@code ReaderMark}, positions
 * in {@code KafkaPositions}. See docs/stable-queue.md, "Kafka engine".
 *
 * <p>Owns: {@link io.openrs.queue.kafka.KafkaQueueManager} (queue lifecycle), {@link
 * io.openrs.queue.kafka.KafkaEngineConfig} and everything behind them; queues are handed out as
 * {@link io.openrs.queue.StableQueue}.
 *
 * <p>Threads: none of its own. The Kafka clients run theirs (the producer's I/O thread completes
 * the writers' futures; the admin client's completes truncations). Each reader belongs to one
 * consumer thread; admin calls may come from any thread.
 *
 * <p>Must not: import the file engine ({@code io.openrs.queue.file}), {@code io.openrs.ltl}, {@code
 * java.sql}, {@code io.netty} or any server module. Enforced by {@code ModuleBoundariesTest}.
 */
package io.openrs.queue.kafka;
