package io.openrs.repagent;

import java.util.Locale;

/** The kind of primary database an agent reads, and so which Debezium connector it runs. */
public enum SourceProfile {
  /** PostgreSQL through logical decoding with {@code pgoutput}. */
  POSTGRESQL("postgresql", 5432),
  /** MariaDB through its binary log (GTIDs always on). */
  MARIADB("mariadb", 3306),
  /** MySQL through its binary log (GTIDs where the server has them on). */
  MYSQL("mysql", 3306);

  private final String configName;
  private final int defaultPort;

  SourceProfile(String configName, int defaultPort) {
    this.configName = configName;
    this.defaultPort = defaultPort;
  }

  /** The value of {@code source_profile} that selects it. */
  public String configName() {
    return configName;
  }

  public int defaultPort() {
    return defaultPort;
  }

  /**
   * @throws IllegalArgumentException naming the allowed values
   */
  public static SourceProfile parse(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    for (SourceProfile p : values()) {
      if (p.configName.equals(t)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "unknown source profile '" + text + "'; one of postgresql, mariadb, mysql");
  }
}
