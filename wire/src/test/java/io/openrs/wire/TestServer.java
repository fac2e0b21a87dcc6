package io.openrs.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A scriptable LTL server for client tests: real TCP on 127.0.0.1, an ephemeral port, {@link
 * FrameCodec} in the pipeline. It answers a Hello with what {@code onHello} returns (nothing when
 * null; an Error is followed by a close) and queues every frame it receives; the test answers the
 * rest itself through {@link #send}.
 */
final class TestServer implements AutoCloseable {
  static final Frame.Welcome WELCOME =
      new Frame.Welcome(1, Optional.of(Samples.OQID), Samples.utf8("{\"lsn\":\"0/16B3A40\"}"));

  private final NioEventLoopGroup group = new NioEventLoopGroup(1);
  private final Channel server;
  private final BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
  private final BlockingQueue<Channel> connections = new LinkedBlockingQueue<>();
  private volatile Channel connection;
  private final java.io.ByteArrayOutputStream bytesReceived = new java.io.ByteArrayOutputStream();

  TestServer() throws InterruptedException {
    this(hello -> WELCOME);
  }

  TestServer(Function<Frame.Hello, Frame> onHello) throws InterruptedException {
    server =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(
                            new io.netty.channel.ChannelInboundHandlerAdapter() {
                              @Override
                              public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                io.netty.buffer.ByteBuf b = (io.netty.buffer.ByteBuf) msg;
                                synchronized (bytesReceived) {
                                  bytesReceived.writeBytes(io.netty.buffer.ByteBufUtil.getBytes(b));
                                }
                                ctx.fireChannelRead(msg);
                              }
                            });
                    FrameCodec.install(ch.pipeline(), 64 * 1024);
                    ch.pipeline()
                        .addLast(
                            new SimpleChannelInboundHandler<Frame>() {
                              @Override
                              public void channelActive(ChannelHandlerContext ctx) {
                                connection = ctx.channel();
                                connections.add(ctx.channel());
                              }

                              @Override
                              protected void channelRead0(ChannelHandlerContext ctx, Frame f) {
                                received.add(f);
                                if (f instanceof Frame.Hello h) {
                                  Frame answer = onHello.apply(h);
                                  if (answer instanceof Frame.Error e) {
                                    FrameCodec.closeWithError(ctx.channel(), e.code(), e.message());
                                  } else if (answer != null) {
                                    ctx.writeAndFlush(answer);
                                  }
                                }
                              }
                            });
                  }
                })
            .bind("127.0.0.1", 0)
            .sync()
            .channel();
  }

  int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** The next frame the server received (waits up to 10 s). */
  Frame take() throws InterruptedException {
    Frame f = received.poll(10, TimeUnit.SECONDS);
    assertThat(f).as("a frame within 10 s").isNotNull();
    return f;
  }

  /** The next frame, which must be of {@code type}. */
  <T extends Frame> T take(Class<T> type) throws InterruptedException {
    Frame f = take();
    assertThat(f).isInstanceOf(type);
    return type.cast(f);
  }

  /** Every byte the server has read from its connections so far, as it came off the socket. */
  byte[] bytesReceived() {
    synchronized (bytesReceived) {
      return bytesReceived.toByteArray();
    }
  }

  /** The accepted connection (waits up to 10 s for it). */
  Channel connection() throws InterruptedException {
    Channel c = connection;
    if (c == null) {
      c = connections.poll(10, TimeUnit.SECONDS);
      assertThat(c).as("a connection within 10 s").isNotNull();
    }
    return c;
  }

  void send(Frame... frames) throws InterruptedException {
    Channel c = connection();
    for (Frame f : frames) {
      c.write(f);
    }
    c.flush();
  }

  @Override
  public void close() {
    server.close().syncUninterruptibly();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
