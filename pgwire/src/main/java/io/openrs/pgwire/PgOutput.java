package io.openrs.pgwire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes backend messages for one connection. Messages are built into a buffer that goes to the
 * channel when it holds {@link #FLUSH_BYTES} or when the protocol wants the client to see it
 * (ReadyForQuery, Flush, an authentication request, before closing); after a write the worker waits
 * while the channel is not writable, so a client that reads slowly slows its session instead of
 * filling the heap.
 *
 * <pre>
 * Every backend message: type (u8) | length (i32, counts itself and the body) | body
 * Strings are UTF-8 and NUL-terminated (a NUL inside a string is dropped).
 * </pre>
 *
 * <p>Not thread-safe: owned by the connection's worker (see {@link PgConnection}); only {@link
 * #writabilityChanged()} is called from the event loop.
 */
final class PgOutput {
  /** Buffered bytes that make the output go to the channel. */
  static final int FLUSH_BYTES = 64 * 1024;

  private final Channel channel;
  private final Object writable = new Object();
  private ByteBuf buffer;
  private int messageStart = -1;

  PgOutput(Channel channel) {
    this.channel = channel;
  }

  // ---- framing -------------------------------------------------------------------------------

  private ByteBuf begin(char type) {
    if (buffer == null) {
      buffer = channel.alloc().buffer(256);
    }
    buffer.writeByte(type);
    messageStart = buffer.writerIndex();
    buffer.writeInt(0);
    return buffer;
  }

  private void end() {
    buffer.setInt(messageStart, buffer.writerIndex() - messageStart);
    messageStart = -1;
    if (buffer.readableBytes() >= FLUSH_BYTES) {
      flush();
    }
  }

  private static void cstring(ByteBuf buf, String s) {
    if (s.indexOf('\0') >= 0) {
      s = s.replace("\0", "");
    }
    buf.writeCharSequence(s, StandardCharsets.UTF_8);
    buf.writeByte(0);
  }

  /** Sends what is buffered and waits while the channel cannot take more. */
  void flush() {
    if (buffer != null && buffer.isReadable()) {
      ByteBuf out = buffer;
      buffer = null;
      channel.writeAndFlush(out, channel.voidPromise());
    }
    awaitWritable();
  }

  /** Sends what is buffered and runs {@code action} once it is written (or could not be). */
  void flushThen(Runnable action) {
    if (buffer != null && buffer.isReadable()) {
      ByteBuf out = buffer;
      buffer = null;
      channel.writeAndFlush(out).addListener(f -> action.run());
    } else {
      action.run();
    }
    awaitWritable();
  }

  /** Sends what is buffered, then closes the connection. */
  void flushAndClose() {
    ByteBuf out = buffer;
    buffer = null;
    if (out != null && out.isReadable()) {
      channel.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
    } else {
      if (out != null) {
        out.release();
      }
      channel.close();
    }
  }

  /** Drops what is buffered (the connection is gone). */
  void discard() {
    if (buffer != null) {
      buffer.release();
      buffer = null;
    }
  }

  private void awaitWritable() {
    synchronized (writable) {
      while (!channel.isWritable() && channel.isActive()) {
        try {
          writable.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** The channel's writability changed or it closed: wake a waiting worker. */
  void writabilityChanged() {
    synchronized (writable) {
      writable.notifyAll();
    }
  }

  // ---- authentication -------------------------------------------------------------------------

  void authenticationOk() {
    begin('R').writeInt(0);
    end();
  }

  void authenticationSasl(List<String> mechanisms) {
    ByteBuf buf = begin('R');
    buf.writeInt(10);
    for (String m : mechanisms) {
      cstring(buf, m);
    }
    buf.writeByte(0);
    end();
  }

  void authenticationSaslContinue(byte[] data) {
    begin('R').writeInt(11).writeBytes(data);
    end();
  }

  void authenticationSaslFinal(byte[] data) {
    begin('R').writeInt(12).writeBytes(data);
    end();
  }

  void negotiateProtocolVersion(int newestMinor, List<String> unrecognizedOptions) {
    ByteBuf buf = begin('v');
    buf.writeInt((3 << 16) | newestMinor);
    buf.writeInt(unrecognizedOptions.size());
    for (String option : unrecognizedOptions) {
      cstring(buf, option);
    }
    end();
  }

  void parameterStatus(String name, String value) {
    ByteBuf buf = begin('S');
    cstring(buf, name);
    cstring(buf, value);
    end();
  }

  void backendKeyData(int processId, int secretKey) {
    begin('K').writeInt(processId).writeInt(secretKey);
    end();
  }

  void readyForQuery(char status) {
    begin('Z').writeByte(status);
    end();
  }

  // ---- results --------------------------------------------------------------------------------

  /**
   * RowDescription.
   *
   * @param formats one format code per column (0 text, 1 binary)
   */
  void rowDescription(List<PgColumn> columns, short[] formats) {
    ByteBuf buf = begin('T');
    buf.writeShort(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      PgColumn c = columns.get(i);
      cstring(buf, c.name());
      buf.writeInt(0); // table OID: not a table column
      buf.writeShort(0); // attribute number
      buf.writeInt(c.type().oid());
      buf.writeShort(c.type().typeLength());
      buf.writeInt(-1); // type modifier
      buf.writeShort(formats[i]);
    }
    end();
  }

  /** DataRow; a null value is SQL NULL. */
  void dataRow(byte[][] values) {
    ByteBuf buf = begin('D');
    buf.writeShort(values.length);
    for (byte[] v : values) {
      if (v == null) {
        buf.writeInt(-1);
      } else {
        buf.writeInt(v.length);
        buf.writeBytes(v);
      }
    }
    end();
  }

  void commandComplete(String tag) {
    cstring(begin('C'), tag);
    end();
  }

  void emptyQueryResponse() {
    begin('I');
    end();
  }

  void parseComplete() {
    begin('1');
    end();
  }

  void bindComplete() {
    begin('2');
    end();
  }

  void closeComplete() {
    begin('3');
    end();
  }

  void noData() {
    begin('n');
    end();
  }

  void portalSuspended() {
    begin('s');
    end();
  }

  void parameterDescription(int[] oids) {
    ByteBuf buf = begin('t');
    buf.writeShort(oids.length);
    for (int oid : oids) {
      buf.writeInt(oid);
    }
    end();
  }

  // ---- errors and notices ---------------------------------------------------------------------

  /**
   * ErrorResponse or NoticeResponse.
   *
   * @param position 1-based character position in the client's query string, 0 = none
   */
  void errorOrNotice(
      boolean error,
      String severity,
      String sqlState,
      String message,
      int position,
      String hint,
      String detail) {
    ByteBuf buf = begin(error ? 'E' : 'N');
    field(buf, 'S', severity);
    field(buf, 'V', severity);
    field(buf, 'C', sqlState);
    field(buf, 'M', message);
    if (detail != null) {
      field(buf, 'D', detail);
    }
    if (hint != null) {
      field(buf, 'H', hint);
    }
    if (position > 0) {
      field(buf, 'P', Integer.toString(position));
    }
    buf.writeByte(0);
    end();
  }

  private static void field(ByteBuf buf, char code, String value) {
    buf.writeByte(code);
    cstring(buf, value);
  }
}
