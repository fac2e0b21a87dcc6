package io.openrs.pgwire;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.openrs.runtime.ThreadNames;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server for PostgreSQL's frontend/backend protocol 3.0 that hands every command to a {@link
 * PgBackend}. What it implements is described in {@code docs/formats/pgwire.md}.
 *
 * <p>Threads: one acceptor ({@code rs-pgwire-accept}), a few network threads ({@code rs-pgwire-io})
 * that only frame bytes and negotiate TLS, and a pool of workers ({@code rs-pgwire-worker-<n>}, at
 * most {@code maxConnections + 4}, idle ones end after a minute) on which each connection's
 * messages are handled one at a time and in order, so backend calls may block.
 */
public final class PgServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PgServer.class);

  /** How long {@link #close()} waits for each shutdown step. */
  static final long CLOSE_STEP_MILLIS = 5_000;

  private final PgServerContext context;
  private final EventLoopGroup acceptGroup;
  private final EventLoopGroup ioGroup;
  private final Channel serverChannel;
  private final ChannelGroup channels;
  private final AtomicBoolean closed = new AtomicBoolean();

  private PgServer(
      PgServerContext context,
      EventLoopGroup acceptGroup,
      EventLoopGroup ioGroup,
      Channel serverChannel,
      ChannelGroup channels) {
    this.context = context;
    this.acceptGroup = acceptGroup;
    this.ioGroup = ioGroup;
    this.serverChannel = serverChannel;
    this.channels = channels;
  }

  /**
   * Starts listening.
   *
   * @throws IOException when the TLS files cannot be read or the address cannot be bound
   */
  public static PgServer start(PgServerSettings settings, PgBackend backend) throws IOException {
    return start(settings, backend, Clock.systemUTC());
  }

  /**
   * Starts listening, with the clock the login backoff and the rate-limited log read.
   *
   * @throws IOException when the TLS files cannot be read or the address cannot be bound
   */
  public static PgServer start(PgServerSettings settings, PgBackend backend, Clock clock)
      throws IOException {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(backend, "backend");
    Objects.requireNonNull(clock, "clock");
    SslContext sslContext = null;
    byte[] channelBinding = null;
    if (settings.tlsEnabled()) {
      Path certificate = settings.tlsCertificatePem().orElseThrow();
      Path key = settings.tlsPrivateKeyPem().orElseThrow();
      for (Path file : List.of(certificate, key)) {
        if (!Files.isReadable(file)) {
          throw new IOException("TLS file " + file + " does not exist or cannot be read");
        }
      }
      try {
        sslContext = SslContextBuilder.forServer(certificate.toFile(), key.toFile()).build();
      } catch (IOException | IllegalArgumentException e) {
        throw new IOException(
            "cannot load TLS certificate "
                + certificate
                + " and key "
                + key
                + " (PEM, key in unencrypted PKCS#8): "
                + e.getMessage(),
            e);
      }
      channelBinding = TlsServerEndPoint.of(certificate).orElse(null);
    }
    ExecutorService workers = workerPool(settings.maxConnections() + 4);
    PgServerContext context =
        new PgServerContext(settings, backend, sslContext, channelBinding, workers, clock);
    EventLoopGroup acceptGroup =
        new NioEventLoopGroup(
            1, new DefaultThreadFactory(ThreadNames.of("pgwire", "accept"), true));
    EventLoopGroup ioGroup =
        new NioEventLoopGroup(
            Math.min(4, Runtime.getRuntime().availableProcessors()),
            new DefaultThreadFactory(ThreadNames.of("pgwire", "io"), true));
    ChannelGroup channels = new DefaultChannelGroup("pgwire", GlobalEventExecutor.INSTANCE);
    SslContext tls = sslContext;
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(acceptGroup, ioGroup)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.SO_KEEPALIVE, true)
            .handler(new AcceptErrors(context))
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    channels.add(ch);
                    ch.pipeline()
                        .addLast(
                            "decoder",
                            new PgFrameDecoder(
                                tls, settings.maxMessageBytes(), settings.maxStatementBytes()))
                        .addLast("session", new PgChannelHandler(context));
                  }
                });
    Channel serverChannel;
    try {
      serverChannel =
          bootstrap.bind(settings.host(), settings.port()).syncUninterruptibly().channel();
    } catch (Exception e) {
      shutdown(acceptGroup, ioGroup, workers);
      if (e instanceof BindException) {
        BindException be =
            new BindException(
                "cannot listen on "
                    + settings.host()
                    + ":"
                    + settings.port()
                    + ": "
                    + e.getMessage());
        be.initCause(e);
        throw be;
      }
      throw new IOException(
          "cannot listen on " + settings.host() + ":" + settings.port() + ": " + e, e);
    }
    PgServer server = new PgServer(context, acceptGroup, ioGroup, serverChannel, channels);
    serverChannel
        .closeFuture()
        .addListener(
            f -> {
              if (!server.closed.get()) {
                log.error(
                    "PostgreSQL protocol server on {} stopped listening unexpectedly",
                    serverChannel.localAddress());
              }
            });
    // Netty's event loops rethrow an Error (OutOfMemoryError from a heap filled elsewhere): the
    // thread ends and its channels are served no more. Say so loudly; -XX:+ExitOnOutOfMemoryError
    // under a supervisor is the cure.
    for (EventLoopGroup group : List.of(acceptGroup, ioGroup)) {
      for (EventExecutor loop : group) {
        loop.terminationFuture()
            .addListener(
                f -> {
                  if (!server.closed.get()) {
                    log.error(
                        "PostgreSQL protocol server on {}: a network thread ended unexpectedly;"
                            + " the port may no longer accept or serve connections: restart the"
                            + " server",
                        serverChannel.localAddress());
                  }
                });
      }
    }
    log.info(
        "PostgreSQL protocol server listening on {} (TLS {}, at most {} sessions and {} connections"
            + " logging in, {} ms to log in, statements up to {} bytes)",
        serverChannel.localAddress(),
        settings.tlsEnabled() ? (settings.requireTls() ? "required" : "offered") : "off",
        settings.maxConnections(),
        settings.maxUnauthenticated(),
        settings.authenticationTimeout().toMillis(),
        settings.maxStatementBytes());
    return server;
  }

  private static ExecutorService workerPool(int threads) {
    ThreadFactory factory = ThreadNames.numberedFactory("pgwire", "worker");
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory);
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /** The port the server listens on (the bound one when settings said 0). */
  public int port() {
    return localAddress().getPort();
  }

  /** The address the server listens on. */
  public InetSocketAddress localAddress() {
    return (InetSocketAddress) serverChannel.localAddress();
  }

  /** The sessions logged in now. */
  public List<PgSession> sessions() {
    return context.sessions();
  }

  /** Connections holding a session slot now (logged in). */
  public int connectionCount() {
    return context.slotsInUse();
  }

  /** Connections accepted and not logged in yet. */
  public int unauthenticatedCount() {
    return context.unauthenticatedCount();
  }

  /**
   * On the listening channel: an accept that fails (too many open files, an error in a handler) is
   * logged, once per interval, and the channel keeps listening; Netty's acceptor pauses accepting
   * for a second after such a failure. Without this handler the failure is only logged by Netty's
   * pipeline tail, once per accept.
   */
  @ChannelHandler.Sharable
  private static final class AcceptErrors extends ChannelInboundHandlerAdapter {
    private final PgServerContext context;

    AcceptErrors(PgServerContext context) {
      this.context = context;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      context.limitedLog.info(
          "accept-failed", "accepting a connection on {} failed: {}", ctx.channel(), cause);
    }
  }

  /**
   * Stops listening, closes every connection, waits (a bounded time per step) for running backend
   * calls to return, and stops the threads. Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    log.info("PostgreSQL protocol server on {} closing", serverChannel.localAddress());
    serverChannel.close().awaitUninterruptibly(CLOSE_STEP_MILLIS);
    channels.close().awaitUninterruptibly(CLOSE_STEP_MILLIS);
    shutdown(acceptGroup, ioGroup, context.workers);
  }

  /**
   * Network threads first (their last tasks hand each closed connection's clean-up to the workers),
   * then the workers (which finish those and any running backend call).
   */
  private static void shutdown(
      EventLoopGroup acceptGroup, EventLoopGroup ioGroup, ExecutorService workers) {
    acceptGroup.shutdownGracefully(0, CLOSE_STEP_MILLIS, TimeUnit.MILLISECONDS);
    ioGroup.shutdownGracefully(0, CLOSE_STEP_MILLIS, TimeUnit.MILLISECONDS);
    acceptGroup.terminationFuture().awaitUninterruptibly(CLOSE_STEP_MILLIS);
    ioGroup.terminationFuture().awaitUninterruptibly(CLOSE_STEP_MILLIS);
    workers.shutdown();
    try {
      if (!workers.awaitTermination(CLOSE_STEP_MILLIS, TimeUnit.MILLISECONDS)) {
        log.warn("backend calls still running after {} ms; interrupting them", CLOSE_STEP_MILLIS);
        workers.shutdownNow();
      }
    } catch (InterruptedException e) {
      workers.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
