package io.openrs.demo;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A session on the server's admin port through pgjdbc, as {@code psql} would open it. {@link #type}
 * shows a command as a DBA types it, then its notices and result; {@link #rows} reads a command's
 * result quietly (progress sampling).
 */
final class AdminSession implements AutoCloseable {
  private final Connection c;
  private final PrintStream out;

  private AdminSession(Connection c, PrintStream out) {
    this.c = c;
    this.out = out;
  }

  static AdminSession open(String host, int port, String password, PrintStream out)
      throws DemoException {
    Properties p = new Properties();
    p.setProperty("user", "sa");
    p.setProperty("password", password);
    p.setProperty("preferQueryMode", "simple");
    p.setProperty("connectTimeout", "10");
    p.setProperty("ApplicationName", "openrs-demo");
    String url = "jdbc:postgresql://" + host + ":" + port + "/rssd";
    try {
      return new AdminSession(DriverManager.getConnection(url, p), out);
    } catch (SQLException e) {
      throw new DemoException(
          "cannot log in to the admin port " + host + ":" + port + ": " + Checks.describe(e), e);
    }
  }

  /**
   * Runs {@code command} and prints it as typed ({@code display}: the same text with passwords
   * hidden), then the server's notices and, when it returns rows, the table.
   */
  void type(String display, String command) throws DemoException {
    printCommand(display);
    try (Statement st = c.createStatement()) {
      boolean rows = st.execute(command);
      printNotices(st.getWarnings());
      if (rows) {
        try (ResultSet rs = st.getResultSet()) {
          printTable(rs);
        }
      }
    } catch (SQLException e) {
      throw new DemoException(
          "the server refused `" + display.lines().findFirst().orElse("") + "`: " + e.getMessage(),
          e);
    }
  }

  void type(String command) throws DemoException {
    type(command, command);
  }

  private void printCommand(String display) {
    String[] lines = display.split("\n");
    out.println("  admin> " + lines[0]);
    for (int i = 1; i < lines.length; i++) {
      out.println("           " + lines[i].strip());
    }
  }

  private void printNotices(SQLWarning w) {
    for (; w != null; w = w.getNextWarning()) {
      out.println("  NOTICE:  " + w.getMessage());
    }
  }

  private void printTable(ResultSet rs) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    List<String[]> cells = new ArrayList<>();
    String[] head = new String[n];
    int[] width = new int[n];
    for (int i = 0; i < n; i++) {
      head[i] = md.getColumnLabel(i + 1);
      width[i] = head[i].length();
    }
    while (rs.next()) {
      String[] row = new String[n];
      for (int i = 0; i < n; i++) {
        String v = rs.getString(i + 1);
        row[i] = v == null ? "" : v;
        width[i] = Math.max(width[i], row[i].length());
      }
      cells.add(row);
    }
    out.println("    " + line(head, width));
    StringBuilder sep = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sep.append(i > 0 ? "-+-" : "").append("-".repeat(width[i]));
    }
    out.println("    " + sep);
    for (String[] row : cells) {
      out.println("    " + line(row, width));
    }
    out.println("    (" + cells.size() + (cells.size() == 1 ? " row)" : " rows)"));
  }

  private static String line(String[] cells, int[] width) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < cells.length; i++) {
      b.append(i > 0 ? " | " : "");
      b.append(cells[i]);
      if (i < cells.length - 1) {
        b.append(" ".repeat(width[i] - cells[i].length()));
      }
    }
    return b.toString();
  }

  /** The rows of {@code command}, each a column name to text map, without printing anything. */
  List<Map<String, String>> rows(String command) throws SQLException {
    List<Map<String, String>> result = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(command)) {
      ResultSetMetaData md = rs.getMetaData();
      while (rs.next()) {
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          row.put(md.getColumnLabel(i), rs.getString(i));
        }
        result.add(row);
      }
    }
    return result;
  }

  @Override
  public void close() {
    try {
      c.close();
    } catch (SQLException e) {
      // closing a finished session: nothing to do
    }
  }
}
