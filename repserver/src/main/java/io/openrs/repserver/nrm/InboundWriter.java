package io.openrs.repserver.nrm;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.packed.PackedEncoder;
import io.openrs.queue.QueueClosedException;
import io.openrs.queue.StableQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NRM step for one origin: drops resent commands (at or below the last OQID written to the
 * inbound queue, invariant 1), normalizes, packs and appends to the origin's inbound queue, and
 * advances the origin's durable locator when the queue reports the write durable (invariant 2).
 *
 * <p>Used by exactly one thread at a time: the origin's NRM thread, or EXEC when {@code nrm_thread}
 * is off.
 */
public final class InboundWriter {

  private static final Logger LOG = LoggerFactory.getLogger(InboundWriter.class);

  /**
   * What the writer reads and moves of its origin (implemented by {@code origin.OriginState}): the
   * log-transfer switch and the durable locator.
   */
  public interface Origin {
    /** {@code dataserver.database} */
    String name();

    /** Whether log transfer runs. */
    boolean logTransferRunning();

    /** Stops log transfer; the first reason stays. @return whether this call stopped it */
    boolean stopLogTransfer(String reason);

    /** The writer made everything up to {@code oqid} durable; never moves backwards. */
    void durable(Oqid oqid);

    /** The last locator durable in the inbound queue. */
    Optional<Oqid> durableOqid();
  }

  private final Origin origin;
  private final StableQueue inbound;
  private final Normalizer normalizer;
  private final NrmStats stats;
  private final Consumer<NormalizationException> onContradiction;
  private final Consumer<String> onQueueFailure;
  private final PackedEncoder encoder = new PackedEncoder();
  private Oqid lastWritten;
  private CompletableFuture<?> lastAppend = CompletableFuture.completedFuture(null);

  /**
   * @param lastWritten the last OQID in the inbound queue (from its tail at start)
   * @param onContradiction called (once per stop) when a change contradicts its definition
   * @param onQueueFailure called (once per stop) when the inbound queue fails a write; log transfer
   *     stops, since nothing after the durable point can be acknowledged
   */
  public InboundWriter(
      Origin origin,
      StableQueue inbound,
      Normalizer normalizer,
      NrmStats stats,
      Optional<Oqid> lastWritten,
      Consumer<NormalizationException> onContradiction,
      Consumer<String> onQueueFailure) {
    this.origin = origin;
    this.inbound = inbound;
    this.normalizer = normalizer;
    this.stats = stats;
    this.onContradiction = onContradiction;
    this.onQueueFailure = onQueueFailure;
    this.lastWritten = lastWritten.orElse(null);
  }

  /**
   * Normalizes and appends {@code commands} in order. Stops at the first command that contradicts
   * its replication definition: what precedes it is written, log transfer stops, nothing after it
   * is taken.
   *
   * @return whether every command was taken (false once log transfer is stopped)
   */
  public boolean write(List<LtlCommand.InTransaction> commands) throws InterruptedException {
    if (!origin.logTransferRunning()) {
      return false;
    }
    List<byte[]> packed = new ArrayList<>(commands.size());
    Oqid last = null;
    NormalizationException failure = null;
    for (LtlCommand.InTransaction c : commands) {
      if (lastWritten != null && c.oqid().compareTo(lastWritten) <= 0) {
        stats.duplicates++;
        continue;
      }
      Optional<LtlCommand.InTransaction> n;
      try {
        n = normalizer.normalize(c);
      } catch (NormalizationException e) {
        failure = e;
        break;
      }
      lastWritten = c.oqid();
      last = c.oqid();
      if (n.isPresent()) {
        packed.add(encoder.encode(n.get()));
      }
    }
    if (last != null) {
      append(packed, last);
    }
    if (failure != null) {
      if (origin.stopLogTransfer(failure.getMessage())) {
        LOG.error(
            "log transfer from {} stopped: {}. Fix the replication definition and resume log"
                + " transfer; the agent resends from the truncation point.",
            origin.name(),
            failure.getMessage());
        onContradiction.accept(failure);
      }
      return false;
    }
    return true;
  }

  private void append(List<byte[]> packed, Oqid last) throws InterruptedException {
    if (packed.isEmpty()) {
      // Everything was dropped as not replicated: the locator moves once what is queued before
      // it is durable (futures complete in order).
      lastAppend.thenRun(() -> origin.durable(last));
      return;
    }
    long start = System.nanoTime();
    try {
      lastAppend =
          inbound
              .appendAll(packed)
              .whenComplete(
                  (pos, err) -> {
                    if (err == null) {
                      origin.durable(last);
                    } else if (!(unwrap(err) instanceof QueueClosedException)) {
                      LOG.error("inbound queue {} failed a write", inbound.id(), err);
                      String reason =
                          "inbound queue "
                              + inbound.id()
                              + " failed a write ("
                              + unwrap(err)
                              + "); nothing after "
                              + origin.durableOqid().map(Object::toString).orElse("the start")
                              + " is acknowledged";
                      if (origin.stopLogTransfer(reason)) {
                        onQueueFailure.accept(reason);
                      }
                    }
                  });
      stats.cmdsWritten += packed.size();
    } finally {
      stats.writeWaitNanos += System.nanoTime() - start;
      stats.writeWaits++;
    }
  }

  private static Throwable unwrap(Throwable t) {
    return t.getCause() != null && t instanceof java.util.concurrent.CompletionException
        ? t.getCause()
        : t;
  }
}
