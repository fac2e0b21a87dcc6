package io.openrs.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.openrs.ltl.Oqid;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Random frames survive encode and decode, whole and cut into random reads (seeded by jqwik; the
 * seed is printed on failure and replayed with {@code -Djqwik.seed=...}).
 */
class FramePropertiesTest {

  @Property(tries = 500)
  void anyFrameRoundTrips(@ForAll("frames") Frame frame) {
    byte[] bytes = Samples.encode(frame);
    assertThat(decodeAll(List.of(bytes))).containsExactly(frame);
  }

  @Property(tries = 200)
  void anyStreamOfFramesCutAnywhereDecodesToTheSameFrames(
      @ForAll @Size(min = 1, max = 8) List<@From("frames") Frame> frames,
      @ForAll @Size(max = 20) List<@IntRange(min = 0, max = 10_000) Integer> cuts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    frames.forEach(f -> out.writeBytes(Samples.encode(f)));
    byte[] stream = out.toByteArray();
    int[] at = cuts.stream().mapToInt(c -> c % (stream.length + 1)).sorted().toArray();
    List<byte[]> reads = new ArrayList<>();
    int from = 0;
    for (int cut : at) {
      reads.add(Arrays.copyOfRange(stream, from, cut));
      from = cut;
    }
    reads.add(Arrays.copyOfRange(stream, from, stream.length));
    assertThat(decodeAll(reads)).containsExactlyElementsOf(frames);
  }

  private static List<Frame> decodeAll(List<byte[]> reads) {
    EmbeddedChannel ch = new EmbeddedChannel();
    FrameCodec.install(ch.pipeline(), WireProtocol.DEFAULT_MAX_FRAME_LENGTH);
    for (byte[] r : reads) {
      ch.writeInbound(Unpooled.wrappedBuffer(r));
    }
    ch.finish();
    List<Frame> frames = new ArrayList<>();
    Frame f;
    while ((f = ch.readInbound()) != null) {
      frames.add(f);
    }
    return frames;
  }

  @Provide
  Arbitrary<Frame> frames() {
    Arbitrary<Long> sequence = Arbitraries.longs().between(1, Long.MAX_VALUE);
    Arbitrary<Integer> count = Arbitraries.integers().between(0, Integer.MAX_VALUE);
    Arbitrary<Integer> position = Arbitraries.integers().between(1, Integer.MAX_VALUE);
    Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
    Arbitrary<Oqid> oqid =
        Arbitraries.bytes()
            .array(byte[].class)
            .ofMinSize(1)
            .ofMaxSize(Oqid.MAX_BYTES)
            .map(Oqid::of);
    Arbitrary<Optional<Oqid>> maybeOqid = oqid.optional();
    Arbitrary<String> text =
        Arbitraries.strings().all().ofMaxLength(100).filter(FramePropertiesTest::isUnicode);
    return Arbitraries.oneOf(
        bytes.map(Frame.Hello::new),
        Combinators.combine(Arbitraries.integers().between(1, 2), maybeOqid, bytes)
            .as(Frame.Welcome::new),
        Combinators.combine(
                Arbitraries.integers().between(3, Integer.MAX_VALUE),
                maybeOqid,
                bytes,
                Arbitraries.integers()
                    .between(1, Integer.MAX_VALUE - 1)
                    .flatMap(
                        h ->
                            Arbitraries.integers()
                                .between(h + 1, Integer.MAX_VALUE)
                                .map(i -> Optional.of(new Frame.Liveness(h, i)))))
            .as(Frame.Welcome::new),
        Arbitraries.just(new Frame.Heartbeat()),
        Combinators.combine(sequence, bytes).as(Frame.Batch::new),
        Combinators.combine(sequence, count).as(Frame.BatchAccepted::new),
        Combinators.combine(sequence, count, position, position, maybeOqid, text)
            .as(Frame.BatchRejected::new),
        Arbitraries.longs().map(Frame.GetTruncation::new),
        Combinators.combine(Arbitraries.longs(), maybeOqid).as(Frame.Truncation::new),
        Combinators.combine(oqid, bytes).as(Frame.StoreResume::new),
        Combinators.combine(Arbitraries.of(ErrorCode.class), text).as(Frame.Error::new),
        Combinators.combine(Arbitraries.of(Frame.StatusKind.class), text, text)
            .as(Frame.StatusItem::new)
            .list()
            .ofMaxSize(5)
            .map(Frame.AgentStatus::new));
  }

  /** Strings without lone surrogates (those have no UTF-8 form). */
  private static boolean isUnicode(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
          return false;
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        return false;
      }
    }
    return true;
  }
}
