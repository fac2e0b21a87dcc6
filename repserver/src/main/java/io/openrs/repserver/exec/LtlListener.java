package io.openrs.repserver.exec;

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
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.openrs.runtime.ThreadNames;
import io.openrs.wire.ErrorCode;
import io.openrs.wire.Frame;
import io.openrs.wire.FrameCodec;
import io.openrs.wire.LinkBytes;
import io.openrs.wire.LtlCompression;
import io.openrs.wire.WireProtocol;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's LTL listener: a Netty TCP server for agents. Each connection gets its own {@link
 * AgentSession}. {@link Admission} keeps the two limits apart: at most {@code exec_max_handshakes}
 * sockets without a Hello (the oldest makes way for a newer one, and each is closed after {@code
 * exec_handshake_timeout}), and at most {@code exec_max_connections} admitted agents (a further one
 * is refused with {@code TOO_MANY_CONNECTIONS}, which tells the agent to retry). Agents log in as
 * {@link AgentLogin} says (SCRAM from protocol version 4 on, failed logins backed off per address)
 * and connect only origins their user may ({@link AgentGate}). Accepted sockets have TCP keepalive
 * on; an admitted agent that sends nothing for its idle timeout is closed by its session
 * (docs/formats/ltl-wire.md, "Liveness").
 */
public final class LtlListener implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LtlListener.class);

  /**
   * Where and how the listener listens.
   *
   * @param maxConnections agent sessions at once ({@code exec_max_connections})
   * @param maxHandshakes sockets that have not sent their Hello, at once ({@code
   *     exec_max_handshakes})
   * @param handshakeTimeout from accept to the Hello ({@code exec_handshake_timeout})
   * @param heartbeatInterval sent to version 3 agents in the Welcome ({@code
   *     agent_heartbeat_interval})
   * @param idleHeartbeats heartbeat intervals of silence after which a session is closed ({@code
   *     agent_idle_heartbeats})
   * @param logins {@code exec_max_login_failures} and {@code exec_hello_password}
   * @param clock for the summary log lines and the login backoff
   * @param tls TLS of the port ({@code ltl_tls} and its files)
   * @param compression methods the server agrees to ({@code ltl_compression}); empty: none
   */
  public record Settings(
      String host,
      int port,
      int maxConnections,
      int maxFrameBytes,
      int maxHandshakes,
      Duration handshakeTimeout,
      Duration heartbeatInterval,
      int idleHeartbeats,
      AgentLogin.Settings logins,
      Clock clock,
      LtlTls tls,
      Set<LtlCompression> compression) {

    public Settings {
      Objects.requireNonNull(tls, "tls");
      compression = Set.copyOf(compression);
    }

    /** The liveness every version 3 session is welcomed with. */
    Frame.Liveness liveness() {
      int heartbeat = Math.toIntExact(heartbeatInterval.toMillis());
      return new Frame.Liveness(heartbeat, Math.multiplyExact(heartbeat, idleHeartbeats));
    }
  }

  // Netty's factory (FastThreadLocalThreads, not daemons, as NioEventLoopGroup's own default):
  // rs-repserver-ltlaccept-<pool>-<n> and rs-repserver-ltlio-<pool>-<n>.
  private final EventLoopGroup boss =
      new NioEventLoopGroup(
          1, new DefaultThreadFactory(ThreadNames.of("repserver", "ltlaccept"), false));
  private final EventLoopGroup workers =
      new NioEventLoopGroup(
          0, new DefaultThreadFactory(ThreadNames.of("repserver", "ltlio"), false));
  private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
  private final Admission admission;
  private final Channel server;

  private LtlListener(Settings settings, AgentGate gate, Executor rssdWriter) throws IOException {
    admission =
        new Admission(
            new Admission.Limits(
                settings.maxConnections(), settings.maxHandshakes(), settings.handshakeTimeout()),
            settings.clock());
    Frame.Liveness liveness = settings.liveness();
    SslContext sslContext = settings.tls().enabled() ? settings.tls().newContext() : null;
    AgentLogin.Shared logins = new AgentLogin.Shared(gate, settings.logins(), settings.clock());
    ChannelHandler accept = new Accept();
    ServerBootstrap b =
        new ServerBootstrap()
            .group(boss, workers)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.SO_KEEPALIVE, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    FrameCodec.install(ch.pipeline(), settings.maxFrameBytes());
                    // Until the agent is admitted, a frame is at most a Hello's bound.
                    ch.pipeline()
                        .get(FrameCodec.Decoder.class)
                        .maxFrameLength(
                            Math.min(
                                settings.maxFrameBytes(), WireProtocol.MAX_HELLO_FRAME_LENGTH));
                    LinkBytes.install(ch.pipeline(), new LinkBytes());
                    if (sslContext != null) {
                      ch.pipeline()
                          .addFirst(
                              new TlsSniffer(
                                  sslContext,
                                  settings.tls().mode() == LtlTls.Mode.REQUIRED,
                                  admission));
                    }
                    ch.pipeline().addLast(accept);
                    ch.pipeline()
                        .addLast(
                            new AgentSession(
                                gate,
                                logins,
                                rssdWriter,
                                admission,
                                liveness,
                                settings.maxFrameBytes(),
                                settings.compression()));
                  }
                });
    try {
      server = b.bind(new InetSocketAddress(settings.host(), settings.port())).sync().channel();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new IOException("interrupted while binding the LTL listener", e);
    } catch (Exception e) {
      close();
      if (e instanceof BindException) {
        throw new IOException(
            "cannot listen for agents on "
                + settings.host()
                + ":"
                + settings.port()
                + ": "
                + e.getMessage()
                + " (is the port in use? set exec_listener_port)",
            e);
      }
      throw new IOException("cannot start the LTL listener: " + e, e);
    }
    boss.scheduleAtFixedRate(admission::flushLog, 10, 10, TimeUnit.SECONDS);
    LOG.info(
        "listening for agents on {} (at most {} agents, {} sockets in the handshake for {} ms;"
            + " heartbeat {} ms, idle timeout {} ms; TLS {}; compression {})",
        server.localAddress(),
        settings.maxConnections(),
        settings.maxHandshakes(),
        settings.handshakeTimeout().toMillis(),
        liveness.heartbeatIntervalMillis(),
        liveness.idleTimeoutMillis(),
        settings.tls(),
        settings.compression().isEmpty() ? "off" : settings.compression());
  }

  /** Binds and starts listening. */
  public static LtlListener start(Settings settings, AgentGate gate, Executor rssdWriter)
      throws IOException {
    return new LtlListener(settings, gate, rssdWriter);
  }

  /** The port bound (useful with port 0). */
  public int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** Agents connected now (admitted sessions; sockets still in the handshake do not count). */
  public int connections() {
    return admission.sessions();
  }

  @ChannelHandler.Sharable
  private final class Accept extends ChannelInboundHandlerAdapter {
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      channels.add(ctx.channel());
      admission.accepted(ctx.channel());
      ctx.fireChannelActive();
    }
  }

  /** Tells connected agents the server is stopping, and stops listening. */
  @Override
  public void close() {
    if (server != null) {
      server.close().syncUninterruptibly();
    }
    for (Channel c : channels) {
      FrameCodec.closeWithError(c, ErrorCode.SHUTTING_DOWN, "the server is shutting down");
    }
    channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
