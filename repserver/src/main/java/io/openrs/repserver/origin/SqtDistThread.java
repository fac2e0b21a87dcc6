package io.openrs.repserver.origin;

import io.openrs.ltl.packed.PackedDecoder;
import io.openrs.ltl.packed.PackedFormatException;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.StableQueue;
import io.openrs.repserver.dist.DistributionException;
import io.openrs.repserver.dist.Distributor;
import io.openrs.repserver.sqt.QueuedCommand;
import io.openrs.repserver.sqt.TransactionSorter;
import io.openrs.repserver.sqt.TruncationTracker;
import io.openrs.runtime.ThreadNames;
import io.openrs.runtime.WorkerThread;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SQT/DIST thread of one origin, {@code rs-repserver-sqtdist-<origin>}: reads the inbound queue
 * with its own reader ({@code SQT}), sorts commands into committed transactions ({@link
 * TransactionSorter}), hands each to the {@link Distributor} in commit order, and confirms the
 * inbound queue only behind transactions whose outbound writes are durable ({@link
 * TruncationTracker}).
 *
 * <p>When DIST cannot place a command it stops (the reason goes to {@code onStop}); the inbound
 * queue keeps everything from the oldest unfinished transaction, and a new thread started by {@code
 * resume distributor} re-reads from there.
 *
 * <p>Stops {@link WorkerThread.StopPolicy#AFTER_STEP}: after {@link #initiateShutdown()} it ends
 * once the command it is processing is handed on.
 */
public final class SqtDistThread extends WorkerThread {

  private static final Logger LOG = LoggerFactory.getLogger(SqtDistThread.class);

  /** Name of the inbound queue reader SQT uses. */
  public static final String READER = "SQT";

  private final StableQueue inbound;
  private final TransactionSorter sorter;
  private final TruncationTracker tracker = new TruncationTracker();
  private final Distributor distributor;
  private final Consumer<String> onStop;
  private final ConcurrentLinkedQueue<Long> durable = new ConcurrentLinkedQueue<>();
  private final PackedDecoder decoder = new PackedDecoder();
  private final String queueName;
  private volatile Throwable distributionFailure;
  private QueueReader reader;
  private Optional<QueuePosition> confirmed = Optional.empty();

  public SqtDistThread(
      String originName,
      StableQueue inbound,
      TransactionSorter sorter,
      Distributor distributor,
      Consumer<String> onStop) {
    super(ThreadNames.of("repserver", "sqtdist", originName), StopPolicy.AFTER_STEP);
    this.inbound = inbound;
    this.queueName = inbound.id().toString();
    this.sorter = sorter;
    this.distributor = distributor;
    this.onStop = onStop;
  }

  @Override
  protected boolean doWork() throws Exception {
    throwDistributionFailure();
    try {
      if (reader == null) {
        reader = inbound.openReader(READER);
      }
      Long token;
      while ((token = durable.poll()) != null) {
        tracker.durable(token);
      }
      Optional<QueuePosition> c = tracker.confirmable();
      if (c.isPresent() && !c.equals(confirmed)) {
        reader.confirm(c.get());
        confirmed = c;
      }
      Optional<QueueMessage> m = reader.poll(Duration.ofMillis(100));
      if (m.isPresent()) {
        process(m.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    // A failed outbound write seen as soon as the step that saw it ends, even if a stop was asked.
    throwDistributionFailure();
    return true;
  }

  private void throwDistributionFailure() throws Exception {
    Throwable f = distributionFailure;
    if (f instanceof Exception e) {
      throw e;
    } else if (f instanceof Error e) {
      throw e;
    } else if (f != null) {
      throw new IllegalStateException(f);
    }
  }

  @Override
  protected void onFatal(Throwable error) {
    if (error instanceof DistributionException) {
      onStop.accept(error.getMessage());
    } else {
      onStop.accept(getName() + " failed: " + error);
    }
  }

  @Override
  protected void onExit() {
    if (reader == null) {
      return;
    }
    try {
      reader.close();
    } catch (RuntimeException e) {
      if (failure().isEmpty()) {
        String reason = getName() + " failed: " + e;
        LOG.error(reason, e);
        onStop.accept(reason);
      } else {
        LOG.warn("{}: closing the inbound queue reader also failed", getName(), e);
      }
    }
  }

  private void process(QueueMessage m) throws DistributionException, InterruptedException {
    Optional<QueuedCommand> read;
    try {
      read = QueuedCommand.read(queueName, m.position(), m.payload(), decoder);
    } catch (PackedFormatException e) {
      throw new IllegalStateException(
          "inbound queue " + inbound.id() + " holds a damaged command at " + m.position(), e);
    }
    if (read.isEmpty()) {
      LOG.warn(
          "inbound queue {} position {}: not a transaction command, skipped",
          inbound.id(),
          m.position());
      return;
    }
    QueuedCommand cmd = read.get();
    tracker.read(cmd.tran(), m.position());
    TransactionSorter.Outcome outcome = sorter.accept(m.position(), cmd, m.payload().length);
    if (outcome instanceof TransactionSorter.Committed committed) {
      long token = tracker.committed(cmd.tran());
      CompletableFuture<Void> written = distributor.distribute(committed.transaction());
      written.whenComplete(
          (v, err) -> {
            if (err == null) {
              durable.add(token);
            } else {
              distributionFailure = err;
            }
          });
    } else if (outcome instanceof TransactionSorter.RolledBack) {
      tracker.rolledBack(cmd.tran());
    }
  }
}
