package io.openrs.repserver.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.ltl.Value;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class WhereClauseTest {

  private static Function<String, Optional<Value>> row(Object... kv) {
    Map<String, Value> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], (Value) kv[i + 1]);
    }
    return name -> Optional.ofNullable(m.get(name));
  }

  /**
   * Found while fuzzing the admin port (issue 28): a clause of thousands of nested parentheses or
   * NOTs overflowed the parser's stack (StackOverflowError, not a parse error).
   */
  @Test
  void nestingDeeperThanTheLimitIsRefusedWithItsPositionNotAStackOverflow() {
    String deepest =
        "(".repeat(WhereClause.MAX_NESTING) + "a = 1" + ")".repeat(WhereClause.MAX_NESTING);
    assertThat(WhereClause.parse(deepest).columns()).containsExactly("a");
    assertThat(WhereClause.parse("not ".repeat(WhereClause.MAX_NESTING) + "a = 1").columns())
        .containsExactly("a");
    for (String clause :
        new String[] {
          "(".repeat(100_000) + "a = 1" + ")".repeat(100_000), "not ".repeat(100_000) + "a = 1"
        }) {
      int at = clause.startsWith("(") ? 101 : 401;
      assertThatThrownBy(() -> WhereClause.parse(clause))
          .isInstanceOfSatisfying(
              WhereClause.WhereClauseException.class,
              e -> {
                assertThat(e.position()).isEqualTo(at);
                assertThat(e.getMessage())
                    .isEqualTo(
                        "where clause: NOT and parentheses nest deeper than 100 levels at position "
                            + at);
              });
    }
  }

  @Test
  void comparisonsAndLogicWithTypedValues() {
    WhereClause w =
        WhereClause.parse("Region = 'EU' and (amount >= 100.5 or vip = true) and not id in (3, 4)");
    assertThat(w.columns()).containsExactly("region", "amount", "vip", "id");
    assertThat(
            w.matches(
                row(
                    "region", new Value.Text("EU"),
                    "amount", new Value.Decimal(new BigDecimal("100.50")),
                    "vip", new Value.Bool(false),
                    "id", new Value.Int64(5))))
        .isTrue();
    assertThat(
            w.matches(
                row(
                    "region", new Value.Text("EU"),
                    "amount", new Value.Int32(7),
                    "vip", new Value.Bool(true),
                    "id", new Value.Int16((short) 4))))
        .isFalse();
  }

  @Test
  void betweenIsNullAndDatesAndUuids() {
    assertThat(
            WhereClause.parse("d between '2026-01-01' and '2026-12-31'")
                .matches(row("d", new Value.Date(LocalDate.of(2026, 6, 1)))))
        .isTrue();
    assertThat(
            WhereClause.parse("d not between '2026-01-01' and '2026-12-31'")
                .matches(row("d", new Value.Date(LocalDate.of(2026, 6, 1)))))
        .isFalse();
    assertThat(WhereClause.parse("x is null").matches(row("x", new Value.Null()))).isTrue();
    assertThat(WhereClause.parse("x is not null").matches(row("x", new Value.Null()))).isFalse();
    UUID u = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
    assertThat(WhereClause.parse("u = '" + u + "'").matches(row("u", new Value.Uuid(u)))).isTrue();
    assertThat(WhereClause.parse("f < 1e3").matches(row("f", new Value.Float64(999.5)))).isTrue();
  }

  @Test
  void nullMakesAComparisonUnknownSoNeitherItNorItsNegationMatches() {
    Function<String, Optional<Value>> r = row("x", new Value.Null());
    assertThat(WhereClause.parse("x = 1").matches(r)).isFalse();
    assertThat(WhereClause.parse("not x = 1").matches(r)).isFalse();
  }

  @Test
  void parseErrorsNameTheWordAndItsPosition() {
    assertThatThrownBy(() -> WhereClause.parse("a = 1 and"))
        .isInstanceOf(WhereClause.WhereClauseException.class)
        .hasMessage("where clause: expected a column name at position 10, found end of clause");
    assertThatThrownBy(() -> WhereClause.parse("a == 1"))
        .hasMessage(
            "where clause: expected a literal (number, 'string', true, false) at position 4,"
                + " found '='");
    assertThatThrownBy(() -> WhereClause.parse("a = null"))
        .hasMessageContaining("position 5")
        .hasMessageContaining("IS NULL");
    assertThatThrownBy(() -> WhereClause.parse("a = 'open"))
        .hasMessage("where clause: unterminated string starting at position 5");
    assertThatThrownBy(() -> WhereClause.parse("a between 1 or 2"))
        .hasMessage("where clause: expected AND of BETWEEN at position 13, found 'or'");
    assertThatThrownBy(() -> WhereClause.parse("a = 1 b"))
        .hasMessage("where clause: unexpected 'b' at position 7");
  }

  @Test
  void aValueOfTheWrongTypeOrAnAbsentColumnIsAnErrorNotAGuess() {
    assertThatThrownBy(() -> WhereClause.parse("a = 'x'").matches(row("a", new Value.Int32(1))))
        .isInstanceOf(WhereClause.EvaluationException.class)
        .hasMessageContaining("column a of type int32");
    assertThatThrownBy(() -> WhereClause.parse("a = 1").matches(row()))
        .isInstanceOf(WhereClause.EvaluationException.class)
        .hasMessageContaining("does not carry column a");
    assertThatThrownBy(() -> WhereClause.parse("a = 1").matches(row("a", new Value.Unchanged())))
        .hasMessageContaining("not provided by the source");
  }
}
