package io.openrs.pgwire;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bridge between a channel's event loop and its {@link PgConnection}: hands each decoded
 * message to the connection's {@link SerialExecutor}, stops reading while more than {@link
 * #PAUSE_READ_BYTES} of messages wait for the worker (and resumes below {@link
 * #RESUME_READ_BYTES}), counts the connection as unauthenticated until it logs in (closing the
 * oldest such connection when there are too many), closes connections that do not log in within the
 * authentication timeout, and tells the connection when the channel becomes writable or goes away.
 * One per channel; runs on its event loop.
 */
final class PgChannelHandler extends ChannelInboundHandlerAdapter {
  private static final Logger log = LoggerFactory.getLogger(PgChannelHandler.class);

  /** Waiting message bytes that stop reading from the socket. */
  static final long PAUSE_READ_BYTES = 1024 * 1024;

  /** Waiting message bytes below which reading resumes. */
  static final long RESUME_READ_BYTES = 256 * 1024;

  private final PgServerContext server;
  private final AtomicLong waitingBytes = new AtomicLong();
  private PgConnection connection;
  private SerialExecutor executor;
  private ScheduledFuture<?> authenticationTimeout;

  PgChannelHandler(PgServerContext server) {
    this.server = server;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    Channel channel = ctx.channel();
    connection = new PgConnection(server, channel);
    executor = new SerialExecutor(server.workers);
    Channel evicted = server.admitUnauthenticated(channel);
    if (evicted != null) {
      server.limitedLog.info(
          "unauthenticated-limit",
          "more than {} connections not logged in yet: closing the oldest, from {}",
          server.settings.maxUnauthenticated(),
          evicted.remoteAddress());
      PgChannelHandler other = evicted.pipeline().get(PgChannelHandler.class);
      if (other != null) {
        other.evict();
      } else {
        evicted.close();
      }
    }
    long timeoutMillis = server.settings.authenticationTimeout().toMillis();
    authenticationTimeout =
        ctx.executor()
            .schedule(
                () -> {
                  if (!connection.authenticated()) {
                    server.limitedLog.info(
                        "authentication-timeout",
                        "closing connection from {}: no login within {} ms",
                        channel.remoteAddress(),
                        timeoutMillis);
                    channel.close();
                  }
                },
                timeoutMillis,
                TimeUnit.MILLISECONDS);
    super.channelActive(ctx);
  }

  /** Another connection needs this one's unauthenticated place: refuse and close (any thread). */
  void evict() {
    executor.execute(connection::evicted);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    FrontendMessage.Inbound inbound = (FrontendMessage.Inbound) msg;
    int size = inbound.wireBytes();
    waitingBytes.addAndGet(size);
    updateAutoRead(ctx.channel());
    executor.execute(
        () -> {
          try {
            connection.handle(inbound.message());
          } finally {
            long left = waitingBytes.addAndGet(-size);
            if (left <= RESUME_READ_BYTES && left + size > RESUME_READ_BYTES) {
              Channel channel = ctx.channel();
              channel.eventLoop().execute(() -> updateAutoRead(channel));
            }
          }
        });
  }

  /** On the event loop only: reading follows the waiting bytes, with hysteresis. */
  private void updateAutoRead(Channel channel) {
    long waiting = waitingBytes.get();
    boolean reading = channel.config().isAutoRead();
    if (reading && waiting > PAUSE_READ_BYTES) {
      channel.config().setAutoRead(false);
    } else if (!reading && waiting <= RESUME_READ_BYTES) {
      channel.config().setAutoRead(true);
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
    connection.output().writabilityChanged();
    super.channelWritabilityChanged(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (authenticationTimeout != null) {
      authenticationTimeout.cancel(false);
    }
    server.leaveUnauthenticated(ctx.channel());
    connection.output().writabilityChanged();
    executor.execute(connection::closed);
    super.channelInactive(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Throwable root =
        cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
    if (root instanceof SSLException) {
      log.info(
          "TLS failed on connection from {}: {}", ctx.channel().remoteAddress(), root.toString());
    } else if (root instanceof IOException) {
      log.debug("connection from {} failed: {}", ctx.channel().remoteAddress(), root.toString());
    } else {
      log.warn("connection from {} failed", ctx.channel().remoteAddress(), cause);
    }
    ctx.close();
  }
}
