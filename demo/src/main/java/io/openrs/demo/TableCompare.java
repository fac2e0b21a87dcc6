package io.openrs.demo;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Compares a table's full contents at the primary and the replicate: both read ordered by the key
 * and merged, row by row and value by value. Values are compared as the application sees them:
 * numbers by their exact decimal text, timestamps as local date-times to the microsecond, text
 * exactly.
 */
final class TableCompare {

  /** A row: its key and its values in column order ({@code null} for SQL NULL). */
  record Row(long key, List<String> values) {}

  /** Rows in ascending key order; {@code null} at the end. */
  interface RowSource {
    Row next() throws SQLException;
  }

  /** What the comparison of one table found. */
  record Result(
      String table,
      String key,
      long primaryRows,
      long replicateRows,
      long differences,
      List<String> examples) {
    boolean identical() {
      return differences == 0;
    }
  }

  private TableCompare() {}

  /**
   * Merges the two sources. A difference is a key missing on one side or a row whose values differ;
   * the first {@code maxExamples} are described.
   */
  static Result compare(
      String table, String key, RowSource primary, RowSource replicate, int maxExamples)
      throws SQLException {
    long nPrimary = 0;
    long nReplicate = 0;
    long differences = 0;
    List<String> examples = new ArrayList<>();
    Row p = primary.next();
    Row r = replicate.next();
    while (p != null || r != null) {
      String example = null;
      if (r == null || p != null && p.key() < r.key()) {
        example = key + "=" + p.key() + ": missing at the replicate; primary " + render(p);
        nPrimary++;
        p = primary.next();
      } else if (p == null || r.key() < p.key()) {
        example = key + "=" + r.key() + ": only at the replicate " + render(r);
        nReplicate++;
        r = replicate.next();
      } else {
        if (!p.values().equals(r.values())) {
          example =
              key + "=" + p.key() + ": differs; primary " + render(p) + ", replicate " + render(r);
        }
        nPrimary++;
        nReplicate++;
        p = primary.next();
        r = replicate.next();
      }
      if (example != null) {
        differences++;
        if (examples.size() < maxExamples) {
          examples.add(example);
        }
      }
    }
    return new Result(table, key, nPrimary, nReplicate, differences, examples);
  }

  /** Compares {@code t} between two databases ({@code primaryTable}, {@code replicateTable}). */
  static Result compare(
      DemoSchema.Table t,
      Connection primary,
      String primaryTable,
      Connection replicate,
      String replicateTable,
      int maxExamples)
      throws SQLException {
    String columns = String.join(", ", t.columns());
    String order = " ORDER BY " + t.key();
    try (Statement ps = primary.createStatement();
        Statement rs = replicate.createStatement()) {
      ps.setFetchSize(2000);
      rs.setFetchSize(2000);
      try (ResultSet a = ps.executeQuery("SELECT " + columns + " FROM " + primaryTable + order);
          ResultSet b = rs.executeQuery("SELECT " + columns + " FROM " + replicateTable + order)) {
        return compare(t.name(), t.key(), source(a), source(b), maxExamples);
      }
    }
  }

  /** Reads a result set whose first column is the key. */
  static RowSource source(ResultSet rs) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    int[] types = new int[n];
    for (int i = 0; i < n; i++) {
      types[i] = md.getColumnType(i + 1);
    }
    return () -> {
      if (!rs.next()) {
        return null;
      }
      String[] values = new String[n];
      for (int i = 0; i < n; i++) {
        values[i] = value(rs, i + 1, types[i]);
      }
      return new Row(rs.getLong(1), Arrays.asList(values));
    };
  }

  /** A value as text for comparison; {@code null} for SQL NULL. */
  static String value(ResultSet rs, int column, int sqlType) throws SQLException {
    if (sqlType == Types.TIMESTAMP) {
      LocalDateTime t = rs.getObject(column, LocalDateTime.class);
      return t == null ? null : t.toString();
    }
    Object o = rs.getObject(column);
    if (o == null) {
      return null;
    }
    if (o instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (o instanceof String s) {
      return "'" + s + "'";
    }
    return o.toString();
  }

  /** {@code (1, 'text', 12.50, NULL)}, line ends shown as \n. */
  static String render(Row row) {
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < row.values().size(); i++) {
      String v = row.values().get(i);
      b.append(i > 0 ? ", " : "").append(Objects.requireNonNullElse(v, "NULL"));
    }
    return b.append(')').toString().replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
  }

  /**
   * Compares every table of the demo between the primary and the replicate of {@code s}, printing a
   * line per table and the first differing rows.
   */
  static List<Result> all(DemoSettings s, PrintStream out) throws DemoException {
    out.println(
        "  every row of every table, ordered by key, value by value ("
            + s.primary().kind().title()
            + " "
            + s.primaryDatabase()
            + " vs PostgreSQL "
            + s.replicateDatabase()
            + ")");
    List<Result> results = new ArrayList<>();
    try (Connection p = DemoDatabases.open(s.primary(), s.primaryDatabase());
        Connection r = DemoDatabases.open(s.pg(), s.replicateDatabase())) {
      p.setAutoCommit(false);
      r.setAutoCommit(false);
      out.printf(Locale.ROOT, "  %-10s %14s %15s%n", "table", "primary rows", "replicate rows");
      for (DemoSchema.Table t : DemoSchema.TABLES) {
        String primaryTable = s.primarySchema() + "." + t.name();
        String replicateTable = s.replicateSchema() + "." + t.name();
        Result res = compare(t, p, primaryTable, r, replicateTable, 5);
        results.add(res);
        out.printf(
            Locale.ROOT,
            "  %-10s %,14d %,15d   %s%n",
            t.name(),
            res.primaryRows(),
            res.replicateRows(),
            res.identical()
                ? "identical"
                : String.format(Locale.ROOT, "%,d rows differ", res.differences()));
        for (String example : res.examples()) {
          out.println("      " + example);
        }
      }
      p.rollback();
      r.rollback();
    } catch (SQLException e) {
      throw new DemoException("the comparison failed: " + Checks.describe(e), e);
    }
    return results;
  }
}
