package io.openrs.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import java.util.concurrent.atomic.LongAdder;

/**
 * Bytes of an LTL link counted at two places of the pipeline, each way: on the wire (what TCP
 * carries, after compression and inside TLS) and as frames (what {@link FrameCodec} writes and
 * reads). {@code frameBytes / wireBytes} is the compression ratio; without compression they are
 * equal. Updated on the channel's I/O thread, read from any thread.
 *
 * <p>{@link #install} puts two counting handlers in a channel's pipeline: {@link #WIRE_NAME} at its
 * head (after TLS, added later in front of it) and {@link #FRAME_NAME} before the frame codec; the
 * compression handlers go between them ({@link LinkCompression}). {@link #countInto} moves a
 * channel's counting to another {@code LinkBytes} (the server starts counting a socket on its own
 * and moves it to its origin's counters once the agent is admitted).
 */
public final class LinkBytes {
  /** Name of the handler that counts bytes on the wire. */
  public static final String WIRE_NAME = "openrs-wire-bytes";

  /** Name of the handler that counts bytes of frames. */
  public static final String FRAME_NAME = "openrs-wire-frame-bytes";

  private final LongAdder wireBytesReceived = new LongAdder();
  private final LongAdder frameBytesReceived = new LongAdder();
  private final LongAdder wireBytesSent = new LongAdder();
  private final LongAdder frameBytesSent = new LongAdder();

  /** Bytes received on the wire (compressed when the link is). */
  public long wireBytesReceived() {
    return wireBytesReceived.sum();
  }

  /** Bytes of frames received (after decompression). */
  public long frameBytesReceived() {
    return frameBytesReceived.sum();
  }

  /** Bytes sent on the wire (compressed when the link is). */
  public long wireBytesSent() {
    return wireBytesSent.sum();
  }

  /** Bytes of frames sent (before compression). */
  public long frameBytesSent() {
    return frameBytesSent.sum();
  }

  /**
   * Adds the two counting handlers to {@code pipeline}, whose frame codec ({@link
   * FrameCodec#install}) is in place: one first, one right before the codec.
   */
  public static void install(ChannelPipeline pipeline, LinkBytes into) {
    pipeline.addFirst(WIRE_NAME, new Counter(into, true));
    pipeline.addBefore(FrameCodec.DECODER_NAME, FRAME_NAME, new Counter(into, false));
  }

  /**
   * From now on the counters of {@code pipeline} count into {@code into}, which also gets what was
   * counted so far. Call it on the channel's I/O thread.
   */
  public static void countInto(ChannelPipeline pipeline, LinkBytes into) {
    for (String name : new String[] {WIRE_NAME, FRAME_NAME}) {
      ChannelHandler h = pipeline.get(name);
      if (h instanceof Counter c) {
        c.moveTo(into);
      }
    }
  }

  /** Counts the bytes passing one place of the pipeline. Owned by the channel's I/O thread. */
  private static final class Counter extends ChannelDuplexHandler {
    private final boolean wire;
    private LinkBytes into;

    Counter(LinkBytes into, boolean wire) {
      this.into = into;
      this.wire = wire;
    }

    void moveTo(LinkBytes next) {
      if (next == into) {
        return;
      }
      (wire ? next.wireBytesReceived : next.frameBytesReceived).add(received().sumThenReset());
      (wire ? next.wireBytesSent : next.frameBytesSent).add(sent().sumThenReset());
      into = next;
    }

    private LongAdder received() {
      return wire ? into.wireBytesReceived : into.frameBytesReceived;
    }

    private LongAdder sent() {
      return wire ? into.wireBytesSent : into.frameBytesSent;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      received().add(size(msg));
      ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      sent().add(size(msg));
      ctx.write(msg, promise);
    }

    private static long size(Object msg) {
      if (msg instanceof ByteBuf b) {
        return b.readableBytes();
      }
      if (msg instanceof ByteBufHolder h) {
        return h.content().readableBytes();
      }
      return 0;
    }
  }
}
