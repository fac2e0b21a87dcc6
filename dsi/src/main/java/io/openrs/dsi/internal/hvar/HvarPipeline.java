package io.openrs.dsi.internal.hvar;

import io.openrs.dsi.internal.ReplicateSession;
import io.openrs.dsi.internal.RunContext;
import io.openrs.dsi.internal.SourceTransaction;
import io.openrs.ltl.TableName;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * HVAR's units of work and their order. The compiling thread numbers units (a compiled group, or
 * one transaction to apply in continuous mode) from 1 in commit order and this pipeline hands them
 * to the DSIEXEC threads in turn: unit {@code seq} goes to thread {@code (seq - 1) mod
 * dsi_num_threads + 1}, so the compiling thread knows, while a group is still open, on whose
 * session it will apply (its inserts ahead go there). Each thread loads its group's work tables at
 * once but touches the replicate tables only after the unit before it completed ({@link
 * Gate#awaitTurn}), so commit order holds and the next group loads while the previous commits. At
 * most {@code dsi_num_threads} units are in flight, one per thread, which bounds memory; with one
 * DSIEXEC thread that is one unit applying while the next group compiles. Waits end when the run
 * stops. Thread-safe.
 */
final class HvarPipeline {

  /** A unit: numbered, with the transactions found already applied that it marks done. */
  abstract static class Unit {
    final long seq;
    final List<SourceTransaction> ignored;

    Unit(long seq, List<SourceTransaction> ignored) {
      this.seq = seq;
      this.ignored = List.copyOf(ignored);
    }
  }

  /** A compiled group: its source transactions and their net changes. */
  static final class Group extends Unit {
    final List<SourceTransaction> txs;
    final GroupPlan plan;
    final List<TableName> parentsFirst;

    /** Inserts that went ahead while the group compiled (one DSIEXEC thread), or null. */
    final AheadInserts ahead;

    /** Applied in replica mode (its transactions' origins log their cascades and triggers). */
    final boolean replicaMode;

    /** A table of the group has deferrable constraints: they are checked at commit. */
    final boolean deferConstraints;

    Group(
        long seq,
        List<SourceTransaction> txs,
        List<SourceTransaction> ignored,
        GroupPlan plan,
        List<TableName> parentsFirst,
        AheadInserts ahead,
        boolean replicaMode,
        boolean deferConstraints) {
      super(seq, ignored);
      this.txs = List.copyOf(txs);
      this.plan = plan;
      this.parentsFirst = List.copyOf(parentsFirst);
      this.ahead = ahead;
      this.replicaMode = replicaMode;
      this.deferConstraints = deferConstraints;
    }
  }

  /** One transaction HVAR does not compile: applied in continuous mode, in its place. */
  static final class Continuous extends Unit {
    final SourceTransaction tx;

    Continuous(long seq, SourceTransaction tx, List<SourceTransaction> ignored) {
      super(seq, ignored);
      this.tx = tx;
    }
  }

  /** When a unit may touch the replicate tables, and telling that it is done. */
  interface Gate {
    /** Waits until every unit before {@code seq} completed. */
    void awaitTurn(long seq) throws ReplicateSession.Stopping, InterruptedException;

    /** Unit {@code seq} is done (committed, logged, or found applied). */
    void complete(long seq);

    /**
     * Waits until no transaction applied in continuous mode before unit {@code seq} is in flight:
     * the compiler let inserts go ahead without knowing its keys.
     */
    void awaitEarlierContinuous(long seq) throws ReplicateSession.Stopping, InterruptedException;
  }

  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final RunContext ctx;
  private final int threads;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  // per DSIEXEC thread (index thread - 1): its unit not taken yet, and its unit not done
  private final Unit[] waiting;
  private final Unit[] busy;
  private long completed;

  HvarPipeline(RunContext ctx, int threads) {
    this.ctx = ctx;
    this.threads = threads;
    this.waiting = new Unit[threads];
    this.busy = new Unit[threads];
  }

  /** The DSIEXEC thread (from 1) that applies unit {@code seq}. */
  int threadOf(long seq) {
    return (int) ((seq - 1) % threads) + 1;
  }

  /** Hands a unit to its DSIEXEC thread, waiting while that thread has one not done. */
  void put(Unit u) throws ReplicateSession.Stopping, InterruptedException {
    int i = threadOf(u.seq) - 1;
    lock.lock();
    try {
      while (busy[i] != null) {
        stopCheck();
        changed.awaitNanos(POLL_NANOS);
      }
      waiting[i] = u;
      busy[i] = u;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** DSIEXEC {@code thread}'s next unit, or null after {@code millis} or when stopping. */
  Unit take(int thread, long millis) throws InterruptedException {
    int i = thread - 1;
    long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
    lock.lock();
    try {
      while (waiting[i] == null) {
        if (nanos <= 0 || ctx.stopping()) {
          return null;
        }
        nanos = changed.awaitNanos(Math.min(nanos, POLL_NANOS));
      }
      Unit u = waiting[i];
      waiting[i] = null;
      return u;
    } finally {
      lock.unlock();
    }
  }

  final Gate gate =
      new Gate() {
        @Override
        public void awaitTurn(long seq) throws ReplicateSession.Stopping, InterruptedException {
          awaitCompleted(seq - 1);
        }

        @Override
        public void awaitEarlierContinuous(long seq)
            throws ReplicateSession.Stopping, InterruptedException {
          lock.lock();
          try {
            while (continuousBefore(seq)) {
              stopCheck();
              changed.awaitNanos(POLL_NANOS);
            }
          } finally {
            lock.unlock();
          }
        }

        @Override
        public void complete(long seq) {
          lock.lock();
          try {
            completed = Math.max(completed, seq);
            busy[threadOf(seq) - 1] = null;
            changed.signalAll();
          } finally {
            lock.unlock();
          }
        }
      };

  /**
   * True if inserts ahead may go on DSIEXEC {@code thread}'s session now: the thread has no unit
   * handed over and not done (none waits, none applies), and no transaction applied in continuous
   * mode is in flight on another (its keys are not known).
   */
  boolean mayLoadAhead(int thread) {
    lock.lock();
    try {
      return busy[thread - 1] == null && !continuousBefore(Long.MAX_VALUE);
    } finally {
      lock.unlock();
    }
  }

  private boolean continuousBefore(long seq) {
    for (Unit u : busy) {
      if (u instanceof Continuous && u.seq < seq) {
        return true;
      }
    }
    return false;
  }

  /** The last unit done, every one before it done too (0: none yet). */
  long completed() {
    lock.lock();
    try {
      return completed;
    } finally {
      lock.unlock();
    }
  }

  /** Waits until unit {@code seq} (and every one before it) completed. */
  void awaitCompleted(long seq) throws ReplicateSession.Stopping, InterruptedException {
    lock.lock();
    try {
      while (completed < seq) {
        stopCheck();
        changed.awaitNanos(POLL_NANOS);
      }
    } finally {
      lock.unlock();
    }
  }

  private void stopCheck() throws ReplicateSession.Stopping {
    if (ctx.stopping()) {
      throw new ReplicateSession.Stopping();
    }
  }
}
