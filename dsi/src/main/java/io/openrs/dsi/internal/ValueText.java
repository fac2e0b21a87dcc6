package io.openrs.dsi.internal;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Value;
import java.util.List;

/**
 * Values and commands as short text for messages (DOWN states, warnings, logs). Not LTL: the DSI
 * does not write LTL text; the server renders logged transactions itself. Long values are cut.
 */
final class ValueText {
  private static final int MAX_VALUE_CHARS = 200;

  private ValueText() {}

  static String of(Value v) {
    String s;
    if (v instanceof Value.Null) {
      s = "null";
    } else if (v instanceof Value.Unchanged) {
      s = "unchanged";
    } else if (v instanceof Value.Bool b) {
      s = Boolean.toString(b.value());
    } else if (v instanceof Value.Int16 n) {
      s = Short.toString(n.value());
    } else if (v instanceof Value.Int32 n) {
      s = Integer.toString(n.value());
    } else if (v instanceof Value.Int64 n) {
      s = Long.toString(n.value());
    } else if (v instanceof Value.Decimal d) {
      s = d.value().toString();
    } else if (v instanceof Value.Float32 f) {
      s = Float.toString(f.value());
    } else if (v instanceof Value.Float64 f) {
      s = Double.toString(f.value());
    } else if (v instanceof Value.Text t) {
      s = quote(t.value());
    } else if (v instanceof Value.Json j) {
      s = "json " + quote(j.value());
    } else if (v instanceof Value.Binary b) {
      StringBuilder sb = new StringBuilder("x'");
      for (int i = 0; i < b.length() && sb.length() < MAX_VALUE_CHARS; i++) {
        sb.append(String.format("%02x", b.byteAt(i) & 0xff));
      }
      s = sb.append('\'').toString();
    } else if (v instanceof Value.Date d) {
      s = "date " + d.value();
    } else if (v instanceof Value.Time t) {
      s = "time " + t.value();
    } else if (v instanceof Value.Timestamp t) {
      s = "ts " + t.value();
    } else if (v instanceof Value.TimestampTz t) {
      s = "tstz " + t.value();
    } else if (v instanceof Value.Uuid u) {
      s = "uuid " + u.value();
    } else if (v instanceof Value.NonFinite n) {
      s = n.typeName() + " " + n.sqlText();
    } else if (v instanceof Value.Native n) {
      s = "native " + n.dialect() + " " + quote(n.type()) + " " + quote(n.text());
    } else {
      s = String.valueOf(v);
    }
    return s.length() > MAX_VALUE_CHARS ? s.substring(0, MAX_VALUE_CHARS) + "...(cut)" : s;
  }

  private static String quote(String s) {
    StringBuilder sb = new StringBuilder("'");
    for (int i = 0; i < s.length() && sb.length() < MAX_VALUE_CHARS + 1; i++) {
      char c = s.charAt(i);
      if (c == '\'' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('\'').toString();
  }

  /** {@code sql} with its values: {@code UPDATE ... WHERE "id" = ? -- values (7, 'x')}. */
  static String statement(String sql, List<Value> values) {
    StringBuilder sb = new StringBuilder(sql);
    if (!values.isEmpty()) {
      sb.append(" -- values (");
      for (int i = 0; i < values.size(); i++) {
        sb.append(i == 0 ? "" : ", ").append(of(values.get(i)));
      }
      sb.append(')');
    }
    return sb.toString();
  }

  /** A command, briefly: {@code update public.t (before id=7) oqid 0x...}. */
  static String command(LtlCommand c) {
    if (c instanceof LtlCommand.Insert i) {
      return "insert " + i.table() + " oqid " + i.oqid() + " after " + columns(i.after());
    } else if (c instanceof LtlCommand.Update u) {
      return "update "
          + u.table()
          + " oqid "
          + u.oqid()
          + " before "
          + columns(u.before())
          + " after "
          + columns(u.after());
    } else if (c instanceof LtlCommand.Delete d) {
      return "delete " + d.table() + " oqid " + d.oqid() + " before " + columns(d.before());
    }
    return String.valueOf(c);
  }

  private static String columns(List<Column> cols) {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < cols.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(cols.get(i).name()).append('=');
      sb.append(of(cols.get(i).value()));
    }
    return sb.append(')').toString();
  }
}
