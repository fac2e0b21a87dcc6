package io.openrs.repserver.support;

import io.openrs.repserver.ReplicationServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** The admin port of a test server through the PostgreSQL JDBC driver, as a DBA's psql uses it. */
public final class AdminSql {

  private AdminSql() {}

  /** Logs in as {@code sa} (no TLS). */
  public static Connection connect(ReplicationServer s) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "sa");
    p.setProperty("password", TestServers.ADMIN_PASSWORD);
    p.setProperty("sslmode", "disable");
    return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + s.adminPort() + "/rssd", p);
  }

  /** Every row of {@code command}'s answer, each value as text (null stays null). */
  public static List<List<String>> rows(Statement s, String command) throws SQLException {
    List<List<String>> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(command)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          row.add(rs.getString(i));
        }
        out.add(row);
      }
    }
    return out;
  }
}
