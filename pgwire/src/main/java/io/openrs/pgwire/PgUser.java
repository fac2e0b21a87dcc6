package io.openrs.pgwire;

import java.util.Objects;
import java.util.Set;

/**
 * A user who may try to log in, as the {@link PgBackend} knows it.
 *
 * @param name the user name
 * @param scramVerifier the SCRAM-SHA-256 verifier in PostgreSQL's format {@code
 *     SCRAM-SHA-256$<iterations>:<salt base64>$<StoredKey base64>:<ServerKey base64>} (make one
 *     with {@link PgScram#verifier(String)}); a malformed verifier makes every login fail, as
 *     PostgreSQL does
 * @param roles the user's roles; a user with no role at all may not log in (SQLSTATE 28000, sent
 *     only after the password was proven, so it reveals nothing to a guesser)
 */
public record PgUser(String name, String scramVerifier, Set<String> roles) {
  public PgUser {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(scramVerifier, "scramVerifier");
    roles = Set.copyOf(roles);
  }

  /** Never prints the verifier. */
  @Override
  public String toString() {
    return "PgUser[name=" + name + ", roles=" + roles + "]";
  }
}
