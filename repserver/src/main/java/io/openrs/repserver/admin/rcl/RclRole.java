package io.openrs.repserver.admin.rcl;

/** The two roles of admin users, granted with {@code grant} and taken with {@code revoke}. */
public enum RclRole {
  /** The administrator: every command. Written {@code sa} (or {@code admin}). */
  SA("sa"),
  /** Read-only: status commands such as {@code admin who} and {@code admin stats}. */
  MONITOR("monitor");

  private final String rcl;

  RclRole(String rcl) {
    this.rcl = rcl;
  }

  /** The role name as written in RCL. */
  public String rcl() {
    return rcl;
  }
}
