package io.openrs.repserver.exec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.openrs.wire.ErrorCode;
import io.openrs.wire.Frame;
import java.util.List;
import javax.net.ssl.SSLException;

/**
 * First handler of an LTL socket when {@code ltl_tls} is on or required: tells a TLS agent from a
 * plaintext one by the first bytes it sends. A TLS record starts with content type 22 (0x16,
 * handshake); a frame starts with its length's high byte, 0x00 for any Hello (at most 64 KiB). TLS:
 * it replaces itself with the TLS handler (and a {@link HandshakeWatch} behind it), handing it the
 * bytes read so far. Plaintext: with {@code ltl_tls = on} it steps aside; with {@code required} it
 * answers with an Error frame the agent can read, naming the parameter, and closes.
 *
 * <p>One per channel, on its I/O thread.
 */
final class TlsSniffer extends ByteToMessageDecoder {

  /** Name of the TLS handler it puts in its place. */
  static final String TLS_NAME = "openrs-ltl-tls";

  /** Bytes SslHandler needs to recognize a TLS record header. */
  private static final int SNIFF_BYTES = 5;

  private final SslContext context;
  private final boolean required;
  private final Admission admission;

  TlsSniffer(SslContext context, boolean required, Admission admission) {
    this.context = context;
    this.required = required;
    this.admission = admission;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (in.readableBytes() < SNIFF_BYTES) {
      return;
    }
    if (SslHandler.isEncrypted(in)) {
      ctx.pipeline().addAfter(ctx.name(), "openrs-ltl-tls-watch", new HandshakeWatch(admission));
      ctx.pipeline().replace(this, TLS_NAME, context.newHandler(ctx.alloc()));
    } else if (!required) {
      ctx.pipeline().remove(this);
    } else {
      in.skipBytes(in.readableBytes());
      admission.tlsRefused(
          ctx.channel(),
          Admission.Cause.PLAINTEXT_REFUSED,
          "refused a plaintext agent from "
              + ctx.channel().remoteAddress()
              + " (ltl_tls = required)");
      ctx.channel()
          .writeAndFlush(
              new Frame.Error(
                  ErrorCode.PROTOCOL_ERROR,
                  "this server accepts agents only over TLS (ltl_tls = required): set rs_tls in"
                      + " the agent's configuration (require, verify-ca or verify-full)"))
          .addListener(ChannelFutureListener.CLOSE);
      ctx.pipeline().remove(this);
      ctx.channel().config().setAutoRead(false);
    }
  }

  /**
   * Behind the TLS handler: a failed handshake (no common protocol, an untrusted or missing client
   * certificate, an agent that does not trust the server's) is one summary log line per interval
   * naming the cause, and the socket is closed; it never reaches the session as an internal error.
   */
  static final class HandshakeWatch extends ChannelInboundHandlerAdapter {
    private final Admission admission;
    private boolean reported;

    HandshakeWatch(Admission admission) {
      this.admission = admission;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
      if (event instanceof SslHandshakeCompletionEvent e) {
        if (e.isSuccess()) {
          ctx.pipeline().remove(this);
        } else {
          report(ctx, e.cause());
        }
      }
      ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      for (Throwable t = cause; t != null; t = t.getCause()) {
        if (t instanceof SSLException) {
          report(ctx, t);
          return;
        }
      }
      ctx.fireExceptionCaught(cause);
    }

    private void report(ChannelHandlerContext ctx, Throwable cause) {
      if (!reported) {
        reported = true;
        admission.tlsRefused(
            ctx.channel(),
            Admission.Cause.TLS_HANDSHAKE_FAILED,
            "TLS handshake with an agent from "
                + ctx.channel().remoteAddress()
                + " failed: "
                + cause.getMessage());
      }
      ctx.close();
    }
  }
}
