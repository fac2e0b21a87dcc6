package io.openrs.repserver;

import io.openrs.queue.QueueClosedException;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueInfo;
import io.openrs.queue.QueueManager;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.QueueState;
import io.openrs.queue.StableQueue;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * The queue manager of a server that holds the server lease ({@code server_lease_ms}): every queue
 * write first checks that the lease is still held on this process's clock, so a server that was
 * frozen (a long GC pause, a suspended VM) past its lease writes nothing when it wakes, even before
 * its lease thread notices and stops the process. Reads and everything else pass through.
 *
 * <p>What the check cannot stop: writes handed to the engine before the freeze (with the Kafka
 * engine, records in the producer's buffer) may still reach the queue after the lease moved; Kafka
 * transactional ids would fence those too (docs/scale-out.md).
 */
final class LeaseGuardedQueues implements QueueManager {

  private final QueueManager engine;
  private final BooleanSupplier leaseHeld;

  LeaseGuardedQueues(QueueManager engine, BooleanSupplier leaseHeld) {
    this.engine = engine;
    this.leaseHeld = leaseHeld;
  }

  @Override
  public StableQueue openOrCreateQueue(QueueId id, QueueSettings settings) {
    return new Guarded(engine.openOrCreateQueue(id, settings));
  }

  @Override
  public Optional<StableQueue> queue(QueueId id) {
    return engine.queue(id).map(Guarded::new);
  }

  @Override
  public Set<QueueId> queueIds() {
    return engine.queueIds();
  }

  @Override
  public List<QueueInfo> queueInfos() {
    return engine.queueInfos();
  }

  @Override
  public Map<QueueId, Duration> acknowledgementWaits() {
    return engine.acknowledgementWaits();
  }

  @Override
  public void dropQueue(QueueId id) throws IOException {
    engine.dropQueue(id);
  }

  @Override
  public void close() {
    engine.close();
  }

  /** A queue whose writes check the lease first. */
  private final class Guarded implements StableQueue {
    private final StableQueue queue;

    Guarded(StableQueue queue) {
      this.queue = queue;
    }

    private void checkLease() {
      if (!leaseHeld.getAsBoolean()) {
        throw new QueueClosedException(
            queue.id(),
            QueueState.CLOSING,
            new IllegalStateException("this server no longer holds the server lease"));
      }
    }

    @Override
    public QueueId id() {
      return queue.id();
    }

    @Override
    public QueueState state() {
      return queue.state();
    }

    @Override
    public CompletableFuture<QueuePosition> append(byte[] message) throws InterruptedException {
      checkLease();
      return queue.append(message);
    }

    @Override
    public CompletableFuture<QueuePosition> appendAll(List<byte[]> messages)
        throws InterruptedException {
      checkLease();
      return queue.appendAll(messages);
    }

    @Override
    public QueueReader openReader(String name) {
      return queue.openReader(name);
    }

    @Override
    public void dropReader(String name) {
      queue.dropReader(name);
    }

    @Override
    public List<QueueMessage> dump(QueuePosition from, int maxMessages) {
      return queue.dump(from, maxMessages);
    }

    @Override
    public Optional<QueueMessage> lastMessage() {
      return queue.lastMessage();
    }

    @Override
    public List<QueueMessage> dumpFromStart(int maxMessages) {
      return queue.dumpFromStart(maxMessages);
    }

    @Override
    public CompletableFuture<Void> purge() {
      checkLease();
      return queue.purge();
    }

    @Override
    public QueueInfo info() {
      return queue.info();
    }

    @Override
    public void close() {
      queue.close();
    }
  }
}
