package io.openrs.dsi.internal;

import java.sql.Connection;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one replicate session of an HVAR run with one DSIEXEC thread, shared by two threads so that
 * group N+1 compiles while group N is applied:
 *
 * <ul>
 *   <li>the applying thread ({@code rs-dsi-exec-<ds.db>-1}) connects, applies one unit at a time
 *       and closes the session;
 *   <li>the compiling thread ({@code rs-dsi-hvar-<ds.db>}) streams the open group's inserts ahead
 *       ({@link AheadInserts}) on it, but only while no unit is in flight: until group N has
 *       committed, group N+1's new rows wait in their buffers, then go with its next transaction.
 * </ul>
 *
 * <p>Whoever uses the connection holds this object's lock. The applying thread takes it for each
 * connect, unit and close; the compiling thread tries it (never waits) around adding one
 * transaction to the open group, and holding it is given the connection only when the pipeline is
 * idle. The compiling thread alone hands units over, so none starts while it sends. A load it
 * leaves open belongs to the next unit applied (its group); closing the session cancels it first,
 * as a {@code COPY} the driver still holds would block the rollback. Thread-safe.
 */
final class SharedApplySession implements AheadInserts.Session {
  private final ReentrantLock lock = new ReentrantLock();
  private final ReplicateSession session;
  private final HvarPipeline pipeline;

  /** The inserts ahead last given the connection: the only ones that may hold a load open. */
  private AheadInserts lastSender; // guarded by lock

  SharedApplySession(ReplicateSession session, HvarPipeline pipeline) {
    this.session = session;
    this.pipeline = pipeline;
  }

  ReplicateSession session() {
    return session;
  }

  @Override
  public Connection connection(AheadInserts asking) {
    if (!lock.isHeldByCurrentThread() || !pipeline.idle()) {
      return null;
    }
    Connection c = session.connection();
    if (c != null) {
      lastSender = asking;
    }
    return c;
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
