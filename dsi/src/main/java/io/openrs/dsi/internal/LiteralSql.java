package io.openrs.dsi.internal;

import io.openrs.dsi.dialect.ColumnMeta;
import io.openrs.dsi.dialect.Dialect;
import io.openrs.ltl.Value;
import java.util.List;

/**
 * A parameterized statement of the DSI written out with its values as literals, for a command
 * batch: every {@code ?} outside quoted identifiers ({@code "..."}) and string literals ({@code
 * '...'}) is replaced, in order, by the dialect's literal of the next value.
 */
final class LiteralSql {
  private LiteralSql() {}

  /**
   * @throws IllegalArgumentException when the placeholders and values do not match, or a value has
   *     no literal
   */
  static String render(Dialect dialect, String sql, List<Value> values, List<ColumnMeta> columns) {
    StringBuilder sb = new StringBuilder(sql.length() + 16 * values.size());
    int next = 0;
    char quote = 0;
    for (int i = 0; i < sql.length(); i++) {
      char ch = sql.charAt(i);
      if (quote != 0) {
        sb.append(ch);
        if (ch == quote) {
          quote = 0; // a doubled quote closes and reopens: same result
        }
      } else if (ch == '"' || ch == '\'') {
        quote = ch;
        sb.append(ch);
      } else if (ch == '?') {
        if (next >= values.size()) {
          throw new IllegalArgumentException(
              "more placeholders than the " + values.size() + " values in " + sql);
        }
        dialect.appendLiteral(sb, values.get(next), columns.get(next));
        next++;
      } else {
        sb.append(ch);
      }
    }
    if (next != values.size()) {
      throw new IllegalArgumentException(
          next + " placeholders for " + values.size() + " values in " + sql);
    }
    return sb.toString();
  }
}
