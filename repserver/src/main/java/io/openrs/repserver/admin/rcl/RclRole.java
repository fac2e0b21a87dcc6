package io.openrs.repserver.admin.rcl;

/**
 * The roles of admin users, granted with {@code grant} and taken with {@code revoke}; {@code none}
 * (no admin port access, for agent users) is only written in {@code create user ... with role}.
 */
public enum RclRole {
  /** The administrator: every command. Written {@code sa} (or {@code admin}). */
  SA("sa"),
  /** Read-only: status commands such as {@code admin who} and {@code admin stats}. */
  MONITOR("monitor"),
  /**
   * No admin port access: a user that only connects replication agents ({@code connect source}).
   */
  NONE("none");

  private final String rcl;

  RclRole(String rcl) {
    this.rcl = rcl;
  }

  /** The role name as written in RCL. */
  public String rcl() {
    return rcl;
  }
}
