package io.openrs.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The decoder against damaged input, one shape per test. */
class PgFrameDecoderTest {
  private static EmbeddedChannel channel() {
    return new EmbeddedChannel(new PgFrameDecoder(null, 1024));
  }

  private static ByteBuf startup() {
    ByteBuf b = Unpooled.buffer();
    byte[] params = "user\0sa\0\0".getBytes(StandardCharsets.UTF_8);
    b.writeInt(8 + params.length).writeInt(PgFrameDecoder.PROTOCOL_3_0).writeBytes(params);
    return b;
  }

  private static EmbeddedChannel started() {
    EmbeddedChannel ch = channel();
    ch.writeInbound(startup());
    FrontendMessage.Inbound in = ch.readInbound();
    assertThat(in.message()).isInstanceOf(FrontendMessage.Startup.class);
    return ch;
  }

  private static FrontendMessage next(EmbeddedChannel ch) {
    FrontendMessage.Inbound in = ch.readInbound();
    return in == null ? null : in.message();
  }

  private static String violation(EmbeddedChannel ch) {
    FrontendMessage m = next(ch);
    assertThat(m).isInstanceOf(FrontendMessage.Violation.class);
    return ((FrontendMessage.Violation) m).message();
  }

  @Test
  void emptyInputIsNothingYet() {
    EmbeddedChannel ch = channel();
    ch.writeInbound(Unpooled.buffer());
    assertThat(next(ch)).isNull();
  }

  @Test
  void aStartupPacketCutInsideItsLengthWaits() {
    EmbeddedChannel ch = channel();
    ByteBuf whole = startup();
    ch.writeInbound(whole.readRetainedSlice(2));
    assertThat(next(ch)).isNull();
    ch.writeInbound(whole);
    assertThat(next(ch)).isInstanceOf(FrontendMessage.Startup.class);
  }

  @Test
  void aStartupPacketCutInsideItsBodyWaits() {
    EmbeddedChannel ch = channel();
    ByteBuf whole = startup();
    ch.writeInbound(whole.readRetainedSlice(10));
    assertThat(next(ch)).isNull();
    ch.writeInbound(whole);
    FrontendMessage.Startup s = (FrontendMessage.Startup) next(ch);
    assertThat(s.parameters()).containsEntry("user", "sa");
    assertThat(s.tls()).isFalse();
  }

  @Test
  void aStartupPacketWithoutItsTerminatorIsRefused() {
    EmbeddedChannel ch = channel();
    byte[] params = "user\0sa\0".getBytes(StandardCharsets.UTF_8);
    ch.writeInbound(
        Unpooled.buffer()
            .writeInt(8 + params.length)
            .writeInt(PgFrameDecoder.PROTOCOL_3_0)
            .writeBytes(params));
    assertThat(violation(ch)).startsWith("invalid string in message");
  }

  @Test
  void aStartupLengthBelowEightIsRefused() {
    EmbeddedChannel ch = channel();
    ch.writeInbound(Unpooled.buffer().writeInt(4).writeInt(0));
    assertThat(violation(ch)).isEqualTo("invalid length of startup packet: 4 (8..10000 allowed)");
  }

  @Test
  void anSslRequestIsAnsweredNWithoutTls() {
    EmbeddedChannel ch = channel();
    ch.writeInbound(Unpooled.buffer().writeInt(8).writeInt(PgFrameDecoder.SSL_REQUEST_CODE));
    ByteBuf answer = ch.readOutbound();
    assertThat(answer.readByte()).isEqualTo((byte) 'N');
    answer.release();
    assertThat(next(ch)).isNull();
  }

  @Test
  void bytesAfterAnSslRequestAreRefused() {
    EmbeddedChannel ch = channel();
    ch.writeInbound(
        Unpooled.buffer().writeInt(8).writeInt(PgFrameDecoder.SSL_REQUEST_CODE).writeByte(1));
    assertThat(violation(ch)).isEqualTo("received unencrypted data after encryption request");
  }

  @Test
  void aCancelRequestCarriesProcessAndKey() {
    EmbeddedChannel ch = channel();
    ch.writeInbound(
        Unpooled.buffer()
            .writeInt(16)
            .writeInt(PgFrameDecoder.CANCEL_REQUEST_CODE)
            .writeInt(1234)
            .writeInt(-5));
    assertThat(next(ch)).isEqualTo(new FrontendMessage.Cancel(1234, -5));
  }

  @Test
  void aMessageCutInsideItsHeaderOrBodyWaits() {
    EmbeddedChannel ch = started();
    ByteBuf q =
        Unpooled.buffer().writeByte('Q').writeInt(4 + 3).writeBytes(new byte[] {'a', 'b', 0});
    ch.writeInbound(q.readRetainedSlice(3));
    assertThat(next(ch)).isNull();
    ch.writeInbound(q.readRetainedSlice(3));
    assertThat(next(ch)).isNull();
    ch.writeInbound(q);
    assertThat(next(ch)).isEqualTo(new FrontendMessage.Query("ab"));
  }

  @Test
  void aLengthAboveTheLimitIsRefusedBeforeTheBodyArrives() {
    EmbeddedChannel ch = started();
    ch.writeInbound(Unpooled.buffer().writeByte('Q').writeInt(1029));
    assertThat(violation(ch))
        .isEqualTo("invalid message length 1029 for message type 'Q' (4..1028 allowed)");
    // nothing more is read
    ch.writeInbound(Unpooled.buffer().writeByte('S').writeInt(4));
    assertThat(next(ch)).isNull();
  }

