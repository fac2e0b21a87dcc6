package io.openrs.config.rssd;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The server lease, {@code rs_lease}: which of the servers sharing this RSSD is the active one.
 * Every time is the RSSD database's clock; a holder renews before its lease expires, and anyone may
 * take a lease that has expired.
 */
public interface LeaseTable {

  /**
   * The lease as it stands.
   *
   * @param holder who holds it, empty when nobody does
   * @param epoch how many times it was acquired (the holder's, while one holds it)
   * @param expiresAt when it expires, by the RSSD's clock (empty when nobody holds it)
   * @param now the RSSD's clock when it was read
   */
  record LeaseState(Optional<String> holder, long epoch, Optional<Instant> expiresAt, Instant now) {

    /** Whether someone holds a lease that has not expired. */
    public boolean held() {
      return holder.isPresent() && expiresAt.isPresent() && expiresAt.get().isAfter(now);
    }

    /** How long the current holder's lease still runs (zero when none is held). */
    public Duration remaining() {
      return held() ? Duration.between(now, expiresAt.get()) : Duration.ZERO;
    }
  }

  /**
   * Takes the lease for {@code ttl} when nobody holds it or its holder's lease has expired.
   *
   * @return the new epoch when taken; empty when another holder's lease still runs
   */
  Optional<Long> tryAcquire(String holder, Duration ttl);

  /**
   * Extends the lease of {@code holder}, acquired at {@code epoch}, to {@code ttl} from now.
   *
   * @return false when the lease is no longer theirs or expired before this renewal (it is lost)
   */
  boolean renew(String holder, long epoch, Duration ttl);

  /** Gives the lease up (a graceful stop), so a standby takes it at once; no-op when not held. */
  void release(String holder, long epoch);

  /** The lease as it stands now. */
  LeaseState read();
}
