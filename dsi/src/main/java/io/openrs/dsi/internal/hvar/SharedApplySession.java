package io.openrs.dsi.internal.hvar;

import io.openrs.dsi.internal.ReplicateSession;
import java.sql.Connection;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The replicate session of one HVAR DSIEXEC thread, shared by two threads so that the groups a
 * thread will apply load their new rows on it while they compile:
 *
 * <ul>
 *   <li>the DSIEXEC thread ({@code rs-dsi-exec-<ds.db>-<n>}) connects, applies its units one at a
 *       time and closes the session;
 *   <li>the compiling thread ({@code rs-dsi-hvar-<ds.db>}) streams the inserts ahead ({@link
 *       AheadInserts}) of the open group, which this thread will apply ({@link
 *       HvarPipeline#threadOf}), on it, but only while the thread has no unit handed over and not
 *       done: until its previous unit has committed, the group's new rows wait in their buffers,
 *       then go with its next transaction.
 * </ul>
 *
 * <p>Whoever uses the connection holds this object's lock. The DSIEXEC thread takes it for each
 * connect, unit and close; the compiling thread tries it (never waits) around adding one
 * transaction to the open group, and holding it is given the connection only when {@link
 * HvarPipeline#mayLoadAhead} says so (the thread is idle, and no transaction in continuous mode is
 * in flight on another). The compiling thread alone hands units over, so none starts while it
 * sends. A load it leaves open belongs to the thread's next unit (its group); closing the session
 * cancels it first, as a {@code COPY} the driver still holds would block the rollback. Thread-safe.
 */
final class SharedApplySession implements AheadInserts.Session {
  private final ReentrantLock lock = new ReentrantLock();
  private final ReplicateSession session;
  private final HvarPipeline pipeline;

  /** The inserts ahead last given the connection: the only ones that may hold a load open. */
  private AheadInserts lastSender; // guarded by lock

  /** Whether the open group's rows go in replica mode (set by the compiling thread). */
  private volatile boolean aheadReplicaMode;

  SharedApplySession(ReplicateSession session, HvarPipeline pipeline) {
    this.session = session;
    this.pipeline = pipeline;
  }

  ReplicateSession session() {
    return session;
  }

  @Override
  public Connection connection(AheadInserts asking) {
    if (!lock.isHeldByCurrentThread() || !pipeline.mayLoadAhead(session.thread())) {
      return null;
    }
    Connection c = session.connection();
    if (c != null && !session.readyForAhead(aheadReplicaMode)) {
      return null; // the group's apply switches the mode, or reports why it cannot
    }
    if (c != null) {
      lastSender = asking;
    }
    return c;
  }

  /** Compiling thread, opening a group this thread will apply: the mode its rows go in. */
  void aheadMode(boolean replicaMode) {
    aheadReplicaMode = replicaMode;
  }

  /** Compiling thread: true if it holds the session now (then {@link #release()}). */
  boolean tryHold() {
    return lock.tryLock();
  }

  /**
   * Applying thread: waits for the session (the compiling thread holds it for one send at most).
   */
  void hold() throws InterruptedException {
    lock.lockInterruptibly();
  }

  void release() {
    lock.unlock();
  }

  /** Cancels a load left open on the session, then closes it. */
  void close() {
    lock.lock();
    try {
      if (lastSender != null) {
        lastSender.abandon();
        lastSender = null;
      }
      session.close();
    } finally {
      lock.unlock();
    }
  }

  /** Compiling thread, ending: cancels its open group's load if one is open on the session. */
  void abandon(AheadInserts open) {
    lock.lock();
    try {
      open.abandon();
      if (lastSender == open) {
        lastSender = null;
      }
    } finally {
      lock.unlock();
    }
  }
}
