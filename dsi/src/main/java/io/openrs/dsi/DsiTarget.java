package io.openrs.dsi;

import java.util.Objects;

/**
 * The replicate database a DSI applies to.
 *
 * @param connectionId the connection id ({@code rs_connections}); also the outbound queue's number
 * @param name {@code ds.db}, used in thread names, counters ({@code instance} tag) and messages
 * @param dialect the dialect name ({@code postgresql} or {@code mariadb}; see {@link
 *     io.openrs.dsi.dialect.Dialect#forName})
 * @param jdbcUrl where the replicate database is; for MariaDB it must name the database
 * @param user the maintenance user the DSI logs in as
 * @param password its password; never printed
 */
public record DsiTarget(
    int connectionId, String name, String dialect, String jdbcUrl, String user, String password) {

  public DsiTarget {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(dialect, "dialect");
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
  }

  /** Never prints the password. */
  @Override
  public String toString() {
    return "DsiTarget[id="
        + connectionId
        + ", name="
        + name
        + ", dialect="
        + dialect
        + ", url="
        + jdbcUrl
        + ", user="
        + user
        + ", password=***]";
  }
}
