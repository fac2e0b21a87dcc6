package io.openrs.repserver.nrm;

import io.openrs.runtime.ThreadNames;
import io.openrs.runtime.WorkerThread;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NRM: the normalization thread of one origin ({@code nrm_thread on}), {@code
 * rs-repserver-nrm-<origin>}. Takes batches EXEC parsed from the bounded {@link NrmRequestQueue},
 * and runs them through the {@link InboundWriter}. When log transfer stops, what is still queued is
 * discarded: it was never acknowledged as durable, and the agent resends it after {@code resume log
 * transfer}.
 *
 * <p>Stops {@link WorkerThread.StopPolicy#WHEN_DRAINED}: after {@link #initiateShutdown()} it
 * writes what EXEC handed over before the stop (graceful shutdown), then ends.
 */
public final class NrmThread extends WorkerThread {

  private static final Logger LOG = LoggerFactory.getLogger(NrmThread.class);

  private final NrmRequestQueue requests;
  private final InboundWriter writer;
  private final Consumer<String> onFailure;

  /**
   * @param onFailure told why, when the thread dies of an unexpected error (log transfer stops)
   */
  public NrmThread(
      String originName,
      NrmRequestQueue requests,
      InboundWriter writer,
      Consumer<String> onFailure) {
    super(ThreadNames.of("repserver", "nrm", originName), StopPolicy.WHEN_DRAINED);
    this.requests = requests;
    this.writer = writer;
    this.onFailure = onFailure;
  }

  @Override
  protected boolean doWork() {
    try {
      if (!shutdownRequested()) {
        Optional<NrmRequestQueue.Request> r = requests.take(200);
        if (r.isPresent() && !writer.write(r.get().commands())) {
          int dropped = requests.clear();
          if (dropped > 0) {
            LOG.info(
                "{}: discarded {} queued batches after log transfer stopped", getName(), dropped);
          }
        }
        return true;
      }
      // Drain what EXEC handed over before the stop.
      Optional<NrmRequestQueue.Request> r = requests.take(0);
      if (r.isEmpty()) {
        return false;
      }
      writer.write(r.get().commands());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  protected void onFatal(Throwable error) {
    onFailure.accept(getName() + " failed: " + error);
  }
}
