package io.openrs.consistency.support;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Tables read as the text JDBC gives for each value, to compare a replicate with its primary value
 * by value when both are of one product (PostgreSQL's text form shows scale, infinities, offsets
 * and array shapes; MariaDB's the stored value). Cross-product comparisons use {@link Contents}.
 */
public final class TableText {
  private TableText() {}

  /** Each row of {@code query} ({@code %s} stands for the schema) as {@code [v1, v2, ...]}. */
  public static List<String> rows(Database db, String query) throws SQLException {
    List<String> out = new ArrayList<>();
    for (List<String> row : read(db, query, false)) {
      out.add(row.toString());
    }
    return out;
  }

  /** Each row of {@code query} ({@code %s}: the schema), each value as {@code label=text}. */
  public static List<List<String>> labelled(Database db, String query) throws SQLException {
    return read(db, query, true);
  }

  /**
   * The tables of {@code tables} whose rows (ordered by {@code orderBy}) differ between the two
   * databases, each with both sides' rows.
   */
  public static List<String> differingTables(
      Database primary, Database replicate, List<String> tables, String orderBy)
      throws SQLException {
    List<String> out = new ArrayList<>();
    for (String t : tables) {
      String query = "SELECT * FROM %s." + t + " ORDER BY " + orderBy;
      List<String> expected = rows(primary, query);
      List<String> actual = rows(replicate, query);
      if (!expected.equals(actual)) {
        out.add(t + ": primary " + expected + ", replicate " + actual);
      }
    }
    return out;
  }

  /**
   * The first differing values of two {@link #labelled} readings (at most 20), each as {@code
   * <first column of the row>: <primary value> / replicate <replicate value>}.
   */
  public static List<String> differences(List<List<String>> expected, List<List<String>> actual) {
    List<String> out = new ArrayList<>();
    if (expected.size() != actual.size()) {
      out.add("rows: primary " + expected.size() + ", replicate " + actual.size());
    }
    for (int r = 0; r < Math.min(expected.size(), actual.size()) && out.size() < 20; r++) {
      List<String> e = expected.get(r);
      List<String> a = actual.get(r);
      for (int k = 0; k < e.size() && out.size() < 20; k++) {
        if (!Objects.equals(e.get(k), a.get(k))) {
          out.add(e.get(0) + ": " + cut(e.get(k)) + " / replicate " + cut(a.get(k)));
        }
      }
    }
    return out;
  }

  private static List<List<String>> read(Database db, String query, boolean labels)
      throws SQLException {
    List<List<String>> out = new ArrayList<>();
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query.replace("%s", db.schema()))) {
      ResultSetMetaData md = rs.getMetaData();
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          row.add(labels ? md.getColumnLabel(i) + "=" + rs.getString(i) : rs.getString(i));
        }
        out.add(row);
      }
    }
    return out;
  }

  private static String cut(String s) {
    return s == null || s.length() <= 200 ? s : s.substring(0, 200) + "...";
  }
}
