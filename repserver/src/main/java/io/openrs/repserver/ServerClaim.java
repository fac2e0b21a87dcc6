package io.openrs.repserver;

import io.openrs.config.rssd.Rssd;
import io.openrs.config.secret.PrivateFiles;
import io.openrs.repserver.lease.ServerLease;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a server holds before it may open its queues: its directory's lock and its RSSD, and, with
 * {@code server_lease_ms}, the RSSD's server lease. With a lease the RSSD (shared, on PostgreSQL)
 * is opened first and the lease taken (a standby waits here), then the directory lock, which the
 * previous holder of a shared directory released when it stopped.
 */
record ServerClaim(DirectoryLock lock, Rssd rssd, Optional<ServerLease> lease)
    implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ServerClaim.class);

  /** Servers started by this process, for their lease holder names. */
  private static final java.util.concurrent.atomic.AtomicInteger INSTANCES =
      new java.util.concurrent.atomic.AtomicInteger();

  /**
   * @param onLeaseLost what runs when the lease is lost (the process stops at once)
   * @throws IOException when the directory is locked by a running server, or the RSSD cannot open
   * @throws IllegalArgumentException for a lease on an embedded RSSD or shorter than 1 s
   */
  static ServerClaim take(ServerSettings settings, Runnable onLeaseLost)
      throws IOException, InterruptedException {
    long leaseMs = settings.parameters().getLong("server_lease_ms");
    if (leaseMs == 0) {
      DirectoryLock lock = DirectoryLock.take(settings.directory());
      try {
        return new ServerClaim(lock, ServerFiles.openRssd(settings), Optional.empty());
      } catch (RuntimeException | IOException e) {
        lock.close();
        throw e;
      }
    }
    if (leaseMs < 1000) {
      throw new IllegalArgumentException(
          "server_lease_ms = " + leaseMs + ": a lease is at least 1000 ms (0 runs without one)");
    }
    if (settings.rssd().jdbcUrl().startsWith("jdbc:h2:")) {
      throw new IllegalArgumentException(
          "server_lease_ms needs an RSSD the servers share: set rssd_url to a PostgreSQL JDBC URL"
              + " (the embedded RSSD belongs to one server)");
    }
    PrivateFiles.createDirectories(settings.directory());
    Rssd rssd = ServerFiles.openRssd(settings);
    ServerLease lease = null;
    try {
      Duration ttl = Duration.ofMillis(leaseMs);
      lease = ServerLease.acquire(rssd.lease(), holderName(settings), ttl, onLeaseLost);
      DirectoryLock lock = DirectoryLock.takeWithin(settings.directory(), ttl);
      return new ServerClaim(lock, rssd, Optional.of(lease));
    } catch (RuntimeException | IOException | InterruptedException e) {
      if (lease != null) {
        lease.close();
      }
      rssd.close();
      throw e;
    }
  }

  /**
   * {@code <rs_name>@<host> pid <pid>}, and {@code #<n>} for the n-th server this process starts
   * after its first: one per server, as the RSSD's lease row shows it (a holder may take its own
   * lease again, so two servers must never share a name).
   */
  private static String holderName(ServerSettings settings) {
    int instance = INSTANCES.incrementAndGet();
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      host = "unknown-host";
    }
    // rs_lease.holder holds 255 characters: rs_name is at most 30, a host name up to 253.
    host = host.length() > 180 ? host.substring(0, 180) : host;
    return settings.name()
        + "@"
        + host
        + " pid "
        + ProcessHandle.current().pid()
        + (instance > 1 ? " #" + instance : "");
  }

  /** Gives the lease up, then the RSSD and the directory lock. */
  @Override
  public void close() {
    lease.ifPresent(ServerLease::close);
    try {
      rssd.close();
    } catch (RuntimeException e) {
      LOG.warn("cannot close the RSSD: {}", e.toString());
    }
    lock.close();
  }
}
