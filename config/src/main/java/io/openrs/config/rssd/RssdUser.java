package io.openrs.config.rssd;

import java.util.List;
import java.util.Objects;

/**
 * A user of the admin port or a replication agent, a row of {@code rs_users} with its {@code
 * rs_connect_source} grants.
 *
 * @param name the login name
 * @param role what the user may do at the admin port
 * @param scramSha256 the SCRAM-SHA-256 verifier, {@code
 *     SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>} as PostgreSQL stores it; made by
 *     {@link ScramVerifier#derive(char[])}
 * @param sourceGrants the origins it may connect replication agents for ({@code connect source}),
 *     every-origin grant first, then by origin; an administrator may connect any origin without one
 */
public record RssdUser(
    String name, UserRole role, String scramSha256, List<SourceGrant> sourceGrants) {
  public RssdUser {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(scramSha256, "scramSha256");
    sourceGrants = List.copyOf(sourceGrants);
  }

  /** A user without {@code connect source} grants. */
  public RssdUser(String name, UserRole role, String scramSha256) {
    this(name, role, scramSha256, List.of());
  }

  /**
   * Whether the user may connect a replication agent for {@code dataserver.database}: an
   * administrator may (sa has every permission, as in Replication Server), any other user only with
   * a {@code connect source} grant that covers the origin.
   */
  public boolean mayConnectSource(String dataserver, String database) {
    return role == UserRole.ADMIN
        || sourceGrants.stream().anyMatch(g -> g.covers(dataserver, database));
  }

  /** Does not show the verifier. */
  @Override
  public String toString() {
    return "RssdUser[name=" + name + ", role=" + role + ", connect source=" + sourceGrants + "]";
  }
}
