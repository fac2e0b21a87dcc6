package io.openrs.pgwire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the frontend side of PostgreSQL's protocol 3 into {@link FrontendMessage}s, and answers the
 * encryption negotiation itself (it must, on the network thread, before the next byte is read).
 *
 * <pre>
 * Before the startup message (every integer big-endian, signed):
 *
 *  offset 0              4              8
 *        +--------------+--------------+--------------------------------+
 *        | length (i32) | code (i32)   | body (length - 8 bytes)        |
 *        +--------------+--------------+--------------------------------+
 *  length  = 8 .. MAX_STARTUP_BYTES (10000, as PostgreSQL), counts itself
 *  code    = 80877103 SSLRequest     (length 8)  answered 'S' + TLS, or 'N'
 *            80877104 GSSENCRequest  (length 8)  answered 'N'
 *            80877102 CancelRequest  (length 16) body: processId i32, secretKey i32
 *            0x0003mmmm StartupMessage 3.m       body: (name\0 value\0)* \0
 *            anything else: "unsupported frontend protocol", FATAL 0A000
 *
 * After it:
 *
 *  offset 0          1              5
 *        +----------+--------------+--------------------------------+
 *        | type (u8)| length (i32) | body (length - 4 bytes)        |
 *        +----------+--------------+--------------------------------+
 *  length  = 4 .. maxMessageBytes (settings, default 64 MiB) for Q P B F d,
 *            4 .. min(maxMessageBytes, MAX_AUTH_TOKEN_BYTES (65535)) for p,
 *            4 .. MAX_SMALL_MESSAGE_BYTES (10000) for D E C f, exactly 4 for S H X c;
 *            checked before any byte of the body is buffered
 *  Q P B   a body longer than maxStatementBytes (settings, default 1 MiB) is skipped as it
 *            arrives, never buffered, and handed on as FrontendMessage.TooLong (54000)
 *  F d     bodies are never used, so always skipped as they arrive
 *  type    = Q P B D E C S H X p F d c f; any other: "invalid frontend message type", FATAL
 *  strings = UTF-8, NUL-terminated inside the body; a body must end exactly where its length says
 * </pre>
 *
 * <p>Any framing or body error emits one {@link FrontendMessage.Violation} and the decoder reads
 * nothing more (the connection answers FATAL 08P01 and closes). Owned by the channel's event loop;
 * one per channel.
 */
final class PgFrameDecoder extends ByteToMessageDecoder {
  /** Longest startup packet (PostgreSQL's MAX_STARTUP_PACKET_LENGTH). */
  static final int MAX_STARTUP_BYTES = 10000;

  /** Longest body of the small messages (PostgreSQL's PQ_SMALL_MESSAGE_LIMIT). */
  static final int MAX_SMALL_MESSAGE_BYTES = 10000;

  /** Longest password or SASL message body (PostgreSQL's PG_MAX_AUTH_TOKEN_LENGTH). */
  static final int MAX_AUTH_TOKEN_BYTES = 65535;

  static final int SSL_REQUEST_CODE = 80877103;
  static final int GSSENC_REQUEST_CODE = 80877104;
  static final int CANCEL_REQUEST_CODE = 80877102;
  static final int PROTOCOL_3_0 = 3 << 16;

  private enum State {
    STARTUP,
    MESSAGES,
    DONE
  }

  private final SslContext sslContext;
  private final int maxMessageBytes;
  private final int maxStatementBytes;
  private State state = State.STARTUP;
  private long discardBytes;
  private FrontendMessage afterDiscard;
  private boolean sslAnswered;
  private boolean gssAnswered;
  private boolean tls;

  /**
   * @param sslContext the server's TLS context, or null when TLS is not offered
   */
  PgFrameDecoder(SslContext sslContext, int maxMessageBytes) {
    this(sslContext, maxMessageBytes, maxMessageBytes);
  }

