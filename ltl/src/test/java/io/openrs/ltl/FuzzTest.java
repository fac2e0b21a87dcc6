package io.openrs.ltl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.openrs.ltl.packed.PackedDecoder;
import io.openrs.ltl.packed.PackedEncoder;
import io.openrs.ltl.packed.PackedFormatException;
import io.openrs.ltl.text.LtlParseException;
import io.openrs.ltl.text.LtlParser;
import io.openrs.ltl.text.LtlWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.RandomGenerator;

/**
 * Feeds mutated and random input to the text parser and the packed decoder for a bounded time
 * (system property {@code ltl.fuzz.seconds}, default 8 per target) and a bounded count. Each input
 * must either decode or fail with the dedicated exception; whatever is accepted must be well-formed
 * (it writes back to text or bytes that decode to an equal command). The seed is fixed ({@code
 * ltl.fuzz.seed}) and printed with any failure together with the input in hex.
 */
class FuzzTest {
  private static final long SEED = Long.getLong("ltl.fuzz.seed", 20261121L);
  private static final long SECONDS = Long.getLong("ltl.fuzz.seconds", 8);
  private static final int MAX_INPUTS = 2_000_000;

  @Example
  void theTextParserOnlyEverReturnsCommandsOrThrowsLtlParseException() {
    fuzz(new TextTarget());
  }

  @Example
  void thePackedDecoderOnlyEverReturnsCommandsOrThrowsPackedFormatException() {
    fuzz(new PackedTarget());
  }

  private interface Target {
    byte[] encode(LtlCommand command);

    /** Decodes; returns what was accepted, or throws the target's dedicated exception. */
    List<LtlCommand> decode(byte[] input) throws Exception;

    boolean isDedicated(Throwable t);

    /** Re-encodes accepted commands and checks they decode to the same. */
    void checkWellFormed(List<LtlCommand> accepted) throws Exception;
  }

  /** Builds the corpus on the jqwik thread, then fuzzes under a hang-detecting timeout. */
  private static void fuzz(Target target) {
    Random random = new Random(SEED);
    List<byte[]> corpus = corpus(target, random);
    assertTimeoutPreemptively(
        Duration.ofSeconds(SECONDS + 120), () -> fuzz(target, corpus, random));
  }

  private static void fuzz(Target target, List<byte[]> corpus, Random random) {
    long deadline = System.nanoTime() + Duration.ofSeconds(SECONDS).toNanos();
    int inputs = 0;
    int accepted = 0;
    int refused = 0;
    while (inputs < MAX_INPUTS && System.nanoTime() < deadline) {
      byte[] input = mutate(corpus.get(random.nextInt(corpus.size())), corpus, random);
      inputs++;
      List<LtlCommand> result;
      try {
        result = target.decode(input);
      } catch (Throwable t) {
        if (target.isDedicated(t)) {
          refused++;
          continue;
        }
        throw new AssertionError(failure("threw " + t, input), t);
      }
      accepted++;
      try {
        target.checkWellFormed(result);
      } catch (Throwable t) {
        throw new AssertionError(failure("accepted a command that does not round-trip", input), t);
      }
    }
    System.out.printf(
        "fuzz %s: seed=%d inputs=%d accepted=%d refused=%d%n",
        target.getClass().getSimpleName(), SEED, inputs, accepted, refused);
    assertThat(inputs).isGreaterThan(1000);
    assertThat(refused).as("mutations must produce malformed input").isPositive();
    assertThat(accepted).as("some mutations stay well-formed").isPositive();
  }

  private static String failure(String what, byte[] input) {
    return "fuzz seed "
        + SEED
        + ": "
        + what
        + " for input (hex) "
        + HexFormat.of().formatHex(input);
  }

