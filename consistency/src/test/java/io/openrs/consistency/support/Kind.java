package io.openrs.consistency.support;

/** The database products the suite replicates between. */
public enum Kind {
  POSTGRESQL("postgresql", "pg"),
  MARIADB("mariadb", "my");

  private final String profile;
  private final String shortName;

  Kind(String profile, String shortName) {
    this.profile = profile;
    this.shortName = shortName;
  }

  /** The profile of {@code create connection ... using profile} and the agent's source_profile. */
  public String profile() {
    return profile;
  }

  /** Two letters for names. */
  public String shortName() {
    return shortName;
  }
}
