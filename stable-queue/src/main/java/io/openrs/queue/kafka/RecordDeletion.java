package io.openrs.queue.kafka;

import io.openrs.queue.QueueId;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes a queue's records behind its readers with {@code Admin.deleteRecords}, one deletion at a
 * time: a request while one is under way only raises the target, and the completion starts the next
 * one up to it. A failed deletion is logged; the next request retries it. Knows the oldest offset
 * held as last seen.
 *
 * <p>Thread-safe. Completions run on the admin client's thread and take only this object's monitor,
 * which is never held while waiting for Kafka, so a caller may wait for the admin client while
 * holding any other lock of the queue.
 */
final class RecordDeletion {

  private static final Logger LOG = LoggerFactory.getLogger(RecordDeletion.class);

  private final QueueId queue;
  private final QueueTopic topic;
  private final BooleanSupplier running;
  private final AtomicLong heldFrom;

  /** Records before this offset are deleted; guarded by this. */
  private long deletedBefore;

  /** Records before this offset should be deleted; guarded by this. */
  private long wanted;

  /** True while a deletion is under way; guarded by this. */
  private boolean inFlight;

  /**
   * @param start the oldest offset held when the queue opened
   * @param running true while the queue runs (failures after it stopped are not worth a warning)
   */
  RecordDeletion(QueueId queue, QueueTopic topic, long start, BooleanSupplier running) {
    this.queue = queue;
    this.topic = topic;
    this.running = running;
    this.heldFrom = new AtomicLong(start);
    this.deletedBefore = start;
    this.wanted = start;
  }

  /** The oldest offset held, as last known. */
  long heldFrom() {
    return heldFrom.get();
  }

  /** Records that the oldest offset held is at least {@code offset} (seen by a listing). */
  long raiseHeldFrom(long offset) {
    return heldFrom.accumulateAndGet(offset, Math::max);
  }

  /** Asks for every record before {@code offset} to be deleted; returns at once. */
  void deleteBefore(long offset) {
    long target;
    synchronized (this) {
      wanted = Math.max(wanted, offset);
      if (inFlight || wanted <= deletedBefore) {
        return; // the deletion under way starts the next one when it completes
      }
      inFlight = true;
      target = wanted;
    }
    topic.deleteBefore(target).whenComplete((v, error) -> completed(target, error));
  }

  /** Deletes every record before {@code offset} and waits (a purge). */
  void deleteBeforeAndWait(long offset) {
    topic.deleteBeforeAndWait(offset);
    synchronized (this) {
      deletedBefore = Math.max(deletedBefore, offset);
      wanted = Math.max(wanted, offset);
    }
    heldFrom.accumulateAndGet(offset, Math::max);
  }

  private void completed(long target, Throwable error) {
    long next = -1;
    synchronized (this) {
      inFlight = false;
      if (error == null) {
        deletedBefore = Math.max(deletedBefore, target);
        if (wanted > deletedBefore) {
          next = wanted;
        }
      }
    }
    if (error == null) {
      heldFrom.accumulateAndGet(target, Math::max);
      LOG.debug("queue {}: deleted records before offset {}", queue, target);
    } else if (running.getAsBoolean()) {
      LOG.warn(
          "queue {}: cannot delete records before offset {} of topic {}: {}; retried at the next"
              + " confirmation or open",
          queue,
          target,
          topic.name(),
          error.toString());
    }
    if (next >= 0 && running.getAsBoolean()) {
      deleteBefore(next);
    }
  }
}
