package io.openrs.config.rssd;

import java.util.Objects;
import java.util.Optional;

/**
 * One {@code connect source} grant (a row of {@code rs_connect_source}): the right to connect a
 * replication agent and send LTL, for one origin connection {@code ds.db} or for every origin.
 *
 * @param origin the origin; empty for every origin
 */
public record SourceGrant(Optional<Origin> origin) {

  /** An origin connection by name, {@code dataserver.database}. */
  public record Origin(String dataserver, String database) {
    public Origin {
      Objects.requireNonNull(dataserver, "dataserver");
      Objects.requireNonNull(database, "database");
      if (dataserver.isBlank() || database.isBlank()) {
        throw new IllegalArgumentException("an origin's data server and database are not blank");
      }
    }

    @Override
    public String toString() {
      return dataserver + "." + database;
    }
  }

  public SourceGrant {
    Objects.requireNonNull(origin, "origin");
  }

  /** The grant for every origin. */
  public static SourceGrant everyOrigin() {
    return new SourceGrant(Optional.empty());
  }

  /** The grant for {@code dataserver.database}. */
  public static SourceGrant origin(String dataserver, String database) {
    return new SourceGrant(Optional.of(new Origin(dataserver, database)));
  }

  /** Whether this grant lets an agent connect for {@code dataserver.database}. */
  public boolean covers(String dataserver, String database) {
    return origin.isEmpty()
        || (origin.get().dataserver().equals(dataserver)
            && origin.get().database().equals(database));
  }

  /** As the admin output shows it: {@code every origin} or {@code ds.db}. */
  @Override
  public String toString() {
    return origin.map(Origin::toString).orElse("every origin");
  }
}
