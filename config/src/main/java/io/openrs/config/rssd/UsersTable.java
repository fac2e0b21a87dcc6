package io.openrs.config.rssd;

import java.util.List;
import java.util.Optional;

/** Users: {@code rs_users}. */
public interface UsersTable {
  /**
   * Stores a user.
   *
   * @throws RssdException {@code DUPLICATE}; {@code INVALID} when the secret is not a SCRAM-SHA-256
   *     verifier
   */
  void create(RssdUser user);

  Optional<RssdUser> find(String name);

  /** Every user, by name. */
  List<RssdUser> all();

  /**
   * Replaces the SCRAM-SHA-256 verifier (password change).
   *
   * @throws RssdException {@code NOT_FOUND}; {@code INVALID} for a malformed verifier
   */
  void setSecret(String name, String scramSha256);

  /**
   * Changes the role.
   *
   * @throws RssdException {@code NOT_FOUND}
   */
  void setRole(String name, UserRole role);

  /**
   * Grants {@code connect source}; granting what the user has already changes nothing.
   *
   * @return false when the user had the grant already
   * @throws RssdException {@code NOT_FOUND}
   */
  boolean grantSource(String name, SourceGrant grant);

  /**
   * Revokes one {@code connect source} grant.
   *
   * @return false when the user did not have it
   * @throws RssdException {@code NOT_FOUND} for an unknown user
   */
  boolean revokeSource(String name, SourceGrant grant);

  /**
   * Revokes every {@code connect source} grant of the user.
   *
   * @return how many grants were revoked
   * @throws RssdException {@code NOT_FOUND} for an unknown user
   */
  int revokeAllSources(String name);

  /**
   * Drops a user.
   *
   * @throws RssdException {@code NOT_FOUND}
   */
  void drop(String name);
}
