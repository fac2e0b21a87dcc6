package io.openrs.consistency.support;

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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** RCL on the server's admin port through the PostgreSQL JDBC driver, as a DBA's tool sends it. */
public final class Admin {
  private static final Logger LOG = LoggerFactory.getLogger(Admin.class);

  private final int port;
  private final String password;

  public Admin(int port, String password) {
    this.port = port;
    this.password = password;
  }

  private Connection connect() throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "sa");
    p.setProperty("password", password);
    p.setProperty("connectTimeout", "10");
    p.setProperty("socketTimeout", "120");
    return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/rssd", p);
  }

  /**
   * Runs {@code command}; returns the notices it answered with.
   *
   * @throws SQLException naming the command when the server refuses it
   */
  public List<String> exec(String command) throws SQLException {
    LOG.info("admin: {}", command);
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute(command);
      List<String> notices = new ArrayList<>();
      for (SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) {
        notices.add(w.getMessage());
      }
      return notices;
    } catch (SQLException e) {
      throw new SQLException(
          "admin command failed: " + command + "\n  " + e.getMessage(), e.getSQLState(), e);
    }
  }

  /** The rows of {@code command}, each a map of column name to text value, in column order. */
  public List<Map<String, String>> rows(String command) throws SQLException {
    try (Connection c = connect()) {
      return rows(c, command);
    }
  }

  /**
   * One connection for many commands, for a sampler: each {@link #rows}, {@link #exec} and {@link
   * #total} of this class logs in anew, and a SCRAM login costs both sides milliseconds of CPU
   * (PBKDF2), which four samples a second turned into more than half a core during a measurement.
   * Not thread-safe: one user.
   */
  public Session session() throws SQLException {
    return new Session(connect());
  }

  /** See {@link #session()}. */
  public static final class Session implements AutoCloseable {
    private final Connection c;

    private Session(Connection c) {
      this.c = c;
    }

    /** As {@link Admin#total}, on this session's connection. */
    public double total(String module, String counter) throws SQLException {
      return sum(rows(c, "admin stats, " + module), counter, "total");
    }

    @Override
    public void close() throws SQLException {
      c.close();
    }
  }

  private static double sum(List<Map<String, String>> rows, String counter, String column) {
    double sum = 0;
    for (Map<String, String> row : rows) {
      String name = row.get("counter");
      if (name != null && (name.equals(counter) || name.startsWith(counter + " "))) {
        sum += Double.parseDouble(row.get(column));
      }
    }
    return sum;
  }

  private static List<Map<String, String>> rows(Connection c, String command) throws SQLException {
    List<Map<String, String>> out = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery(command)) {
      ResultSetMetaData md = r.getMetaData();
      while (r.next()) {
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          row.put(md.getColumnLabel(i), r.getString(i));
        }
        out.add(row);
      }
    } catch (SQLException e) {
      throw new SQLException(
          "admin command failed: " + command + "\n  " + e.getMessage(), e.getSQLState(), e);
    }
    return out;
  }

  /** {@link #rows} as text, one line per row (for failure messages). */
  public String show(String command) {
    try {
      StringBuilder b = new StringBuilder(command).append(":\n");
      for (Map<String, String> row : rows(command)) {
        b.append("  ").append(row).append('\n');
      }
      return b.toString();
    } catch (SQLException e) {
      return command + ": " + e.getMessage() + "\n";
    }
  }

  /**
   * The observations of counter {@code counter} of {@code module} (the {@code obs} column of {@code
   * admin stats, <module>}, summed over instances), 0 when no row shows it.
   */
  public long observations(String module, String counter) throws SQLException {
    return (long) sum(rows("admin stats, " + module), counter, "obs");
  }

  /** The {@code total} of counter {@code counter} of {@code module}, summed over instances. */
  public double total(String module, String counter) throws SQLException {
    return sum(rows("admin stats, " + module), counter, "total");
  }
}
