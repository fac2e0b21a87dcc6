package io.openrs.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Prints the frames of one direction of a captured LTL connection (the raw TCP payload, as saved by
 * e.g. {@code tshark -q -z follow,tcp,raw,0} or Wireshark's "Follow TCP stream, save as raw"): per
 * frame its offset, length, type and content (sizes for payloads, never a password), then where the
 * stream stops being readable and why.
 *
 * <p>A compressed session (protocol version 4 on) is followed through its decompressor: in the
 * server's direction from the Welcome that names the method; in the agent's direction, which never
 * names it, from the first frame (the Hello) on when the method is given as third argument ({@code
 * lz4} or {@code zstd}, what the other direction's Welcome says). Offsets after that point are in
 * the decompressed stream, as the dump says.
 *
 * <pre>
 * java -cp ... io.openrs.wire.FrameDump agent-to-server.bin [maxFrameLength [lz4|zstd]]
 * </pre>
 */
public final class FrameDump {
  private FrameDump() {}

  /** {@code FrameDump <raw stream file> [maxFrameLength]}: prints {@link #dump} of the file. */
  public static void main(String[] args) throws IOException {
    if (args.length < 1 || args.length > 3) {
      System.err.println("usage: FrameDump <raw stream file> [maxFrameLength [lz4|zstd]]");
      System.exit(2);
    }
    int max = args.length >= 2 ? Integer.parseInt(args[1]) : WireProtocol.DEFAULT_MAX_FRAME_LENGTH;
    LtlCompression afterHello =
        args.length == 3
            ? LtlCompression.byName(args[2])
                .orElseThrow(() -> new IllegalArgumentException("unknown method " + args[2]))
            : LtlCompression.NONE;
    System.out.print(dump(Files.readAllBytes(Path.of(args[0])), max, afterHello));
  }

  /** One line per frame, then a summary line; a Welcome's compression is followed. */
  public static String dump(byte[] stream, int maxFrameLength) {
    return dump(stream, maxFrameLength, LtlCompression.NONE);
  }

  /**
   * One line per frame, then a summary line.
   *
   * @param afterFirstFrame the compression of every byte after the first frame (the agent's
   *     direction of a compressed session: its Hello is plain); {@link LtlCompression#NONE} for the
   *     server's direction, whose Welcome names its compression
   */
  public static String dump(byte[] stream, int maxFrameLength, LtlCompression afterFirstFrame) {
    WireProtocol.checkMaxFrameLength(maxFrameLength);
    StringBuilder out = new StringBuilder();
    ByteBuf in = Unpooled.wrappedBuffer(stream);
    int frames = 0;
    int total = stream.length;
    String end = "end of stream";
    LtlCompression pending = afterFirstFrame;
    while (in.isReadable()) {
      int offset = in.readerIndex();
      Frame frame;
      try {
        frame = FrameCodec.decode(in, maxFrameLength);
      } catch (WireProtocolException e) {
        end = "unreadable at offset " + offset + ": " + e.getMessage();
        break;
      }
      if (frame == null) {
        end =
            "incomplete frame at offset "
                + offset
                + ": "
                + in.readableBytes()
                + " bytes"
                + (in.readableBytes() >= FrameCodec.LENGTH_SIZE
                    ? " of " + (FrameCodec.LENGTH_SIZE + in.getUnsignedInt(offset)) + " announced"
                    : "");
        break;
      }
      frames++;
      out.append("offset ")
          .append(offset)
          .append(" length ")
          .append(in.readerIndex() - offset - FrameCodec.LENGTH_SIZE)
          .append(String.format(" type 0x%02x ", frame.type()))
          .append(frame)
          .append('\n');
      if (frame instanceof Frame.Welcome w && w.compression() != LtlCompression.NONE) {
        pending = w.compression();
      }
      if (pending != LtlCompression.NONE && in.isReadable()) {
        int at = in.readerIndex();
        try {
          in = decompress(in, pending);
        } catch (RuntimeException e) {
          end = "not " + pending.configName() + "-compressed at offset " + at + ": " + e;
          break;
        }
        total = in.readableBytes();
        out.append("from offset ")
            .append(at)
            .append(": ")
            .append(at == 0 ? "" : stream.length - at + " bytes of ")
            .append(pending.configName())
            .append(", ")
            .append(total)
            .append(" bytes decompressed; offsets below are in them\n");
        pending = LtlCompression.NONE;
      }
    }
    out.append(frames)
        .append(" frames in ")
        .append(in.readerIndex())
        .append(" of ")
        .append(total)
        .append(" bytes; ")
        .append(end)
        .append('\n');
    return out.toString();
  }

  /** The rest of {@code in} through {@code method}'s decompressor. */
  private static ByteBuf decompress(ByteBuf in, LtlCompression method) {
    EmbeddedChannel channel = new EmbeddedChannel(method.newDecoder());
    try {
      channel.writeInbound(in.retainedSlice());
      ByteBuf out = Unpooled.buffer();
      for (ByteBuf b; (b = channel.readInbound()) != null; ) {
        out.writeBytes(b);
        b.release();
      }
      return out;
    } finally {
      channel.finishAndReleaseAll();
    }
  }
}
