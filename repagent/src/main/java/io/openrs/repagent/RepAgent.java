package io.openrs.repagent;

import io.micrometer.core.instrument.MeterRegistry;
import io.openrs.ltl.Oqid;
import io.openrs.runtime.ThreadNames;
import io.openrs.runtime.WorkerThread;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replication agent for one primary database: reads its log with Debezium's embedded engine and
 * sends every committed change to the replication server as LTL ({@code docs/repagent.md}).
 *
 * <p>It runs sessions ({@link AgentSession}: one server connection, one engine run) one after
 * another on its control thread ({@code rs-repagent-control-<agent>}): when a session ends with a
 * failure, {@link RetryPolicy} decides whether to start another after a back-off or to stop with
 * the error. Each state change is logged once.
 *
 * <p>Embeddable: the server's process (or a test) may create and close agents; {@code Main} runs
 * one as its own process.
 */
public final class RepAgent implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RepAgent.class);

  /** Lifecycle, as {@code admin who} would show it. */
  public enum State {
    CREATED,
    CONNECTING,
    REPLICATING,
    WAITING_TO_RETRY,
    STOPPING,
    STOPPED,
    FAILED
  }

  private final AgentSettings settings;
  private final AgentCounters counters = new AgentCounters();
  private final Clock clock;
  private final RetryPolicy policy;
  private final MeterRegistry registry;
  private final java.util.List<io.micrometer.core.instrument.Meter> meters;
  private final AtomicReference<State> state = new AtomicReference<>(State.CREATED);
  private final CompletableFuture<Void> terminated = new CompletableFuture<>();
  private final CompletableFuture<Void> streaming = new CompletableFuture<>();
  private final Object lock = new Object();
  private final ControlThread control;
  private volatile Throwable failure;
  private volatile AgentSession session;
  private String lastLoggedProblem;
  private long sessions;
  private final java.util.List<ServerAddress> servers;
  private int serverIndex;
  private int serversFailedInRound;

  public RepAgent(AgentSettings settings, MeterRegistry registry) {
    this(settings, registry, Clock.systemUTC(), new Random());
  }

  public RepAgent(AgentSettings settings, MeterRegistry registry, Clock clock, Random random) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.servers = settings.servers();
    this.clock = clock;
    this.policy =
        new RetryPolicy(
            settings.retryMinBackoff(),
            settings.retryMaxBackoff(),
            settings.rejectionRetryLimit(),
            random);
    this.registry = registry;
    this.meters = counters.bindTo(registry, settings.agentName());
    this.control = new ControlThread();
  }

  /** Starts the control thread; returns at once. */
  public RepAgent start() {
    if (!state.compareAndSet(State.CREATED, State.CONNECTING)) {
      throw new IllegalStateException(
          "agent " + settings.agentName() + " expected state CREATED, is " + state.get());
    }
    LOG.info("agent {}: starting, {}", settings.agentName(), settings);
    control.start();
    return this;
  }

  public State state() {
    return state.get();
  }

  public AgentSettings settings() {
    return settings;
  }

  public AgentCounters counters() {
    return counters;
  }

  /** The error that stopped the agent (state FAILED). */
  public Optional<Throwable> failure() {
    return Optional.ofNullable(failure);
  }

  /**
   * Completes the first time the agent's log reader streams from a position that covers every later
   * commit at the primary (PostgreSQL: its replication slot exists; MariaDB/MySQL: its binlog
   * position is fixed): a change committed after this completed is captured. {@code bin/repagent}
   * prints its "started" line then. Never completes if the agent stops first ({@link
   * #terminated()}).
   */
  public CompletableFuture<Void> streaming() {
    return streaming;
  }

  /** Completes when the agent has stopped (closed or failed). */
  public CompletableFuture<Void> terminated() {
    return terminated;
  }

  /** The server's truncation point as the running session last learned it. */
  public Optional<Oqid> durablePoint() {
    AgentSession s = session;
    return s == null ? Optional.empty() : s.durable();
  }

  private void moveTo(State next) {
    State prev = state.getAndSet(next);
    if (prev != next) {
      LOG.debug("agent {}: {} -> {}", settings.agentName(), prev, next);
    }
  }

  /**
   * The control thread: each step is one session, from connecting to its end and the wait before
   * the next; it stops after the current step when the agent closes.
   */
  private final class ControlThread extends WorkerThread {
    private SourceDialect dialect;

    ControlThread() {
      super(ThreadNames.of("repagent", "control", settings.agentName()), StopPolicy.AFTER_STEP);
    }

    @Override
    protected boolean doWork() {
      if (dialect == null) {
        dialect = SourceDialect.of(settings);
        deleteStaleSpillFiles();
      }
      try {
        return runSession(dialect);
      } catch (InterruptedException e) {
        return false;
      }
    }

    @Override
    protected void wakeUp() {
      synchronized (lock) {
        lock.notifyAll();
      }
    }

    @Override
    protected void onFatal(Throwable error) {
      failure = error;
      moveTo(RepAgent.State.FAILED);
    }

    @Override
    protected void onExit() {
      if (state.get() != RepAgent.State.FAILED) {
        moveTo(RepAgent.State.STOPPED);
      }
      LOG.info("agent {}: {}", settings.agentName(), state.get().name().toLowerCase());
      meters.forEach(registry::remove);
      terminated.complete(null);
    }
  }

  private boolean stopping() {
    return control.shutdownRequested();
  }

  /**
   * One session: connects, streams until it ends, and decides whether and when to try again.
   *
   * @return false when the agent is to end (stopping, or failed for good)
   */
  private boolean runSession(SourceDialect dialect) throws InterruptedException {
    moveTo(State.CONNECTING);
    ServerAddress server = servers.get(serverIndex);
    AgentSession s = new AgentSession(settings, server, dialect, counters, clock);
    Throwable why;
    try {
      dialect.prepare();
      synchronized (lock) {
        if (stopping()) {
          return false;
        }
        session = s;
      }
      s.start();
      if (sessions++ > 0) {
        counters.increment(AgentCounter.RA_RECONNECTS);
      }
      if (s.awaitStreaming()) {
        serversFailedInRound = 0;
        if (servers.size() > 1) {
          LOG.info("agent {}: replicating through server {}", settings.agentName(), server);
        }
        moveTo(State.REPLICATING);
        streaming.complete(null);
        if (lastLoggedProblem != null) {
          LOG.info(
              "agent {}: replicating again after: {}", settings.agentName(), lastLoggedProblem);
          lastLoggedProblem = null;
        } else {
          LOG.info(
              "agent {}: replicating {}: the log reader streams, every commit from now on is"
                  + " captured",
              settings.agentName(),
              settings.origin());
        }
      }
      why = s.ended().get();
    } catch (InterruptedException e) {
      if (stopping()) {
        return false;
      }
      why = e;
    } catch (Exception e) {
      why = e instanceof java.util.concurrent.ExecutionException ? e.getCause() : e;
    } finally {
      closeSession(s);
    }
    if (stopping()) {
      return false;
    }
    if (s.progressed()) {
      policy.progressed();
    }
    RetryPolicy.Decision d = policy.onFailure(why);
    if (!d.retry()) {
      failure = d.reason();
      LOG.error("agent {}: stopped: {}", settings.agentName(), d.reason().getMessage(), d.reason());
      moveTo(State.FAILED);
      return false;
    }
    long delayNanos = d.delay().toNanos();
    if (servers.size() > 1 && RetryPolicy.tryAnotherServer(why)) {
      serverIndex = (serverIndex + 1) % servers.size();
      serversFailedInRound++;
      if (serversFailedInRound % servers.size() != 0) {
        LOG.warn(
            "agent {}: server {}: {} ({}); trying server {} now",
            settings.agentName(),
            server,
            d.state(),
            d.reason() == null ? "" : d.reason().getMessage(),
            servers.get(serverIndex));
        delayNanos = 0;
      }
    }
    if (delayNanos > 0) {
      logOnce(d);
    }
    moveTo(State.WAITING_TO_RETRY);
    synchronized (lock) {
      long until = System.nanoTime() + delayNanos;
      while (!stopping()) {
        long left = until - System.nanoTime();
        if (left <= 0) {
          break;
        }
        lock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      }
    }
    return true;
  }

  /** Spill files a killed agent left behind: their transactions are read from the log again. */
  private void deleteStaleSpillFiles() {
    String prefix = "txn-" + AgentSession.topicPrefix(settings) + "-";
    try (var files = java.nio.file.Files.list(settings.dataDirectory())) {
      for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files::iterator) {
        String name = f.getFileName().toString();
        if (name.startsWith(prefix) && name.endsWith(".ltl")) {
          java.nio.file.Files.deleteIfExists(f);
          LOG.info("agent {}: deleted stale spill file {}", settings.agentName(), f);
        }
      }
    } catch (java.nio.file.NoSuchFileException e) {
      // Nothing spilled yet.
    } catch (java.io.IOException e) {
      LOG.warn("agent {}: cannot list {}: {}", settings.agentName(), settings.dataDirectory(), e);
    }
  }

  private void logOnce(RetryPolicy.Decision d) {
    String problem = d.state();
    String detail = d.reason() == null ? "" : d.reason().getMessage();
    if (!problem.equals(lastLoggedProblem)) {
      LOG.warn(
          "agent {}: {} ({}); retrying in {} ms, then with back-off up to {} ms",
          settings.agentName(),
          problem,
          detail,
          d.delay().toMillis(),
          settings.retryMaxBackoff().toMillis());
      lastLoggedProblem = problem;
    } else {
      LOG.debug(
          "agent {}: still {} (attempt {}): {}; retrying in {} ms",
          settings.agentName(),
          problem,
          policy.attempt(),
          detail,
          d.delay().toMillis());
    }
  }

  private void closeSession(AgentSession s) {
    synchronized (lock) {
      session = null;
    }
    s.close();
  }

  /**
   * Stops the agent: the running session's engine flushes its offsets, the connection closes;
   * returns within {@code AgentSession.STOP_BOUND} less a second (docs/repagent.md: SIGTERM to exit
   * within 10 s).
   */
  @Override
  public void close() {
    synchronized (lock) {
      if (state.get() == State.CREATED) {
        moveTo(State.STOPPED);
        meters.forEach(registry::remove);
        terminated.complete(null);
        return;
      }
      control.initiateShutdown();
      if (state.get() != State.FAILED && state.get() != State.STOPPED) {
        moveTo(State.STOPPING);
      }
      AgentSession s = session;
      if (s != null) {
        s.ended().complete(null);
      }
    }
    // Within the documented bound (SIGTERM to exit): the session's close keeps to it; a control
    // thread still connecting (to the primary or the server) is not waited for beyond it.
    Duration bound = AgentSession.STOP_BOUND.minusSeconds(1);
    try {
      terminated.get(bound.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.warn(
          "agent {}: did not stop within {} s ({}); leaving it",
          settings.agentName(),
          bound.toSeconds(),
          state.get());
    }
  }
}
