package io.openrs.ltl;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.ltl.packed.PackedDecoder;
import io.openrs.ltl.packed.PackedEncoder;
import io.openrs.ltl.text.LtlParser;
import io.openrs.ltl.text.LtlWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Every command of every kind and value survives text and packed round trips unchanged. Seeds are
 * fixed so CI is repeatable; jqwik prints the seed and the shrunk sample of a failure.
 */
class RoundTripTest {
  private final LtlWriter writer = new LtlWriter();
  private final LtlParser parser = new LtlParser();
  private final PackedEncoder encoder = new PackedEncoder();
  private final PackedDecoder decoder = new PackedDecoder();

  @Provide
  Arbitrary<LtlCommand> command() {
    return LtlArbitraries.commands();
  }

  @Provide
  Arbitrary<List<LtlCommand>> batch() {
    return LtlArbitraries.commands().list().ofMinSize(1).ofMaxSize(30);
  }

  @Property(tries = 3000, seed = "20261121")
  void textRoundTripGivesAnEqualCommand(@ForAll("command") LtlCommand command) throws Exception {
    String line = writer.toText(command);
    assertThat(line).doesNotContain("\n").doesNotContain("\r");
    assertThat(parser.parseOne(line)).isEqualTo(command);
  }

  @Property(tries = 3000, seed = "20261121")
  void packedRoundTripGivesAnEqualCommand(@ForAll("command") LtlCommand command) throws Exception {
    byte[] packed = encoder.encode(command);
    assertThat(decoder.decode(packed)).contains(command);
  }

  @Property(tries = 300, seed = "20261121")
  void aBatchOfLinesParsesToTheSameCommandsInOrder(@ForAll("batch") List<LtlCommand> commands)
      throws Exception {
    ByteBuilder text = new ByteBuilder();
    ByteBuilder packed = new ByteBuilder();
    for (LtlCommand c : commands) {
      writer.write(c, text);
      encoder.encode(c, packed);
    }
    List<LtlCommand> fromText = new ArrayList<>();
    int n = parser.parse(text.array(), 0, text.size(), fromText::add);
    assertThat(n).isEqualTo(commands.size());
    assertThat(fromText).isEqualTo(commands);

    List<LtlCommand> fromPacked = new ArrayList<>();
    int skipped = decoder.decodeAll(packed.array(), 0, packed.size(), fromPacked::add);
    assertThat(skipped).isZero();
    assertThat(fromPacked).isEqualTo(commands);
  }

  @Property(tries = 500, seed = "20261121")
  void writingIsCanonical(@ForAll("command") LtlCommand command) throws Exception {
    String once = writer.toText(command);
    String twice = writer.toText(parser.parseOne(once));
    assertThat(twice).isEqualTo(once);
    assertThat(once.getBytes(StandardCharsets.UTF_8)).isNotEmpty();
  }
}
