package io.openrs.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Prints the frames of one direction of a captured LTL connection (the raw TCP payload, as saved by
 * e.g. {@code tshark -q -z follow,tcp,raw,0} or Wireshark's "Follow TCP stream, save as raw"): per
 * frame its offset, length, type and content (sizes for payloads, never a password), then where the
 * stream stops being readable and why.
 *
 * <pre>
 * java -cp ... io.openrs.wire.FrameDump agent-to-server.bin [maxFrameLength]
 * </pre>
 */
public final class FrameDump {
  private FrameDump() {}

  /** {@code FrameDump <raw stream file> [maxFrameLength]}: prints {@link #dump} of the file. */
  public static void main(String[] args) throws IOException {
    if (args.length < 1 || args.length > 2) {
      System.err.println("usage: FrameDump <raw stream file> [maxFrameLength]");
      System.exit(2);
    }
    int max = args.length == 2 ? Integer.parseInt(args[1]) : WireProtocol.DEFAULT_MAX_FRAME_LENGTH;
    System.out.print(dump(Files.readAllBytes(Path.of(args[0])), max));
  }

  /** One line per frame, then a summary line. */
  public static String dump(byte[] stream, int maxFrameLength) {
    WireProtocol.checkMaxFrameLength(maxFrameLength);
    StringBuilder out = new StringBuilder();
    ByteBuf in = Unpooled.wrappedBuffer(stream);
    int frames = 0;
    String end = "end of stream";
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
    }
    out.append(frames)
        .append(" frames in ")
        .append(in.readerIndex())
        .append(" of ")
        .append(stream.length)
        .append(" bytes; ")
        .append(end)
        .append('\n');
    return out.toString();
  }
}
