package io.openrs.repserver.monitor;

import io.micrometer.core.instrument.MockClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ScheduledExecutorService} on a {@link MockClock}: scheduled tasks run on the test's
 * thread when {@link #advance} moves the clock past their due time.
 */
final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {

  private final MockClock clock;
  private final List<Task> tasks = new ArrayList<>();
  private long sequence;
  private boolean shutdown;

  ManualScheduler(MockClock clock) {
    this.clock = clock;
  }

  /** Moves the clock by {@code d}, running every task that falls due on the way, in order. */
  void advance(Duration d) {
    long target = clock.monotonicTime() + d.toNanos();
    while (true) {
      Task next =
          tasks.stream()
              .filter(t -> t.due <= target)
              .min(Comparator.comparingLong((Task t) -> t.due).thenComparingLong(t -> t.seq))
              .orElse(null);
      if (next == null) {
        break;
      }
      tasks.remove(next);
      long now = clock.monotonicTime();
      if (next.due > now) {
        clock.add(next.due - now, TimeUnit.NANOSECONDS);
      }
      next.done = true;
      next.command.run();
    }
    long now = clock.monotonicTime();
    if (target > now) {
      clock.add(target - now, TimeUnit.NANOSECONDS);
    }
  }

  /** Tasks waiting to run. */
  int pending() {
    return tasks.size();
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    if (shutdown) {
      throw new java.util.concurrent.RejectedExecutionException("shut down");
    }
    Task t = new Task(command, clock.monotonicTime() + unit.toNanos(delay), sequence++);
    tasks.add(t);
    return t;
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    throw new UnsupportedOperationException();
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(
      Runnable command, long initialDelay, long period, TimeUnit unit) {
    throw new UnsupportedOperationException();
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(
      Runnable command, long initialDelay, long delay, TimeUnit unit) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown = true;
    List<Runnable> r = tasks.stream().map(t -> t.command).toList();
    tasks.clear();
    return r;
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    return shutdown && tasks.isEmpty();
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return isTerminated();
  }

  @Override
  public void execute(Runnable command) {
    command.run();
  }

  private final class Task implements ScheduledFuture<Object> {
    final Runnable command;
    final long due;
    final long seq;
    boolean done;
    boolean cancelled;

    Task(Runnable command, long due, long seq) {
      this.command = command;
      this.due = due;
      this.seq = seq;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(due - clock.monotonicTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed o) {
      return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      if (done) {
        return false;
      }
      cancelled = true;
      done = true;
      tasks.remove(this);
      return true;
    }

    @Override
    public boolean isCancelled() {
      return cancelled;
    }

    @Override
    public boolean isDone() {
      return done;
    }

    @Override
    public Object get() {
      return null;
    }

    @Override
    public Object get(long timeout, TimeUnit unit) {
      return null;
    }
  }
}
