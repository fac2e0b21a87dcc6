package io.openrs.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * Coverage-guided fuzzing (Jazzer) of the LTL port's frame decoder: {@link FrameCodec#decode} and
 * the Netty {@link FrameCodec.Decoder} the server installs, fed the same bytes in chunks.
 *
 * <p>The promise: any byte stream is cut into frames or refused with a {@link
 * WireProtocolException} that names what was wrong (never another exception, never more buffered
 * than the maximum frame length); every frame decoded is canonical (encoding it again gives exactly
 * the bytes it was read from); a Hello's connect text parses or is refused with a {@link
 * WireProtocolException} too. The maximum frame length is the smallest configurable one (1 KiB) so
 * that inputs longer than it (the long pass allows 16 KiB) exercise the length check.
 *
 * <p>Seeds and the crashing inputs found so far are in {@code
 * src/test/resources/io/openrs/wire/FrameDecoderFuzzTestInputs/}; {@code mvn test} runs them
 * (regression mode), {@code scripts/fuzz.sh wire} fuzzes (docs/testing.md#fuzzing).
 */
class FrameDecoderFuzzTest {
  private static final int MAX_FRAME_LENGTH = WireProtocol.MIN_MAX_FRAME_LENGTH;

  /**
   * Input: the byte stream, then (last byte, taken first by the data provider) the size of the
   * chunks it arrives in, 1..64.
   */
  @FuzzTest
  void framesDecodeCanonicallyOrAreRefusedWithWireProtocolException(FuzzedDataProvider data) {
    int chunk = data.consumeInt(1, 64);
    byte[] stream = data.consumeRemainingAsBytes();

    List<Frame> whole = new ArrayList<>();
    WireProtocolException wholeError = decodeWhole(stream, whole);
    List<Frame> chunked = new ArrayList<>();
    WireProtocolException chunkedError = decodeInChunks(stream, chunk, chunked);

    assertThat(chunked).as("frames read in chunks of " + chunk).isEqualTo(whole);
    int framed = whole.stream().mapToInt(f -> encode(f).length).sum();
    if (wholeError != null || framed < stream.length) {
      assertThat(chunkedError)
          .as("a bad frame, or a connection closed inside a frame, is refused")
          .isNotNull();
    } else {
      assertThat(chunkedError).as("a stream of whole frames is not refused").isNull();
    }
    for (Frame frame : whole) {
      if (frame instanceof Frame.Hello hello) {
        checkHello(hello);
      }
    }
  }

  /** Reads every whole frame of {@code stream}; checks each is canonical. */
  private static WireProtocolException decodeWhole(byte[] stream, List<Frame> frames) {
    ByteBuf in = Unpooled.wrappedBuffer(stream);
    while (true) {
      int start = in.readerIndex();
      Frame frame;
      try {
        frame = FrameCodec.decode(in, MAX_FRAME_LENGTH);
      } catch (WireProtocolException e) {
        checkRefusal(e);
        assertThat(in.readerIndex()).as("a refused frame is not consumed").isEqualTo(start);
        return e;
      } catch (RuntimeException | Error e) {
        throw new AssertionError("decode threw " + e + " instead of WireProtocolException", e);
      }
      if (frame == null) {
        assertThat(in.readerIndex()).as("an incomplete frame is not consumed").isEqualTo(start);
        return null;
      }
      byte[] read = ByteBufUtil.getBytes(in, start, in.readerIndex() - start);
      assertThat(read.length - FrameCodec.LENGTH_SIZE).isLessThanOrEqualTo(MAX_FRAME_LENGTH);
      assertThat(encode(frame))
          .as("%s encodes to the bytes it was read from", frame)
          .isEqualTo(read);
      frames.add(frame);
    }
  }

  /** Feeds {@code stream} to the Netty decoder {@code chunk} bytes at a time, then closes. */
  private static WireProtocolException decodeInChunks(
      byte[] stream, int chunk, List<Frame> frames) {
    EmbeddedChannel channel = new EmbeddedChannel(new FrameCodec.Decoder(MAX_FRAME_LENGTH));
    try {
      for (int at = 0; at < stream.length; at += chunk) {
        int n = Math.min(chunk, stream.length - at);
        channel.writeInbound(Unpooled.wrappedBuffer(stream, at, n));
        drain(channel, frames);
      }
      channel.finish();
      drain(channel, frames);
      return null;
    } catch (WireProtocolException e) {
      checkRefusal(e);
      drain(channel, frames);
      channel.finishAndReleaseAll();
      return e;
    } catch (RuntimeException | Error e) {
      throw new AssertionError("the decoder threw " + e + " instead of WireProtocolException", e);
    }
  }

  private static void drain(EmbeddedChannel channel, List<Frame> frames) {
    for (Object o; (o = channel.readInbound()) != null; ) {
      frames.add((Frame) o);
    }
  }

  private static void checkRefusal(WireProtocolException e) {
    assertThat(e.getMessage()).as("a refusal says what was wrong").isNotBlank();
    assertThat(e.getClass()).isEqualTo(WireProtocolException.class);
  }

  private static void checkHello(Frame.Hello hello) {
    try {
      hello.parse();
    } catch (WireProtocolException e) {
      assertThat(e.getMessage()).as("a refused Hello says why").isNotBlank();
    } catch (RuntimeException | Error e) {
      fail("Hello.parse threw " + e + " instead of WireProtocolException", e);
    }
    assertThat(hello.toString()).startsWith("Hello[");
  }

  private static byte[] encode(Frame frame) {
    ByteBuf buf = FrameCodec.encode(frame, ByteBufAllocator.DEFAULT, MAX_FRAME_LENGTH);
    try {
      return ByteBufUtil.getBytes(buf);
    } finally {
      buf.release();
    }
  }
}
