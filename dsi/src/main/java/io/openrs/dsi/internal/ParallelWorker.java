package io.openrs.dsi.internal;

import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.DsiFailure;
import io.openrs.dsi.ErrorAction;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One DSIEXEC thread of a parallel DSI: runs the units {@link ParallelCoordinator} hands it, each
 * as one replicate transaction that locks the unit's {@code rs_threads} row first, applies its
 * transactions, waits on its predecessor's row, and commits; or an exclusive run, applied
 * transaction by transaction as in continuous mode.
 */
final class ParallelWorker extends DsiThread {
  private static final Logger LOG = LoggerFactory.getLogger(ParallelWorker.class);

  private final RunContext ctx;
  private final ParallelCoordinator coordinator;
  private final ReplicateSession session;

  ParallelWorker(RunContext ctx, ParallelCoordinator coordinator, int thread) {
    super("rs-dsi-exec-" + ctx.name() + "-" + thread);
    this.ctx = ctx;
    this.coordinator = coordinator;
    this.session = new ReplicateSession(ctx, thread);
  }

  @Override
  protected boolean doWork() throws Exception {
    try {
      if (!session.connected()) {
        session.connect();
      }
      ParallelCoordinator.Work w = coordinator.next(this::keys, 200);
      if (w == null) {
        return !ctx.stopping();
      }
      if (w.exclusive != null) {
        boolean completed = false;
        try {
          session.reloadLastCommit();
          for (List<SourceTransaction> group : w.exclusive) {
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
    } catch (ReplicateSession.Stopping e) {
      return false;
    } catch (ReplicateSession.Down d) {
      ctx.fail(d.failure);
      return false;
    }
  }

  private DependencyKeys keys(List<SourceTransaction> group) {
    return DependencyKeys.of(group, session::table);
  }

  private void run(ParallelCoordinator.Unit u) throws InterruptedException {
    try {
      session.startUnit(u.seq, coordinator.row(u.seq));
      coordinator.started(u);
      session.applyUnit(u.group);
      coordinator.ready(u);
      if (!coordinator.predecessorCommitted(u)) {
        session.waitForRow(coordinator.row(u.seq - 1));
      }
      if (coordinator.awaitPredecessor(u)) {
        session.commitUnit(u.group);
        coordinator.committed(u);
      } else {
        session.abandon(null);
        ctx.meters.add(DsiCounter.PARALLEL_ROLLBACKS, 1);
        coordinator.aborted(u);
      }
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
    }
  }

  @Override
  protected void onFatal(Throwable error) {
    LOG.error("{}: DSIEXEC failed", getName(), error);
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
