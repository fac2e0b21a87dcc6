package io.openrs.dsi.internal;

import io.openrs.dsi.DsiCounter;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.LtlCommand.Begin;
import io.openrs.ltl.LtlCommand.Commit;
import io.openrs.ltl.LtlCommand.InTransaction;
import io.openrs.ltl.packed.OriginEnvelope;
import io.openrs.ltl.packed.PackedDecoder;
import io.openrs.ltl.packed.PackedFormatException;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.StableQueue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The commands of a <em>large</em> transaction (more than {@code dsi_large_xact_size} commands),
 * handed on before its commit is read, so it is never held whole in memory. DSI-S {@linkplain
 * #offer offers} commands as it reads them and ends the stream with the {@linkplain #complete
 * commit} or a {@linkplain #drop drop} (the run turned out unfinished, or was rolled back).
 *
 * <p>Two ways to read the commands:
 *
 * <ul>
 *   <li><b>live</b>, once, by the large-transaction thread the unit was handed to ({@link
 *       #claimLive}): commands wait in a buffer whose bytes count against the hand-off's budget
 *       ({@code dsi_sqt_max_cache_size}); DSI-S waits when it is full. The iteration ends at the
 *       commit and throws {@link Dropped} if the run is dropped.
 *   <li><b>again</b>, any number of times, from the outbound queue between the run's first message
 *       and its commit ({@link StableQueue#dump}), once the commit is read. The DSI reader is never
 *       confirmed past a transaction that is not done, so its messages are still there. Used once
 *       the stream is {@linkplain #detach detached}: no large thread was free, the live apply
 *       failed, it was read again after a restart, or the exceptions log needs every command.
 * </ul>
 *
 * Thread-safe.
 */
public final class TransactionStream {

  /** How the run ended, as far as DSI-S has read. */
  public enum Outcome {
    OPEN,
    COMMITTED,
    DROPPED
  }

  /** The run was dropped: whatever was applied from it must be rolled back. */
  public static final class Dropped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Dropped(String message) {
      super(message, null, false, false);
    }
  }

  /** The live apply cannot go on: the run stops, or a command must be applied another way. */
  public static final class Interrupted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Interrupted(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * The live apply met DDL on a replicate where DDL commits implicitly: the transaction is rolled
   * back and applied alone, in commit order, read again from the queue.
   */
  public static final class NeedsReplay extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NeedsReplay(String message) {
      super(message, null, false, false);
    }
  }

  private record Entry(InTransaction command, long bytes) {}

  private final String name;
  private final StableQueue queue;
  private final TransactionHandoff budget;
  private final DsiMeters meters;
  private final BooleanSupplier stopping;
  private final boolean transactionalDdl;
  private final int origin;
  private final Begin begin;
  private final QueuePosition first;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<Entry> buffer = new ArrayDeque<>();
  private final Set<String> tables = new LinkedHashSet<>();
  private long buffered;
  private long bytes;
  private int commands;
  private boolean ddl;
  private boolean detached;
  private boolean liveClaimed;
  private boolean liveTaken;
  private Outcome outcome = Outcome.OPEN;
  private Commit commit;
  private QueuePosition last;
  private String dropReason;
  private volatile Runnable onEnd = () -> {};

  /**
   * A stream starting with the commands read so far ({@code body}, {@code bytes} bytes of queue
   * messages, begin included), which are admitted whatever the budget holds.
   */
  TransactionStream(
      String name,
      StableQueue queue,
      TransactionHandoff budget,
      DsiMeters meters,
      BooleanSupplier stopping,
      boolean transactionalDdl,
      int origin,
      Begin begin,
      QueuePosition first,
      QueuePosition last,
      List<InTransaction> body,
      long bytes) {
    this.name = name;
    this.queue = queue;
    this.budget = budget;
    this.meters = meters;
    this.stopping = stopping;
    this.transactionalDdl = transactionalDdl;
    this.origin = origin;
    this.begin = begin;
    this.first = first;
    this.last = last;
    this.bytes = bytes;
    long share = body.isEmpty() ? 0 : bytes / body.size();
    long rest = bytes - share * body.size();
    for (int i = 0; i < body.size(); i++) {
      long b = share + (i == body.size() - 1 ? rest : 0);
      buffer.addLast(new Entry(body.get(i), b));
      note(body.get(i));
    }
    buffered = bytes;
    commands = body.size();
    budget.forceAcquire(buffered);
  }

  // ---- DSI-S -----------------------------------------------------------------------------------

  /**
   * The next command of the run, read at {@code position} from a message of {@code msgBytes}. Waits
   * up to {@code timeoutMillis} for room in the budget unless the stream is detached (then the
   * command is only counted: it will be read again from the queue).
   *
   * @return false if it timed out (nothing recorded: offer it again)
   */
  boolean offer(InTransaction cmd, QueuePosition position, long msgBytes, long timeoutMillis)
      throws InterruptedException {
    boolean admitted = false;
    if (!isDetached()) {
      admitted = budget.acquire(msgBytes, timeoutMillis);
      if (!admitted && !isDetached()) {
        return false;
      }
    }
    lock.lock();
    try {
      commands++;
      bytes += msgBytes;
      last = position;
      note(cmd);
      if (detached || outcome != Outcome.OPEN) {
        if (admitted) {
          budget.release(msgBytes);
        }
      } else {
        buffer.addLast(new Entry(cmd, msgBytes));
        buffered += msgBytes;
        changed.signalAll();
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  private void note(InTransaction cmd) {
    if (cmd instanceof LtlCommand.RowChange rc) {
      tables.add(rc.table().toString());
    } else if (cmd instanceof LtlCommand.Truncate tr) {
      tables.add(tr.table().toString());
    } else if (cmd instanceof LtlCommand.Ddl) {
      ddl = true;
    }
  }

  /** The run's commit was read at {@code position}. */
  void complete(Commit c, QueuePosition position, long msgBytes) {
    lock.lock();
    try {
      commit = c;
      last = position;
      bytes += msgBytes;
      outcome = Outcome.COMMITTED;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    meters.add(DsiCounter.READ_TRANS, 1);
    onEnd.run();
  }

  /** The run is dropped ({@code why}): nothing of it may stay applied. */
  void drop(String why) {
    lock.lock();
    try {
      dropReason = why;
      outcome = Outcome.DROPPED;
      clearBuffer();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    onEnd.run();
  }

  /** Runs {@code r} when the run's end is read (at once if it is). */
  public void onEnd(Runnable r) {
    onEnd = r;
    if (finished()) {
      r.run();
    }
  }

  // ---- executors -------------------------------------------------------------------------------

  /**
   * From now on the commands are not kept: they are read again from the queue once the commit is
   * read. Frees the buffer; DSI-S no longer waits for room.
   */
  public void detach() {
    lock.lock();
    try {
      if (!detached) {
        detached = true;
        clearBuffer();
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  private void clearBuffer() {
    buffer.clear();
    budget.release(buffered);
    buffered = 0;
  }

  public boolean isDetached() {
    lock.lock();
    try {
      return detached;
    } finally {
      lock.unlock();
    }
  }

  /** The unit is handed to a large-transaction thread: its next {@link #commands()} is live. */
  public void claimLive() {
    lock.lock();
    try {
      liveClaimed = true;
    } finally {
      lock.unlock();
    }
  }

  public Outcome outcome() {
    lock.lock();
    try {
      return outcome;
    } finally {
      lock.unlock();
    }
  }

  public boolean finished() {
    return outcome() != Outcome.OPEN;
  }

  /**
   * Waits until the run's end is read.
   *
   * @throws Interrupted if the DSI stops first
   */
  public Outcome awaitFinished() throws InterruptedException {
    lock.lock();
    try {
      while (outcome == Outcome.OPEN) {
        if (stopping.getAsBoolean()) {
          throw new Interrupted(name + ": the DSI is stopping");
        }
        changed.await(100, TimeUnit.MILLISECONDS);
      }
      return outcome;
    } finally {
      lock.unlock();
    }
  }

  public int origin() {
    return origin;
  }

  public Begin begin() {
    return begin;
  }

  QueuePosition first() {
    return first;
  }

  /** Position of the last message read so far (the commit once committed). */
  QueuePosition last() {
    lock.lock();
    try {
      return last;
    } finally {
      lock.unlock();
    }
  }

  /** The commit, once read. */
  Optional<Commit> commit() {
    lock.lock();
    try {
      return Optional.ofNullable(commit);
    } finally {
      lock.unlock();
    }
  }

  /** Commands between begin and commit read so far. */
  int commands() {
    lock.lock();
    try {
      return commands;
    } finally {
      lock.unlock();
    }
  }

  /** Bytes of buffered commands (counted in the hand-off's budget). */
  long bufferedBytes() {
    lock.lock();
    try {
      return buffered;
    } finally {
      lock.unlock();
    }
  }

  /** Tables (schema.table) written so far. */
  public Set<String> tables() {
    lock.lock();
    try {
      return Collections.unmodifiableSet(new LinkedHashSet<>(tables));
    } finally {
      lock.unlock();
    }
  }

  /** True once a DDL command was read. */
  public boolean hasDdl() {
    lock.lock();
    try {
      return ddl;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The commands between begin and commit: live (once, for the thread that claimed it) or read
   * again from the queue after the commit is read.
   */
  Iterable<InTransaction> iterable() {
    lock.lock();
    try {
      if (liveClaimed && !liveTaken && !detached) {
        liveTaken = true;
        return () -> new Live();
      }
    } finally {
      lock.unlock();
    }
    return () -> new Replay();
  }

  /** Every command read again from the queue (held whole: the exceptions log). */
  List<InTransaction> readAll() {
    List<InTransaction> all = new ArrayList<>();
    new Replay().forEachRemaining(all::add);
    return all;
  }

  @Override
  public String toString() {
    return "large transaction of origin "
        + origin
        + " tran "
        + begin.tran()
        + " at "
        + first
        + ".."
        + last();
  }

  /** The live iteration: buffered commands as DSI-S reads them. */
  private final class Live implements Iterator<InTransaction> {
    @Override
    public boolean hasNext() {
      lock.lock();
      try {
        while (true) {
          if (outcome == Outcome.DROPPED) {
            throw new Dropped(
                name + ": " + TransactionStream.this + " was dropped (" + dropReason + ")");
          }
          if (detached) {
            throw new Interrupted(name + ": " + TransactionStream.this + " was detached");
          }
          if (!buffer.isEmpty()) {
            return true;
          }
          if (outcome == Outcome.COMMITTED) {
            return false;
          }
          if (stopping.getAsBoolean()) {
            throw new Interrupted(name + ": the DSI is stopping");
          }
          try {
            changed.await(100, TimeUnit.MILLISECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Interrupted(name + ": interrupted");
          }
        }
      } finally {
        lock.unlock();
      }
    }

    @Override
    public InTransaction next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Entry e;
      lock.lock();
      try {
        e = buffer.removeFirst();
        buffered -= e.bytes();
      } finally {
        lock.unlock();
      }
      budget.release(e.bytes());
      if (!transactionalDdl && e.command() instanceof LtlCommand.Ddl) {
        throw new NeedsReplay(
            name
                + ": "
                + TransactionStream.this
                + " holds DDL, which commits implicitly on this replicate; it is applied alone");
      }
      return e.command();
    }
  }

  /** Reads the run again from the outbound queue, after its commit is read. */
  private final class Replay implements Iterator<InTransaction> {
    private final PackedDecoder decoder = new PackedDecoder();
    private final ArrayDeque<InTransaction> ready = new ArrayDeque<>();
    private QueuePosition end;
    private QueuePosition seen;
    private boolean started;
    private boolean ended;

    @Override
    public boolean hasNext() {
      if (!started) {
        start();
      }
      while (ready.isEmpty() && !ended) {
        fill();
      }
      return !ready.isEmpty();
    }

    @Override
    public InTransaction next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return ready.removeFirst();
    }

    private void start() {
      started = true;
      Outcome o;
      try {
        o = awaitFinished();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Interrupted(name + ": interrupted");
      }
      if (o == Outcome.DROPPED) {
        throw new Dropped(
            name + ": " + TransactionStream.this + " was dropped (" + dropReason + ")");
      }
      end = last();
      meters.add(DsiCounter.LARGE_REREAD, 1);
    }

    private void fill() {
      List<QueueMessage> msgs = queue.dump(seen == null ? first : seen, 256);
      if (msgs.isEmpty()) {
        throw new IllegalStateException(
            name
                + ": cannot read "
                + TransactionStream.this
                + " again: the outbound queue ends at "
                + seen
                + ", before its commit");
      }
      if (seen == null && !msgs.get(0).position().equals(first)) {
        throw new IllegalStateException(
            name
                + ": cannot read "
                + TransactionStream.this
                + " again: its first message is no longer in the outbound queue (the oldest"
                + " held is at "
                + msgs.get(0).position()
                + "; purged?)");
      }
      boolean progressed = false;
      for (QueueMessage m : msgs) {
        if (seen != null && !m.position().isAfter(seen)) {
          continue;
        }
        progressed = true;
        seen = m.position();
        if (m.position().isAfter(end)) {
          ended = true;
          return;
        }
        take(m);
        if (m.position().equals(end)) {
          ended = true;
          return;
        }
      }
      if (!progressed) {
        throw new IllegalStateException(
            name
                + ": cannot read "
                + TransactionStream.this
                + " again: the outbound queue ends at "
                + seen
                + ", before its commit");
      }
    }

    private void take(QueueMessage m) {
      try {
        int from = OriginEnvelope.originOf(m.payload());
        if (from != origin) {
          throw new IllegalStateException(
              name
                  + ": reading "
                  + TransactionStream.this
                  + " again met a message of origin "
                  + from
                  + " at "
                  + m.position());
        }
        Optional<LtlCommand> cmd = OriginEnvelope.commandOf(m.payload(), decoder);
        if (cmd.isPresent()
            && cmd.get() instanceof InTransaction in
            && !(in instanceof Begin)
            && !(in instanceof Commit)) {
          ready.addLast(in);
        }
      } catch (PackedFormatException e) {
        throw new IllegalStateException(
            name + ": reading " + TransactionStream.this + " again at " + m.position() + ": " + e,
            e);
      }
    }
  }
}
