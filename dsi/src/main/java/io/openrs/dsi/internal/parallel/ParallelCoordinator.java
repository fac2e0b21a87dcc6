package io.openrs.dsi.internal.parallel;

import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.SerializationMethod;
import io.openrs.dsi.internal.Grouping;
import io.openrs.dsi.internal.RunContext;
import io.openrs.dsi.internal.SourceTransaction;
import io.openrs.dsi.internal.TransactionStream;
import io.openrs.ltl.Oqid;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduling half of the parallel DSI, shared by its DSIEXEC threads (each asks it for work).
 * Groups of transactions become <em>units</em> numbered in commit order and are handed out in that
 * order, each when its serialization method allows:
 *
 * <ul>
 *   <li>{@code dependency_aware}: its predecessor has started and no running unit writes one of its
 *       rows (a streamed large transaction whose commit is not read yet conflicts with everything;
 *       once read, with the tables it writes);
 *   <li>{@code wait_for_start}: its predecessor has started (locked its {@code rs_threads} row);
 *   <li>{@code no_wait}: at once, on a free thread;
 *   <li>{@code wait_for_commit}: its predecessor is ready to commit;
 *   <li>{@code wait_after_commit}: its predecessor has committed.
 * </ul>
 *
 * <p>Whatever the method, units <b>commit</b> in commit order: a unit ready to commit waits for its
 * nearest running predecessor on that predecessor's {@code rs_threads} row, a wait the replicate's
 * deadlock detector sees ({@link #commitTurn}); it never waits in memory on a unit that holds its
 * row, only on one that has not locked it yet (which it does first, before anything that could
 * block).
 *
 * <p>When a unit fails, later ones roll back when they find their predecessor did not commit,
 * earlier ones commit, and then one thread re-applies the failed unit and everything after it that
 * was started, transaction by transaction with the full error actions (an exclusive run), before
 * parallel work resumes. Exclusive runs also take units that must run alone: DDL, incomplete runs,
 * transactions read again after a restart, a skip requested by resume.
 *
 * <p><b>Large transactions</b> (with {@code dsi_num_large_xact_threads}): a streamed transaction
 * ({@link TransactionStream}) is a unit of its own, handed to a large-transaction thread before its
 * commit is read; normal units only go to the other threads. If it could start but every large
 * thread is busy ({@code AllLargeThreadsInUse}), it is handled as a normal unit: its stream is
 * detached and it waits for its commit, then a normal thread applies it read again from the queue.
 * A streamed unit whose run is dropped <em>vanishes</em>: rolled back if it had started, it takes
 * its place in the commit order without committing anything.
 *
 * <p>Thread-safe: one lock; waits are on its condition, never on the database.
 */
public final class ParallelCoordinator {
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

    /** Dependency keys; null for a streamed unit (see {@link #keys()}). */
    private final DependencyKeys keys;

    /** The stream of a streamed large transaction, else null. */
    final TransactionStream stream;

    /** A streamed transaction that may have been applied before a restart: applied alone. */
    private final boolean readAgain;

    State state;

    /** Handed to a large-transaction thread. */
    boolean onLarge;

    /** Its stream is applied live, as it is read. */
    boolean live;

    Unit(long seq, List<SourceTransaction> group, DependencyKeys keys) {
      this(seq, group, keys, null, false);
    }

    private Unit(
        long seq,
        List<SourceTransaction> group,
        DependencyKeys keys,
        TransactionStream stream,
        boolean readAgain) {
      this.seq = seq;
      this.group = group;
      this.keys = keys;
      this.stream = stream;
      this.readAgain = readAgain;
    }

    /**
     * What the unit writes; null while unknown (a stream whose commit is not read): it conflicts
     * with everything. A stream's keys are its tables, whole (bounded, whatever its size).
     */
    DependencyKeys keys() {
      if (stream == null) {
        return keys;
      }
      if (!stream.finished()) {
        return null;
      }
      DependencyKeys k = new DependencyKeys();
      k.tables.addAll(stream.tables());
      k.tableLocks.addAll(stream.tables());
      k.exclusive = stream.hasDdl();
      return k;
    }

    /** Must run alone, with nothing beside it. */
    boolean exclusive() {
      return stream == null ? keys.exclusive : readAgain || stream.hasDdl();
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

  /** Longest wait in memory for a predecessor in {@link #commitTurn}. */
  static final long IN_MEMORY_WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);

  private final RunContext ctx;
  private final Grouping grouping;
  private final SerializationMethod method;
  private final int normalThreads;
  private final int largeThreads;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<Unit> pending = new ArrayDeque<>();
  private final TreeMap<Long, Unit> inflight = new TreeMap<>();

  /** Units that vanished (dropped streams) after {@link #lastCommitted}, not yet passed. */
  private final TreeSet<Long> vanished = new TreeSet<>();

  private long nextSeq = 1;
  private long lastCommitted;
  private boolean taking;
  private boolean exclusiveRunning;
  private boolean exclusiveOnLarge;
  private long failedFrom = Long.MAX_VALUE;
  private int busyNormal;
  private int busyLarge;
  private long exclusiveUpTo;

  /** An exclusive run did not complete (the connection goes down): nothing more is handed out. */
  private boolean halted;

  /**
   * @param largeThreads of the run's {@code dsi_num_threads} DSIEXEC threads, how many are kept for
   *     large transactions (which DSI-S then streams); 0 for none
   */
  public ParallelCoordinator(RunContext ctx, int largeThreads) {
    this.ctx = ctx;
    this.grouping = new Grouping(ctx.settings, ctx.dialect.transactionalDdl());
    this.method = ctx.settings.serializationMethod();
    this.largeThreads = largeThreads;
    this.normalThreads = ctx.settings.numThreads() - largeThreads;
    if ((method == SerializationMethod.WAIT_FOR_START || method == SerializationMethod.NO_WAIT)
        && !ctx.settings.rowCountValidation()) {
      LOG.warn(
          "{}: dsi_serialization_method {} with dsi_row_count_validation off: an update or delete"
              + " that runs before the insert it depends on touches nothing and is not detected",
          ctx.name(),
          method.label());
    }
  }

  /** {@code rs_threads} row of a unit. */
  int row(long seq) {
    return (int) (seq % ctx.threadRows());
  }

  /** Threads numbered above this are large-transaction threads. */
  public int normalThreads() {
    return normalThreads;
  }

  /**
   * The next work for a thread, waiting up to about {@code waitMillis}; null if none (or the run
   * stops).
   *
   * @param keys how the calling thread computes a group's keys (it reads the catalog)
   * @param large the caller is a large-transaction thread: it takes streamed units (and exclusive
   *     runs), never normal ones
   */
  Work next(Function<List<SourceTransaction>, DependencyKeys> keys, long waitMillis, boolean large)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
    lock.lock();
    try {
      while (!ctx.stopping() && !halted) {
        if (failedFrom != Long.MAX_VALUE) {
          if (!running() && !exclusiveRunning) {
            return exclusive(recoveryGroups(), large);
          }
        } else if (!exclusiveRunning) {
          Unit head = pending.peekFirst();
          if (head == null) {
            if (!taking) {
              takeFromHandoff(keys);
              continue;
            }
          } else if (head.stream != null
              && head.stream.outcome() == TransactionStream.Outcome.DROPPED) {
            pending.removeFirst();
            vanish(head.seq);
            continue;
          } else if (head.exclusive() || ctx.skipPending()) {
            if (head.stream != null) {
              head.stream.detach(); // applied alone, read again once its commit is read
            }
            if (inflight.isEmpty() && (head.stream == null || head.stream.finished())) {
              pending.removeFirst();
              exclusiveUpTo = head.seq;
              return exclusive(List.of(head.group), large);
            }
          } else if (canStart(head)) {
            if (head.stream != null && !head.stream.isDetached()) {
              if (large) {
                head.live = true;
                head.stream.claimLive();
                return hand(head, true);
              }
              if (busyLarge >= largeThreads) {
                // every large thread is busy: handled as a normal one, read again after its commit
                head.stream.detach();
                ctx.meters.add(DsiCounter.ALL_LARGE_THREADS_IN_USE, 1);
                continue;
              }
              // a large thread is free: it takes it
            } else if (!large && (head.stream == null || head.stream.finished())) {
              return hand(head, false);
            }
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

  private Work hand(Unit u, boolean large) {
    pending.removeFirst();
    u.state = State.HANDED;
    u.onLarge = large;
    inflight.put(u.seq, u);
    if (large) {
      busyLarge++;
    } else {
      busyNormal++;
    }
    return new Work(u, null);
  }

  /** Called with the lock held; releases it while waiting on the hand-off. */
  private void takeFromHandoff(Function<List<SourceTransaction>, DependencyKeys> keys)
      throws InterruptedException {
    taking = true;
    lock.unlock();
    List<SourceTransaction> group = List.of();
    Unit unit = null;
    try {
      group = ctx.handoff.takeGroup(grouping::newGroup, 100);
      if (group.size() == 1 && group.get(0).streamed()) {
        TransactionStream s = group.get(0).stream();
        s.onEnd(this::wakeAll);
        boolean readAgain = mayBeApplied(s);
        if (readAgain) {
          s.detach();
        }
        unit = new Unit(0, group, null, s, readAgain);
      } else if (!group.isEmpty()) {
        boolean readAgain = group.stream().anyMatch(t -> ctx.lastCommit().applied(t));
        DependencyKeys k = keys.apply(group);
        k.exclusive |= readAgain;
        unit = new Unit(0, group, k);
      }
    } finally {
      lock.lock();
      taking = false;
      if (unit != null) {
        pending.addLast(
            unit.stream == null
                ? new Unit(nextSeq++, unit.group, unit.keys)
                : new Unit(nextSeq++, unit.group, null, unit.stream, unit.readAgain));
      }
      changed.signalAll();
    }
  }

  /**
   * True if the replicate may hold the streamed transaction already (read again after a restart):
   * its begin is at or below its origin's rs_lastcommit, so its commit may be too. Only its commit
   * tells; until then it is not applied.
   */
  private boolean mayBeApplied(TransactionStream s) {
    Optional<Oqid> last = ctx.lastCommit().of(s.origin());
    return last.isPresent() && s.begin().oqid().compareTo(last.get()) <= 0;
  }

  private boolean canStart(Unit u) {
    Map.Entry<Long, Unit> p = inflight.lastEntry(); // every unit before u was handed
    Unit pred = p == null ? null : p.getValue();
    for (Unit other : inflight.values()) {
      if (other.stream != null && other.exclusive()) {
        return false; // a streamed transaction turned out to hold DDL: nothing beside it
      }
    }
    switch (method) {
      case NO_WAIT:
        return true;
      case WAIT_FOR_START:
        return pred == null || pred.state != State.HANDED;
      case DEPENDENCY_AWARE:
        {
          if (pred != null && pred.state == State.HANDED) {
            return false;
          }
          DependencyKeys mine = u.keys();
          if (mine == null) {
            return inflight.isEmpty();
          }
          for (Unit other : inflight.values()) {
            DependencyKeys theirs = other.keys();
            if (theirs == null || theirs.conflicts(mine)) {
              return false;
            }
          }
          return true;
        }
      case WAIT_AFTER_COMMIT:
        return pred == null;
      case WAIT_FOR_COMMIT:
      default:
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
      if (u.stream != null) {
        u.stream.detach();
      }
    }
    inflight.clear();
    for (Unit u : pending) {
      groups.add(u.group);
      exclusiveUpTo = u.seq;
      if (u.stream != null) {
        u.stream.detach();
      }
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

  private Work exclusive(List<List<SourceTransaction>> groups, boolean large) {
    exclusiveRunning = true;
    exclusiveOnLarge = large;
    if (large) {
      busyLarge++;
    } else {
      busyNormal++;
    }
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
        vanished.headSet(lastCommitted, true).clear();
        passVanished();
      } else {
        halted = true;
      }
      exclusiveRunning = false;
      if (exclusiveOnLarge) {
        busyLarge--;
      } else {
        busyNormal--;
      }
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

  /**
   * Whose turn it is, for a unit ready to commit: 0 if every unit before it has committed (or
   * vanished): it may commit; -1 if one before it was rolled back or the run stops: it must roll
   * back; otherwise the sequence number of its nearest running predecessor, whose {@code
   * rs_threads} row the caller waits on in the database, then asks again with {@code waitedOn} set
   * to that number.
   *
   * <p>It waits here, in memory, only for a predecessor that has not locked its row yet, or whose
   * end the database has shown but whose thread has not reported it yet; never longer than {@link
   * #IN_MEMORY_WAIT_NANOS}, after which it answers -1. That bound matters: when the replicate rolls
   * a predecessor back in the middle of a pipelined JDBC batch (MariaDB picks it as a deadlock
   * victim), the batch's remaining statements run on in a new transaction, which may wait on this
   * unit's locks while this unit waits for the predecessor's thread: a cycle no deadlock detector
   * sees. Rolling this unit back breaks it; it is applied again in commit order.
   */
  long commitTurn(Unit u, long waitedOn) throws InterruptedException {
    lock.lock();
    try {
      long waitingSince = 0;
      while (true) {
        if (u.seq - 1 <= lastCommitted) {
          return 0;
        }
        if (ctx.stopping()) {
          return -1;
        }
        Map.Entry<Long, Unit> e = inflight.lowerEntry(u.seq);
        if (e != null) {
          Unit q = e.getValue();
          if (q.state == State.ABORTED) {
            return -1;
          }
          if (q.state != State.HANDED && q.seq != waitedOn) {
            return q.seq;
          }
          long now = System.nanoTime();
          if (waitingSince == 0) {
            waitingSince = now;
          } else if (now - waitingSince > IN_MEMORY_WAIT_NANOS) {
            LOG.info(
                "{}: unit {} waited {} ms for unit {} ({}) to report its end; rolling back unit"
                    + " {} so it cannot hold up a transaction the database does not show",
                ctx.name(),
                u.seq,
                TimeUnit.NANOSECONDS.toMillis(now - waitingSince),
                q.seq,
                q.state,
                u.seq);
            return -1;
          }
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
      passVanished();
      release(u);
      if (!u.onLarge
          && busyNormal >= normalThreads - 1
          && (!pending.isEmpty() || ctx.handoff.bytes() > 0)) {
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
      release(u);
      failedFrom = Math.min(failedFrom, u.seq);
      if (u.stream != null) {
        u.stream.detach();
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * A streamed unit's run was dropped and its replicate transaction rolled back: it takes its place
   * in the commit order without committing anything.
   */
  void vanished(Unit u) {
    lock.lock();
    try {
      u.state = State.COMMITTED;
      inflight.remove(u.seq);
      release(u);
      vanish(u.seq);
    } finally {
      lock.unlock();
    }
  }

  private void vanish(long seq) {
    LOG.info("{}: unit {} (a dropped large transaction) has nothing to commit", ctx.name(), seq);
    vanished.add(seq);
    passVanished();
    changed.signalAll();
  }

  /** Moves {@link #lastCommitted} over vanished units right after it. */
  private void passVanished() {
    while (vanished.remove(lastCommitted + 1)) {
      lastCommitted++;
    }
  }

  private void release(Unit u) {
    if (u.onLarge) {
      busyLarge--;
    } else {
      busyNormal--;
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
