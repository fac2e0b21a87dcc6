package io.openrs.repserver.nrm;

import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NRM: the normalization thread of one origin ({@code nrm_thread on}). Takes batches EXEC parsed
 * from the bounded {@link NrmRequestQueue}, and runs them through the {@link InboundWriter}. When
 * log transfer stops, what is still queued is discarded: it was never acknowledged as durable, and
 * the agent resends it after {@code resume log transfer}.
 */
public final class NrmThread extends Thread {

  private static final Logger LOG = LoggerFactory.getLogger(NrmThread.class);

  private final NrmRequestQueue requests;
  private final InboundWriter writer;
  private final java.util.function.Consumer<String> onFailure;
  private volatile boolean stopping;

  /**
   * @param onFailure told why, when the thread dies of an unexpected error (log transfer stops)
   */
  public NrmThread(
      String originName,
      NrmRequestQueue requests,
      InboundWriter writer,
      java.util.function.Consumer<String> onFailure) {
    super("NRM " + originName);
    setDaemon(true);
    this.requests = requests;
    this.writer = writer;
    this.onFailure = onFailure;
  }

  @Override
  public void run() {
    try {
      while (!stopping) {
        Optional<NrmRequestQueue.Request> r = requests.take(200);
        if (r.isPresent() && !writer.write(r.get().commands())) {
          int dropped = requests.clear();
          if (dropped > 0) {
            LOG.info(
                "{}: discarded {} queued batches after log transfer stopped", getName(), dropped);
          }
        }
      }
      // Drain what EXEC handed over before the stop (graceful shutdown).
      Optional<NrmRequestQueue.Request> r;
      while ((r = requests.take(0)).isPresent()) {
        writer.write(r.get().commands());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.error("{} failed", getName(), e);
      onFailure.accept(getName() + " failed: " + e);
    }
  }

  /** Asks the thread to finish what is queued and stop. */
  public void shutdown() {
    stopping = true;
  }
}
