package io.openrs.ltl.text;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.packed.PackedDecoder;
import io.openrs.ltl.packed.PackedEncoder;
import io.openrs.ltl.packed.PackedFormatException;
import io.openrs.ltl.packed.PackedRowReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Coverage-guided fuzzing (Jazzer) of the LTL text parser (every command, {@code connect} included)
 * and of the packed binary readers of the stable queue ({@link PackedDecoder}, {@link
 * PackedRowReader}).
 *
 * <p>The promise: text either parses or is refused with an {@link LtlParseException} whose line,
 * column and line offset lie inside the input and which says what was found and what was expected
 * (never another exception); whatever parses writes back ({@link LtlWriter}) to text that parses to
 * the same commands, and packs ({@link PackedEncoder}) to bytes that decode to the same commands.
 * Packed bytes either decode or are refused with a {@link PackedFormatException} at an offset
 * inside them; what decodes packs back to bytes that decode to it. The line limit is set to 4 KiB
 * so that inputs longer than it (the long pass allows 16 KiB) exercise the limit check.
 *
 * <p>Seeds (the examples of docs/ltl.md, the golden packed commands) and the crashing inputs found
 * so far are in {@code src/test/resources/io/openrs/ltl/text/LtlParserFuzzTestInputs/}; {@code mvn
 * test} runs them, {@code scripts/fuzz.sh ltl-text} and {@code ltl-packed} fuzz
 * (docs/testing.md#fuzzing).
 */
class LtlParserFuzzTest {
  private static final int MAX_LINE_BYTES = 4096;

  private final LtlWriter writer = new LtlWriter();
  private final PackedEncoder encoder = new PackedEncoder();

  @FuzzTest
  void textParsesToCommandsThatRoundTripOrIsRefusedWithAPosition(byte[] input) throws Exception {
    List<LtlCommand> commands = new ArrayList<>();
    try {
      new LtlParser(MAX_LINE_BYTES).parse(input, 0, input.length, commands::add);
    } catch (LtlParseException e) {
      checkRefusal(e, input);
    } catch (RuntimeException | Error e) {
      throw new AssertionError("LtlParser threw " + e + " instead of LtlParseException", e);
    }
    for (LtlCommand command : commands) {
      String text = writer.toText(command);
      assertThat(new LtlParser().parseOne(text))
          .as("the text written for %s", text)
          .isEqualTo(command);
      assertThat(new PackedDecoder().decode(encoder.encode(command)))
          .as("the packed form of %s", text)
          .contains(command);
    }
  }

  @FuzzTest
  void packedBytesDecodeToCommandsThatRoundTripOrAreRefusedWithAnOffset(byte[] input)
      throws Exception {
    List<LtlCommand> commands = new ArrayList<>();
    try {
      new PackedDecoder().decodeAll(input, 0, input.length, commands::add);
    } catch (PackedFormatException e) {
      assertThat(e.offset()).as("the offset of the refusal").isBetween(0L, (long) input.length);
      assertThat(e.getMessage()).isNotBlank();
    } catch (RuntimeException | Error e) {
      throw new AssertionError("PackedDecoder threw " + e + " instead of PackedFormatException", e);
    }
    for (LtlCommand command : commands) {
      assertThat(new PackedDecoder().decode(encoder.encode(command))).contains(command);
    }
    List<LtlCommand> read = readRows(input);
    assertThat(read).as("PackedRowReader reads what PackedDecoder decodes").isEqualTo(commands);
  }

  /** The commands PackedRowReader reads up to its first refusal. */
  private static List<LtlCommand> readRows(byte[] input) {
    List<LtlCommand> read = new ArrayList<>();
    try {
      PackedRowReader reader = new PackedRowReader().reset(input, 0, input.length);
      while (reader.next()) {
        Optional<LtlCommand> command = reader.command();
        command.ifPresent(read::add);
      }
    } catch (PackedFormatException e) {
      assertThat(e.offset()).isBetween(0L, (long) input.length);
    } catch (RuntimeException | Error e) {
      throw new AssertionError(
          "PackedRowReader threw " + e + " instead of PackedFormatException", e);
    }
    return read;
  }

  private static void checkRefusal(LtlParseException e, byte[] input) {
    assertThat(e.line()).as("line").isPositive();
    assertThat(e.column()).as("column").isPositive();
    assertThat(e.lineOffset()).as("line offset").isBetween(0L, (long) input.length);
    assertThat(e.column() - 1L)
        .as("column of %s inside its line", e.getMessage())
        .isLessThanOrEqualTo(input.length - e.lineOffset());
    assertThat(e.found()).as("what was found").isNotEmpty();
    assertThat(e.expected()).as("what was expected").isNotEmpty();
  }
}
