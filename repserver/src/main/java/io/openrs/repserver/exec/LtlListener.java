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
import io.netty.util.concurrent.GlobalEventExecutor;
import io.openrs.wire.ErrorCode;
import io.openrs.wire.FrameCodec;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's LTL listener: a Netty TCP server for agents. Each connection gets its own {@link
 * AgentSession}. Above {@code exec_max_connections} concurrent agents a new connection is refused
 * with {@code TOO_MANY_CONNECTIONS}, which tells the agent to retry.
 */
public final class LtlListener implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LtlListener.class);

  /** Where and how the listener listens. */
  public record Settings(String host, int port, int maxConnections, int maxFrameBytes) {}

  private final EventLoopGroup boss = new NioEventLoopGroup(1);
  private final EventLoopGroup workers = new NioEventLoopGroup(0);
  private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
  private final AtomicInteger connected = new AtomicInteger();
  private final Channel server;

  private LtlListener(Settings settings, AgentGate gate, Executor rssdWriter) throws IOException {
    ChannelHandler limiter = new ConnectionLimit(settings.maxConnections());
    ServerBootstrap b =
        new ServerBootstrap()
            .group(boss, workers)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    FrameCodec.install(ch.pipeline(), settings.maxFrameBytes());
                    ch.pipeline().addLast(limiter);
                    ch.pipeline().addLast(new AgentSession(gate, rssdWriter));
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
    LOG.info("listening for agents on {}", server.localAddress());
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

  /** Agents connected now. */
  public int connections() {
    return connected.get();
  }

  @ChannelHandler.Sharable
  private final class ConnectionLimit extends ChannelInboundHandlerAdapter {
    private final int max;

    ConnectionLimit(int max) {
      this.max = max;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      channels.add(ctx.channel());
      int n = connected.incrementAndGet();
      ctx.channel().closeFuture().addListener(f -> connected.decrementAndGet());
      if (n > max) {
        LOG.warn(
            "refused agent connection from {}: {} agents connected, exec_max_connections is {}",
            ctx.channel().remoteAddress(),
            n - 1,
            max);
        ctx.pipeline().remove(AgentSession.class);
        FrameCodec.closeWithError(
            ctx.channel(),
            ErrorCode.TOO_MANY_CONNECTIONS,
            "the server already has "
                + (n - 1)
                + " agent connections (exec_max_connections "
                + max
                + "); retry later");
        return;
      }
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
