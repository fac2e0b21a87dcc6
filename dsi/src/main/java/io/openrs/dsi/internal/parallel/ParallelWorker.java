package io.openrs.dsi.internal.parallel;

import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.DsiFailure;
import io.openrs.dsi.ErrorAction;
import io.openrs.dsi.internal.ReplicateSession;
import io.openrs.dsi.internal.RunContext;
import io.openrs.dsi.internal.SourceTransaction;
import io.openrs.dsi.internal.StatementFailure;
import io.openrs.dsi.internal.TransactionStream;
import io.openrs.runtime.ThreadNames;
import io.openrs.runtime.WorkerThread;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One DSIEXEC thread of a parallel DSI: runs the units {@link ParallelCoordinator} hands it, each
 * as one replicate transaction that locks the unit's {@code rs_threads} row first, applies its
 * transactions, waits for its turn to commit (on its predecessors' rows), and commits; or an
 * exclusive run, applied transaction by transaction as in continuous mode. A large-transaction
 * thread ({@code dsi_num_large_xact_threads}) takes streamed large transactions only, applying
 * their commands as DSI-S reads them, and rolls back if the run is dropped.
 */
public final class ParallelWorker extends WorkerThread {
  private static final Logger LOG = LoggerFactory.getLogger(ParallelWorker.class);

  private final RunContext ctx;
  private final ParallelCoordinator coordinator;
  private final ReplicateSession session;
  private final boolean large;

  public ParallelWorker(
      RunContext ctx, ParallelCoordinator coordinator, int thread, boolean large) {
    super(ThreadNames.of("dsi", "exec", ctx.name() + "-" + thread), StopPolicy.AFTER_STEP);
    this.ctx = ctx;
    this.coordinator = coordinator;
    this.session = new ReplicateSession(ctx, thread);
    this.large = large;
  }

  @Override
  protected boolean doWork() throws Exception {
    try {
      if (!session.connected()) {
        session.connect();
      }
      ParallelCoordinator.Work w = coordinator.next(this::keys, 200, large);
      if (w == null) {
        return !ctx.stopping();
      }
      if (w.exclusive != null) {
        boolean completed = false;
        try {
          session.reloadLastCommit();
          for (List<SourceTransaction> group : w.exclusive) {
            if (dropped(group)) {
              continue;
            }
            session.applyGroup(group);
          }
          completed = true;
        } finally {
          coordinator.exclusiveDone(completed);
        }
      } else {
        run(w.unit);
      }
      return !ctx.stopping();
    } catch (ReplicateSession.Stopping | TransactionStream.Interrupted e) {
      return false;
    } catch (ReplicateSession.Down d) {
      ctx.fail(d.failure);
      return false;
    }
  }

  /**
   * For a streamed transaction in an exclusive run: waits for its run's end; true if it was dropped
   * (nothing to apply).
   */
  private boolean dropped(List<SourceTransaction> group) throws InterruptedException {
    if (group.size() == 1 && group.get(0).streamed()) {
      TransactionStream s = group.get(0).stream();
      return s.awaitFinished() == TransactionStream.Outcome.DROPPED;
    }
    return false;
  }

  private DependencyKeys keys(List<SourceTransaction> group) {
    return DependencyKeys.of(group, session::table);
  }

  private void run(ParallelCoordinator.Unit u) throws InterruptedException {
    try {
      session.startUnit(u.seq, coordinator.row(u.seq));
      coordinator.started(u);
      if (u.live) {
        ctx.meters.add(DsiCounter.LARGE_STREAMED, 1);
        LOG.debug("{}: applying {} as it is read", getName(), u.group.get(0));
      }
      session.applyUnit(u.group);
      coordinator.ready(u);
      long waitedOn = 0;
      while (true) {
        long turn = coordinator.commitTurn(u, waitedOn);
        if (turn == 0) {
          break;
        }
        if (turn < 0) {
          session.abandon(null);
          ctx.meters.add(DsiCounter.PARALLEL_ROLLBACKS, 1);
          coordinator.aborted(u);
          return;
        }
        session.waitForRow(coordinator.row(turn));
        waitedOn = turn;
      }
      session.commitUnit(u.group);
      coordinator.committed(u);
    } catch (StatementFailure f) {
      session.abandon(f);
      if (!ctx.stopping()) {
        LOG.info(
            "{}: unit {} ({} transactions) failed ({}); it and the units after it are applied"
                + " again in commit order",
            getName(),
            u.seq,
            u.group.size(),
            f.describeError());
      }
      coordinator.aborted(u);
    } catch (TransactionStream.Dropped d) {
      session.abandon(null);
      ctx.meters.add(DsiCounter.LARGE_ROLLED_BACK, 1);
      LOG.info("{}: {}; what was applied of it is rolled back", getName(), d.getMessage());
      coordinator.vanished(u);
    } catch (TransactionStream.NeedsReplay r) {
      session.abandon(null);
      LOG.info("{}: {}", getName(), r.getMessage());
      coordinator.aborted(u);
    } catch (TransactionStream.Interrupted i) {
      session.abandon(null);
      coordinator.aborted(u);
      throw i;
    }
  }

  @Override
  protected void onFatal(Throwable error) {
    ctx.fail(
        new DsiFailure(
            0,
            Optional.empty(),
            Optional.empty(),
            "applying",
            Optional.empty(),
            0,
            "internal error in a DSI executor: " + error,
            ErrorAction.STOP_REPLICATION,
            ctx.clock.instant()));
  }

  @Override
  protected void onExit() {
    session.close();
    coordinator.wakeAll();
  }
}
