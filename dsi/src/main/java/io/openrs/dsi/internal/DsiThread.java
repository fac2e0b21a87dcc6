package io.openrs.dsi.internal;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Base of the DSI's long-lived threads (Kafka's {@code ShutdownableThread}): a loop of {@link
 * #doWork()} steps, {@link #initiateShutdown()} to ask it to stop, {@link #awaitShutdown} to wait
 * with a bound. The first exception out of {@code doWork} ends the loop and goes to {@link
 * #onFatal}; {@link #onExit()} runs last in every case. Named {@code rs-dsi-<component>-<ds.db>}.
 */
public abstract class DsiThread extends Thread {
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile boolean shutdownRequested;

  protected DsiThread(String name) {
    super(name);
    setDaemon(true);
  }

  /** One step; false when the thread should end. */
  protected abstract boolean doWork() throws Exception;

  /** The first fatal error, on this thread. */
  protected abstract void onFatal(Throwable error);

  /** Last thing the thread does. */
  protected abstract void onExit();

  protected final boolean shutdownRequested() {
    return shutdownRequested;
  }

  /** Asks the thread to stop after its current step. */
  public void initiateShutdown() {
    shutdownRequested = true;
  }

  /** Waits up to {@code timeout} for the thread to end; true if it did. */
  public final boolean awaitShutdown(Duration timeout) throws InterruptedException {
    return stopped.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** True once the thread has ended (or never started and was abandoned). */
  public final boolean ended() {
    return stopped.getCount() == 0;
  }

  @Override
  public final void run() {
    try {
      while (!shutdownRequested && doWork()) {
        // each step does its own waiting
      }
    } catch (Throwable t) {
      onFatal(t);
    } finally {
      try {
        onExit();
      } finally {
        stopped.countDown();
      }
    }
  }
}
