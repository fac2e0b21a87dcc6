package io.openrs.repserver.admin.rcl;

import java.util.Objects;

/**
 * An origin connection named in a {@code connect source} grant: {@code <dataserver>.<database>}.
 */
public record OriginRef(String dataserver, String database) {
  public OriginRef {
    Objects.requireNonNull(dataserver, "dataserver");
    Objects.requireNonNull(database, "database");
  }

  /** {@code ds.db}, quoting parts that need it. */
  @Override
  public String toString() {
    return RclText.ident(dataserver) + "." + RclText.ident(database);
  }
}