  /**
   * @param sslContext the server's TLS context, or null when TLS is not offered
   * @param maxStatementBytes longest Query, Parse or Bind body read; a longer one is skipped
   */
  PgFrameDecoder(SslContext sslContext, int maxMessageBytes, int maxStatementBytes) {
    this.sslContext = sslContext;
    this.maxMessageBytes = maxMessageBytes;
    this.maxStatementBytes = maxStatementBytes;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (state == State.DONE) {
      in.skipBytes(in.readableBytes());
      return;
    }
    try {
      if (state == State.STARTUP) {
        decodeStartup(ctx, in, out);
      } else if (discardBytes > 0) {
        discard(in, out);
      } else {
        decodeMessage(in, out);
      }
    } catch (Malformed e) {
      fail(in, out, PgSqlState.PROTOCOL_VIOLATION, e.getMessage());
    }
  }

  private void fail(ByteBuf in, List<Object> out, String sqlState, String message) {
    state = State.DONE;
    in.skipBytes(in.readableBytes());
    out.add(new FrontendMessage.Inbound(new FrontendMessage.Violation(sqlState, message), 0));
  }

  private void decodeStartup(ChannelHandlerContext ctx, ByteBuf in, List<Object> out)
      throws Malformed {
    if (in.readableBytes() < 4) {
      return;
    }
    int length = in.getInt(in.readerIndex());
    if (length < 8 || length > MAX_STARTUP_BYTES) {
      throw new Malformed(
          "invalid length of startup packet: "
              + length
              + " (8.."
              + MAX_STARTUP_BYTES
              + " allowed)");
    }
    if (in.readableBytes() < length) {
      return;
    }
    int code = in.getInt(in.readerIndex() + 4);
    if (code == SSL_REQUEST_CODE || code == GSSENC_REQUEST_CODE) {
      if (length != 8) {
        throw new Malformed("invalid length of encryption request: " + length);
      }
      in.skipBytes(8);
      if (in.isReadable()) {
        throw new Malformed("received unencrypted data after encryption request");
      }
      if (code == SSL_REQUEST_CODE) {
        if (sslAnswered) {
          throw new Malformed("SSLRequest sent twice");
        }
        sslAnswered = true;
        if (sslContext != null) {
          SslHandler handler = new SslHandler(sslContext.newEngine(ctx.alloc()), true);
          ctx.pipeline().addBefore(ctx.name(), "tls", handler);
          tls = true;
          ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {'S'}));
        } else {
          ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {'N'}));
        }
      } else {
        if (gssAnswered || tls) {
          throw new Malformed("GSSENCRequest sent twice or after TLS started");
        }
        gssAnswered = true;
        ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {'N'}));
      }
      return;
    }
    if (code == CANCEL_REQUEST_CODE) {
      if (length != 16) {
        throw new Malformed("invalid length of cancel request: " + length);
      }
      int processId = in.getInt(in.readerIndex() + 8);
      int secretKey = in.getInt(in.readerIndex() + 12);
      in.skipBytes(in.readableBytes());
      state = State.DONE;
      out.add(new FrontendMessage.Inbound(new FrontendMessage.Cancel(processId, secretKey), 16));
      return;
    }
    int major = code >>> 16;
    int minor = code & 0xFFFF;
    if (major != 3) {
      fail(
          in,
          out,
          PgSqlState.FEATURE_NOT_SUPPORTED,
          "unsupported frontend protocol " + major + "." + minor + ": server supports 3.0 to 3.0");
      return;
    }
    ByteBuf body = in.slice(in.readerIndex() + 8, length - 8);
    Map<String, String> parameters = new LinkedHashMap<>();
    try {
      while (true) {
        String name = cstring(body);
        if (name.isEmpty()) {
          break;
        }
        String value = cstring(body);
        parameters.put(name, value);
      }
    } catch (BadUtf8 e) {
      throw new Malformed("invalid byte sequence for encoding \"UTF8\" in startup packet");
    }
    if (body.isReadable()) {
      throw new Malformed("invalid startup packet layout: expected terminator as last byte");
    }
    in.skipBytes(length);
    state = State.MESSAGES;
    out.add(
        new FrontendMessage.Inbound(
            new FrontendMessage.Startup(major, minor, Collections.unmodifiableMap(parameters), tls),
            length));
  }

  private void decodeMessage(ByteBuf in, List<Object> out) throws Malformed {
    if (in.readableBytes() < 5) {
      return;
    }
    int start = in.readerIndex();
    char type = (char) (in.getByte(start) & 0xFF);
    int length = in.getInt(start + 1);
    int max = maxLength(type);
    int min = 4;
    if (type == 'S' || type == 'H' || type == 'X' || type == 'c') {
      max = 4;
    }
    if (length < min || length > max) {
      throw new Malformed(
          "invalid message length "
              + length
              + " for message type '"
              + printable(type)
              + "' ("
              + min
              + ".."
              + max
              + " allowed)");
    }
    if (skipsBody(type, length)) {
      in.skipBytes(5);
      discardBytes = length - 4L;
      afterDiscard =
          type == 'F'
              ? new FrontendMessage.FunctionCall()
              : type == 'd'
                  ? new FrontendMessage.CopyOutsideCopy(type)
                  : new FrontendMessage.TooLong(type, length - 4L, maxStatementBytes);
      discard(in, out);
      return;
    }
    if (in.readableBytes() < 1 + length) {
      return;
    }
    ByteBuf body = in.slice(start + 5, length - 4);
    FrontendMessage message;
    try {
      message = parse(type, body);
    } catch (BadUtf8 e) {
      message = new FrontendMessage.BadEncoding(type, e.getMessage());
      body.skipBytes(body.readableBytes());
    }
    if (body.isReadable()) {
      throw new Malformed(
          "invalid message format: "
              + body.readableBytes()
              + " bytes left over at the end of message type '"
              + type
              + "'");
    }
    in.skipBytes(1 + length);
    if (type == 'X') {
      state = State.DONE;
    }
    out.add(new FrontendMessage.Inbound(message, 1 + length));
  }

  /** Whether the body is skipped unread: F and d always, Q P B above the statement limit. */
  private boolean skipsBody(char type, int length) {
    if (type == 'F' || type == 'd') {
      return true;
    }
    return (type == 'Q' || type == 'P' || type == 'B') && length - 4L > maxStatementBytes;
  }

  /** Skips what has arrived of a skipped body; at its end hands on the message that stands in. */
  private void discard(ByteBuf in, List<Object> out) {
    int n = (int) Math.min(discardBytes, in.readableBytes());
    in.skipBytes(n);
    discardBytes -= n;
    if (discardBytes == 0) {
      FrontendMessage message = afterDiscard;
      afterDiscard = null;
      out.add(new FrontendMessage.Inbound(message, 5));
    }
  }

  private int maxLength(char type) throws Malformed {
    switch (type) {
      case 'Q':
      case 'P':
      case 'B':
      case 'F':
      case 'd':
        return maxMessageBytes + 4;
      case 'p':
        return Math.min(maxMessageBytes, MAX_AUTH_TOKEN_BYTES) + 4;
      case 'D':
      case 'E':
      case 'C':
      case 'f':
      case 'S':
      case 'H':
      case 'X':
      case 'c':
        return MAX_SMALL_MESSAGE_BYTES + 4;
      default:
        throw new Malformed("invalid frontend message type " + (int) type);
    }
  }

  private static String printable(char type) {
    return type >= 0x20 && type < 0x7f ? String.valueOf(type) : "\\x" + Integer.toHexString(type);
  }

  private static FrontendMessage parse(char type, ByteBuf body) throws Malformed, BadUtf8 {
    switch (type) {
      case 'Q':
        return new FrontendMessage.Query(cstring(body));
      case 'P':
        {
          String name = cstring(body);
          String sql = cstring(body);
          int count = uint16(body);
          need(body, 4L * count, "parameter types");
          int[] types = new int[count];
          for (int i = 0; i < count; i++) {
            types[i] = body.readInt();
          }
          return new FrontendMessage.Parse(name, sql, types);
        }
      case 'B':
        return parseBind(body);
      case 'D':
      case 'C':
        {
          need(body, 1, "kind");
          char kind = (char) body.readByte();
          if (kind != 'S' && kind != 'P') {
            throw new Malformed(
                "invalid "
                    + (type == 'D' ? "DESCRIBE" : "CLOSE")
                    + " message subtype "
                    + (int) kind);
          }
          String name = cstring(body);
          return type == 'D'
              ? new FrontendMessage.Describe(kind, name)
              : new FrontendMessage.Close(kind, name);
        }
      case 'E':
        {
          String portal = cstring(body);
          need(body, 4, "row limit");
          return new FrontendMessage.Execute(portal, body.readInt());
        }
      case 'S':
        return new FrontendMessage.Sync();
      case 'H':
        return new FrontendMessage.Flush();
      case 'X':
        return new FrontendMessage.Terminate();
      case 'p':
        {
          byte[] bytes = new byte[body.readableBytes()];
          body.readBytes(bytes);
          return new FrontendMessage.Password(bytes);
        }
      case 'F':
        body.skipBytes(body.readableBytes());
        return new FrontendMessage.FunctionCall();
      default:
        body.skipBytes(body.readableBytes());
        return new FrontendMessage.CopyOutsideCopy(type);
    }
  }

  private static FrontendMessage parseBind(ByteBuf body) throws Malformed, BadUtf8 {
    String portal = cstring(body);
    String statement = cstring(body);
    int formatCount = uint16(body);
    need(body, 2L * formatCount, "parameter format codes");
    short[] formats = new short[formatCount];
    for (int i = 0; i < formatCount; i++) {
      formats[i] = body.readShort();
    }
    int valueCount = uint16(body);
    List<byte[]> values = new ArrayList<>(valueCount);
    for (int i = 0; i < valueCount; i++) {
      need(body, 4, "parameter length");
      int length = body.readInt();
      if (length == -1) {
        values.add(null);
        continue;
      }
      if (length < 0) {
        throw new Malformed("invalid length " + length + " of bind parameter " + (i + 1));
      }
      need(body, length, "bind parameter " + (i + 1));
      byte[] value = new byte[length];
      body.readBytes(value);
      values.add(value);
    }
    int resultCount = uint16(body);
    need(body, 2L * resultCount, "result format codes");
    short[] resultFormats = new short[resultCount];
    for (int i = 0; i < resultCount; i++) {
      resultFormats[i] = body.readShort();
    }
    return new FrontendMessage.Bind(portal, statement, formats, values, resultFormats);
  }

  private static int uint16(ByteBuf body) throws Malformed {
    need(body, 2, "count");
    return body.readUnsignedShort();
  }

  private static void need(ByteBuf body, long bytes, String what) throws Malformed {
    if (body.readableBytes() < bytes) {
      throw new Malformed(
          "insufficient data left in message: "
              + what
              + " needs "
              + bytes
              + " bytes, "
              + body.readableBytes()
              + " left");
    }
  }

  /** A NUL-terminated UTF-8 string, strictly decoded. */
  static String cstring(ByteBuf body) throws Malformed, BadUtf8 {
    int length = body.bytesBefore((byte) 0);
    if (length < 0) {
      throw new Malformed("invalid string in message: no terminating NUL");
    }
    ByteBuffer bytes = body.nioBuffer(body.readerIndex(), length);
    body.skipBytes(length + 1);
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(bytes)
          .toString();
    } catch (CharacterCodingException e) {
      throw new BadUtf8();
    }
  }

  /** The message cannot be read: the stream is given up. */
  static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message, null, false, false);
    }
  }

  /** A string is not UTF-8: an error for this message only. */
  static final class BadUtf8 extends Exception {
    private static final long serialVersionUID = 1L;

    BadUtf8() {
      super("invalid byte sequence for encoding \"UTF8\"", null, false, false);
    }
  }
}
