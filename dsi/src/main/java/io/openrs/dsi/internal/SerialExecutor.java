package io.openrs.dsi.internal;

import io.openrs.dsi.DsiFailure;
import io.openrs.dsi.ErrorAction;
import io.openrs.runtime.ThreadNames;
import io.openrs.runtime.WorkerThread;
import java.util.List;
import java.util.Optional;

/**
 * The DSIEXEC thread of continuous mode: takes what is waiting in the hand-off as one group,
 * applies it, and marks it done; stops after the current group when asked.
 */
public final class SerialExecutor extends WorkerThread {

  private final RunContext ctx;
  private final ReplicateSession session;
  private final Grouping grouping;

  public SerialExecutor(RunContext ctx) {
    super(ThreadNames.of("dsi", "exec", ctx.name() + "-1"), StopPolicy.AFTER_STEP);
    this.ctx = ctx;
    this.session = new ReplicateSession(ctx, 1);
    this.grouping = new Grouping(ctx.settings, ctx.dialect.transactionalDdl());
  }

  @Override
  protected boolean doWork() throws Exception {
    try {
      if (!session.connected()) {
        session.connect();
      }
      List<SourceTransaction> group = ctx.handoff.takeGroup(grouping::newGroup, 200);
      if (!group.isEmpty()) {
        session.applyGroup(group);
      }
      return !ctx.stopping();
    } catch (ReplicateSession.Stopping e) {
      return false;
    } catch (ReplicateSession.Down d) {
      ctx.fail(d.failure);
      return false;
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
            "internal error in the DSI executor: " + error,
            ErrorAction.STOP_REPLICATION,
            ctx.clock.instant()));
  }

  @Override
  protected void onExit() {
    session.close();
  }
}
