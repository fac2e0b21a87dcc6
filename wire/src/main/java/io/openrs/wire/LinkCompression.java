package io.openrs.wire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Switches an LTL link to the compression its {@link Frame.Welcome} named (protocol version 4 on).
 * Every byte after the Welcome, both ways, is compressed; the Welcome and everything before it are
 * not. The compressing and decompressing handlers sit between the two {@link LinkBytes} counters,
 * so one counts bytes on the wire and the other bytes of frames.
 *
 * <ul>
 *   <li>Server: it writes the Welcome and, in the same I/O-thread task, calls {@link #start}; the
 *       agent sends nothing between its Hello and the Welcome, so nothing compressed can have
 *       arrived before.
 *   <li>Agent: the Welcome and the first compressed bytes may arrive in one read. {@link
 *       #installAgentSide} puts a {@link WelcomeBoundary} before the frame decoder: it hands on
 *       whole frames uncompressed up to and including the Welcome, then starts compression and
 *       hands every byte after the Welcome, those of the same read included, to the decompressor.
 * </ul>
 */
public final class LinkCompression {
  private LinkCompression() {}

  /** Name of the compressing handler. */
  public static final String COMPRESSOR_NAME = "openrs-wire-compressor";

  /** Name of the decompressing handler. */
  public static final String DECOMPRESSOR_NAME = "openrs-wire-decompressor";

  /** Name of the agent side's {@link WelcomeBoundary}. */
  public static final String BOUNDARY_NAME = "openrs-wire-welcome-boundary";

  /**
   * Compresses what is written from now on and decompresses what is read from now on ({@link
   * LtlCompression#NONE}: nothing changes). Call it on the channel's I/O thread; the pipeline holds
   * the {@link LinkBytes} counters.
   */
  public static void start(ChannelPipeline pipeline, LtlCompression method) {
    if (method == LtlCompression.NONE) {
      return;
    }
    pipeline.addBefore(LinkBytes.FRAME_NAME, DECOMPRESSOR_NAME, method.newDecoder());
    pipeline.addBefore(LinkBytes.FRAME_NAME, COMPRESSOR_NAME, method.newEncoder());
  }

  /** Agent side: adds the {@link WelcomeBoundary} before the frame codec. */
  public static void installAgentSide(ChannelPipeline pipeline, int maxFrameLength) {
    pipeline.addBefore(LinkBytes.FRAME_NAME, BOUNDARY_NAME, new WelcomeBoundary(maxFrameLength));
  }

  /**
   * Agent side, inbound, until the Welcome: cuts whole frames (length field plus that many bytes)
   * and hands each on as it is; the Welcome it also reads for its compression, starts it ({@link
   * #start}) once the Welcome has been handed on, and removes itself, handing what it holds after
   * the Welcome to the decompressor. Anything it cannot cut (a length out of bounds, a malformed
   * Welcome) it hands on untouched and steps aside, for the frame decoder to report.
   */
  static final class WelcomeBoundary extends ByteToMessageDecoder {
    private final int maxFrameLength;

    WelcomeBoundary(int maxFrameLength) {
      this.maxFrameLength = maxFrameLength;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
      // One frame per call: frames handed on earlier are delivered before a Welcome is acted on.
      if (in.readableBytes() < FrameCodec.HEADER_SIZE) {
        return;
      }
      long length = in.getUnsignedInt(in.readerIndex() + FrameCodec.LENGTH_OFFSET);
      if (length < FrameCodec.TYPE_SIZE || length > maxFrameLength) {
        ctx.pipeline().remove(this); // the frame decoder refuses it with the numbers
        return;
      }
      if (in.readableBytes() < FrameCodec.LENGTH_SIZE + length) {
        return;
      }
      int type = in.getUnsignedByte(in.readerIndex() + FrameCodec.TYPE_OFFSET);
      ByteBuf frame = in.readRetainedSlice((int) (FrameCodec.LENGTH_SIZE + length));
      if (type != FrameCodec.TYPE_WELCOME) {
        out.add(frame);
        return;
      }
      LtlCompression method = LtlCompression.NONE;
      try {
        if (FrameCodec.decode(frame.duplicate(), maxFrameLength) instanceof Frame.Welcome w) {
          method = w.compression();
        }
      } catch (RuntimeException e) {
        // handed on as it is: the frame decoder reports it
      }
      ctx.fireChannelRead(frame);
      if (ctx.isRemoved() || !ctx.channel().isOpen()) {
        return;
      }
      start(ctx.pipeline(), method);
      ctx.pipeline().remove(this); // hands what it holds after the Welcome to the decompressor
    }
  }
}
