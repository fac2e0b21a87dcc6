package io.openrs.dsi.internal;

import io.openrs.dsi.hvar.GroupPlan;
import io.openrs.ltl.TableName;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * HVAR's units of work and their order. The compiling thread numbers units (a compiled group, or
 * one transaction to apply in continuous mode) from 1 in commit order and this pipeline hands them
 * to the DSIEXEC threads: each loads its group's work tables at once but touches the replicate
 * tables only after the unit before it completed ({@link Gate#awaitTurn}), so commit order holds
 * and the next group loads while the previous commits. At most {@code dsi_num_threads} units are in
 * flight, which bounds memory; with one DSIEXEC thread that is one unit applying while the next
 * group compiles. Waits end when the run stops. Thread-safe.
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

    Group(
        long seq,
        List<SourceTransaction> txs,
        List<SourceTransaction> ignored,
        GroupPlan plan,
        List<TableName> parentsFirst,
        AheadInserts ahead) {
      super(seq, ignored);
      this.txs = List.copyOf(txs);
      this.plan = plan;
      this.parentsFirst = List.copyOf(parentsFirst);
      this.ahead = ahead;
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
  }

  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final RunContext ctx;
  private final int maxInFlight;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<Unit> waiting = new ArrayDeque<>();
  private long completed;
  private int inFlight;

  HvarPipeline(RunContext ctx, int maxInFlight) {
    this.ctx = ctx;
    this.maxInFlight = maxInFlight;
  }

  /** Hands a unit to the executors, waiting while {@code maxInFlight} units are not done. */
  void put(Unit u) throws ReplicateSession.Stopping, InterruptedException {
    lock.lock();
    try {
      while (inFlight >= maxInFlight) {
        stopCheck();
        changed.awaitNanos(POLL_NANOS);
      }
      waiting.addLast(u);
      inFlight++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The next unit, or null after {@code millis} or when stopping. */
  Unit take(long millis) throws InterruptedException {
    long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
    lock.lock();
    try {
      while (waiting.isEmpty()) {
        if (nanos <= 0 || ctx.stopping()) {
          return null;
        }
        nanos = changed.awaitNanos(Math.min(nanos, POLL_NANOS));
      }
      return waiting.removeFirst();
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
        public void complete(long seq) {
          lock.lock();
          try {
            completed = Math.max(completed, seq);
            inFlight--;
            changed.signalAll();
          } finally {
            lock.unlock();
          }
        }
      };

  /** True if every unit handed over has completed (none waits, none is being applied). */
  boolean idle() {
    lock.lock();
    try {
      return inFlight == 0;
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
