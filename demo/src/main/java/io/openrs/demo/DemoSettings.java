package io.openrs.demo;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Everything one demo run needs, from the command line, and the names derived from {@link
 * #prefix()}: databases {@code <prefix>_primary} and {@code <prefix>_replicate}, agent {@code
 * <prefix>_ra}, slot {@code <prefix>_slot}, publication {@code <prefix>_pub}.
 */
record DemoSettings(
    Source source,
    Duration duration,
    int clients,
    long seed,
    int rate,
    int accounts,
    boolean keepRunning,
    Path workDir,
    String listenAddress,
    int ltlPort,
    int adminPort,
    int prometheusPort,
    Endpoint pg,
    Endpoint mariadb,
    String prefix,
    Duration catchUpTimeout,
    Duration progressInterval,
    Duration ticketInterval) {

  String primaryDatabase() {
    return prefix + "_primary";
  }

  String replicateDatabase() {
    return prefix + "_replicate";
  }

  String agentName() {
    return prefix + "_ra";
  }

  String slotName() {
    return prefix + "_slot";
  }

  String publicationName() {
    return prefix + "_pub";
  }

  /** The primary's server. */
  Endpoint primary() {
    return source == Source.POSTGRESQL ? pg : mariadb;
  }

  /** {@code <ds>.<db>} of the primary connection. */
  String primaryConnection() {
    return source.dataServer() + "." + primaryDatabase();
  }

  /** {@code <ds>.<db>} of the replicate connection. */
  String replicateConnection() {
    return Source.POSTGRESQL.dataServer() + "." + replicateDatabase();
  }

  /** Schema of the tables at the primary: PostgreSQL {@code public}, MariaDB the database. */
  String primarySchema() {
    return source == Source.POSTGRESQL ? "public" : primaryDatabase();
  }

  /**
   * Schema of the tables at the replicate: a database-level definition keeps names as they are, so
   * it is the primary's schema.
   */
  String replicateSchema() {
    return primarySchema();
  }
}
