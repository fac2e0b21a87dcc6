package io.openrs.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.EncoderException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Encoder and decoder through a Netty pipeline, on good and on damaged input. */
class FrameCodecTest {
  private static final int MAX = 4096;

  private EmbeddedChannel channel = channel(MAX);

  private static EmbeddedChannel channel(int max) {
    EmbeddedChannel ch = new EmbeddedChannel();
    FrameCodec.install(ch.pipeline(), max);
    return ch;
  }

  @AfterEach
  void closeChannel() {
    channel.finishAndReleaseAll();
  }

  private void feed(byte[] bytes) {
    channel.writeInbound(Unpooled.wrappedBuffer(bytes));
  }

  private List<Frame> read() {
    List<Frame> frames = new ArrayList<>();
    Frame f;
    while ((f = channel.readInbound()) != null) {
      frames.add(f);
    }
    return frames;
  }

  private byte[] written(Frame frame) {
    assertThat(channel.writeOutbound(frame)).isTrue();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuf buf;
    while ((buf = channel.readOutbound()) != null) {
      out.writeBytes(ByteBufUtil.getBytes(buf));
      buf.release();
    }
    return out.toByteArray();
  }

  @Test
  void everyFrameTypeRoundTripsThroughEncoderAndDecoder() {
    List<Frame> samples = Samples.all();
    assertThat(samples.stream().map(Frame::type).distinct())
        .hasSize(15)
        .allMatch(FrameCodec::isKnownType);
    for (Frame frame : samples) {
      byte[] bytes = written(frame);
      assertThat(bytes).isEqualTo(Samples.encode(frame));
      assertThat(ByteBuffer.wrap(bytes).getInt()).isEqualTo(bytes.length - 4);
      assertThat(bytes[4]).isEqualTo((byte) frame.type());
      feed(bytes);
      assertThat(read()).as("%s", frame).containsExactly(frame);
    }
  }

  @Test
  void aFrameSplitAtEveryByteBoundaryIsDecodedOnceWhole() {
    for (Frame frame : Samples.all()) {
      byte[] bytes = Samples.encode(frame);
      for (int cut = 1; cut < bytes.length; cut++) {
        feed(Arrays.copyOfRange(bytes, 0, cut));
        assertThat(read()).as("%s cut at %d", frame, cut).isEmpty();
        feed(Arrays.copyOfRange(bytes, cut, bytes.length));
        assertThat(read()).as("%s cut at %d", frame, cut).containsExactly(frame);
      }
    }
  }

  @Test
  void aFrameFedOneByteAtATimeIsDecoded() {
    for (Frame frame : Samples.all()) {
      byte[] bytes = Samples.encode(frame);
      for (byte b : bytes) {
        assertThat(read()).isEmpty();
        feed(new byte[] {b});
      }
      assertThat(read()).containsExactly(frame);
    }
  }

  @Test
  void severalFramesInOneReadAreDecodedInOrder() {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    Samples.all().forEach(f -> all.writeBytes(Samples.encode(f)));
    byte[] stream = all.toByteArray();
    feed(stream);
    assertThat(read()).containsExactlyElementsOf(Samples.all());

    // and with reads that end in the middle of frames
    for (int chunk : new int[] {2, 3, 7, 13, 64}) {
      for (int at = 0; at < stream.length; at += chunk) {
        feed(Arrays.copyOfRange(stream, at, Math.min(stream.length, at + chunk)));
      }
      assertThat(read()).as("chunks of %d", chunk).containsExactlyElementsOf(Samples.all());
    }
  }

  @Test
  void aLengthAboveTheMaximumIsRefusedAsSoonAsTheLengthIsIn() {
    byte[] header = {0, 0, (byte) 0x10, (byte) 0x01}; // 4097
    assertThatThrownBy(() -> feed(header))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining("frame length 4097")
        .hasMessageContaining("maximum frame length 4096");
  }

