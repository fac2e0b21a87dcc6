package io.openrs.demo;

import java.util.Locale;

/** The primary database's kind. The replicate is always PostgreSQL. */
enum Source {
  POSTGRESQL("PostgreSQL", "pg", "postgresql"),
  MARIADB("MariaDB", "mariadb", "mariadb");

  private final String title;
  private final String dataServer;
  private final String profile;

  Source(String title, String dataServer, String profile) {
    this.title = title;
    this.dataServer = dataServer;
    this.profile = profile;
  }

  /** How the demo names it to the user: PostgreSQL, MariaDB. */
  String title() {
    return title;
  }

  /** The data server name in connection names ({@code <ds>.<db>}). */
  String dataServer() {
    return dataServer;
  }

  /** The connection profile of {@code create connection} and the agent's source_profile. */
  String profile() {
    return profile;
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
