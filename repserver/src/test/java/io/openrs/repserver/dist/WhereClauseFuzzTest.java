package io.openrs.repserver.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.openrs.ltl.Value;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Coverage-guided fuzzing (Jazzer) of a subscription's where clause, the one part of {@code create
 * subscription} that the RCL parser hands on as text.
 *
 * <p>The promise: any text either parses or is refused with a {@link
 * WhereClause.WhereClauseException} whose position lies inside the text (1 .. length + 1) and whose
 * message names it (never another exception, never a stack overflow however deep the nesting); a
 * parsed clause keeps its text, reads only columns it names, and evaluates against a row of nulls
 * without throwing (SQL's unknown, never true).
 *
 * <p>Seeds and the crashing inputs found so far are in {@code
 * src/test/resources/io/openrs/repserver/dist/WhereClauseFuzzTestInputs/}; {@code mvn test} runs
 * them, {@code scripts/fuzz.sh where} fuzzes (docs/testing.md#fuzzing).
 */
class WhereClauseFuzzTest {

  @FuzzTest
  void clausesParseOrAreRefusedWithAPosition(byte[] input) {
    String text = new String(input, StandardCharsets.UTF_8);
    WhereClause clause;
    try {
      clause = WhereClause.parse(text);
    } catch (WhereClause.WhereClauseException e) {
      assertThat(e.position()).as("position of %s", e.getMessage()).isBetween(1, text.length() + 1);
      assertThat(e.getMessage()).startsWith("where clause: ").contains("position " + e.position());
      return;
    } catch (RuntimeException | Error e) {
      throw new AssertionError(
          "WhereClause.parse threw " + e + " instead of WhereClauseException", e);
    }
    assertThat(clause.toString()).isEqualTo(text);
    assertThat(clause.columns()).isNotEmpty();
    boolean matches =
        clause.matches(
            column -> {
              assertThat(clause.columns()).as("columns read").contains(column);
              return Optional.of(Value.NULL);
            });
    if (matches) {
      assertThat(text.toLowerCase(java.util.Locale.ROOT))
          .as("only IS NULL is true for nulls")
          .contains("is");
    }
  }
}