  @Test
  void aFrameOfExactlyTheMaximumLengthIsAccepted() {
    byte[] text = new byte[FrameCodec.maxBatchTextBytes(MAX)];
    Frame batch = new Frame.Batch(1, text);
    byte[] bytes = written(batch);
    assertThat(bytes).hasSize(4 + MAX);
    feed(bytes);
    assertThat(read()).containsExactly(batch);
  }

  @Test
  void theEncoderRefusesAFrameAboveTheMaximum() {
    Frame batch = new Frame.Batch(1, new byte[FrameCodec.maxBatchTextBytes(MAX) + 1]);
    assertThatThrownBy(() -> channel.writeOutbound(batch))
        .isInstanceOf(EncoderException.class)
        .hasRootCauseInstanceOf(IllegalArgumentException.class)
        .hasStackTraceContaining(
            "Batch frame of length 4097 exceeds the maximum frame length 4096");
  }

  @Test
  void theLargestLengthFieldIsRefusedWithoutOverflow() {
    assertThatThrownBy(() -> feed(new byte[] {-1, -1, -1, -1}))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining("frame length 4294967295 exceeds the maximum frame length 4096");
  }

  @Test
  void aZeroLengthFrameIsRefused() {
    assertThatThrownBy(() -> feed(new byte[] {0, 0, 0, 0}))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining("frame length 0");
  }

