package io.openrs.config.rssd;

/** What an RSSD user may do at the admin port ({@code connect source} grants are apart). */
public enum UserRole {
  /** Every admin command ({@code sa}); also connects replication agents for every origin. */
  ADMIN,
  /** Read-only admin commands ({@code admin who}, {@code admin stats}, ...). */
  MONITOR,
  /**
   * No admin port access at all: a user that only connects replication agents for the origins its
   * {@code connect source} grants name (a least-privilege agent login).
   */
  NONE
}
