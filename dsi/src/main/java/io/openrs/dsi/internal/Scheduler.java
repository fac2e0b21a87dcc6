package io.openrs.dsi.internal;

import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.DsiFailure;
import io.openrs.dsi.ErrorAction;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueReader;
import io.openrs.queue.StableQueue;
import io.openrs.runtime.ThreadNames;
import io.openrs.runtime.WorkerThread;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DSI-S: the only thread that touches the outbound queue's reader {@code DSI}. It reads messages,
 * assembles transactions ({@link TransactionAssembler}), hands them to the executors through the
 * bounded hand-off, and confirms the reader up to what the executors have done, never further (with
 * {@code dsi_synchronous_commit off}: what is also flushed at the replicate, {@link
 * LogFlushTracker}). On exit it waits for the executors, confirms once more, closes the reader and
 * the pool. How it holds what it read is the run's choice ({@link Holding}): with large-transaction
 * threads, a run of more than {@code dsi_large_xact_size} commands is handed on as a {@link
 * TransactionStream} as soon as it is that large, and fed as it is read.
 */
public final class Scheduler extends WorkerThread {
  private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);
  private static final Duration POLL = Duration.ofMillis(100);

  /** How long the scheduler waits, when exiting, for executors finishing their transaction. */
  static final Duration EXECUTOR_GRACE = Duration.ofSeconds(60);

  /** The reader name in the outbound queue. */
  public static final String READER = "DSI";

  private final RunContext ctx;
  private final StableQueue queue;
  private final List<WorkerThread> executors;
  private final TransactionAssembler assembler;
  private final LogFlushTracker flushes;
  private QueueReader reader;
  private QueuePosition confirmed;

  public Scheduler(
      RunContext ctx, StableQueue queue, List<WorkerThread> executors, Holding holding) {
    super(ThreadNames.of("dsi", "s", ctx.name()), StopPolicy.AFTER_STEP);
    this.ctx = ctx;
    this.queue = queue;
    this.executors = executors;
    this.flushes = new LogFlushTracker(ctx);
    TransactionAssembler.Events events =
        new TransactionAssembler.Events() {
          @Override
          public void runDropped(int origin, String why, int commands) {
            ctx.meters.add(DsiCounter.TRANS_DROPPED, 1);
          }

          @Override
          public void unknownCommand(QueuePosition position) {
            ctx.meters.add(DsiCounter.CMDS_UNKNOWN, 1);
          }
        };
    this.assembler =
        switch (holding) {
          case WHOLE ->
              new TransactionAssembler(
                  ctx.name(), this::handOff, events, ctx.settings.largeXactSize(), null);
          case STREAMED_WHEN_LARGE ->
              new TransactionAssembler(
                  ctx.name(), this::handOff, events, ctx.settings.largeXactSize(), new Feed());
          case PACKED -> new TransactionAssembler(ctx.name(), this::handOff, events, true);
        };
  }

  /** How DSI-S holds the transactions it reads until an executor takes them (the run chooses). */
  public enum Holding {
    /** Each run whole and decoded, handed on once its commit is read. */
    WHOLE,
    /**
     * As {@link #WHOLE}, but a run of more than {@code dsi_large_xact_size} commands is handed on
     * as a {@link TransactionStream} as soon as it is that large, and fed as it is read (a parallel
     * DSI with large-transaction threads).
     */
    STREAMED_WHEN_LARGE,
    /**
     * Each run whole and packed (HVAR, until it compiles them): a young collection then copies the
     * hand-off's and the open groups' transactions as a few arrays, not as decoded objects.
     */
    PACKED
  }

  /** Opens and feeds streams on this thread, confirming and watching for stop while it waits. */
  private final class Feed implements TransactionAssembler.Streams {
    @Override
    public TransactionStream open(
        int origin,
        io.openrs.ltl.LtlCommand.Begin begin,
        QueuePosition first,
        QueuePosition last,
        List<io.openrs.ltl.LtlCommand.InTransaction> body,
        long bytes) {
      return new TransactionStream(
          ctx.name(),
          queue,
          ctx.handoff,
          ctx.meters,
          ctx::stopping,
          ctx.dialect.transactionalDdl(),
          origin,
          begin,
          first,
          last,
          body,
          bytes);
    }

    @Override
    public void push(
        TransactionStream stream,
        io.openrs.ltl.LtlCommand.InTransaction cmd,
        QueuePosition position,
        long bytes) {
      try {
        while (!stream.offer(cmd, position, bytes, POLL.toMillis())) {
          confirm();
          if (ctx.stopping()) {
            return; // not confirmed: read again at the next start
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        ctx.requestStop();
      }
    }
  }

  @Override
  protected boolean doWork() throws Exception {
    if (reader == null) {
      reader = queue.openReader(READER);
    }
    confirm();
    Optional<QueueMessage> m = reader.poll(POLL);
    if (m.isEmpty()) {
      assembler.idle();
      return !ctx.stopping();
    }
    ctx.meters.add(DsiCounter.CMDS_READ, 1);
    assembler.accept(m.get());
    return !ctx.stopping();
  }

  private void handOff(SourceTransaction t) {
    if (t.complete() && !t.streamed()) { // a stream counts itself when its commit is read
      ctx.meters.add(DsiCounter.READ_TRANS, 1);
    }
    try {
      while (!ctx.handoff.offer(t, POLL.toMillis())) {
        confirm();
        if (ctx.stopping()) {
          return; // not confirmed: read again at the next start
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      ctx.requestStop();
    }
  }

  private void confirm() {
    QueuePosition p = flushes.confirmable();
    if (reader != null && p != null && (confirmed == null || p.isAfter(confirmed))) {
      reader.confirm(p);
      confirmed = p;
    }
  }

  @Override
  protected void onFatal(Throwable error) {
    ctx.fail(
        new DsiFailure(
            0,
            Optional.empty(),
            Optional.empty(),
            "reading outbound queue " + queue.id() + " (reader " + READER + ")",
            Optional.empty(),
            0,
            String.valueOf(error),
            ErrorAction.STOP_REPLICATION,
            ctx.clock.instant()));
  }

  @Override
  protected void onExit() {
    ctx.requestStop();
    try {
      for (WorkerThread e : executors) {
        if (!e.awaitShutdown(EXECUTOR_GRACE)) {
          LOG.warn(
              "{}: {} did not stop in {}; closing the pool",
              getName(),
              e.getName(),
              EXECUTOR_GRACE);
        }
      }
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
    }
    try {
      if (reader != null) {
        confirm();
        reader.close();
      }
      flushes.close();
    } catch (RuntimeException e) {
      LOG.warn("{}: closing the reader failed", getName(), e);
    } finally {
      ctx.pool.close();
    }
  }
}
