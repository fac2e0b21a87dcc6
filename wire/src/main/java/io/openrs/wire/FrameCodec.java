package io.openrs.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.MessageToMessageEncoder;
import io.openrs.ltl.Oqid;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Writes and reads the frames of the LTL wire protocol. The format:
 *
 * <pre>
 * Frame (every integer big-endian and unsigned)
 *
 *  offset 0                 4          5
 *        +-----------------+----------+--------------------------------------+
 *        | length (u32)    | type (u8)| body (length - 1 bytes)              |
 *        +-----------------+----------+--------------------------------------+
 *        |&lt;- LENGTH_SIZE -&gt;|&lt;-TYPE---&gt;|
 *        |&lt;------- HEADER_SIZE = 5 --------&gt;|
 *
 *  length  = bytes of type + body: 1 .. maxFrameLength (default 16 MiB, configurable
 *            1 KiB .. 1 GiB); a larger length is refused before any body byte is read.
 *  type    = one of the fifteen below; any other is a protocol error.
 *
 * Body by type ("oqid?" = u32 length, 0 meaning none, then that many bytes, at most 64;
 *               "oqid" = the same with length 1..64; "rest" = every byte left in the frame;
 *               text is UTF-8, strictly checked on read; a body must end exactly where its
 *               frame ends)
 *   0x01 Hello          connectText:rest                     agent -> server
 *   0x02 Welcome        version:u32 truncationPoint:oqid?    server -> agent
 *                       blobLength:u32 (0..1 MiB) resumeBlob
 *                       [version 3 on: heartbeatIntervalMillis:u32 idleTimeoutMillis:u32]
 *                       [version 4 on: compression:u8 (0 none, 1 lz4, 2 zstd)]
 *   0x03 Batch          sequence:u64 ltlText:rest            agent -> server
 *   0x04 BatchAccepted  sequence:u64 commandsTaken:u32       server -> agent
 *   0x05 BatchRejected  sequence:u64 commandsTaken:u32       server -> agent
 *                       line:u32 column:u32 lastTakenOqid:oqid? message:rest
 *   0x06 GetTruncation  requestId:u64                        agent -> server
 *   0x07 Truncation     requestId:u64 truncationPoint:oqid?  server -> agent
 *   0x08 StoreResume    coveredUpTo:oqid                     agent -> server
 *                       blobLength:u32 (0..1 MiB) blob
 *   0x09 Error          code:u32 (ErrorCode) message:rest    server -> agent, then close
 *   0x0a Heartbeat      (no body)                            either way, version 3 on
 *   0x0b ScramClientFirst  mechanismLength:u32 (1..64)       agent -> server, version 4,
 *                       mechanism:ASCII clientFirstMessage:rest   right after the Hello
 *   0x0c ScramServerFirst  serverFirstMessage:rest           server -> agent, version 4
 *   0x0d ScramClientFinal  clientFinalMessage:rest           agent -> server, version 4
 *   0x0e ScramServerFinal  serverFinalMessage:rest           server -> agent, version 4,
 *                                                            before the Welcome
 *   0x0f AgentStatus    itemCount:u32 (0..10000), then per item:  agent -> server,
 *                         kind:u8 (1 table not replicated,         version 5, after the
 *                                  2 warning)                      Welcome; each replaces
 *                         subjectLength:u32 (0..1024) subject:text the last
 *                         messageLength:u32 (0..4096) message:text
 *
 *  Version 4 login (RFC 5802 messages, SCRAM-SHA-256): Hello (no password) + ScramClientFirst,
 *  ScramServerFirst, ScramClientFinal, ScramServerFinal (or Error), then Welcome (or Error). The
 *  agent accepts no Welcome before a ScramServerFinal whose signature it has checked.
 *
 *  u32 fields that hold counts, lines, columns and versions must fit a signed int; sequence
 *  numbers start at 1, so an u64 sequence with the top bit set is refused.
 * </pre>
 *
 * Worked hex examples and the protocol rules are in {@code docs/formats/ltl-wire.md}.
 *
 * <p>{@link #install} puts a {@link Decoder} (one per channel, it buffers a partial frame) and an
 * {@link Encoder} (stateless) in a pipeline. The encoder does not copy the LTL text of a {@link
 * Frame.Batch} or {@link Frame.Hello}: it wraps the array behind a small header buffer.
 */
public final class FrameCodec {
  private FrameCodec() {}

  /** Offset of the length field: u32, counts the type byte and the body. */
  public static final int LENGTH_OFFSET = 0;

  /** Bytes of the length field. */
  public static final int LENGTH_SIZE = 4;

  /** Offset of the type byte. */
  public static final int TYPE_OFFSET = LENGTH_OFFSET + LENGTH_SIZE;

  /** Bytes of the type field. */
  public static final int TYPE_SIZE = 1;

  /** Bytes before the body. */
  public static final int HEADER_SIZE = TYPE_OFFSET + TYPE_SIZE;

  /** {@link Frame.Hello}, agent to server. */
  public static final int TYPE_HELLO = 0x01;

  /** {@link Frame.Welcome}, server to agent. */
  public static final int TYPE_WELCOME = 0x02;

  /** {@link Frame.Batch}, agent to server. */
  public static final int TYPE_BATCH = 0x03;

  /** {@link Frame.BatchAccepted}, server to agent. */
  public static final int TYPE_BATCH_ACCEPTED = 0x04;

  /** {@link Frame.BatchRejected}, server to agent. */
  public static final int TYPE_BATCH_REJECTED = 0x05;

  /** {@link Frame.GetTruncation}, agent to server. */
  public static final int TYPE_GET_TRUNCATION = 0x06;

  /** {@link Frame.Truncation}, server to agent. */
  public static final int TYPE_TRUNCATION = 0x07;

  /** {@link Frame.StoreResume}, agent to server. */
  public static final int TYPE_STORE_RESUME = 0x08;

  /** {@link Frame.Error}, server to agent. */
  public static final int TYPE_ERROR = 0x09;

  /** {@link Frame.Heartbeat}, either way, from protocol version 3 on. */
  public static final int TYPE_HEARTBEAT = 0x0a;

  /** {@link Frame.ScramClientFirst}, agent to server, from protocol version 4 on. */
  public static final int TYPE_SCRAM_CLIENT_FIRST = 0x0b;

  /** {@link Frame.ScramServerFirst}, server to agent, from protocol version 4 on. */
  public static final int TYPE_SCRAM_SERVER_FIRST = 0x0c;

  /** {@link Frame.ScramClientFinal}, agent to server, from protocol version 4 on. */
  public static final int TYPE_SCRAM_CLIENT_FINAL = 0x0d;

  /** {@link Frame.ScramServerFinal}, server to agent, from protocol version 4 on. */
  public static final int TYPE_SCRAM_SERVER_FINAL = 0x0e;

  /** Type byte of {@link Frame.AgentStatus} (version 5). */
  public static final int TYPE_AGENT_STATUS = 0x0f;

  /** Name of the decoder that {@link #install} adds. */
  public static final String DECODER_NAME = "openrs-wire-decoder";

  /** Name of the encoder that {@link #install} adds. */
  public static final String ENCODER_NAME = "openrs-wire-encoder";

  private static final int OQID_LENGTH_SIZE = 4;
  private static final int BLOB_LENGTH_SIZE = 4;

  /** Bytes of the {@link Frame.Liveness} that ends a version 3 Welcome. */
  private static final int LIVENESS_SIZE = 4 + 4;

  /** Bytes of the {@link LtlCompression} code that ends a version 4 Welcome. */
  private static final int COMPRESSION_SIZE = 1;

  /** Bytes of LTL text a {@link Frame.Batch} can carry within {@code maxFrameLength}. */
  public static int maxBatchTextBytes(int maxFrameLength) {
    return maxFrameLength - TYPE_SIZE - Long.BYTES;
  }

  /**
   * Adds a {@link Decoder} and an {@link Encoder} bounded by {@code maxFrameLength} at the end of
   * {@code pipeline}, named {@link #DECODER_NAME} and {@link #ENCODER_NAME}. Handlers added after
   * them read {@link Frame}s and write {@link Frame}s.
   */
  public static void install(ChannelPipeline pipeline, int maxFrameLength) {
    pipeline.addLast(DECODER_NAME, new Decoder(maxFrameLength));
    pipeline.addLast(ENCODER_NAME, new Encoder(maxFrameLength));
  }

  /**
   * Server side: sends {@link Frame.Error} and closes the channel once it is written.
   *
   * @return the channel's close future
   */
  public static ChannelFuture closeWithError(Channel channel, ErrorCode code, String message) {
    channel.writeAndFlush(new Frame.Error(code, message)).addListener(ChannelFutureListener.CLOSE);
    return channel.closeFuture();
  }

  /** The type's name as used in this class's drawing, or {@code 0x..} for an unknown type. */
  public static String typeName(int type) {
    switch (type) {
      case TYPE_HELLO:
        return "Hello";
      case TYPE_WELCOME:
        return "Welcome";
      case TYPE_BATCH:
        return "Batch";
      case TYPE_BATCH_ACCEPTED:
        return "BatchAccepted";
      case TYPE_BATCH_REJECTED:
        return "BatchRejected";
      case TYPE_GET_TRUNCATION:
        return "GetTruncation";
      case TYPE_TRUNCATION:
        return "Truncation";
      case TYPE_STORE_RESUME:
        return "StoreResume";
      case TYPE_ERROR:
        return "Error";
      case TYPE_HEARTBEAT:
        return "Heartbeat";
      case TYPE_SCRAM_CLIENT_FIRST:
        return "ScramClientFirst";
      case TYPE_SCRAM_SERVER_FIRST:
        return "ScramServerFirst";
      case TYPE_SCRAM_CLIENT_FINAL:
        return "ScramClientFinal";
      case TYPE_SCRAM_SERVER_FINAL:
        return "ScramServerFinal";
      case TYPE_AGENT_STATUS:
        return "AgentStatus";
      default:
        return String.format("0x%02x", type);
    }
  }

  static boolean isKnownType(int type) {
    return type >= TYPE_HELLO && type <= TYPE_AGENT_STATUS;
  }

  // ---------------------------------------------------------------- encoding

  /**
   * The whole frame (header and body). Frames with LTL text wrap the caller's array (no copy).
   *
   * @throws IllegalArgumentException when the frame is longer than {@code maxFrameLength}
   */
  static ByteBuf encode(Frame frame, ByteBufAllocator alloc, int maxFrameLength) {
    byte[] tail = tail(frame);
    Optional<Frame.Liveness> trailer =
        frame instanceof Frame.Welcome w ? w.liveness() : Optional.empty();
    boolean compression =
        frame instanceof Frame.Welcome w && w.version() >= WireProtocol.COMPRESSION_VERSION;
    long bodyLength =
        fixedBodyLength(frame)
            + (tail == null ? 0 : tail.length)
            + (trailer.isPresent() ? LIVENESS_SIZE : 0)
            + (compression ? COMPRESSION_SIZE : 0);
    long length = TYPE_SIZE + bodyLength;
    if (length > maxFrameLength) {
      throw new IllegalArgumentException(
          FrameCodec.typeName(frame.type())
              + " frame of length "
              + length
              + " exceeds the maximum frame length "
              + maxFrameLength);
    }
    int headAndFixed = (int) (HEADER_SIZE + fixedBodyLength(frame));
    ByteBuf head = alloc.buffer(headAndFixed);
    head.writeInt((int) length);
    head.writeByte(frame.type());
    writeFixedBody(frame, head);
    if (trailer.isPresent()) {
      // The Welcome's liveness follows its resume blob (version 3 on), then its compression
      // (version 4 on).
      ByteBuf end = alloc.buffer(LIVENESS_SIZE + COMPRESSION_SIZE);
      end.writeInt(trailer.get().heartbeatIntervalMillis());
      end.writeInt(trailer.get().idleTimeoutMillis());
      if (compression) {
        end.writeByte(((Frame.Welcome) frame).compression().code());
      }
      return Unpooled.wrappedBuffer(head, Unpooled.wrappedBuffer(tail), end);
    }
    if (tail == null || tail.length == 0) {
      return head;
    }
    return Unpooled.wrappedBuffer(head, Unpooled.wrappedBuffer(tail));
  }

  /** The trailing "rest" byte array of frames whose body ends in one, else null. */
  private static byte[] tail(Frame frame) {
    if (frame instanceof Frame.Batch b) {
      return b.ltlText();
    } else if (frame instanceof Frame.Hello h) {
      return h.connectText();
    } else if (frame instanceof Frame.BatchRejected r) {
      return utf8(r.message());
    } else if (frame instanceof Frame.Error e) {
      return utf8(e.message());
    } else if (frame instanceof Frame.Welcome w) {
      return w.resumeBlob();
    } else if (frame instanceof Frame.StoreResume s) {
      return s.blob();
    }
    return Scram.message(frame);
  }

  /** Body bytes written by {@link #writeFixedBody}: everything except {@link #tail}. */
  private static long fixedBodyLength(Frame frame) {
    if (frame instanceof Frame.Hello) {
      return 0;
    } else if (frame instanceof Frame.Welcome w) {
      return 4 + oqidLength(w.truncationPoint()) + BLOB_LENGTH_SIZE;
    } else if (frame instanceof Frame.Batch) {
      return 8;
    } else if (frame instanceof Frame.BatchAccepted) {
      return 8 + 4;
    } else if (frame instanceof Frame.BatchRejected r) {
      return 8 + 4 + 4 + 4 + oqidLength(r.lastTakenOqid());
    } else if (frame instanceof Frame.GetTruncation) {
      return 8;
    } else if (frame instanceof Frame.Truncation t) {
      return 8 + oqidLength(t.truncationPoint());
    } else if (frame instanceof Frame.StoreResume s) {
      return oqidLength(Optional.of(s.coveredUpTo())) + BLOB_LENGTH_SIZE;
    } else if (frame instanceof Frame.Error) {
      return 4;
    } else if (frame instanceof Frame.Heartbeat) {
      return 0;
    } else if (frame instanceof Frame.AgentStatus a) {
      long length = 4;
      for (Frame.StatusItem i : a.items()) {
        length += 1 + 4 + utf8(i.subject()).length + 4 + utf8(i.message()).length;
      }
      return length;
    }
    return Scram.fixedBodyLength(frame);
  }

  private static void writeFixedBody(Frame frame, ByteBuf out) {
    if (frame instanceof Frame.Welcome w) {
      out.writeInt(w.version());
      writeOqid(w.truncationPoint(), out);
      out.writeInt(w.resumeBlob().length);
    } else if (frame instanceof Frame.Batch b) {
      out.writeLong(b.sequence());
    } else if (frame instanceof Frame.BatchAccepted a) {
      out.writeLong(a.sequence());
      out.writeInt(a.commandsTaken());
    } else if (frame instanceof Frame.BatchRejected r) {
      out.writeLong(r.sequence());
      out.writeInt(r.commandsTaken());
      out.writeInt(r.line());
      out.writeInt(r.column());
      writeOqid(r.lastTakenOqid(), out);
    } else if (frame instanceof Frame.GetTruncation g) {
      out.writeLong(g.requestId());
    } else if (frame instanceof Frame.Truncation t) {
      out.writeLong(t.requestId());
      writeOqid(t.truncationPoint(), out);
    } else if (frame instanceof Frame.StoreResume s) {
      writeOqid(Optional.of(s.coveredUpTo()), out);
      out.writeInt(s.blob().length);
    } else if (frame instanceof Frame.Error e) {
      out.writeInt(e.code().code());
    } else if (frame instanceof Frame.ScramClientFirst f) {
      Scram.writeMechanism(f, out);
    } else if (frame instanceof Frame.AgentStatus a) {
      out.writeInt(a.items().size());
      for (Frame.StatusItem i : a.items()) {
        out.writeByte(i.kind().code());
        byte[] subject = utf8(i.subject());
        out.writeInt(subject.length);
        out.writeBytes(subject);
        byte[] message = utf8(i.message());
        out.writeInt(message.length);
        out.writeBytes(message);
      }
    }
  }

  /** The version 4 login frames' parts of the encoder (their bodies end in the SCRAM message). */
  private static final class Scram {
    static byte[] message(Frame frame) {
      if (frame instanceof Frame.ScramClientFirst f) {
        return f.message();
      } else if (frame instanceof Frame.ScramServerFirst f) {
        return f.message();
      } else if (frame instanceof Frame.ScramClientFinal f) {
        return f.message();
      } else if (frame instanceof Frame.ScramServerFinal f) {
        return f.message();
      }
      return null;
    }

    static long fixedBodyLength(Frame frame) {
      if (frame instanceof Frame.ScramClientFirst f) {
        return 4 + f.mechanism().length();
      } else if (message(frame) != null) {
        return 0;
      }
      throw new AssertionError(frame);
    }

    static void writeMechanism(Frame.ScramClientFirst f, ByteBuf out) {
      out.writeInt(f.mechanism().length());
      out.writeCharSequence(f.mechanism(), StandardCharsets.US_ASCII);
    }
  }

  private static int oqidLength(Optional<Oqid> oqid) {
    return OQID_LENGTH_SIZE + oqid.map(Oqid::length).orElse(0);
  }

  private static void writeOqid(Optional<Oqid> oqid, ByteBuf out) {
    if (oqid.isEmpty()) {
      out.writeInt(0);
      return;
    }
    Oqid o = oqid.get();
    out.writeInt(o.length());
    for (int i = 0; i < o.length(); i++) {
      out.writeByte(o.byteAt(i));
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  // ---------------------------------------------------------------- decoding

  /**
   * Reads one whole frame from {@code in} when it holds one, else returns null and reads nothing.
   *
   * @throws WireProtocolException when the bytes break the format; {@code in} is then left where
   *     the frame started
   */
  static Frame decode(ByteBuf in, int maxFrameLength) {
    int start = in.readerIndex();
    if (in.readableBytes() < LENGTH_SIZE) {
      return null;
    }
    long length = in.getUnsignedInt(start + LENGTH_OFFSET);
    if (length < TYPE_SIZE) {
      throw new WireProtocolException(
          "frame length 0: a frame holds at least its type byte (maximum frame length "
              + maxFrameLength
              + ")");
    }
    if (length > maxFrameLength) {
      throw new WireProtocolException(
          "frame length " + length + " exceeds the maximum frame length " + maxFrameLength);
    }
    if (in.readableBytes() < TYPE_OFFSET + TYPE_SIZE) {
      return null;
    }
    int type = in.getUnsignedByte(start + TYPE_OFFSET);
    if (!isKnownType(type)) {
      throw new WireProtocolException(
          "unknown frame type " + typeName(type) + " (frame length " + length + ")");
    }
    if (in.readableBytes() < LENGTH_SIZE + length) {
      return null;
    }
    Body body = new Body(type, in.slice(start + HEADER_SIZE, (int) length - TYPE_SIZE));
    Frame frame = body.frame();
    in.readerIndex(start + LENGTH_SIZE + (int) length);
    return frame;
  }

  /** Reads the fields of one frame body with bounds checks that name the field. */
  private static final class Body {
    private final int type;
    private final ByteBuf buf;

    Body(int type, ByteBuf buf) {
      this.type = type;
      this.buf = buf;
    }

    Frame frame() {
      Frame frame;
      try {
        frame = fields();
      } catch (IllegalArgumentException e) {
        throw error("holds a value out of range: " + e.getMessage());
      }
      if (buf.isReadable()) {
        throw error(
            "has "
                + buf.readableBytes()
                + " bytes after its last field (body length "
                + buf.capacity()
                + ")");
      }
      return frame;
    }

    private Frame fields() {
      switch (type) {
        case TYPE_HELLO:
          return new Frame.Hello(rest());
        case TYPE_WELCOME:
          int version = u32AsInt("version");
          return new Frame.Welcome(
              version,
              oqid("truncationPoint", true),
              bytes("resumeBlob", WireProtocol.MAX_RESUME_BLOB_BYTES),
              version >= WireProtocol.LIVENESS_VERSION
                  ? Optional.of(
                      new Frame.Liveness(
                          u32AsInt("heartbeatIntervalMillis"), u32AsInt("idleTimeoutMillis")))
                  : Optional.empty(),
              version >= WireProtocol.COMPRESSION_VERSION ? compression() : LtlCompression.NONE);
        case TYPE_BATCH:
          return new Frame.Batch(u64("sequence"), rest());
        case TYPE_BATCH_ACCEPTED:
          return new Frame.BatchAccepted(u64("sequence"), u32AsInt("commandsTaken"));
        case TYPE_BATCH_REJECTED:
          return new Frame.BatchRejected(
              u64("sequence"),
              u32AsInt("commandsTaken"),
              u32AsInt("line"),
              u32AsInt("column"),
              oqid("lastTakenOqid", true),
              utf8Rest("message"));
        case TYPE_GET_TRUNCATION:
          return new Frame.GetTruncation(u64("requestId"));
        case TYPE_TRUNCATION:
          return new Frame.Truncation(u64("requestId"), oqid("truncationPoint", true));
        case TYPE_STORE_RESUME:
          return new Frame.StoreResume(
              oqid("coveredUpTo", false).orElseThrow(),
              bytes("blob", WireProtocol.MAX_RESUME_BLOB_BYTES));
        case TYPE_ERROR:
          long code = u32("code");
          return new Frame.Error(
              ErrorCode.forCode(code).orElseThrow(() -> error("has unknown error code " + code)),
              utf8Rest("message"));
        case TYPE_HEARTBEAT:
          return new Frame.Heartbeat();
        case TYPE_SCRAM_CLIENT_FIRST:
          return new Frame.ScramClientFirst(mechanism(), rest());
        case TYPE_SCRAM_SERVER_FIRST:
          return new Frame.ScramServerFirst(rest());
        case TYPE_SCRAM_CLIENT_FINAL:
          return new Frame.ScramClientFinal(rest());
        case TYPE_SCRAM_SERVER_FINAL:
          return new Frame.ScramServerFinal(rest());
        case TYPE_AGENT_STATUS:
          return agentStatus();
        default:
          throw new AssertionError(type);
      }
    }

    private Frame.AgentStatus agentStatus() {
      long count = u32("itemCount");
      if (count > WireProtocol.MAX_STATUS_ITEMS) {
        throw error(
            "has itemCount " + count + ", more than the limit " + WireProtocol.MAX_STATUS_ITEMS);
      }
      List<Frame.StatusItem> items = new java.util.ArrayList<>((int) count);
      for (int n = 0; n < count; n++) {
        need(1, "item " + n + " kind");
        int code = buf.readUnsignedByte();
        Frame.StatusKind kind =
            Frame.StatusKind.ofCode(code)
                .orElseThrow(() -> error("has unknown status kind " + code));
        String subject =
            utf8(
                "item " + n + " subject",
                bytes("item " + n + " subject", WireProtocol.MAX_STATUS_SUBJECT_BYTES));
        String message =
            utf8(
                "item " + n + " message",
                bytes("item " + n + " message", WireProtocol.MAX_STATUS_MESSAGE_BYTES));
        items.add(new Frame.StatusItem(kind, subject, message));
      }
      return new Frame.AgentStatus(items);
    }

    private void need(int bytes, String field) {
      if (buf.readableBytes() < bytes) {
        throw error(
            "is too short: "
                + field
                + " needs "
                + bytes
                + " bytes at body offset "
                + buf.readerIndex()
                + ", "
                + buf.readableBytes()
                + " left (body length "
                + buf.capacity()
                + ")");
      }
    }

    private LtlCompression compression() {
      need(COMPRESSION_SIZE, "compression");
      int code = buf.readUnsignedByte();
      return LtlCompression.forCode(code)
          .orElseThrow(() -> error("has unknown compression code " + code));
    }

    private long u64(String field) {
      need(8, field);
      return buf.readLong();
    }

    private long u32(String field) {
      need(4, field);
      return buf.readUnsignedInt();
    }

    private int u32AsInt(String field) {
      long v = u32(field);
      if (v > Integer.MAX_VALUE) {
        throw error("has " + field + " " + v + ", more than " + Integer.MAX_VALUE);
      }
      return (int) v;
    }

    private Optional<Oqid> oqid(String field, boolean optional) {
      long length = u32(field + " length");
      if (length == 0) {
        if (optional) {
          return Optional.empty();
        }
        throw error("has an empty " + field + "; an OQID holds 1.." + Oqid.MAX_BYTES + " bytes");
      }
      if (length > Oqid.MAX_BYTES) {
        throw error(
            "has "
                + field
                + " length "
                + length
                + "; an OQID holds at most "
                + Oqid.MAX_BYTES
                + " bytes");
      }
      need((int) length, field);
      byte[] b = new byte[(int) length];
      buf.readBytes(b);
      return Optional.of(Oqid.of(b));
    }

    private byte[] bytes(String field, int max) {
      long length = u32(field + " length");
      if (length > max) {
        throw error("has " + field + " length " + length + ", more than the limit " + max);
      }
      need((int) length, field);
      byte[] b = new byte[(int) length];
      buf.readBytes(b);
      return b;
    }

    private String mechanism() {
      long length = u32("mechanism length");
      if (length < 1 || length > WireProtocol.MAX_MECHANISM_LENGTH) {
        throw error(
            "has mechanism length "
                + length
                + "; a mechanism name holds 1.."
                + WireProtocol.MAX_MECHANISM_LENGTH
                + " bytes");
      }
      need((int) length, "mechanism");
      byte[] b = new byte[(int) length];
      buf.readBytes(b);
      for (byte c : b) {
        if (c < 0x20 || c > 0x7e) {
          throw error("has a mechanism name that is not printable ASCII");
        }
      }
      return new String(b, StandardCharsets.US_ASCII);
    }

    private byte[] rest() {
      byte[] b = new byte[buf.readableBytes()];
      buf.readBytes(b);
      return b;
    }

    private String utf8Rest(String field) {
      int at = buf.readerIndex();
      return utf8(field + " at body offset " + at, rest());
    }

    private String utf8(String field, byte[] b) {
      try {
        return StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(b))
            .toString();
      } catch (CharacterCodingException e) {
        throw error("has a " + field + " that is not UTF-8");
      }
    }

    private WireProtocolException error(String what) {
      return new WireProtocolException(typeName(type) + " frame " + what);
    }
  }

  // ---------------------------------------------------------------- Netty handlers

  /**
   * Cuts the byte stream into {@link Frame}s. One per channel. Checks the length against the
   * maximum as soon as the 4 length bytes are in, and the type as soon as its byte is in, so a bad
   * peer cannot make it buffer a huge or meaningless frame. After the first {@link
   * WireProtocolException} it discards every further byte: the stream is out of step and the
   * connection is to be closed. A connection closed inside a frame is a {@link
   * WireProtocolException} too.
   */
  public static final class Decoder extends ByteToMessageDecoder {
    private int maxFrameLength;
    private boolean failed;

    /** A decoder refusing frames whose length field exceeds {@code maxFrameLength}. */
    public Decoder(int maxFrameLength) {
      this.maxFrameLength = WireProtocol.checkMaxFrameLength(maxFrameLength);
    }

    /**
     * Changes the bound for the frames not decoded yet: the server reads the Hello under {@link
     * WireProtocol#MAX_HELLO_FRAME_LENGTH} and raises it once the agent is admitted. Call it on the
     * channel's event loop.
     */
    public void maxFrameLength(int maxFrameLength) {
      this.maxFrameLength = WireProtocol.checkMaxFrameLength(maxFrameLength);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
      if (failed) {
        in.skipBytes(in.readableBytes());
        return;
      }
      try {
        Frame frame = FrameCodec.decode(in, maxFrameLength);
        if (frame != null) {
          out.add(frame);
        }
      } catch (WireProtocolException e) {
        failed = true;
        in.skipBytes(in.readableBytes());
        throw e;
      }
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
      while (!failed && in.isReadable()) {
        int before = in.readableBytes();
        decode(ctx, in, out);
        if (in.readableBytes() == before) {
          break;
        }
      }
      if (!failed && in.isReadable()) {
        int held = in.readableBytes();
        String of =
            held >= LENGTH_SIZE
                ? " of the " + (LENGTH_SIZE + in.getUnsignedInt(in.readerIndex())) + " it announced"
                : "";
        failed = true;
        in.skipBytes(held);
        throw new WireProtocolException(
            "connection closed inside a frame: " + held + " bytes received" + of);
      }
    }
  }

  /** Writes {@link Frame}s as bytes. Stateless; may be shared by channels. */
  @ChannelHandler.Sharable
  public static final class Encoder extends MessageToMessageEncoder<Frame> {
    private final int maxFrameLength;

    /** An encoder refusing frames longer than {@code maxFrameLength}. */
    public Encoder(int maxFrameLength) {
      this.maxFrameLength = WireProtocol.checkMaxFrameLength(maxFrameLength);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Frame frame, List<Object> out) {
      out.add(FrameCodec.encode(frame, ctx.alloc(), maxFrameLength));
    }
  }
}
