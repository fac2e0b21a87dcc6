package io.openrs.repagent;

import io.debezium.embedded.Connect;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.spi.OffsetCommitPolicy;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.runtime.ThreadNames;
import io.openrs.wire.Frame;
import io.openrs.wire.LtlClient;
import io.openrs.wire.LtlClientSettings;
import io.openrs.wire.WireProtocol;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection of the agent to the server and one run of the Debezium engine behind it. The
 * session starts from what the server holds (truncation point and resume blob of the Welcome), and
 * ends at the first failure of either side; the agent then starts a new session. Simplest robust
 * recovery: nothing is resent on the old connection, the new engine replays from the offsets the
 * server keeps, and the server drops what it already holds.
 *
 * <p>Threads: created and closed by the agent's control thread; the engine runs on its own executor
 * thread ({@code rs-repagent-engine-<agent>}); the sender on its own.
 */
final class AgentSession implements ServerOffsetStore.Binding, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(AgentSession.class);

  /**
   * The documented bound on a stop (SIGTERM to exit, {@code docs/repagent.md}): 10 s.
   *
   * <p>Where a stop spent its time before (over 20 s seen): up to 10 s for the server to confirm
   * what was sent, Debezium's final offset flush waiting up to {@code offset.flush.timeout.ms} (10
   * s) for the server to save the resume blob, up to 10 s more for the last save's answer, the wire
   * client's close waiting up to 10 s for unanswered batches; and a stop while Debezium's task was
   * still starting (creating the slot, which waits for the primary's running transactions) was
   * refused by the engine ("Cannot stop engine while tasks are starting"), after which the session
   * waited 30 s for the engine thread. Now every step takes its time from one deadline.
   */
  static final Duration STOP_BOUND = Duration.ofSeconds(10);

  /**
   * Of {@link #STOP_BOUND}, what a graceful close may spend waiting for the server (to confirm what
   * the agent sent, so the final offset flush can claim it, and to save that resume position) and
   * for the log reader to stop: 7 s. The rest is for closing the connection (at most {@link
   * #CLIENT_CLOSE_TIMEOUT} for unanswered batches) and the process's exit.
   */
  static final Duration CLOSE_WAIT = Duration.ofSeconds(7);

  /**
   * How long closing the server connection waits for answers to batches in flight. Short: a batch
   * left unanswered is read again from the log by the next session, and the server drops what it
   * holds.
   */
  static final Duration CLIENT_CLOSE_TIMEOUT = Duration.ofMillis(500);

  private final AgentSettings settings;
  private final SourceDialect dialect;
  private final AgentCounters counters;
  private final Clock clock;
  private final CompletableFuture<Throwable> ended = new CompletableFuture<>();

  private LtlClient client;
  private final java.util.function.Consumer<Frame.AgentStatus> statusListener = this::sendStatus;
  private Sender sender;
  private TransactionAssembler assembler;
  private SourceDialect.RecordMapper mapper;
  private RecordHandler handler;
  private DebeziumEngine<ChangeEvent<SourceRecord, SourceRecord>> engine;
  private ExecutorService executor;
  private String bindingKey;
  private ResumeBlob.Contents resume = ResumeBlob.Contents.empty();
  private Optional<Oqid> startPoint = Optional.empty();
  private final ServerAddress server;
  private volatile boolean closing;
  private volatile CompletableFuture<Void> lastSaveRequest;
  private final java.util.List<String> history = new java.util.concurrent.CopyOnWriteArrayList<>();

  AgentSession(
      AgentSettings settings,
      ServerAddress server,
      SourceDialect dialect,
      AgentCounters counters,
      Clock clock) {
    this.settings = settings;
    this.server = server;
    this.dialect = dialect;
    this.counters = counters;
    this.clock = clock;
  }

  /** The prefix of Debezium's topic names for this agent. */
  static String topicPrefix(AgentSettings settings) {
    return "openrs_" + settings.agentName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
  }

  /**
   * Connects to the server and starts the engine from the server's resume blob.
   *
   * @throws IOException when the server cannot be reached or refuses the agent
   */
  void start() throws IOException, InterruptedException {
    LtlCommand.Connect hello =
        new LtlCommand.Connect(
            settings.originServer(),
            settings.originDatabase(),
            // The agent sends version 2 values (NaN, infinities, native) and exchanges heartbeats
            // (version 3); it logs in with SCRAM (version 4) and never sends its password, so it
            // offers nothing older: a server below version 4 refuses it at connect.
            WireProtocol.SCRAM_VERSION,
            WireProtocol.MAX_VERSION,
            settings.serverUser(),
            Optional.of(new String(settings.serverPassword())),
            Optional.of(settings.agentName()),
            settings.compression());
    client =
        LtlClient.connect(
            LtlClientSettings.defaults(server.host(), server.port())
                .withConnectTimeout(settings.connectTimeout())
                .withTls(settings.tls())
                .withCloseTimeout(CLIENT_CLOSE_TIMEOUT),
            hello);
    client.closeFuture().whenComplete((v, err) -> end(err != null ? err : connectionClosed()));
    startPoint = client.welcome().truncationPoint();
    try {
      resume = ResumeBlob.decode(client.welcome().resumeBlob());
    } catch (IOException e) {
      throw new AgentException(
          AgentException.Code.SERVER_REFUSED,
          "the server's resume blob for "
              + settings.origin()
              + " cannot be read: "
              + e.getMessage(),
          e);
    }
    history.addAll(resume.schemaHistory());
    checkResumePosition();
    // What the agent leaves out, now and whenever it changes (protocol version 5 on).
    dialect.captureStatus().listen(statusListener);
    LOG.info(
        "agent {}: session for {} starts after {} with {} offset entries",
        settings.agentName(),
        settings.origin(),
        startPoint.map(Oqid::toString).orElse("nothing (the server holds nothing yet)"),
        resume.offsets().size());
    sender =
        new Sender(
            settings.agentName(),
            client,
            settings.ltlBatchSizeBytes(),
            settings.scanBatchSize(),
            counters,
            clock,
            this::end);
    sender.start();
    assembler =
        new TransactionAssembler(
            dialect.prefixBytes(),
            settings.ltlBatchSizeBytes(),
            settings.transactionBufferBytes(),
            settings.dataDirectory(),
            "txn-" + topicPrefix(settings) + "-",
            sender::offer,
            counters);
    mapper = dialect.newMapper(assembler, counters);
    handler = new RecordHandler(mapper, assembler, sender, startPoint, sender::flush, counters);
    bindingKey = ServerOffsetStore.register(this);
    engine =
        DebeziumEngine.create(Connect.class)
            .using(engineProperties())
            .notifying(handler)
            .using(commitPolicy())
            .using(
                (success, message, error) -> {
                  if (!closing) {
                    end(
                        error != null
                            ? readerFailure(error)
                            : new AgentException(
                                AgentException.Code.READER_FAILED,
                                "the log reader stopped: " + message));
                  }
                })
            .build();
    executor =
        Executors.newSingleThreadExecutor(
            ThreadNames.factory("repagent", "engine", settings.agentName()));
    executor.execute(engine);
  }

  /** How often {@link #awaitStreaming} looks at the log reader while it starts. */
  static final java.time.Duration STREAMING_POLL = java.time.Duration.ofMillis(20);

  /**
   * Waits until the log reader streams from a position that covers every later commit ({@link
   * LogReaderStreaming}): the slot exists (PostgreSQL), the binlog position is fixed (MariaDB,
   * MySQL). No time limit: creating a slot waits for the primary's running transactions. Returns
   * false if the session ended first.
   */
  boolean awaitStreaming() throws InterruptedException {
    String prefix = topicPrefix(settings);
    while (!ended.isDone()) {
      if (LogReaderStreaming.isStreaming(prefix)) {
        return true;
      }
      try {
        ended.get(STREAMING_POLL.toMillis(), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
        // still starting
      }
    }
    return false;
  }

  /**
   * Refuses a session that would silently skip changes: the server holds changes of this origin (a
   * truncation point) but no resume position, and the primary keeps no position for the agent (no
   * slot: MariaDB/MySQL), so the connector would start at the current end of the log and everything
   * committed after the truncation point would never be read.
   */
  private void checkResumePosition() {
    if (startPoint.isEmpty() || !resume.offsets().isEmpty() || dialect.keepsReadPosition()) {
      return;
    }
    if (settings.source().snapshot()) {
      LOG.warn(
          "agent {}: the server holds changes of {} up to {} ({}) but no resume position;"
              + " snapshot = on: reading the captured tables again",
          settings.agentName(),
          settings.origin(),
          startPoint.get(),
          dialect.describePosition(startPoint.get()));
      return;
    }
    throw new AgentException(
        AgentException.Code.RESUME_POSITION_MISSING,
        missingPositionMessage(settings.origin(), startPoint.get(), dialect));
  }

  static String missingPositionMessage(String origin, Oqid point, SourceDialect dialect) {
    return "the server holds changes of origin "
        + origin
        + " up to "
        + point
        + " ("
        + dialect.describePosition(point)
        + ") but no resume position for the log reader (an agent stopped before the server"
        + " saved the position it handed over). The primary keeps no position for the agent (no"
        + " replication slot), so starting at the current end of its log would silently lose every"
        + " change committed after that point: the agent does not start. If an agent of this"
        + " origin stopped a moment ago, the server saves its position within a second and this"
        + " agent retries by itself; otherwise start it once with snapshot = on to read the"
        + " captured tables again (rows deleted at the primary since then stay at the replicates:"
        + " rematerialize them where that matters)";
  }

  /**
   * Debezium's periodic offset flush ({@code offset_flush_interval_ms}), plus one at once when the
   * first position is claimed (see {@link RecordHandler}).
   */
  private OffsetCommitPolicy commitPolicy() {
    Duration interval = settings.offsetFlushInterval();
    return (records, sinceLast) -> handler.takeFlushRequest() || sinceLast.compareTo(interval) >= 0;
  }

  private Properties engineProperties() {
    Properties p = LogReaderProperties.withoutOverrides(settings, dialect);
    p.setProperty("offset.storage", ServerOffsetStore.class.getName());
    p.setProperty(ServerOffsetStore.BINDING_PROPERTY, bindingKey);
    p.setProperty(
        "offset.flush.interval.ms", Long.toString(settings.offsetFlushInterval().toMillis()));
    p.setProperty("offset.flush.timeout.ms", "10000");
    p.setProperty("errors.max.retries", "0");
    p.setProperty("schema.history.internal", ServerSchemaHistory.class.getName());
    p.setProperty(ServerSchemaHistory.BINDING_PROPERTY, bindingKey);
    LogReaderProperties.applyOverrides(p, settings);
    return p;
  }

  private static AgentException readerFailure(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof AgentException a) {
        return a;
      }
      if (t instanceof SessionEndedException) {
        return new AgentException(
            AgentException.Code.READER_FAILED, "the log reader stopped with its session", t);
      }
      if (t instanceof java.sql.SQLException s
          && s.getSQLState() != null
          && s.getSQLState().startsWith("08")) {
        return new AgentException(
            AgentException.Code.SOURCE_UNAVAILABLE, "lost the primary: " + s.getMessage(), error);
      }
      if (t instanceof java.net.ConnectException) {
        return new AgentException(
            AgentException.Code.SOURCE_UNAVAILABLE, "lost the primary: " + t.getMessage(), error);
      }
    }
    return new AgentException(
        AgentException.Code.READER_FAILED, "the log reader failed: " + error, error);
  }

  private IOException connectionClosed() {
    return new IOException("the connection to the server was closed");
  }

  /** Sends the agent's capture status to the server; a closed client ends the session anyway. */
  private void sendStatus(Frame.AgentStatus status) {
    try {
      client.sendStatus(status);
    } catch (IOException e) {
      LOG.debug("agent {}: status not sent: {}", settings.agentName(), e.getMessage());
    }
  }

  private void end(Throwable why) {
    if (!closing) {
      ended.complete(why);
    }
  }

  /** Completes with the reason the session ended. */
  CompletableFuture<Throwable> ended() {
    return ended;
  }

  /** Whether the server's durable point moved during this session. */
  boolean progressed() {
    Optional<Oqid> now = sender == null ? Optional.empty() : sender.durable();
    return now.isPresent() && (startPoint.isEmpty() || now.get().compareTo(startPoint.get()) > 0);
  }

  /** The server's truncation point as this session last learned it. */
  Optional<Oqid> durable() {
    return sender == null ? startPoint : sender.durable();
  }

  // ---- ServerOffsetStore.Binding, called on engine threads -------------------------------------

  @Override
  public Map<ByteBuffer, ByteBuffer> initialOffsets() {
    return dialect.restartOffsets(resume.offsets(), startPoint);
  }

  /**
   * Sends the blob ({@code StoreResume}) and a truncation request after it. The server answers that
   * request only after it saved every blob received before it that the answer covers, so an answer
   * at or above the blob's cover means the blob (or a later one) is in the RSSD: only then does the
   * returned future complete, and only then does Debezium commit the offsets to the source (for
   * PostgreSQL, the slot's confirmed position). The slot's {@code restart_lsn} therefore never
   * passes the resume position the server hands the next agent.
   */
  @Override
  public CompletableFuture<Void> flushed(Map<ByteBuffer, ByteBuffer> offsets) throws IOException {
    Optional<Oqid> cover = handler.releasedCover();
    byte[] blob = ResumeBlob.encode(new ResumeBlob.Contents(offsets, history));
    if (cover.isEmpty()) {
      // Nothing released produced a command and the server holds nothing of this origin: no
      // position to keep (a new agent starts where the source's own position is).
      LOG.debug("agent {}: offsets flushed before anything is durable; kept", settings.agentName());
      return CompletableFuture.completedFuture(null);
    }
    client.storeResume(cover.get(), blob);
    counters.increment(AgentCounter.RA_IO_SEND);
    counters.increment(AgentCounter.RA_RESUME_BLOBS_SENT);
    CompletableFuture<Optional<Oqid>> answer = client.truncation();
    counters.increment(AgentCounter.RA_IO_SEND);
    counters.increment(AgentCounter.RA_TRUNCATION_REQUESTS);
    Oqid covered = cover.get();
    CompletableFuture<Void> saved =
        answer.thenApply(
            point -> {
              counters.increment(AgentCounter.RA_IO_RECV);
              sender.learned(point);
              if (point.isEmpty() || point.get().compareTo(covered) < 0) {
                throw new java.util.concurrent.CompletionException(
                    new IOException(
                        "the server did not confirm the resume position covering "
                            + covered
                            + " as saved (it answered "
                            + point.map(Oqid::toString).orElse("nothing")
                            + "); the source's log is not released this time"));
              }
              return null;
            });
    lastSaveRequest = saved;
    return saved;
  }

  @Override
  public java.util.List<String> initialHistory() {
    return java.util.List.copyOf(history);
  }

  @Override
  public void historyRecord(String document) {
    history.add(document);
  }

  /**
   * Stops the engine (its last offset flush still reaches the server), the sender, the link, all
   * within {@link #CLOSE_WAIT} plus the connection's close. On a graceful stop the agent first
   * waits until the server holds what it sent and releases it, so the final offset flush hands the
   * server a resume position covering everything it holds, and then until the server answered after
   * that position; each wait takes what is left of the one deadline.
   */
  @Override
  public void close() {
    boolean graceful = ended.isDone() && ended.join() == null;
    closing = true;
    dialect.captureStatus().unlisten(statusListener);
    long deadline = System.nanoTime() + CLOSE_WAIT.toNanos();
    if (graceful && engine != null) {
      releaseWhatIsDurable(deadline);
    }
    if (engine != null) {
      stopEngine(deadline);
    }
    if (graceful) {
      awaitLastSave(deadline);
    }
    if (sender != null) {
      sender.stop();
    }
    if (client != null) {
      client.close();
    }
    if (bindingKey != null) {
      ServerOffsetStore.unregister(bindingKey);
    }
    if (mapper != null) {
      mapper.close();
    }
    if (assembler != null) {
      assembler.close();
    }
  }

  private static Duration left(long deadline) {
    return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
  }

  /**
   * Stops Debezium's engine by the deadline. Its {@code close()} runs its final offset flush and
   * stops the connector's task; it refuses while the task is still starting (the PostgreSQL task
   * creates the slot then, which waits for the primary's running transactions), so it is tried
   * again until the task has started or the deadline passes. An engine not stopped by then is left
   * to a daemon thread that stops it once it can ({@code rs-repagent-reaper-<agent>}); its
   * connections end with the process at the latest.
   */
  private void stopEngine(long deadline) {
    DebeziumEngine<?> e = engine;
    if (executor == null) { // start() failed before the engine ran: nothing is starting
      try {
        e.close();
      } catch (IOException | RuntimeException ex) {
        LOG.debug("agent {}: closing a log reader that never ran: {}", settings.agentName(), ex);
      }
      return;
    }
    CompletableFuture<Void> stopped =
        CompletableFuture.runAsync(
            () -> closeWhenStarted(e),
            r ->
                ThreadNames.factory("repagent", "reaper", settings.agentName())
                    .newThread(r)
                    .start());
    executor.shutdown();
    try {
      stopped.get(left(deadline).toNanos(), TimeUnit.NANOSECONDS);
      if (!executor.awaitTermination(left(deadline).toNanos(), TimeUnit.NANOSECONDS)) {
        throw new java.util.concurrent.TimeoutException();
      }
    } catch (java.util.concurrent.TimeoutException ex) {
      LOG.warn(
          "agent {}: the log reader did not stop within {} ms of the stop; left to stop in the"
              + " background (the next session reads again what the server did not confirm)",
          settings.agentName(),
          CLOSE_WAIT.toMillis());
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException ex) {
      LOG.warn("agent {}: stopping the log reader: {}", settings.agentName(), ex.getCause());
    }
  }

  /** Closes the engine, waiting while its task is still starting (Debezium refuses then). */
  private void closeWhenStarted(DebeziumEngine<?> e) {
    while (true) {
      try {
        e.close();
        return;
      } catch (IllegalStateException starting) {
        if (!String.valueOf(starting.getMessage()).contains("tasks are starting")) {
          return; // already stopping or stopped (it failed by itself)
        }
      } catch (IOException | RuntimeException ex) {
        LOG.warn("agent {}: stopping the log reader: {}", settings.agentName(), ex.toString());
        return;
      }
      try {
        // The engine offers no signal for "tasks started"; its executor ends when it fails.
        if (executor.awaitTermination(STREAMING_POLL.toMillis(), TimeUnit.MILLISECONDS)) {
          return;
        }
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Waits for the server to hold what was sent, then releases it to Debezium's offsets. */
  private void releaseWhatIsDurable(long deadline) {
    if (handler == null || sender == null || client == null || !client.isOpen()) {
      return;
    }
    try {
      Optional<Oqid> target = handler.newestPendingCover();
      // Half of what is left: the final offset flush needs the server's answer too.
      Duration wait = left(deadline).dividedBy(2);
      if (target.isPresent() && !sender.awaitDurable(target.get(), wait)) {
        LOG.info(
            "agent {}: the server did not confirm {} within {} ms of the stop; the next session"
                + " reads it again (the server drops what it holds)",
            settings.agentName(),
            target.get(),
            wait.toMillis());
      }
      handler.releaseCovered();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.warn("agent {}: releasing the log at the stop: {}", settings.agentName(), e.toString());
    }
  }

  /** Waits, until the deadline, for the server to confirm the last resume blob saved. */
  private void awaitLastSave(long deadline) {
    CompletableFuture<Void> saved = lastSaveRequest;
    if (saved == null) {
      return;
    }
    try {
      saved.get(left(deadline).toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.info(
          "agent {}: no answer after the last resume position: {}",
          settings.agentName(),
          e.toString());
    }
  }
}
