package io.openrs.dsi.internal;

import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.SerializationMethod;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduling half of the parallel DSI, shared by its DSIEXEC threads (each asks it for work).
 * Groups of transactions become <em>units</em> numbered in commit order. Units start strictly in
 * that order, each when its serialization method allows: dependency-aware (no running unit writes
 * one of its rows), wait_for_commit (its predecessor is ready to commit) or wait_after_commit (its
 * predecessor committed). They commit in that order too: a unit ready to commit waits for its
 * predecessor on the predecessor's {@code rs_threads} row, a wait the replicate's deadlock detector
 * sees. When a unit fails, later ones roll back when they find their predecessor did not commit,
 * earlier ones commit, and then one thread re-applies the failed unit and everything after it that
 * was started, transaction by transaction with the full error actions (an exclusive run), before
 * parallel work resumes. Exclusive runs also take units that must run alone: DDL, incomplete runs,
 * transactions read again after a restart, a skip requested by resume.
 *
 * <p>Thread-safe: one lock; waits are on its condition, never on the database.
 */
final class ParallelCoordinator {
  private static final Logger LOG = LoggerFactory.getLogger(ParallelCoordinator.class);

  enum State {
    HANDED,
    STARTED,
    READY,
    COMMITTED,
    ABORTED
  }

  /** A group of consecutive transactions applied as one replicate transaction by one thread. */
  static final class Unit {
    final long seq;
    final List<SourceTransaction> group;
    final DependencyKeys keys;
    State state;

    Unit(long seq, List<SourceTransaction> group, DependencyKeys keys) {
      this.seq = seq;
      this.group = group;
      this.keys = keys;
    }
  }

  /** What a thread gets: one unit to run in parallel, or groups to apply alone, in order. */
  static final class Work {
    final Unit unit;
    final List<List<SourceTransaction>> exclusive;

    private Work(Unit unit, List<List<SourceTransaction>> exclusive) {
      this.unit = unit;
      this.exclusive = exclusive;
    }
  }

  private final RunContext ctx;
  private final Grouping grouping;
  private final SerializationMethod method;
  private final int threads;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<Unit> pending = new ArrayDeque<>();
  private final TreeMap<Long, Unit> inflight = new TreeMap<>();
  private long nextSeq = 1;
  private long lastCommitted;
  private boolean taking;
  private boolean exclusiveRunning;
  private long failedFrom = Long.MAX_VALUE;
  private int busy;
  private long exclusiveUpTo;

  /** An exclusive run did not complete (the connection goes down): nothing more is handed out. */
  private boolean halted;

  ParallelCoordinator(RunContext ctx) {
    this.ctx = ctx;
    this.grouping = new Grouping(ctx.settings, ctx.dialect.transactionalDdl());
    this.method = ctx.settings.serializationMethod();
    this.threads = ctx.settings.numThreads();
  }

  /** {@code rs_threads} row of a unit. */
  int row(long seq) {
    return (int) (seq % ctx.threadRows());
  }

  /**
   * The next work for a thread, waiting up to about {@code waitMillis}; null if none (or the run
   * stops).
   *
   * @param keys how the calling thread computes a group's keys (it reads the catalog)
   */
  Work next(Function<List<SourceTransaction>, DependencyKeys> keys, long waitMillis)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
    lock.lock();
    try {
      while (!ctx.stopping() && !halted) {
        if (failedFrom != Long.MAX_VALUE) {
          if (!running() && !exclusiveRunning) {
            return exclusive(recoveryGroups());
          }
        } else if (!exclusiveRunning) {
          Unit head = pending.peekFirst();
          if (head == null) {
            if (!taking) {
              takeFromHandoff(keys);
              continue;
            }
          } else if (head.keys.exclusive || ctx.skipPending()) {
            if (inflight.isEmpty()) {
              pending.removeFirst();
              exclusiveUpTo = head.seq;
              return exclusive(List.of(head.group));
            }
          } else if (canStart(head)) {
            pending.removeFirst();
            head.state = State.HANDED;
            inflight.put(head.seq, head);
            busy++;
            return new Work(head, null);
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return null;
        }
        changed.awaitNanos(left);
      }
      return null;
    } finally {
      lock.unlock();
    }
  }