  @Test
  void aSyncWithABodyIsRefused() {
    EmbeddedChannel ch = started();
    ch.writeInbound(Unpooled.buffer().writeByte('S').writeInt(5).writeByte(0));
    assertThat(violation(ch)).startsWith("invalid message length 5 for message type 'S'");
  }

  @Test
  void junkAfterTheFieldsOfAMessageIsRefused() {
    EmbeddedChannel ch = started();
    ch.writeInbound(
        Unpooled.buffer()
            .writeByte('E')
            .writeInt(4 + 1 + 4 + 2)
            .writeByte(0)
            .writeInt(0)
            .writeShort(7));
    assertThat(violation(ch)).startsWith("invalid message format: 2 bytes left over");
  }

  @Test
  void aMessageEndingInsideAFieldIsRefused() {
    EmbeddedChannel ch = started();
    ch.writeInbound(
        Unpooled.buffer().writeByte('E').writeInt(4 + 1 + 2).writeByte(0).writeShort(0));
    assertThat(violation(ch)).startsWith("insufficient data left in message: row limit");
  }

  @Test
  void aDescribeOfAnUnknownKindIsRefused() {
    EmbeddedChannel ch = started();
    ch.writeInbound(Unpooled.buffer().writeByte('D').writeInt(4 + 2).writeByte('X').writeByte(0));
    assertThat(violation(ch)).isEqualTo("invalid DESCRIBE message subtype 88");
  }

  @Test
  void invalidUtf8IsAnErrorForThatMessageOnly() {
    EmbeddedChannel ch = started();
    ch.writeInbound(
        Unpooled.buffer().writeByte('Q').writeInt(4 + 2).writeByte(0xff).writeByte(0),
        Unpooled.buffer().writeByte('S').writeInt(4));
    assertThat(next(ch)).isInstanceOf(FrontendMessage.BadEncoding.class);
    assertThat(next(ch)).isInstanceOf(FrontendMessage.Sync.class);
  }

  @Test
  void severalMessagesInOneBufferAreAllRead() {
    EmbeddedChannel ch = started();
    ch.writeInbound(
        Unpooled.buffer()
            .writeByte('H')
            .writeInt(4)
            .writeByte('S')
            .writeInt(4)
            .writeByte('X')
            .writeInt(4)
            .writeByte('S')
            .writeInt(4));
    assertThat(next(ch)).isInstanceOf(FrontendMessage.Flush.class);
    assertThat(next(ch)).isInstanceOf(FrontendMessage.Sync.class);
    assertThat(next(ch)).isInstanceOf(FrontendMessage.Terminate.class);
    // nothing is read after Terminate
    assertThat(next(ch)).isNull();
  }

  @Test
  void aQueryLongerThanTheStatementLimitIsSkippedAsItArrivesAndTheNextMessageIsRead() {
    EmbeddedChannel ch = new EmbeddedChannel(new PgFrameDecoder(null, 64 * 1024 * 1024, 1024));
    ch.writeInbound(startup());
    assertThat(next(ch)).isInstanceOf(FrontendMessage.Startup.class);
    int body = 40 * 1024 * 1024;
    ch.writeInbound(Unpooled.buffer().writeByte('Q').writeInt(4 + body));
    byte[] chunk = new byte[64 * 1024];
    java.util.Arrays.fill(chunk, (byte) ';');
    for (int sent = 0; sent < body; sent += chunk.length) {
      ByteBuf piece = Unpooled.wrappedBuffer(chunk);
      ch.writeInbound(piece);
      // nothing is kept: each piece is skipped as it arrives
      assertThat(piece.isReadable()).isFalse();
      if (sent + chunk.length < body) {
        assertThat(next(ch)).isNull();
      }
    }
    FrontendMessage.TooLong tooLong = (FrontendMessage.TooLong) next(ch);
    assertThat(tooLong.type()).isEqualTo('Q');
    assertThat(tooLong.bodyBytes()).isEqualTo(body);
    assertThat(tooLong.limitBytes()).isEqualTo(1024);
    ch.writeInbound(Unpooled.buffer().writeByte('Q').writeInt(4 + 2).writeByte('x').writeByte(0));
    assertThat(next(ch)).isEqualTo(new FrontendMessage.Query("x"));
  }

  @Test
  void aParseOrBindLongerThanTheStatementLimitIsSkippedToo() {
    EmbeddedChannel ch = new EmbeddedChannel(new PgFrameDecoder(null, 64 * 1024, 1024));
    ch.writeInbound(startup());
    next(ch);
    for (char type : new char[] {'P', 'B'}) {
      ch.writeInbound(Unpooled.buffer().writeByte(type).writeInt(4 + 2000).writeZero(2000));
      FrontendMessage.TooLong m = (FrontendMessage.TooLong) next(ch);
      assertThat(m.type()).isEqualTo(type);
      assertThat(m.bodyBytes()).isEqualTo(2000);
    }
  }

  @Test
  void aPasswordMessageLongerThanAnAuthenticationTokenIsAProtocolViolation() {
    EmbeddedChannel ch = started();
    ch.writeInbound(Unpooled.buffer().writeByte('p').writeInt(4 + 65536));
    assertThat(violation(ch)).contains("invalid message length 65540 for message type 'p'");
  }
}
