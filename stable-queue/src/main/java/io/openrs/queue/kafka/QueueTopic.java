package io.openrs.queue.kafka;

import io.openrs.queue.QueueException;
import io.openrs.queue.QueueId;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DeleteRecordsOptions;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin operations on one queue's topic and its readers' groups, each bounded by the engine's
 * operation timeout. Thread-safe (the admin client is).
 */
final class QueueTopic {

  private static final Logger LOG = LoggerFactory.getLogger(QueueTopic.class);

  /** The longest a deletion may wait for the replicas to move their log start. */
  static final Duration DELETION_TIMEOUT = Duration.ofSeconds(10);

  private final QueueId queue;
  private final KafkaNames names;
  private final Admin admin;
  private final Duration timeout;
  private final TopicPartition partition;

  QueueTopic(QueueId queue, KafkaNames names, Admin admin, Duration timeout) {
    this.queue = queue;
    this.names = names;
    this.admin = admin;
    this.timeout = timeout;
    this.partition = new TopicPartition(names.topic(queue), 0);
  }

  TopicPartition partition() {
    return partition;
  }

  String name() {
    return partition.topic();
  }

  /** The oldest offset held (Kafka's log start offset). */
  long startOffset() {
    return offset(OffsetSpec.earliest());
  }

  /** As {@link #startOffset()}, one attempt bounded by {@code within}. */
  long startOffset(Duration within) {
    return await(
            "list offsets",
            admin
                .listOffsets(
                    Map.of(partition, OffsetSpec.earliest()),
                    new org.apache.kafka.clients.admin.ListOffsetsOptions()
                        .timeoutMs((int) within.toMillis()))
                .partitionResult(partition),
            within)
        .offset();
  }

  /** The offset the next record gets (the high watermark: everything below is committed). */
  long endOffset() {
    return offset(OffsetSpec.latest());
  }

  private long offset(OffsetSpec spec) {
    return retrying(
        "list offsets",
        () -> admin.listOffsets(Map.of(partition, spec)).partitionResult(partition).get().offset());
  }

  /**
   * Deletes every record before {@code offset}; completes when the log start moved on every live
   * replica. Bounded by {@link #DELETION_TIMEOUT} (or the operation timeout if shorter): a broker
   * lost while the deletion waits for its replica holds it until then, and it is retried.
   */
  KafkaFuture<Void> deleteBefore(long offset) {
    int timeoutMs = (int) Math.min(DELETION_TIMEOUT.toMillis(), timeout.toMillis());
    return admin
        .deleteRecords(
            Map.of(partition, RecordsToDelete.beforeOffset(offset)),
            new DeleteRecordsOptions().timeoutMs(timeoutMs))
        .all();
  }

  /** {@link #deleteBefore} and waits. */
  void deleteBeforeAndWait(long offset) {
    await("delete records before offset " + offset, deleteBefore(offset));
  }

  /** The persisted readers, by name. */
  Map<String, ReaderMark> readerMarks() {
    String prefix = names.readerGroupPrefix(queue);
    List<String> groups =
        await("list consumer groups", admin.listGroups().all()).stream()
            .map(GroupListing::groupId)
            .filter(g -> g.startsWith(prefix))
            .toList();
    Map<String, ReaderMark> marks = new HashMap<>();
    for (String group : groups) {
      Map<TopicPartition, OffsetAndMetadata> offsets;
      try {
        offsets =
            await(
                "read the offsets of group " + group,
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
      } catch (QueueException e) {
        if (e.getCause() instanceof GroupIdNotFoundException) {
          continue; // dropped meanwhile
        }
        throw e;
      }
      String reader = group.substring(prefix.length());
      Optional<ReaderMark> mark = ReaderMark.fromCommit(offsets.get(partition));
      if (mark.isPresent()) {
        marks.put(reader, mark.get());
      } else if (offsets.get(partition) != null) {
        LOG.warn(
            "queue {}: consumer group {} holds offset {} with metadata '{}', not a reader mark of"
                + " this engine: ignored",
            queue,
            group,
            offsets.get(partition).offset(),
            offsets.get(partition).metadata());
      }
    }
    return marks;
  }

  /** Persists a reader's mark (creates its group if needed). */
  void saveMark(String reader, ReaderMark mark) {
    await(
        "commit the position of reader " + reader,
        admin
            .alterConsumerGroupOffsets(
                names.readerGroup(queue, reader), Map.of(partition, mark.toCommit()))
            .all());
  }

  /** Deletes a reader's group; nothing if it does not exist. */
  void deleteReader(String reader) {
    try {
      await(
          "delete reader " + reader,
          admin.deleteConsumerGroups(List.of(names.readerGroup(queue, reader))).all());
    } catch (QueueException e) {
      if (!(e.getCause() instanceof GroupIdNotFoundException)) {
        throw e;
      }
    }
  }

  /** Waits for {@code future} within the timeout; failures name the queue, topic and action. */
  <T> T await(String action, KafkaFuture<T> future) {
    return await(action, future, timeout);
  }

  private <T> T await(String action, KafkaFuture<T> future, Duration timeout) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueueException(queue, "interrupted while waiting to " + action, e);
    } catch (ExecutionException e) {
      throw new QueueException(
          queue, "cannot " + action + " (topic " + name() + "): " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new QueueException(
          queue, "cannot " + action + " (topic " + name() + ") within " + timeout, e);
    }
  }

  @FunctionalInterface
  interface KafkaCall<T> {
    T call() throws InterruptedException, ExecutionException;
  }

  /**
   * Runs {@code call} until it succeeds or fails with a non-retriable error, within the timeout (a
   * topic just created is not known to every broker at once).
   */
  <T> T retrying(String action, KafkaCall<T> call) {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int attempt = 1; ; attempt++) {
      try {
        return call.call();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new QueueException(queue, "interrupted while waiting to " + action, e);
      } catch (ExecutionException e) {
        boolean retriable = e.getCause() instanceof RetriableException;
        if (!retriable || System.nanoTime() > deadline) {
          throw new QueueException(
              queue,
              "cannot "
                  + action
                  + " (topic "
                  + name()
                  + ", "
                  + attempt
                  + " attempts): "
                  + e.getCause(),
              e.getCause());
        }
        LockSupport.parkNanos(Math.min(100, 10L * attempt) * 1_000_000L);
      }
    }
  }
}
