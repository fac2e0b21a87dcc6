package io.openrs.demo;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** Where a database server is and how the demo logs in to it. */
record Endpoint(Source kind, String host, int port, String user, String password) {

  /** {@code host:port}, as error messages name it. */
  String address() {
    return host + ":" + port;
  }

  /** A JDBC URL for {@code database} on this server (PostgreSQL or MariaDB driver). */
  String url(String database) {
    if (kind == Source.POSTGRESQL) {
      return "jdbc:postgresql://" + host + ":" + port + "/" + database;
    }
    return "jdbc:mariadb://" + host + ":" + port + "/" + database;
  }

  /**
   * Opens a connection to {@code database}, failing after 5 s when the server does not answer.
   * MariaDB uses the binary protocol so values read back exactly as stored.
   */
  Connection connect(String database) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    p.setProperty("password", password);
    if (kind == Source.POSTGRESQL) {
      p.setProperty("connectTimeout", "5");
      p.setProperty("ApplicationName", "openrs-demo");
    } else {
      p.setProperty("connectTimeout", "5000");
      p.setProperty("useServerPrepStmts", "true");
    }
    return DriverManager.getConnection(url(database), p);
  }
}
