package io.openrs.config.rssd;

import java.util.Objects;

/**
 * A user of the admin port or a replication agent, a row of {@code rs_users}.
 *
 * @param name the login name
 * @param role what the user may do
 * @param scramSha256 the SCRAM-SHA-256 verifier, {@code
 *     SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>} as PostgreSQL stores it; made by
 *     {@link ScramVerifier#derive(char[])}
 */
public record RssdUser(String name, UserRole role, String scramSha256) {
  public RssdUser {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(scramSha256, "scramSha256");
  }

  /** Does not show the verifier. */
  @Override
  public String toString() {
    return "RssdUser[name=" + name + ", role=" + role + "]";
  }
}
