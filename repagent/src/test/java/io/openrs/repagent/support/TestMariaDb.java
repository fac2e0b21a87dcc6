package io.openrs.repagent.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** The MariaDB 10.11 on this machine: user openrs, binlog ROW with full row images. */
public final class TestMariaDb {

  public static final String HOST = "127.0.0.1";
  public static final int PORT = 3306;
  public static final String USER = "openrs";
  public static final String PASSWORD = "openrs";
  public static final String URL = "jdbc:mariadb://" + HOST + ":" + PORT + "/";

  private TestMariaDb() {}

  public static Connection connect() throws SQLException {
    return DriverManager.getConnection(URL, USER, PASSWORD);
  }

  public static void exec(String... sql) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String q : sql) {
        s.execute(q);
      }
    }
  }
}
