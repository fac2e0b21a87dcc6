package io.openrs.queue.file;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Base of the module's long-lived threads (Kafka {@code ShutdownableThread}): a loop of {@link
 * #doWork()} steps, {@link #initiateShutdown()} to ask it to stop, {@link #awaitShutdown(Duration)}
 * to wait with a bound. The first exception out of {@code doWork} ends the loop and goes to {@link
 * #onFatal(Throwable)}; {@link #onExit()} runs last in every case.
 */
abstract class ShutdownableThread extends Thread {

  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile boolean shutdownRequested;

  ShutdownableThread(String name) {
    super(name);
    setDaemon(true);
  }

  /** One step of work; returns false when the thread has nothing more to do and should end. */
  protected abstract boolean doWork() throws Exception;

  /** Wakes the thread wherever it may wait, so it sees a shutdown request. */
  protected abstract void wakeUp();

  /** The first fatal error; called on this thread. */
  protected abstract void onFatal(Throwable error);

  /** Last thing the thread does, after a normal end or a fatal error. */
  protected abstract void onExit();

  final boolean shutdownRequested() {
    return shutdownRequested;
  }

  final void initiateShutdown() {
    shutdownRequested = true;
    wakeUp();
  }

  /** Waits up to {@code timeout} for the thread to end; true if it did. */
  final boolean awaitShutdown(Duration timeout) throws InterruptedException {
    return stopped.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  @Override
  public final void run() {
    try {
      while (doWork()) {
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
