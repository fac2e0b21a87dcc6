package io.openrs.runtime;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The base of every long-lived OpenRS thread (after Kafka's {@code ShutdownableThread}): a loop of
 * {@link #doWork()} steps, {@link #initiateShutdown()} to ask it to stop, {@link
 * #awaitShutdown(Duration)} to wait for it with a bound.
 *
 * <ul>
 *   <li><b>Name</b>: {@code rs-<module>-<component>[-<id>]} ({@link ThreadNames}); a daemon thread.
 *   <li><b>Stopping</b>: per its {@link StopPolicy}, the loop ends after the step during which
 *       shutdown was asked ({@link StopPolicy#AFTER_STEP}), or only when {@code doWork} says it has
 *       nothing more to do ({@link StopPolicy#WHEN_DRAINED}, for a thread that finishes what it was
 *       handed first). {@link #wakeUp()} is called on the asking thread so a step waiting somewhere
 *       sees the request.
 *   <li><b>Failure</b>: the first exception out of {@code doWork} ends the loop; it is logged once,
 *       at ERROR with the thread's name, kept ({@link #failure()}) and handed to {@link
 *       #onFatal(Throwable)} to stop the component and wake its waiters. A failure out of {@code
 *       onFatal} or {@code onExit} itself is logged the same way by the uncaught-exception handler.
 *   <li><b>Exit</b>: {@link #onExit()} runs last in every case, then {@link #awaitShutdown}
 *       returns.
 *   <li><b>Ownership</b>: what the thread owns asserts {@link #isCurrent()} at its entry points
 *       (run tests with {@code -ea}); waiting for the thread's own end on itself is refused, since
 *       it would never return.
 * </ul>
 */
public abstract class WorkerThread extends Thread {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerThread.class);

  /** When the loop ends after {@link #initiateShutdown()}. */
  public enum StopPolicy {
    /** After the current step: the loop checks the request before each step. */
    AFTER_STEP,
    /** When {@link #doWork()} returns false: the thread drains what it was handed first. */
    WHEN_DRAINED
  }

  private final StopPolicy stopPolicy;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile boolean shutdownRequested;
  private volatile Throwable failure;

  /**
   * A thread called {@code name}, which must follow {@link ThreadNames} (build it with {@link
   * ThreadNames#of}).
   *
   * @throws IllegalArgumentException if {@code name} does not start {@code rs-<module>-<component>}
   */
  protected WorkerThread(String name, StopPolicy stopPolicy) {
    super(checked(name));
    this.stopPolicy = stopPolicy;
    setDaemon(true);
    setUncaughtExceptionHandler(ThreadNames.REPORT_UNCAUGHT);
  }

  private static String checked(String name) {
    if (!ThreadNames.follows(name)) {
      throw new IllegalArgumentException(
          "thread name must be rs-<module>-<component>[-<id>], got \"" + name + "\"");
    }
    return name;
  }

  /** One step of work, which does its own waiting; false when the thread should end. */
  protected abstract boolean doWork() throws Exception;

  /**
   * Wakes the thread wherever a step may wait, so it sees a shutdown request; called on the thread
   * that asks. Nothing by default (for threads whose steps wait with a short timeout).
   */
  protected void wakeUp() {}

  /**
   * The first fatal error, on this thread, after it was logged: stop the component and wake its
   * waiters. Nothing by default.
   */
  protected void onFatal(Throwable error) {}

  /** Last thing the thread does, after a normal end or a fatal error. Nothing by default. */
  protected void onExit() {}

  /** True once {@link #initiateShutdown()} was called. */
  public final boolean shutdownRequested() {
    return shutdownRequested;
  }

  /** Asks the thread to stop (see {@link StopPolicy}) and wakes it. Idempotent, any thread. */
  public final void initiateShutdown() {
    shutdownRequested = true;
    wakeUp();
  }

  /**
   * Waits up to {@code timeout} for the thread to end; true if it did.
   *
   * @throws IllegalStateException if called on this thread itself
   */
  public final boolean awaitShutdown(Duration timeout) throws InterruptedException {
    if (isCurrent()) {
      throw new IllegalStateException(getName() + " cannot wait for its own end");
    }
    return stopped.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** {@link #initiateShutdown()} then {@link #awaitShutdown}: true if the thread ended in time. */
  public final boolean shutdown(Duration timeout) throws InterruptedException {
    initiateShutdown();
    return awaitShutdown(timeout);
  }

  /** True once the thread has ended (its {@link #onExit()} returned). */
  public final boolean ended() {
    return stopped.getCount() == 0;
  }

  /** True when called on this thread: what it owns asserts this at its entry points. */
  public final boolean isCurrent() {
    return Thread.currentThread() == this;
  }

  /** The failure that ended the loop, if one did. */
  public final Optional<Throwable> failure() {
    return Optional.ofNullable(failure);
  }

  @Override
  public final void run() {
    try {
      while (!(stopPolicy == StopPolicy.AFTER_STEP && shutdownRequested) && doWork()) {
        // each step does its own waiting
      }
    } catch (Throwable t) {
      failure = t;
      LOG.error("thread {} stopped by a fatal error", getName(), t);
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
