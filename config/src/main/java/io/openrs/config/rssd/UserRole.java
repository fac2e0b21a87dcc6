package io.openrs.config.rssd;

/** What an RSSD user may do. */
public enum UserRole {
  /** Every admin command; also the role replication agents log in with. */
  ADMIN,
  /** Read-only admin commands ({@code admin who}, {@code admin stats}, ...). */
  MONITOR
}
