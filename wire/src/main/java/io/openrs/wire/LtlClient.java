package io.openrs.wire;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.netty.util.concurrent.Future;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.runtime.ThreadNames;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent side of the LTL wire protocol: one TCP connection to the server's LTL listener, for one
 * origin. {@link #connect} performs the handshake; then {@link #sendBatch} sends LTL batches
 * without waiting for earlier answers (pipelined, bounded by {@link
 * LtlClientSettings#maxInFlightBatches()} and {@link LtlClientSettings#maxInFlightBytes()}), {@link
 * #truncation()} asks for the secondary truncation point and {@link #storeResume} hands the server
 * a resume blob. The rules an agent follows on rejections, errors and reconnects are in {@code
 * docs/formats/ltl-wire.md}.
 *
 * <p>Thread-safe: any thread may call any method, except that {@link #sendBatch} (which blocks when
 * too much is in flight) and {@link #close()} (which waits for answers) must not be called on the
 * client's I/O thread. Futures complete on that I/O thread, batch futures in sequence order: their
 * callbacks must not block (use the {@code ...Async} forms for slow work).
 *
 * <p>Failure: the first fatal event (an {@link Frame.Error} from the server, a lost connection, a
 * protocol error, {@link #close()}) fails every pending future with one exception ({@link
 * LtlRejectedException} when the server sent an Error, else {@link LtlConnectionClosedException}),
 * completes {@link #closeFuture()}, and makes every later call fail with an {@link
 * LtlConnectionClosedException} whose cause is that first exception. The client never reconnects by
 * itself: the agent makes a new one.
 */
public final class LtlClient implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LtlClient.class);
  private static final AtomicLong IDS = new AtomicLong();
  private static final String HANDLER_NAME = "openrs-ltl-client";
  private static final String TLS_NAME = "openrs-ltl-tls";

  /** Lifecycle, in order; a client only moves forward. */
  public enum State {
    /** TCP connect and handshake under way (only seen inside {@link #connect}). */
    CONNECTING,
    /** Welcome received; batches may be sent. */
    OPEN,
    /** {@link #close()} called: no new batches, waiting for answers to those in flight. */
    CLOSING,
    /** Closed by {@link #close()} or by a failure; see {@link #closeFuture()}. */
    CLOSED
  }

  /**
   * Counters since the client connected.
   *
   * @param batchesSent batches handed to the connection
   * @param bytesSent bytes of LTL text in them
   * @param batchesAccepted batches answered {@link BatchAnswer.Accepted}
   * @param batchesRejected batches answered {@link BatchAnswer.Rejected}
   * @param inFlightBatches batches sent and not answered now
   * @param inFlightBytes bytes of LTL text in them
   * @param flowControlWaits calls of {@link #sendBatch} that had to wait for room
   * @param flowControlWaitNanos total time they waited
   */
  public record Stats(
      long batchesSent,
      long bytesSent,
      long batchesAccepted,
      long batchesRejected,
      int inFlightBatches,
      long inFlightBytes,
      long flowControlWaits,
      long flowControlWaitNanos) {}

  private static final class PendingBatch {
    final long sequence;
    final int bytes;
    final CompletableFuture<BatchAnswer> future = new CompletableFuture<>();

    PendingBatch(long sequence, int bytes) {
      this.sequence = sequence;
      this.bytes = bytes;
    }
  }

  private final long id;
  private final LtlClientSettings settings;
  private final LtlCommand.Connect hello;

  /** The version 4 login when the Hello offers version 4 or later; used on the I/O thread. */
  private final Optional<ScramLogin> scram;

  private final EventLoopGroup group;
  private final boolean ownsGroup;
  private final CompletableFuture<Frame.Welcome> welcomeFuture = new CompletableFuture<>();
  private final CompletableFuture<Void> closeFuture = new CompletableFuture<>();
  private final ChannelFutureListener writeListener = this::onWriteDone;
  private final LinkBytes linkBytes = new LinkBytes();

  /** Set when the channel is registered, before it connects. */
  private volatile Channel channel;

  /** The first fatal failure; set once, under {@link #lock}. */
  private volatile IOException failure;

  private volatile boolean closedByClient;

  private final ReentrantLock lock = new ReentrantLock();

  /** Signalled when a batch is answered or the state changes. */
  private final Condition changed = lock.newCondition();

  // Guarded by lock.
  private State state = State.CONNECTING;
  private Frame.Welcome welcome;
  private long nextSequence = 1;
  private long nextRequestId = 1;
  private final ArrayDeque<PendingBatch> inFlight = new ArrayDeque<>();
  private long inFlightBytes;

  /** Batches taken off {@link #inFlight} whose futures the I/O thread is completing. */
  private int completing;

  private final Map<Long, CompletableFuture<Optional<Oqid>>> truncationRequests = new HashMap<>();
  private long batchesSent;
  private long bytesSent;
  private long batchesAccepted;
  private long batchesRejected;
  private long flowControlWaits;
  private long flowControlWaitNanos;

  private LtlClient(LtlClientSettings settings, LtlCommand.Connect hello) {
    this.id = IDS.incrementAndGet();
    this.settings = settings;
    this.hello = hello;
    this.scram =
        hello.maxVersion() >= WireProtocol.SCRAM_VERSION
            ? Optional.of(
                new ScramLogin(
                    hello.user(),
                    hello
                        .password()
                        .orElseThrow(
                            () ->
                                new IllegalArgumentException(
                                    "a Hello offering version "
                                        + WireProtocol.SCRAM_VERSION
                                        + " needs the password for the SCRAM login"))
                        .toCharArray()))
            : Optional.empty();
    this.ownsGroup = settings.eventLoopGroup().isEmpty();
    this.group =
        settings
            .eventLoopGroup()
            .orElseGet(
                () ->
                    new NioEventLoopGroup(
                        1,
                        r -> {
                          Thread t =
                              new FastThreadLocalThread(r, ThreadNames.of("wire", "client", id));
                          t.setDaemon(true);
                          return t;
                        }));
  }

  /**
   * Connects to {@code host:port} with default settings and a connect plus handshake bound of
   * {@code timeout}.
   *
   * @see #connect(LtlClientSettings, LtlCommand.Connect)
   */
  public static LtlClient connect(String host, int port, LtlCommand.Connect hello, Duration timeout)
      throws IOException, InterruptedException {
    return connect(LtlClientSettings.defaults(host, port).withConnectTimeout(timeout), hello);
  }

  /**
   * Opens the connection, sends {@code hello} and returns once the server's {@link Frame.Welcome}
   * is in ({@link #welcome()}).
   *
   * @param hello the versions it offers must lie within {@link WireProtocol#MIN_VERSION}..{@link
   *     WireProtocol#MAX_VERSION}. When they reach {@link WireProtocol#SCRAM_VERSION} the client
   *     logs in with SCRAM-SHA-256: the Hello it sends carries no password, the password only
   *     proves itself in the SCRAM frames, and no Welcome is accepted before the server has proven
   *     that it knows the user's verifier. Below that version the password travels in the Hello.
   * @throws LtlRejectedException the server answered {@link Frame.Error}
   * @throws SocketTimeoutException no Welcome within {@link LtlClientSettings#connectTimeout()}
   * @throws ConnectException the TCP connection was refused or failed
   * @throws LtlConnectionClosedException the server closed the connection or broke the protocol
   */
  public static LtlClient connect(LtlClientSettings settings, LtlCommand.Connect hello)
      throws IOException, InterruptedException {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(hello, "hello");
    if (hello.minVersion() < WireProtocol.MIN_VERSION
        || hello.maxVersion() > WireProtocol.MAX_VERSION) {
      throw new IllegalArgumentException(
          "the Hello offers versions "
              + hello.minVersion()
              + "-"
              + hello.maxVersion()
              + ", this client speaks "
              + WireProtocol.MIN_VERSION
              + "-"
              + WireProtocol.MAX_VERSION);
    }
    LtlClient client = new LtlClient(settings, hello);
    boolean open = false;
    try {
      client.handshake();
      open = true;
      return client;
    } finally {
      if (!open) {
        client.close();
      }
    }
  }

  private void handshake() throws IOException, InterruptedException {
    Duration timeout = settings.connectTimeout();
    SslContext sslContext = settings.tls().enabled() ? settings.tls().newContext() : null;
    Bootstrap bootstrap =
        new Bootstrap()
            .group(group)
            .channel(NioSocketChannel.class)
            .option(
                ChannelOption.CONNECT_TIMEOUT_MILLIS,
                (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis())))
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    channel = ch;
                    FrameCodec.install(ch.pipeline(), settings.maxFrameLength());
                    LinkBytes.install(ch.pipeline(), linkBytes);
                    LinkCompression.installAgentSide(ch.pipeline(), settings.maxFrameLength());
                    if (settings.tls().enabled()) {
                      ch.pipeline()
                          .addFirst(
                              TLS_NAME,
                              settings
                                  .tls()
                                  .newHandler(
                                      sslContext, ch.alloc(), settings.host(), settings.port()));
                    }
                    ch.pipeline().addLast(HANDLER_NAME, new Handler());
                  }
                });
    ChannelFuture connected = bootstrap.connect(settings.host(), settings.port());
    channel = connected.channel();
    connected.addListener(
        f -> {
          if (!f.isSuccess()) {
            ConnectException e =
                new ConnectException(describe() + ": cannot connect: " + f.cause().getMessage());
            e.initCause(f.cause());
            fail(e, false);
          }
        });
    try {
      Frame.Welcome w = welcomeFuture.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      log.info(
          "{} open: agent {}, protocol version {}, {}, compression {}, truncation point {},"
              + " resume blob {} bytes",
          describe(),
          hello.agent().orElse("(unnamed)"),
          w.version(),
          tlsDescription(),
          w.compression().configName(),
          w.truncationPoint().map(Oqid::toString).orElse("none"),
          w.resumeBlob().length);
    } catch (TimeoutException e) {
      fail(
          new SocketTimeoutException(describe() + ": no Welcome from the server within " + timeout),
          false);
      throw failure;
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io
          ? io
          : new IOException(describe() + ": handshake failed", e.getCause());
    }
  }

  private String tlsDescription() {
    return tlsProtocol()
        .map(p -> "TLS " + settings.tls().mode().configName() + " " + p)
        .orElse("plaintext");
  }

  /** The TLS protocol the link was encrypted with ({@code TLSv1.3}), empty when plaintext. */
  public Optional<String> tlsProtocol() {
    Channel ch = channel;
    SslHandler tls = ch == null ? null : ch.pipeline().get(SslHandler.class);
    if (tls == null || !tls.handshakeFuture().isSuccess()) {
      return Optional.empty();
    }
    return Optional.of(tls.engine().getSession().getProtocol());
  }

  /**
   * Bytes of this connection on the wire and as frames, each way: their ratio is what compression
   * saves.
   */
  public LinkBytes linkBytes() {
    return linkBytes;
  }

  /** The server's Welcome: negotiated version, truncation point and stored resume blob. */
  public Frame.Welcome welcome() {
    lock.lock();
    try {
      return welcome;
    } finally {
      lock.unlock();
    }
  }

  /** What the client was started with. */
  public LtlClientSettings settings() {
    return settings;
  }

  /** Most bytes of LTL text one batch may hold under the configured maximum frame length. */
  public int maxBatchBytes() {
    return FrameCodec.maxBatchTextBytes(settings.maxFrameLength());
  }

  /**
   * Sends one batch of LTL text (whole lines) and returns at once with the future of its answer,
   * unless {@link LtlClientSettings#maxInFlightBatches()} batches or {@link
   * LtlClientSettings#maxInFlightBytes()} bytes are unanswered: then it blocks until the server has
   * answered enough of them (or the client closes).
   *
   * <p>Batches get sequence numbers 1, 2, ... in the order of the calls; their futures complete in
   * that order. After a {@link BatchAnswer.Rejected} the server takes no further batch on this
   * connection (each is answered rejected with nothing taken): the agent closes this client,
   * reconnects and resends.
   *
   * @param ltlText UTF-8 LTL text, owned by the client from now on (it is written without a copy:
   *     do not change it)
   * @return the server's answer; fails with {@link LtlRejectedException} or {@link
   *     LtlConnectionClosedException} when the connection ends first
   * @throws IllegalArgumentException when the text exceeds {@link #maxBatchBytes()}
   * @throws IllegalStateException when called on the client's I/O thread
   * @throws InterruptedException while waiting for room
   */
  public CompletableFuture<BatchAnswer> sendBatch(byte[] ltlText) throws InterruptedException {
    Objects.requireNonNull(ltlText, "ltlText");
    if (ltlText.length > maxBatchBytes()) {
      throw new IllegalArgumentException(
          "a batch of "
              + ltlText.length
              + " bytes does not fit in a frame: at most "
              + maxBatchBytes()
              + " bytes of LTL text (maximum frame length "
              + settings.maxFrameLength()
              + ")");
    }
    Channel ch = channel;
    if (ch.eventLoop().inEventLoop()) {
      throw new IllegalStateException(
          "sendBatch may block; call it from another thread than the client's I/O thread");
    }
    lock.lockInterruptibly();
    try {
      long waitStart = 0;
      try {
        while (state == State.OPEN && !roomFor(ltlText.length)) {
          if (waitStart == 0) {
            waitStart = System.nanoTime();
            flowControlWaits++;
          }
          changed.await();
        }
      } finally {
        if (waitStart != 0) {
          flowControlWaitNanos += System.nanoTime() - waitStart;
        }
      }
      if (state != State.OPEN) {
        return CompletableFuture.failedFuture(closedException());
      }
      PendingBatch batch = new PendingBatch(nextSequence++, ltlText.length);
      inFlight.addLast(batch);
      inFlightBytes += batch.bytes;
      batchesSent++;
      bytesSent += batch.bytes;
      // Under the lock: the order of writes is the order of sequence numbers.
      ch.writeAndFlush(new Frame.Batch(batch.sequence, ltlText)).addListener(writeListener);
      return batch.future;
    } finally {
      lock.unlock();
    }
  }

  private boolean roomFor(int bytes) {
    int unanswered = inFlight.size() + completing;
    return unanswered == 0
        || (unanswered < settings.maxInFlightBatches()
            && inFlightBytes + bytes <= settings.maxInFlightBytes());
  }

  /**
   * Asks the server for the origin's secondary truncation point: the last OQID it holds durably
   * (empty when none). Requests are matched to answers by request id; several may be outstanding.
   */
  public CompletableFuture<Optional<Oqid>> truncation() {
    lock.lock();
    try {
      if (state != State.OPEN) {
        return CompletableFuture.failedFuture(closedException());
      }
      long requestId = nextRequestId++;
      CompletableFuture<Optional<Oqid>> answer = new CompletableFuture<>();
      truncationRequests.put(requestId, answer);
      channel.writeAndFlush(new Frame.GetTruncation(requestId)).addListener(writeListener);
      return answer;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Hands the server a resume blob (the agent's log reader offsets) to store durably for this
   * origin once everything up to {@code coveredUpTo} is durable; the next {@link
   * Frame.Welcome#resumeBlob()} returns the last one stored. No answer.
   *
   * @param blob owned by the client from now on; at most {@link WireProtocol#MAX_RESUME_BLOB_BYTES}
   * @throws LtlConnectionClosedException when the client is closed
   */
  public void storeResume(Oqid coveredUpTo, byte[] blob) throws IOException {
    Frame.StoreResume frame = new Frame.StoreResume(coveredUpTo, blob);
    lock.lock();
    try {
      if (state != State.OPEN) {
        throw closedException();
      }
      channel.writeAndFlush(frame).addListener(writeListener);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Tells the server what the agent does not capture ({@link Frame.AgentStatus}), replacing what it
   * told before. Sent only in a session at {@link WireProtocol#STATUS_VERSION} or later; in an
   * older one this does nothing (the server could not read the frame).
   *
   * @return whether the frame was sent
   * @throws IOException when the client is not open
   */
  public boolean sendStatus(Frame.AgentStatus status) throws IOException {
    lock.lock();
    try {
      if (state != State.OPEN) {
        throw closedException();
      }
      if (welcome().version() < WireProtocol.STATUS_VERSION) {
        return false;
      }
      channel.writeAndFlush(status).addListener(writeListener);
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Whether batches can be sent: the handshake is done and nothing has closed the client. */
  public boolean isOpen() {
    lock.lock();
    try {
      return state == State.OPEN;
    } finally {
      lock.unlock();
    }
  }

  /** Where the client is in its lifecycle. */
  public State state() {
    lock.lock();
    try {
      return state;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Completes when the connection is closed: normally after {@link #close()}, exceptionally with
   * the first failure ({@link LtlRejectedException} or {@link LtlConnectionClosedException})
   * otherwise. Completes on the client's I/O thread. It is the client's own future: do not complete
   * it.
   */
  public CompletableFuture<Void> closeFuture() {
    return closeFuture;
  }

  /** A consistent snapshot of the client's counters. */
  public Stats stats() {
    lock.lock();
    try {
      return new Stats(
          batchesSent,
          bytesSent,
          batchesAccepted,
          batchesRejected,
          inFlight.size() + completing,
          inFlightBytes,
          flowControlWaits,
          flowControlWaitNanos);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Closes gracefully: takes no new batches, waits up to {@link LtlClientSettings#closeTimeout()}
   * for answers to the batches in flight, fails those still unanswered with {@link
   * LtlConnectionClosedException}, closes the connection once everything written is sent, and shuts
   * down the client's own event loop group (not a shared one). Idempotent. Called on the client's
   * I/O thread it does not wait.
   */
  @Override
  public void close() {
    Channel ch = channel;
    boolean onIoThread = ch != null && ch.eventLoop().inEventLoop();
    long timeoutNanos = settings.closeTimeout().toNanos();
    int unanswered;
    lock.lock();
    try {
      if (state == State.OPEN) {
        moveTo(State.CLOSING);
        changed.signalAll();
        long nanos = timeoutNanos;
        while (!onIoThread
            && (!inFlight.isEmpty() || completing > 0)
            && state == State.CLOSING
            && nanos > 0) {
          nanos = changed.awaitNanos(nanos);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      unanswered = inFlight.size();
      lock.unlock();
    }
    fail(
        new LtlConnectionClosedException(
            describe()
                + " was closed"
                + (unanswered > 0
                    ? " with " + unanswered + " batches the server had not answered"
                    : "")),
        true);
    if (!onIoThread && ch != null) {
      if (!ch.closeFuture().awaitUninterruptibly(timeoutNanos, TimeUnit.NANOSECONDS)) {
        ch.close().awaitUninterruptibly(timeoutNanos, TimeUnit.NANOSECONDS);
      }
      completeCloseFuture(); // also done by a close listener, maybe not yet run
    }
    if (ownsGroup && !group.isShuttingDown()) {
      Future<?> terminated =
          group.shutdownGracefully(0, settings.closeTimeout().toMillis(), TimeUnit.MILLISECONDS);
      if (!onIoThread) {
        terminated.awaitUninterruptibly(
            timeoutNanos + TimeUnit.SECONDS.toNanos(1), TimeUnit.NANOSECONDS);
      }
    }
  }

  @Override
  public String toString() {
    return describe() + " [" + state() + "]";
  }

  private String describe() {
    return "LTL client "
        + id
        + " for "
        + hello.originServer()
        + "."
        + hello.originDatabase()
        + " at "
        + settings.host()
        + ":"
        + settings.port();
  }

  private LtlConnectionClosedException closedException() {
    return new LtlConnectionClosedException(describe() + " is closed", failure);
  }

  /** Moves the lifecycle forward; caller holds the lock. */
  private boolean moveTo(State next) {
    assert lock.isHeldByCurrentThread();
    if (next.ordinal() <= state.ordinal()) {
      return false;
    }
    log.debug("{}: {} -> {}", describe(), state, next);
    state = next;
    return true;
  }

  /**
   * The first fatal event: fails everything pending with {@code cause}, closes the channel (after
   * what is written when the client closes itself) and completes the close future. Later calls do
   * nothing.
   */
  private void fail(IOException cause, boolean byClient) {
    List<PendingBatch> batches;
    List<CompletableFuture<Optional<Oqid>>> truncations;
    lock.lock();
    try {
      if (failure != null) {
        return;
      }
      failure = cause;
      closedByClient = byClient;
      moveTo(State.CLOSED);
      batches = new ArrayList<>(inFlight);
      inFlight.clear();
      for (PendingBatch b : batches) {
        inFlightBytes -= b.bytes;
      }
      truncations = new ArrayList<>(truncationRequests.values());
      truncationRequests.clear();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    String message = cause.getMessage();
    if (byClient) {
      log.info("{}", message);
    } else {
      String described = message.startsWith(describe()) ? message : describe() + ": " + message;
      if (cause instanceof LtlRejectedException) {
        // The server's refusal goes to the owner, which logs each change of its state once (the
        // agent: "log transfer stopped at the server", then "replicating again"); a warning here
        // would repeat at every reconnect while, say, log transfer stays suspended.
        log.debug("{}", described);
      } else {
        log.warn("{}", described);
      }
    }
    welcomeFuture.completeExceptionally(cause);
    for (PendingBatch b : batches) {
      b.future.completeExceptionally(cause);
    }
    for (CompletableFuture<Optional<Oqid>> t : truncations) {
      t.completeExceptionally(cause);
    }
    Channel ch = channel;
    if (ch == null) {
      completeCloseFuture();
      return;
    }
    if (byClient && ch.isActive()) {
      ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    } else {
      ch.close();
    }
    ch.closeFuture().addListener(f -> completeCloseFuture());
  }

  private void completeCloseFuture() {
    if (closedByClient) {
      closeFuture.complete(null);
    } else {
      closeFuture.completeExceptionally(failure);
    }
  }

  private void onWriteDone(ChannelFuture f) {
    if (!f.isSuccess()) {
      Optional<SSLException> tls = tlsFailure(f.cause());
      fail(
          tls.isPresent()
              ? tlsFailed(tls.get(), f.cause())
              : new LtlConnectionClosedException(
                  describe() + ": cannot write to the server: " + f.cause(), f.cause()),
          false);
    }
  }

  /** A failed TLS handshake, named as such with the mode (the cause says which side refused). */
  private LtlConnectionClosedException tlsFailed(SSLException e, Throwable cause) {
    return new LtlConnectionClosedException(
        describe()
            + ": TLS with the server failed (rs_tls "
            + settings.tls().mode().configName()
            + "): "
            + e.getMessage(),
        cause);
  }

  private void protocolError(String what) {
    WireProtocolException e = new WireProtocolException(what);
    fail(new LtlConnectionClosedException(describe() + ": protocol error: " + what, e), false);
  }

  // ---------------------------------------------------------------- I/O thread

  private void onWelcome(Frame.Welcome w) {
    String problem = null;
    lock.lock();
    try {
      if (state == State.CLOSED) {
        return;
      }
      if (state != State.CONNECTING) {
        problem = "the server sent a second Welcome";
      } else if (scram.isPresent() && !scram.get().serverVerified()) {
        // Never downgraded: an agent that logs in with SCRAM trusts only a server that proved it.
        problem =
            "the server sent Welcome (version "
                + w.version()
                + ") before proving that it knows the password's verifier (ScramServerFinal)";
      } else if (w.compression() != LtlCompression.NONE
          && !hello.compression().contains(w.compression().configName())) {
        problem =
            "the server chose compression "
                + w.compression().configName()
                + ", the agent offered "
                + (hello.compression().isEmpty() ? "none" : hello.compression());
      } else if (w.version() < hello.minVersion() || w.version() > hello.maxVersion()) {
        problem =
            "the server chose protocol version "
                + w.version()
                + ", the agent offered "
                + hello.minVersion()
                + "-"
                + hello.maxVersion();
      } else {
        welcome = w;
        moveTo(State.OPEN);
      }
    } finally {
      lock.unlock();
    }
    if (problem != null) {
      protocolError(problem);
    } else {
      w.liveness().ifPresent(this::watchLiveness);
      welcomeFuture.complete(w);
    }
  }

  /**
   * Version 3 on: sends a {@link Frame.Heartbeat} whenever nothing was written for the heartbeat
   * interval, and gives the server up when nothing came from it for the idle timeout (a server that
   * has stopped reading under back-pressure still sends heartbeats, so only a dead or frozen one is
   * given up). Runs on the I/O thread, before any frame after the Welcome is read.
   */
  private void watchLiveness(Frame.Liveness liveness) {
    channel
        .pipeline()
        .addBefore(
            HANDLER_NAME,
            "openrs-ltl-liveness",
            new IdleStateHandler(
                liveness.idleTimeoutMillis(),
                liveness.heartbeatIntervalMillis(),
                0,
                TimeUnit.MILLISECONDS));
  }

  private void onIdle(IdleStateEvent e) {
    Frame.Liveness liveness = welcome().liveness().orElseThrow();
    if (e.state() == IdleState.WRITER_IDLE) {
      channel.writeAndFlush(new Frame.Heartbeat()).addListener(writeListener);
    } else if (e.state() == IdleState.READER_IDLE) {
      fail(
          new LtlConnectionClosedException(
              describe()
                  + ": the server sent nothing for "
                  + liveness.idleTimeoutMillis()
                  + " ms (its idle timeout; heartbeats every "
                  + liveness.heartbeatIntervalMillis()
                  + " ms): giving it up"),
          false);
    }
  }

  private void onBatchAnswer(long sequence, BatchAnswer answer) {
    PendingBatch batch;
    String problem = null;
    lock.lock();
    try {
      if (state == State.CLOSED) {
        return;
      }
      batch = inFlight.peekFirst();
      if (batch == null || batch.sequence != sequence) {
        problem =
            "the server answered batch "
                + sequence
                + (batch == null
                    ? " with no batch in flight"
                    : ", the oldest unanswered batch is " + batch.sequence);
      } else {
        inFlight.removeFirst();
        completing++;
        if (answer instanceof BatchAnswer.Accepted) {
          batchesAccepted++;
        } else {
          batchesRejected++;
        }
      }
    } finally {
      lock.unlock();
    }
    if (problem != null) {
      protocolError(problem);
      return;
    }
    try {
      logIfRejected(answer);
      batch.future.complete(answer);
    } finally {
      // Room is given back only now: a sender or close() that wakes sees the answer delivered.
      lock.lock();
      try {
        completing--;
        inFlightBytes -= batch.bytes;
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  private void logIfRejected(BatchAnswer answer) {
    if (answer instanceof BatchAnswer.Rejected r) {
      log.warn(
          "{}: batch {} rejected at line {}, column {} after {} commands (last taken {}): {}",
          describe(),
          r.sequence(),
          r.line(),
          r.column(),
          r.commandsTaken(),
          r.lastTakenOqid().map(Oqid::toString).orElse("none"),
          r.message());
    }
  }

  private void onTruncation(Frame.Truncation t) {
    CompletableFuture<Optional<Oqid>> answer;
    lock.lock();
    try {
      if (state == State.CLOSED) {
        return;
      }
      answer = truncationRequests.remove(t.requestId());
    } finally {
      lock.unlock();
    }
    if (answer == null) {
      protocolError("the server answered truncation request " + t.requestId() + ", never asked");
    } else {
      answer.complete(t.truncationPoint());
    }
  }

  private interface ScramStep {
    void run() throws ScramLogin.Failure;
  }

  /** A step of the version 4 login; a failure ends the client before any Welcome is taken. */
  private void onScram(ScramStep step) {
    if (state() != State.CONNECTING) {
      protocolError("the server sent a SCRAM frame after the Welcome");
      return;
    }
    try {
      step.run();
    } catch (ScramLogin.Failure e) {
      fail(
          new LtlConnectionClosedException(
              describe() + ": login as " + hello.user() + " failed: " + e.getMessage(), e),
          false);
    }
  }

  /** Reads the server's frames; runs on the client's I/O thread. */
  private final class Handler extends SimpleChannelInboundHandler<Frame> {
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      if (scram.isPresent()) {
        LtlCommand.Connect withoutPassword = hello.withoutPassword();
        log.debug("{}: connected, sending Hello {} and SCRAM", describe(), withoutPassword);
        ctx.write(Frame.Hello.of(withoutPassword)).addListener(writeListener);
        ctx.writeAndFlush(scram.get().clientFirst()).addListener(writeListener);
      } else {
        log.debug("{}: connected, sending Hello {}", describe(), hello);
        ctx.writeAndFlush(Frame.Hello.of(hello)).addListener(writeListener);
      }
      ctx.fireChannelActive();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Frame frame) {
      if (frame instanceof Frame.BatchAccepted a) {
        onBatchAnswer(a.sequence(), new BatchAnswer.Accepted(a.sequence(), a.commandsTaken()));
      } else if (frame instanceof Frame.BatchRejected r) {
        onBatchAnswer(
            r.sequence(),
            new BatchAnswer.Rejected(
                r.sequence(),
                r.commandsTaken(),
                r.line(),
                r.column(),
                r.lastTakenOqid(),
                r.message()));
      } else if (frame instanceof Frame.Truncation t) {
        onTruncation(t);
      } else if (frame instanceof Frame.Welcome w) {
        onWelcome(w);
      } else if (frame instanceof Frame.Error e) {
        fail(new LtlRejectedException(e.code(), e.message()), false);
      } else if (scram.isPresent() && frame instanceof Frame.ScramServerFirst f) {
        onScram(() -> ctx.writeAndFlush(scram.get().clientFinal(f)).addListener(writeListener));
      } else if (scram.isPresent() && frame instanceof Frame.ScramServerFinal f) {
        onScram(() -> scram.get().serverFinal(f));
      } else if (frame instanceof Frame.ScramServerFirst
          || frame instanceof Frame.ScramServerFinal) {
        protocolError(
            "the server sent a "
                + FrameCodec.typeName(frame.type())
                + " frame to an agent that logs in with the password in its Hello (below version "
                + WireProtocol.SCRAM_VERSION
                + ")");
      } else if (frame instanceof Frame.Heartbeat) {
        Frame.Welcome w = welcome();
        if (w == null || w.liveness().isEmpty()) {
          protocolError("the server sent a Heartbeat in a session without heartbeats");
        }
      } else {
        protocolError(
            "the server sent a "
                + FrameCodec.typeName(frame.type())
                + " frame, which only an agent sends");
      }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
      if (event instanceof IdleStateEvent e) {
        onIdle(e);
      } else {
        ctx.fireUserEventTriggered(event);
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      boolean handshake = state() == State.CONNECTING;
      int unanswered = stats().inFlightBatches();
      fail(
          new LtlConnectionClosedException(
              describe()
                  + ": the server closed the connection"
                  + (handshake
                      ? " during the handshake"
                      : unanswered > 0 ? " with " + unanswered + " batches unanswered" : "")),
          false);
      ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      Optional<SSLException> tls = tlsFailure(cause);
      if (tls.isPresent()) {
        fail(tlsFailed(tls.get(), cause), false);
        return;
      }
      String what =
          cause instanceof WireProtocolException
              ? "protocol error: "
              : cause instanceof IOException ? "connection lost: " : "unexpected failure: ";
      fail(
          new LtlConnectionClosedException(describe() + ": " + what + cause.getMessage(), cause),
          false);
    }
  }

  /** The TLS failure behind {@code cause}, if it is one (a handshake refused by either side). */
  private static Optional<SSLException> tlsFailure(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof SSLException e) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }
}