  /** Called with the lock held; releases it while waiting on the hand-off. */
  private void takeFromHandoff(Function<List<SourceTransaction>, DependencyKeys> keys)
      throws InterruptedException {
    taking = true;
    lock.unlock();
    List<SourceTransaction> group = List.of();
    DependencyKeys k = null;
    try {
      group = ctx.handoff.takeGroup(grouping::joins, 100);
      if (!group.isEmpty()) {
        boolean readAgain = group.stream().anyMatch(t -> ctx.lastCommit().applied(t));
        k = keys.apply(group);
        k.exclusive |= readAgain;
      }
    } finally {
      lock.lock();
      taking = false;
      if (!group.isEmpty()) {
        pending.addLast(new Unit(nextSeq++, group, k));
      }
      changed.signalAll();
    }
  }

  private boolean canStart(Unit u) {
    Unit pred = inflight.get(u.seq - 1);
    if (pred != null && pred.state == State.HANDED) {
      return false; // units start in commit order
    }
    if (busy >= threads) {
      return false;
    }
    switch (method) {
      case DEPENDENCY_AWARE:
        for (Unit other : inflight.values()) {
          if (other.keys.conflicts(u.keys)) {
            return false;
          }
        }
        return true;
      case WAIT_AFTER_COMMIT:
        return pred == null;
      default: // wait_for_commit (wait_for_start and no_wait are applied as it)
        return pred == null || pred.state == State.READY;
    }
  }

  private boolean running() {
    for (Unit u : inflight.values()) {
      if (u.state != State.ABORTED) {
        return true;
      }
    }
    return false;
  }

  /** The groups of every aborted unit and every unit not yet started, in commit order. */
  private List<List<SourceTransaction>> recoveryGroups() {
    List<List<SourceTransaction>> groups = new ArrayList<>();
    for (Unit u : inflight.values()) {
      groups.add(u.group);
      exclusiveUpTo = u.seq;
    }
    inflight.clear();
    for (Unit u : pending) {
      groups.add(u.group);
      exclusiveUpTo = u.seq;
    }
    pending.clear();
    LOG.info(
        "{}: re-applying {} groups from unit {} in commit order, one transaction at a time",
        ctx.name(),
        groups.size(),
        failedFrom);
    failedFrom = Long.MAX_VALUE;
    return groups;
  }

  private Work exclusive(List<List<SourceTransaction>> groups) {
    exclusiveRunning = true;
    busy++;
    return new Work(null, groups);
  }

  /**
   * An exclusive run ended. {@code completed}: every group was applied, so its units count as
   * committed; otherwise (a transaction stopped the connection, or the run is stopping) nothing
   * after it may be applied, and the coordinator hands out no more work.
   */
  void exclusiveDone(boolean completed) {
    lock.lock();
    try {
      if (completed) {
        lastCommitted = Math.max(lastCommitted, exclusiveUpTo);
      } else {
        halted = true;
      }
      exclusiveRunning = false;
      busy--;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  void started(Unit u) {
    setState(u, State.STARTED);
  }

  void ready(Unit u) {
    setState(u, State.READY);
  }

  private void setState(Unit u, State s) {
    lock.lock();
    try {
      u.state = s;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** True if the unit's predecessor has committed (no database wait needed). */
  boolean predecessorCommitted(Unit u) {
    lock.lock();
    try {
      return u.seq - 1 <= lastCommitted;
    } finally {
      lock.unlock();
    }
  }

  /**
   * After the database wait on the predecessor's row: waits for its outcome to be known here.
   *
   * @return true if it committed, false if it was rolled back (this unit must roll back too)
   */
  boolean awaitPredecessor(Unit u) throws InterruptedException {
    lock.lock();
    try {
      while (true) {
        if (u.seq - 1 <= lastCommitted) {
          return true;
        }
        Unit pred = inflight.get(u.seq - 1);
        if (pred == null || pred.state == State.ABORTED || ctx.stopping()) {
          return false;
        }
        changed.await(100, TimeUnit.MILLISECONDS);
      }
    } finally {
      lock.unlock();
    }
  }

  void committed(Unit u) {
    lock.lock();
    try {
      u.state = State.COMMITTED;
      lastCommitted = u.seq;
      inflight.remove(u.seq);
      busy--;
      if (busy >= threads - 1 && (!pending.isEmpty() || ctx.handoff.bytes() > 0)) {
        ctx.meters.add(DsiCounter.ALL_THREADS_IN_USE, 1);
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The unit rolled back; it and every later started unit are applied again in order. */
  void aborted(Unit u) {
    lock.lock();
    try {
      u.state = State.ABORTED;
      busy--;
      failedFrom = Math.min(failedFrom, u.seq);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Wakes every waiting thread (the run stops). */
  void wakeAll() {
    lock.lock();
    try {
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
