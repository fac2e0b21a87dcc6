package io.openrs.repserver.lease;

import java.time.Duration;

/**
 * The server lease as this server holds it, for the admin commands.
 *
 * @param holder this server process as the lease names it
 * @param epoch the epoch at which it took the lease
 * @param ttl {@code server_lease_ms}
 * @param remaining how long this server still counts on it by its own clock (negative once passed)
 * @param held whether it is still this server's
 */
public record LeaseStatus(
    String holder, long epoch, Duration ttl, Duration remaining, boolean held) {}
