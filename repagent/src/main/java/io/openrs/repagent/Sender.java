package io.openrs.repagent;

import io.openrs.ltl.Oqid;
import io.openrs.runtime.ThreadNames;
import io.openrs.runtime.WorkerThread;
import io.openrs.wire.BatchAnswer;
import io.openrs.wire.LtlClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the LTL the log reader produces to the server over one {@link LtlClient} connection: it
 * packs {@link LtlChunk}s into batches of at most {@code ltl_batch_size} bytes, sends them without
 * waiting for answers (the client bounds what is in flight), checks every answer, and asks the
 * server's truncation point every {@code scan_batch_size} commands and whenever it is idle with
 * commands the server has not yet confirmed. The truncation point it learns is {@link #durable()},
 * which is what lets the log reader release the primary's log.
 *
 * <p>A batch goes out when the chunks waiting fill {@code ltl_batch_size}, or when the log reader
 * {@link #flush}es (it does at the end of each batch of records the engine hands it, so a lone
 * change waits for nothing). Under load the sender is therefore woken once per full batch rather
 * than once per transaction, and each wake-up sends a full batch: fewer, larger batches and fewer
 * thread wake-ups on both sides of the connection. Chunks nobody flushes go out after {@link #POLL}
 * at the latest.
 *
 * <p>A rejected batch or a lost connection is fatal for this sender: it reports the failure once
 * and stops; the agent reconnects and resends from the server's truncation point with a new sender.
 *
 * <p>Threads: one sender thread ({@code rs-repagent-sender-<agent>}) owns the batching; {@link
 * #offer} is called by the log reader's thread; answers arrive on the client's I/O thread.
 */
final class Sender implements RecordHandler.DurablePoint {

  private static final Logger LOG = LoggerFactory.getLogger(Sender.class);
  private static final int QUEUE_CHUNKS = 64;
  private static final Duration POLL = Duration.ofMillis(50);
  private static final Duration IDLE_ASK = Duration.ofMillis(200);

  /** How long {@link #stop()} waits for the sender thread to end. */
  private static final Duration STOP_WAIT = Duration.ofSeconds(10);

  private static final byte[] OQID_MARK = " oqid 0x".getBytes(StandardCharsets.US_ASCII);

  private final String agent;
  private final LtlClient client;

  /** What {@link #countLinkBytes} has counted of this connection so far. */
  private long frameBytesCounted;

  private long wireBytesCounted;
  private final int batchBytes;
  private final int scanBatchSize;
  private final AgentCounters counters;
  private final Clock clock;
  private final Consumer<Throwable> onFailure;
  private final Optional<Oqid> skipUpTo;
  private final ChunkQueue queue;
  private final AtomicReference<Oqid> durable = new AtomicReference<>();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  /** Notified whenever {@link #durable} moves, the sender fails or stops. */
  private final Object durableChanged = new Object();

  private final SenderThread thread;

  // Owned by the sender thread.
  private Oqid lastSent;
  private long commandsSinceAsk;
  private long lastAskNanos;
  private int batchSize;
  private final List<LtlChunk> batchChunks = new ArrayList<>();

  Sender(
      String agent,
      LtlClient client,
      int batchBytes,
      int scanBatchSize,
      AgentCounters counters,
      Clock clock,
      Consumer<Throwable> onFailure) {
    this.agent = agent;
    this.client = client;
    this.batchBytes = Math.min(batchBytes, client.maxBatchBytes());
    this.queue = new ChunkQueue(QUEUE_CHUNKS, this.batchBytes);
    this.scanBatchSize = scanBatchSize;
    this.counters = counters;
    this.clock = clock;
    this.onFailure = onFailure;
    this.skipUpTo = client.welcome().truncationPoint();
    skipUpTo.ifPresent(durable::set);
    this.thread = new SenderThread();
  }

  void start() {
    thread.start();
  }

  /** The server's truncation point as last reported: everything up to it is durable there. */
  @Override
  public Optional<Oqid> durable() {
    return Optional.ofNullable(durable.get());
  }

  /**
   * Waits until the server's truncation point is at or above {@code target} (the sender asks for it
   * while it has unconfirmed commands), the sender fails or stops, or {@code timeout} passes.
   *
   * @return whether the point reached {@code target}
   */
  @Override
  public boolean awaitDurable(Oqid target, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (durableChanged) {
      while (true) {
        Oqid d = durable.get();
        if (d != null && d.compareTo(target) >= 0) {
          return true;
        }
        long left = deadline - System.nanoTime();
        if (failure.get() != null || stopping() || left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(durableChanged, left);
      }
    }
  }

  /** A truncation point learned outside the sender's own requests (the session's). */
  void learned(Optional<Oqid> point) {
    point.ifPresent(
        p -> durable.accumulateAndGet(p, (a, b) -> a == null || b.compareTo(a) > 0 ? b : a));
    wakeWaiters();
  }

  private void wakeWaiters() {
    synchronized (durableChanged) {
      durableChanged.notifyAll();
    }
  }

  /** The failure that stopped this sender, if any. */
  Optional<Throwable> failure() {
    return Optional.ofNullable(failure.get());
  }

  /**
   * Hands a chunk to the sender; waits while its queue is full (back-pressure on the log reader).
   *
   * @throws SessionEndedException when the sender has failed or is stopping
   */
  void offer(LtlChunk chunk) throws InterruptedException {
    while (!queue.offer(chunk, POLL)) {
      checkAlive();
    }
    checkAlive();
  }

  /**
   * The log reader has nothing more to hand over for now: what is queued goes out without waiting
   * to fill a batch. Called by the log reader's thread.
   */
  void flush() {
    queue.flush();
  }

  private void checkAlive() {
    Throwable f = failure.get();
    if (f != null) {
      throw new SessionEndedException("the sender of " + agent + " failed", f);
    }
    if (stopping()) {
      throw new SessionEndedException("the sender of " + agent + " is stopping", null);
    }
  }

  /** Stops the thread (what is queued and not sent is dropped; the reader resends it). */
  void stop() {
    try {
      thread.shutdown(STOP_WAIT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private boolean stopping() {
    return thread.shutdownRequested();
  }

  /**
   * The sender thread: each step takes one batch from the queue and sends it (or, idle, asks for
   * the truncation point); it ends after the current step when stopped, or at the first failure,
   * which goes to the session through {@code onFailure}.
   */
  private final class SenderThread extends WorkerThread {
    SenderThread() {
      super(ThreadNames.of("repagent", "sender", agent), StopPolicy.AFTER_STEP);
    }

    @Override
    protected boolean doWork() {
      try {
        queue.takeBatch(POLL, batchChunks);
        if (batchChunks.isEmpty()) {
          idle();
        } else {
          skipCovered();
          sendBatch();
          if (commandsSinceAsk >= scanBatchSize) {
            askTruncation();
          }
        }
        return failure.get() == null;
      } catch (InterruptedException e) {
        if (!stopping()) {
          fail(e);
        }
        return false;
      } catch (SessionEndedException e) {
        return false; // the failure is already reported
      } catch (RuntimeException e) {
        fail(e); // the connection's failure: the session retries
        return false;
      }
    }

    @Override
    protected void wakeUp() {
      wakeWaiters();
      interrupt();
    }

    @Override
    protected void onFatal(Throwable error) {
      fail(error);
    }
  }

  private void idle() {
    Oqid d = durable.get();
    boolean unconfirmed = lastSent != null && (d == null || d.compareTo(lastSent) < 0);
    if (unconfirmed && System.nanoTime() - lastAskNanos >= IDLE_ASK.toNanos()) {
      askTruncation();
    }
  }

  /**
   * Drops from the batch the chunks the server already holds (at or below the truncation point it
   * welcomed this connection with) and sums what is left.
   */
  private void skipCovered() {
    batchSize = 0;
    for (var it = batchChunks.iterator(); it.hasNext(); ) {
      LtlChunk c = it.next();
      if (skipUpTo.isPresent() && c.lastOqid().compareTo(skipUpTo.get()) <= 0) {
        counters.add(AgentCounter.RA_COMMANDS_SKIPPED, c.commands());
        it.remove();
      } else {
        batchSize += c.text().length;
      }
    }
  }

  private void sendBatch() throws InterruptedException {
    if (batchChunks.isEmpty()) {
      return;
    }
    byte[] text;
    if (batchChunks.size() == 1) {
      text = batchChunks.get(0).text(); // owned by the sender once offered
    } else {
      text = new byte[batchSize];
      int at = 0;
      for (LtlChunk c : batchChunks) {
        System.arraycopy(c.text(), 0, text, at, c.text().length);
        at += c.text().length;
      }
    }
    int commands = 0;
    for (LtlChunk c : batchChunks) {
      commands += c.commands();
    }
    long start = System.nanoTime();
    CompletableFuture<BatchAnswer> answer = client.sendBatch(text);
    long sent = System.nanoTime();
    counters.increment(AgentCounter.RA_IO_SEND);
    counters.time(
        AgentCounter.RA_SUM_IO_SEND_WAIT, AgentCounter.RA_LONGEST_IO_SEND_WAIT, sent - start);
    counters.increment(AgentCounter.RA_BATCHES_SENT);
    counters.add(AgentCounter.RA_BYTES_SENT, text.length);
    countLinkBytes();
    counters.add(AgentCounter.RA_COMMANDS_SENT, commands);
    Instant now = clock.instant();
    for (LtlChunk c : batchChunks) {
      if (c.commitTime().isPresent()) {
        counters.increment(AgentCounter.RA_TRANSACTIONS_SENT);
        long delay = Math.max(0, Duration.between(c.commitTime().get(), now).toNanos());
        counters.time(
            AgentCounter.RA_SUM_COMMIT_TO_SEND, AgentCounter.RA_LONGEST_COMMIT_TO_SEND, delay);
      }
    }
    lastSent = batchChunks.get(batchChunks.size() - 1).lastOqid();
    commandsSinceAsk += commands;
    batchSize = 0;
    batchChunks.clear();
    answer.whenComplete(
        (a, err) -> {
          counters.increment(AgentCounter.RA_IO_RECV);
          counters.time(
              AgentCounter.RA_SUM_IO_RECV_WAIT,
              AgentCounter.RA_LONGEST_IO_RECV_WAIT,
              System.nanoTime() - sent);
          if (err != null) {
            fail(err);
          } else if (a instanceof BatchAnswer.Rejected r) {
            fail(new CommandRejectedException(r, oqidAtLine(text, r.line())));
          }
        });
  }

  /** Adds what the connection sent since the last call to the frame and wire byte counters. */
  private synchronized void countLinkBytes() {
    long frames = client.linkBytes().frameBytesSent();
    long wire = client.linkBytes().wireBytesSent();
    counters.add(AgentCounter.RA_FRAME_BYTES_SENT, frames - frameBytesCounted);
    counters.add(AgentCounter.RA_WIRE_BYTES_SENT, wire - wireBytesCounted);
    frameBytesCounted = frames;
    wireBytesCounted = wire;
  }

  private void askTruncation() {
    countLinkBytes();
    commandsSinceAsk = 0;
    lastAskNanos = System.nanoTime();
    long start = lastAskNanos;
    counters.increment(AgentCounter.RA_IO_SEND);
    counters.increment(AgentCounter.RA_TRUNCATION_REQUESTS);
    client
        .truncation()
        .whenComplete(
            (point, err) -> {
              counters.increment(AgentCounter.RA_IO_RECV);
              counters.time(
                  AgentCounter.RA_SUM_IO_RECV_WAIT,
                  AgentCounter.RA_LONGEST_IO_RECV_WAIT,
                  System.nanoTime() - start);
              if (err != null) {
                fail(err);
              } else {
                learned(point);
              }
            });
  }

  private void fail(Throwable t) {
    Throwable cause =
        t instanceof java.util.concurrent.CompletionException && t.getCause() != null
            ? t.getCause()
            : t;
    if (failure.compareAndSet(null, cause)) {
      wakeWaiters();
      if (!stopping()) {
        LOG.debug("sender of {} failed: {}", agent, cause.toString());
        onFailure.accept(cause);
      }
    }
  }

  /** The OQID written on line {@code line} (1-based) of {@code text}, if it can be found. */
  static Optional<Oqid> oqidAtLine(byte[] text, int line) {
    int at = 0;
    for (int l = 1; l < line && at < text.length; at++) {
      if (text[at] == '\n') {
        l++;
      }
    }
    int end = at;
    while (end < text.length && text[end] != '\n') {
      end++;
    }
    String s = new String(text, at, end - at, StandardCharsets.UTF_8);
    int i = s.indexOf(new String(OQID_MARK, StandardCharsets.US_ASCII));
    if (i < 0) {
      return Optional.empty();
    }
    int from = i + OQID_MARK.length;
    int to = from;
    while (to < s.length() && Character.digit(s.charAt(to), 16) >= 0) {
      to++;
    }
    try {
      return Optional.of(Oqid.parse("0x" + s.substring(from, to)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
