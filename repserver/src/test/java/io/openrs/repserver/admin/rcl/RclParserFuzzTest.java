package io.openrs.repserver.admin.rcl;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * Coverage-guided fuzzing (Jazzer) of the parser of admin commands (RCL), the text every statement
 * of the admin port reaches after the statement splitter.
 *
 * <p>The promise: any text either parses or is refused with an {@link RclSyntaxException} whose
 * position lies inside the text (1 .. length + 1, the end of the command) and which names what was
 * found and what was expected, with the message {@code syntax error at position <n>: ...} (never
 * another exception, never a stack overflow however deep the nesting). Whatever parses prints
 * ({@link RclCommand#toString}) as canonical text that parses to a command of the same kind
 * printing the same text.
 *
 * <p>Seeds (the commands of docs/admin-commands.md and RclParserTest) and the crashing inputs found
 * so far are in {@code src/test/resources/io/openrs/repserver/admin/rcl/RclParserFuzzTestInputs/};
 * {@code mvn test} runs them, {@code scripts/fuzz.sh rcl} fuzzes (docs/testing.md#fuzzing).
 */
class RclParserFuzzTest {

  /** Input: the command text in UTF-8 (malformed sequences read as U+FFFD, as the port does). */
  @FuzzTest
  void commandsParseToCanonicalTextOrAreRefusedWithAPosition(byte[] input) {
    String text = new String(input, StandardCharsets.UTF_8);
    RclCommand command;
    try {
      command = RclParser.parse(text);
    } catch (RclSyntaxException e) {
      assertThat(e.position()).as("position of %s", e.getMessage()).isBetween(1, text.length() + 1);
      assertThat(e.getMessage()).startsWith("syntax error at position " + e.position() + ": ");
      assertThat(e.found()).as("what was found").isNotEmpty();
      assertThat(e.expected()).as("what was expected").isNotEmpty();
      return;
    } catch (RuntimeException | Error e) {
      throw new AssertionError("RclParser threw " + e + " instead of RclSyntaxException", e);
    }
    String canonical = command.toString();
    RclCommand again;
    try {
      again = RclParser.parse(canonical);
    } catch (RclSyntaxException e) {
      throw new AssertionError("the canonical text <" + canonical + "> does not parse", e);
    }
    assertThat(again.kind()).as("kind of <%s>", canonical).isEqualTo(command.kind());
    assertThat(again.toString()).as("canonical text of <%s>", canonical).isEqualTo(canonical);
  }
}