  @ParameterizedTest
  @ValueSource(ints = {0x00, 0x10, 0x7f, 0xff})
  void anUnknownTypeIsRefusedAsSoonAsTheTypeByteIsIn(int type) {
    byte[] frame = Samples.raw(type, new byte[100]);
    assertThatThrownBy(() -> feed(Arrays.copyOf(frame, FrameCodec.HEADER_SIZE)))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining(String.format("unknown frame type 0x%02x", type))
        .hasMessageContaining("frame length 101");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, WireProtocol.MAX_MECHANISM_LENGTH + 1, -1})
  void aScramMechanismNameOutOfBoundsIsRefusedBeforeItIsRead(int length) {
    byte[] body = new byte[4 + 8];
    ByteBuffer.wrap(body).putInt(length);
    assertThatThrownBy(() -> feed(Samples.raw(FrameCodec.TYPE_SCRAM_CLIENT_FIRST, body)))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining(
            "ScramClientFirst frame has mechanism length "
                + Integer.toUnsignedString(length)
                + "; a mechanism name holds 1..64 bytes");
  }

  @Test
  void aBodyTooShortForItsFieldsIsRefusedNamingTheField() {
    byte[] accepted = Samples.encode(new Frame.BatchAccepted(7, 12));
    byte[] body = Arrays.copyOfRange(accepted, 5, accepted.length - 1);
    assertThatThrownBy(() -> feed(Samples.raw(FrameCodec.TYPE_BATCH_ACCEPTED, body)))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining("BatchAccepted frame is too short: commandsTaken needs 4 bytes")
        .hasMessageContaining("3 left (body length 11)");
  }

  @Test
  void everyCutInsideTheFixedFieldsOfABodyIsRefused() {
    for (Frame frame : Samples.all()) {
      byte[] bytes = Samples.encode(frame);
      int fixedEnd = bytes.length - restLength(frame);
      for (int cut = FrameCodec.HEADER_SIZE; cut < fixedEnd; cut++) {
        byte[] body = Arrays.copyOfRange(bytes, FrameCodec.HEADER_SIZE, cut);
        EmbeddedChannel ch = channel(MAX);
        assertThatThrownBy(
                () -> ch.writeInbound(Unpooled.wrappedBuffer(Samples.raw(frame.type(), body))))
            .as("%s cut at %d", frame, cut)
            .isInstanceOf(WireProtocolException.class)
            .hasMessageContaining("frame");
        ch.finishAndReleaseAll();
      }
    }
  }

  /** Bytes at the end of the body that are "rest" fields: cutting there yields another frame. */
  private static int restLength(Frame frame) {
    if (frame instanceof Frame.Hello h) {
      return h.connectText().length;
    } else if (frame instanceof Frame.Batch b) {
      return b.ltlText().length;
    } else if (frame instanceof Frame.BatchRejected r) {
      return Samples.utf8(r.message()).length;
    } else if (frame instanceof Frame.Error e) {
      return Samples.utf8(e.message()).length;
    } else if (frame instanceof Frame.ScramClientFirst f) {
      return f.message().length;
    } else if (frame instanceof Frame.ScramServerFirst f) {
      return f.message().length;
    } else if (frame instanceof Frame.ScramClientFinal f) {
      return f.message().length;
    } else if (frame instanceof Frame.ScramServerFinal f) {
      return f.message().length;
    }
    return 0;
  }

  @Test
  void bytesAfterTheLastFieldAreRefused() {
    byte[] accepted = Samples.encode(new Frame.BatchAccepted(7, 12));
    byte[] body = Arrays.copyOfRange(accepted, 5, accepted.length + 1);
    assertThatThrownBy(() -> feed(Samples.raw(FrameCodec.TYPE_BATCH_ACCEPTED, body)))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining("BatchAccepted frame has 1 bytes after its last field");
  }

  @Test
  void anOqidLongerThanAnOqidMayBeIsRefused() {
    byte[] body = HexFormat.of().parseHex("0000000000000001" + "00000041" + "00".repeat(65));
    assertThatThrownBy(() -> feed(Samples.raw(FrameCodec.TYPE_TRUNCATION, body)))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining("truncationPoint length 65; an OQID holds at most 64 bytes");
  }

  @ParameterizedTest
  @CsvSource({
    // 10,001 items claimed: refused before any item is read
    "00002711, 'itemCount 10001, more than the limit 10000'",
    "00000001030000000000000000, 'unknown status kind 3'",
    "000000010100000401, 'item 0 subject length 1025, more than the limit 1024'",
    "00000001020000000000000001ff, 'item 0 message that is not UTF-8'"
  })
  void anAgentStatusOverItsLimitsIsRefusedNamingTheField(String bodyHex, String message) {
    byte[] body = HexFormat.of().parseHex(bodyHex);
    assertThatThrownBy(() -> feed(Samples.raw(FrameCodec.TYPE_AGENT_STATUS, body)))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining(message);
  }

  @Test
  void anOqidLengthPointingPastTheBodyIsRefused() {
    byte[] body = HexFormat.of().parseHex("0000000000000001" + "00000010" + "0102");
    assertThatThrownBy(() -> feed(Samples.raw(FrameCodec.TYPE_TRUNCATION, body)))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining("truncationPoint needs 16 bytes at body offset 12, 2 left");
  }

  @Test
  void aStoreResumeWithoutAnOqidIsRefused() {
    byte[] body = HexFormat.of().parseHex("00000000" + "00000000");
    assertThatThrownBy(() -> feed(Samples.raw(FrameCodec.TYPE_STORE_RESUME, body)))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining("StoreResume frame has an empty coveredUpTo");
  }

  @Test
  void aBlobLongerThanTheLimitIsRefusedBeforeItIsRead() {
    byte[] body = HexFormat.of().parseHex("00000001" + "00000000" + "00100001");
    EmbeddedChannel ch = channel(WireProtocol.DEFAULT_MAX_FRAME_LENGTH);
    assertThatThrownBy(
            () ->
                ch.writeInbound(Unpooled.wrappedBuffer(Samples.raw(FrameCodec.TYPE_WELCOME, body))))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining("resumeBlob length 1048577, more than the limit 1048576");
    ch.finishAndReleaseAll();
  }

  @Test
  void textThatIsNotUtf8IsRefused() {
    byte[] body = HexFormat.of().parseHex("00000009" + "41c3");
    assertThatThrownBy(() -> feed(Samples.raw(FrameCodec.TYPE_ERROR, body)))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining("Error frame has a message at body offset 4 that is not UTF-8");
  }

  @ParameterizedTest
  @ValueSource(strings = {"00000000", "0000000b", "ffffffff"})
  void anUnknownErrorCodeIsRefused(String code) {
    byte[] body = HexFormat.of().parseHex(code + "41");
    assertThatThrownBy(() -> feed(Samples.raw(FrameCodec.TYPE_ERROR, body)))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining("Error frame has unknown error code " + Long.parseLong(code, 16));
  }

  @Test
  void valuesOutOfRangeAreRefused() {
    // sequence 0
    assertThatThrownBy(
            () ->
                feed(
                    Samples.raw(
                        FrameCodec.TYPE_BATCH, HexFormat.of().parseHex("0000000000000000"))))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining(
            "Batch frame holds a value out of range: batch sequence numbers start at 1");
    channel = channel(MAX);
    // commandsTaken above Integer.MAX_VALUE
    assertThatThrownBy(
            () ->
                feed(
                    Samples.raw(
                        FrameCodec.TYPE_BATCH_ACCEPTED,
                        HexFormat.of().parseHex("0000000000000001" + "80000000"))))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining("commandsTaken 2147483648");
    channel = channel(MAX);
    // line 0
    assertThatThrownBy(
            () ->
                feed(
                    Samples.raw(
                        FrameCodec.TYPE_BATCH_REJECTED,
                        HexFormat.of()
                            .parseHex(
                                "0000000000000001"
                                    + "00000000"
                                    + "00000000"
                                    + "00000001"
                                    + "00000000"))))
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining("line and column are 1-based");
  }

  @Test
  void afterAnErrorTheDecoderDiscardsEverythingThatFollows() {
    assertThatThrownBy(() -> feed(Samples.raw(0x42, new byte[0])))
        .isInstanceOf(WireProtocolException.class);
    feed(Samples.encode(new Frame.GetTruncation(1)));
    assertThat(read()).isEmpty();
  }

  @Test
  void aConnectionClosedInsideAFrameIsAnError() {
    byte[] bytes = Samples.encode(new Frame.BatchAccepted(7, 12));
    feed(Arrays.copyOf(bytes, 10));
    assertThatThrownBy(() -> channel.finish())
        .isInstanceOf(WireProtocolException.class)
        .hasMessageContaining(
            "connection closed inside a frame: 10 bytes received of the 17 it announced");
    channel = channel(MAX);
  }

  @Test
  void aConnectionClosedBetweenFramesIsClean() {
    feed(Samples.encode(new Frame.BatchAccepted(7, 12)));
    assertThat(channel.finish()).isTrue();
    assertThat(read()).containsExactly(new Frame.BatchAccepted(7, 12));
  }

  @Test
  void theMaximumFrameLengthIsChecked() {
    assertThatThrownBy(() -> new FrameCodec.Decoder(1023))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxFrameLength must be 1024..1073741824 bytes, got 1023");
    assertThatThrownBy(() -> new FrameCodec.Encoder((1 << 30) + 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void installNamesTheHandlers() {
    assertThat(channel.pipeline().get(FrameCodec.DECODER_NAME))
        .isInstanceOf(FrameCodec.Decoder.class);
    assertThat(channel.pipeline().get(FrameCodec.ENCODER_NAME))
        .isInstanceOf(FrameCodec.Encoder.class);
  }

  @Test
  void closeWithErrorWritesTheErrorThenCloses() {
    FrameCodec.closeWithError(channel, ErrorCode.PROTOCOL_ERROR, "bad frame");
    assertThat(channel.isOpen()).isFalse();
    ByteBuf out = channel.readOutbound();
    byte[] bytes = ByteBufUtil.getBytes(out);
    out.release();
    assertThat(bytes)
        .isEqualTo(Samples.encode(new Frame.Error(ErrorCode.PROTOCOL_ERROR, "bad frame")));
    channel = channel(MAX);
  }
}
