package io.openrs.dsi.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.dsi.dialect.Dialect;
import io.openrs.ltl.Value;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class LiteralSqlTest {
  private final Dialect pg = Dialect.forName("postgresql");

  private String render(String sql, Value... values) {
    return LiteralSql.render(
        pg,
        sql,
        List.of(values),
        Arrays.asList(new io.openrs.dsi.dialect.ColumnMeta[values.length]));
  }

  @Test
  void placeholdersInQuotedNamesAndStringsStay() {
    assertThat(
            render(
                "UPDATE \"s\".\"what?\" SET \"a\" = ?, \"b\" = '?' WHERE \"k\"\"?\" = ?",
                new Value.Text("it's"),
                new Value.Int32(7)))
        .isEqualTo(
            "UPDATE \"s\".\"what?\" SET \"a\" = 'it''s', \"b\" = '?' WHERE \"k\"\"?\" = '7'");
  }

  @Test
  void nullsBytesAndBackslashesAreWrittenAsTheServerReadsThem() {
    assertThat(
            render(
                "INSERT INTO t (a, b, c) VALUES (?, ?, ?::text)",
                Value.NULL,
                new Value.Binary(new byte[] {0x00, (byte) 0xff, 0x5c}),
                new Value.Text("a\\b")))
        .isEqualTo("INSERT INTO t (a, b, c) VALUES (NULL, '\\x00ff5c', 'a\\b'::text)");
  }

  @Test
  void aMismatchOfPlaceholdersAndValuesIsAnError() {
    assertThatThrownBy(() -> render("DELETE FROM t WHERE a = ? AND b = ?", new Value.Int32(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("more placeholders than the 1 values");
    assertThatThrownBy(() -> render("DELETE FROM t", new Value.Int32(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0 placeholders for 1 values");
  }

  @Test
  void anUnchangedValueHasNoLiteral() {
    assertThatThrownBy(() -> render("UPDATE t SET a = ?", Value.UNCHANGED))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
