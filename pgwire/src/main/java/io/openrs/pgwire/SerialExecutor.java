package io.openrs.pgwire;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one connection's tasks one at a time, in submission order, on a shared pool: the
 * connection's state is touched by one thread at a time, with happens-before between tasks, and a
 * blocking backend call of one session never holds up another. After {@link #BATCH} tasks in a row
 * it gives its pool thread back, so a busy session cannot starve the others.
 */
final class SerialExecutor implements Executor {
  private static final Logger log = LoggerFactory.getLogger(SerialExecutor.class);

  /** Tasks run before giving the pool thread back. */
  static final int BATCH = 64;

  private final Executor pool;
  private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
  private boolean scheduled;

  SerialExecutor(Executor pool) {
    this.pool = pool;
  }

  @Override
  public void execute(Runnable task) {
    synchronized (tasks) {
      tasks.add(task);
      if (scheduled) {
        return;
      }
      scheduled = true;
    }
    schedule();
  }

  private void schedule() {
    try {
      pool.execute(this::drain);
    } catch (RejectedExecutionException e) {
      synchronized (tasks) {
        tasks.clear();
        scheduled = false;
      }
      log.debug("worker pool is shut down; dropping the connection's remaining tasks");
    }
  }

  private void drain() {
    for (int i = 0; i < BATCH; i++) {
      Runnable task;
      synchronized (tasks) {
        task = tasks.poll();
        if (task == null) {
          scheduled = false;
          return;
        }
      }
      try {
        task.run();
      } catch (RuntimeException | Error e) {
        log.error("connection task failed", e);
      }
    }
    schedule();
  }
}
