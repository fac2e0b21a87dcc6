package io.openrs.queue;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Creates, opens, lists and drops the stable queues of one server, whatever engine holds them: the
 * file engine ({@code io.openrs.queue.file.FileQueueManager}, segments in partitions) or the Kafka
 * engine ({@code io.openrs.queue.kafka.KafkaQueueManager}, one topic per queue). What only one
 * engine has (the file engine's partitions and space warnings) stays on that engine's class.
 *
 * <p>Thread-safe.
 */
public interface QueueManager extends AutoCloseable {

  /** Opens the queue if it exists, else creates it; fails if it is already open. */
  StableQueue openOrCreateQueue(QueueId id, QueueSettings settings);

  /** The open queue, if any. */
  Optional<StableQueue> queue(QueueId id);

  /** Every queue that exists, open or not. */
  Set<QueueId> queueIds();

  /** {@code admin who, sqm} for every open queue, in queue order. */
  List<QueueInfo> queueInfos();

  /**
   * The open queues whose oldest write has not yet become durable, and how long it has waited
   * ({@link QueueInfo#acknowledgementWait}); cheap, never asks the disk or a broker. Empty for the
   * file engine, whose writer waits only for its own disk.
   */
  default java.util.Map<QueueId, java.time.Duration> acknowledgementWaits() {
    return java.util.Map.of();
  }

  /** Drops a queue and all its data, closing it first if open; fails if it does not exist. */
  void dropQueue(QueueId id) throws IOException;

  /** Closes every open queue. */
  @Override
  void close();
}