  private static List<byte[]> corpus(Target target, Random random) {
    Arbitrary<LtlCommand> commands = LtlArbitraries.commands();
    RandomGenerator<LtlCommand> generator = commands.generator(100);
    List<byte[]> corpus = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      corpus.add(target.encode(generator.next(random).value()));
    }
    return corpus;
  }

  /** One to four mutations: flip, insert, delete, overwrite with interesting bytes, splice, cut. */
  static byte[] mutate(byte[] seed, List<byte[]> corpus, Random r) {
    byte[] b = seed.clone();
    int rounds = 1 + r.nextInt(4);
    for (int k = 0; k < rounds; k++) {
      if (b.length == 0) {
        b = new byte[] {(byte) r.nextInt(256)};
      }
      int at = r.nextInt(b.length);
      switch (r.nextInt(8)) {
        case 0 -> b[at] ^= (byte) (1 << r.nextInt(8));
        case 1 -> b[at] = INTERESTING[r.nextInt(INTERESTING.length)];
        case 2 -> b = insert(b, at, new byte[] {INTERESTING[r.nextInt(INTERESTING.length)]});
        case 3 -> b = remove(b, at, 1 + r.nextInt(Math.min(8, b.length - at)));
        case 4 -> b = java.util.Arrays.copyOf(b, at);
        case 5 -> {
          byte[] other = corpus.get(r.nextInt(corpus.size()));
          int from = r.nextInt(other.length);
          int len = 1 + r.nextInt(Math.min(32, other.length - from));
          b = insert(b, at, java.util.Arrays.copyOfRange(other, from, from + len));
        }
        case 6 -> {
          byte[] random = new byte[1 + r.nextInt(16)];
          r.nextBytes(random);
          b = insert(b, at, random);
        }
        default -> b[at] = (byte) r.nextInt(256);
      }
    }
    return b;
  }

  /** Bytes that sit on grammar and UTF-8 boundaries: separators, escapes, lead bytes, NUL. */
  private static final byte[] INTERESTING = interesting();

  private static byte[] interesting() {
    byte[] ascii =
        " \t\n\r'\"\\().,=-+0123456789abcdefxEZTn:_$".getBytes(StandardCharsets.ISO_8859_1);
    byte[] other = {0, 1, 0x7f, (byte) 0x80, (byte) 0xc0, (byte) 0xe0, (byte) 0xf0, (byte) 0xff};
    byte[] all = java.util.Arrays.copyOf(ascii, ascii.length + other.length);
    System.arraycopy(other, 0, all, ascii.length, other.length);
    return all;
  }

  private static byte[] insert(byte[] b, int at, byte[] what) {
    byte[] out = new byte[b.length + what.length];
    System.arraycopy(b, 0, out, 0, at);
    System.arraycopy(what, 0, out, at, what.length);
    System.arraycopy(b, at, out, at + what.length, b.length - at);
    return out;
  }

  private static byte[] remove(byte[] b, int at, int n) {
    byte[] out = new byte[b.length - n];
    System.arraycopy(b, 0, out, 0, at);
    System.arraycopy(b, at + n, out, at, b.length - at - n);
    return out;
  }

  private static final class TextTarget implements Target {
    private final LtlWriter writer = new LtlWriter();
    private final LtlParser parser = new LtlParser();

    @Override
    public byte[] encode(LtlCommand command) {
      ByteBuilder out = new ByteBuilder();
      writer.write(command, out);
      return out.toByteArray();
    }

    @Override
    public List<LtlCommand> decode(byte[] input) throws LtlParseException {
      List<LtlCommand> out = new ArrayList<>();
      parser.parse(input, 0, input.length, out::add);
      return out;
    }

    @Override
    public boolean isDedicated(Throwable t) {
      return t instanceof LtlParseException;
    }

    @Override
    public void checkWellFormed(List<LtlCommand> accepted) throws LtlParseException {
      for (LtlCommand c : accepted) {
        assertThat(new LtlParser().parseOne(writer.toText(c))).isEqualTo(c);
      }
    }
  }

  private static final class PackedTarget implements Target {
    private final PackedEncoder encoder = new PackedEncoder();
    private final PackedDecoder decoder = new PackedDecoder();

    @Override
    public byte[] encode(LtlCommand command) {
      return encoder.encode(command);
    }

    @Override
    public List<LtlCommand> decode(byte[] input) throws PackedFormatException {
      List<LtlCommand> out = new ArrayList<>();
      decoder.decodeAll(input, 0, input.length, out::add);
      return out;
    }

    @Override
    public boolean isDedicated(Throwable t) {
      return t instanceof PackedFormatException;
    }

    @Override
    public void checkWellFormed(List<LtlCommand> accepted) throws PackedFormatException {
      for (LtlCommand c : accepted) {
        assertThat(new PackedDecoder().decode(encoder.encode(c))).isEqualTo(Optional.of(c));
      }
    }
  }

  @Example
  void theMutatorIsDeterministicForASeed() {
    List<byte[]> corpus = List.of("abc".getBytes(StandardCharsets.US_ASCII));
    byte[] a = mutate(corpus.get(0), corpus, new Random(7));
    byte[] b = mutate(corpus.get(0), corpus, new Random(7));
    if (!java.util.Arrays.equals(a, b)) {
      fail("mutations must be reproducible from the seed");
    }
  }
}
