/**
 * Stable queues: the API other modules call.
 *
 * <p>Owns: the queue contract ({@link io.openrs.queue.StableQueue}, {@link
 * io.openrs.queue.QueueReader}), its values ({@link io.openrs.queue.QueueId}, {@link
 * io.openrs.queue.QueuePosition}, {@link io.openrs.queue.QueueMessage}), the settings record
 * ({@link io.openrs.queue.QueueSettings}), the admin views ({@link io.openrs.queue.QueueInfo},
 * {@link io.openrs.queue.ReaderInfo}), the exceptions and the catalogue of monitor counters ({@link
 * io.openrs.queue.QueueCounter}). Messages are opaque byte arrays: nothing here knows what is
 * inside them. Two engines implement the interfaces ({@link io.openrs.queue.QueueManager} among
 * them): files in {@code io.openrs.queue.file} and Kafka topics in {@code io.openrs.queue.kafka};
 * the server's {@code queue_engine} chooses one.
 *
 * <p>Threads: values and settings are immutable and shared freely. A {@link
 * io.openrs.queue.StableQueue} is thread-safe (any number of producer threads); each {@link
 * io.openrs.queue.QueueReader} is owned by one consumer thread.
 *
 * <p>Must not: import {@code io.openrs.ltl}, {@code java.sql}, {@code io.netty} or any server
 * module ({@code io.openrs.dsi}, {@code io.openrs.repserver}). Enforced by {@code
 * ModuleBoundariesTest}.
 */
package io.openrs.queue;
