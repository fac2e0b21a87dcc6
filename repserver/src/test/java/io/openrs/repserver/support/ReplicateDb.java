package io.openrs.repserver.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A fresh PostgreSQL database on the machine's server (127.0.0.1:5432, user openrs) for a DSI to
 * apply to; dropped on close.
 */
public final class ReplicateDb implements AutoCloseable {
  public static final String HOST = "127.0.0.1";
  public static final int PORT = 5432;
  public static final String USER = "openrs";
  public static final String PASSWORD = "openrs";
  private static final String ADMIN_URL = "jdbc:postgresql://127.0.0.1:5432/openrs_test";

  private final String name;

  private ReplicateDb(String name) {
    this.name = name;
  }

  /** Creates database {@code <prefix>_<random>}. */
  public static ReplicateDb create(String prefix) throws SQLException {
    String name =
        (prefix + "_" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36))
            .toLowerCase(Locale.ROOT);
    try (Connection c = DriverManager.getConnection(ADMIN_URL, USER, PASSWORD);
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
    return new ReplicateDb(name);
  }

  public String name() {
    return name;
  }

  /** The settings of {@code create connection} for this database. */
  public Map<String, String> connectionSettings() {
    return Map.of("server", HOST, "port", String.valueOf(PORT), "user", USER, "password", PASSWORD);
  }

  public Connection connect() throws SQLException {
    return DriverManager.getConnection(
        "jdbc:postgresql://" + HOST + ":" + PORT + "/" + name, USER, PASSWORD);
  }

  public void exec(String... sql) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String q : sql) {
        s.execute(q);
      }
    }
  }

  /** Every row of {@code query}, each as its columns' text joined by '|'. */
  public List<String> rows(String query) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          if (i > 1) {
            b.append('|');
          }
          b.append(rs.getString(i));
        }
        out.add(b.toString());
      }
    }
    return out;
  }

  @Override
  public void close() throws SQLException {
    try (Connection c = DriverManager.getConnection(ADMIN_URL, USER, PASSWORD);
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
  }
}
