package io.openrs.consistency.support;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The full contents of a table, every value normalized by its column's type so that PostgreSQL and
 * MariaDB values compare: integers as decimal text, numerics at the column's scale, floating-point
 * values as Java prints the exact binary value, booleans as true/false (MariaDB BIT(1) too), dates
 * ISO, times and timestamps to the microsecond, timestamps with time zone as the UTC instant,
 * char(n) without its padding, bytes as hex, UUIDs in lower case; null stays null.
 *
 * <p>Rows are sorted by the primary key (by every column for a table without one), compared as
 * normalized text, so both sides sort alike whatever their collations.
 */
public final class Contents {

  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS", Locale.ROOT);
  private static final DateTimeFormatter TIME_MICROS =
      DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS", Locale.ROOT);

  /** Rows shown in full in a difference report. */
  private static final int SHOWN = 8;

  private static final Comparator<List<String>> ROWS =
      (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
          int c =
              Comparator.nullsFirst(Comparator.<String>naturalOrder()).compare(a.get(i), b.get(i));
          if (c != 0) {
            return c;
          }
        }
        return Integer.compare(a.size(), b.size());
      };

  private Contents() {}

  /**
   * Every row of {@code t} in {@code db} (restricted by the SQL condition {@code where}, if not
   * null), normalized, sorted: the key columns first in key order, then the other columns.
   */
  public static List<List<String>> read(Database db, Schema.Table t, String where)
      throws SQLException {
    List<Schema.Column> order = columnOrder(t);
    String cols = String.join(", ", order.stream().map(Schema.Column::name).toList());
    String sql =
        "SELECT "
            + cols
            + " FROM "
            + db.schema()
            + "."
            + t.name()
            + (where == null ? "" : " WHERE " + where);
    List<List<String>> rows = new ArrayList<>();
    try (Connection c = db.connect();
        PreparedStatement ps = c.prepareStatement(sql);
        ResultSet r = ps.executeQuery()) {
      while (r.next()) {
        List<String> row = new ArrayList<>(order.size());
        for (int i = 0; i < order.size(); i++) {
          row.add(normalize(db.kind(), order.get(i), r, i + 1));
        }
        rows.add(row);
      }
    }
    int keyColumns = t.keyless() ? order.size() : t.key().size();
    rows.sort(
        (a, b) -> {
          int c = ROWS.compare(keyOf(a, keyColumns, t), keyOf(b, keyColumns, t));
          return c != 0 ? c : ROWS.compare(a, b);
        });
    return rows;
  }

  private static List<String> keyOf(List<String> row, int keyColumns, Schema.Table t) {
    List<String> k = new ArrayList<>(keyColumns);
    for (int i = 0; i < keyColumns; i++) {
      String v = row.get(i);
      Schema.Column col = columnOrder(t).get(i);
      // Integers sort by value (zero-padded with the sign first) so the report reads in order.
      if (v != null
          && (col.type() == Schema.Type.BIGINT
              || col.type() == Schema.Type.INT
              || col.type() == Schema.Type.SMALLINT)) {
        long x = Long.parseLong(v);
        v = (x < 0 ? "-" : "0") + String.format(Locale.ROOT, "%020d", x < 0 ? -(x + 1) : x);
      }
      k.add(v);
    }
    return k;
  }

  /** Key columns in key order, then the rest in table order. */
  public static List<Schema.Column> columnOrder(Schema.Table t) {
    List<Schema.Column> out = new ArrayList<>();
    for (String k : t.key()) {
      out.add(t.column(k));
    }
    for (Schema.Column c : t.columns()) {
      if (!t.key().contains(c.name())) {
        out.add(c);
      }
    }
    return out;
  }

  static String normalize(Kind kind, Schema.Column c, ResultSet r, int i) throws SQLException {
    switch (c.type()) {
      case SMALLINT:
      case INT:
      case BIGINT:
        {
          long v = r.getLong(i);
          return r.wasNull() ? null : Long.toString(v);
        }
      case NUMERIC:
        {
          BigDecimal v = r.getBigDecimal(i);
          return v == null ? null : v.setScale(c.scale(), RoundingMode.UNNECESSARY).toPlainString();
        }
      case DOUBLE:
        {
          double v = r.getDouble(i);
          return r.wasNull() ? null : Double.toString(v);
        }
      case REAL:
        {
          float v = r.getFloat(i);
          return r.wasNull() ? null : Float.toString(v);
        }
      case BOOL:
        {
          boolean v = r.getBoolean(i);
          return r.wasNull() ? null : Boolean.toString(v);
        }
      case DATE:
        {
          java.time.LocalDate v = r.getObject(i, java.time.LocalDate.class);
          return v == null ? null : v.toString();
        }
      case TIME:
        {
          LocalTime v = r.getObject(i, LocalTime.class);
          return v == null ? null : v.format(TIME_MICROS);
        }
      case TIMESTAMP:
        {
          LocalDateTime v = r.getObject(i, LocalDateTime.class);
          return v == null ? null : v.format(MICROS);
        }
      case TIMESTAMPTZ:
        {
          if (kind == Kind.POSTGRESQL) {
            OffsetDateTime v = r.getObject(i, OffsetDateTime.class);
            return v == null
                ? null
                : v.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime().format(MICROS) + "Z";
          }
          // MariaDB TIMESTAMP read in a +00:00 session: the UTC wall time.
          LocalDateTime v = r.getObject(i, LocalDateTime.class);
          return v == null ? null : v.format(MICROS) + "Z";
        }
      case CHAR:
        {
          String v = r.getString(i);
          return v == null ? null : v.stripTrailing();
        }
      case VARCHAR:
      case TEXT:
        return r.getString(i);
      case BYTES:
        {
          byte[] v = r.getBytes(i);
          return v == null ? null : "x'" + HexFormat.of().formatHex(v) + "'";
        }
      case UUID:
        {
          String v = r.getString(i);
          return v == null ? null : v.toLowerCase(Locale.ROOT);
        }
      default:
        throw new IllegalStateException(c.type().name());
    }
  }

  /** The differences between two sorted contents; empty when equal. */
  public static Difference compare(
      Schema.Table t, List<List<String>> expected, List<List<String>> actual) {
    Difference d = new Difference(t, expected.size(), actual.size());
    int keyColumns = t.keyless() ? columnOrder(t).size() : t.key().size();
    int i = 0;
    int j = 0;
    while (i < expected.size() || j < actual.size()) {
      List<String> e = i < expected.size() ? expected.get(i) : null;
      List<String> a = j < actual.size() ? actual.get(j) : null;
      int c;
      if (e == null) {
        c = 1;
      } else if (a == null) {
        c = -1;
      } else {
        c = ROWS.compare(keyOf(e, keyColumns, t), keyOf(a, keyColumns, t));
      }
      if (c == 0) {
        if (!e.equals(a)) {
          d.changed(e, a);
        }
        i++;
        j++;
      } else if (c < 0) {
        d.missing(e);
        i++;
      } else {
        d.extra(a);
        j++;
      }
    }
    return d;
  }

  /** How a replicate's table differs from what it should hold. */
  public static final class Difference {
    private final Schema.Table table;
    private final int expectedRows;
    private final int actualRows;
    private int missing;
    private int extra;
    private int changed;
    private final List<String> shown = new ArrayList<>();

    Difference(Schema.Table table, int expectedRows, int actualRows) {
      this.table = table;
      this.expectedRows = expectedRows;
      this.actualRows = actualRows;
    }

    public boolean equal() {
      return missing == 0 && extra == 0 && changed == 0;
    }

    void missing(List<String> row) {
      missing++;
      show("missing at the replicate: " + render(row, null));
    }

    void extra(List<String> row) {
      extra++;
      show("extra at the replicate:   " + render(row, null));
    }

    void changed(List<String> expected, List<String> actual) {
      changed++;
      show(
          "differs:  primary   "
              + render(expected, actual)
              + "\n            replicate "
              + render(actual, expected));
    }

    private void show(String line) {
      if (shown.size() < SHOWN) {
        shown.add(line);
      }
    }

    private String render(List<String> row, List<String> other) {
      List<Schema.Column> cols = columnOrder(table);
      StringBuilder b = new StringBuilder("(");
      for (int i = 0; i < row.size(); i++) {
        if (i > 0) {
          b.append(", ");
        }
        boolean differs = other != null && !Objects.equals(row.get(i), other.get(i));
        b.append(differs ? "*" : "").append(cols.get(i).name()).append('=');
        b.append(cell(row.get(i)));
      }
      return b.append(')').toString();
    }

    @Override
    public String toString() {
      if (equal()) {
        return table.name() + ": equal, " + expectedRows + " rows";
      }
      StringBuilder b =
          new StringBuilder(table.name())
              .append(": primary ")
              .append(expectedRows)
              .append(" rows, replicate ")
              .append(actualRows)
              .append("; ")
              .append(missing)
              .append(" missing, ")
              .append(extra)
              .append(" extra, ")
              .append(changed)
              .append(" differing (columns marked *); first ")
              .append(shown.size())
              .append(":\n");
      for (String s : shown) {
        b.append("    ").append(s).append('\n');
      }
      return b.toString();
    }
  }

  /** A value as shown in a report: long text abbreviated with its length and digest. */
  static String cell(String v) {
    if (v == null) {
      return "NULL";
    }
    String shown =
        v.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t");
    if (shown.length() <= 80) {
      return "'" + shown + "'";
    }
    return "'"
        + shown.substring(0, 40)
        + "…' ("
        + v.length()
        + " chars, sha256 "
        + sha(v).substring(0, 12)
        + ")";
  }

  private static String sha(String v) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(v.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
