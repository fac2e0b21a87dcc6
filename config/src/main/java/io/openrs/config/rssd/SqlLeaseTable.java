package io.openrs.config.rssd;

import static io.openrs.config.rssd.SystemTable.RS_LEASE;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link LeaseTable} on {@code rs_lease}: each call is one transaction that locks the single row
 * ({@code select ... for update}), reads the RSSD's {@code current_timestamp} and decides from
 * those, so two servers racing for the lease are serialized by the database.
 */
final class SqlLeaseTable implements LeaseTable {

  private static final String KEY = "lease";

  private final Jdbc jdbc;

  SqlLeaseTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public Optional<Long> tryAcquire(String holder, Duration ttl) {
    requireHolder(holder);
    return jdbc.write(
        RS_LEASE,
        holder,
        null,
        c -> {
          LeaseState s = lockRow(c);
          if (s.held() && !s.holder().get().equals(holder)) {
            return Optional.empty();
          }
          long epoch = s.epoch() + 1;
          try (PreparedStatement ps =
              c.prepareStatement(
                  "update rs_lease set holder = ?, epoch = ?, acquired = ?, expires_at = ?"
                      + " where lease_id = 1")) {
            ps.setString(1, holder);
            ps.setLong(2, epoch);
            Jdbc.setInstant(ps, 3, s.now());
            Jdbc.setInstant(ps, 4, s.now().plus(ttl));
            ps.executeUpdate();
          }
          return Optional.of(epoch);
        });
  }

  @Override
  public boolean renew(String holder, long epoch, Duration ttl) {
    requireHolder(holder);
    return jdbc.write(
        RS_LEASE,
        holder,
        null,
        c -> {
          LeaseState s = lockRow(c);
          if (!s.held() || !s.holder().get().equals(holder) || s.epoch() != epoch) {
            return false;
          }
          try (PreparedStatement ps =
              c.prepareStatement("update rs_lease set expires_at = ? where lease_id = 1")) {
            Jdbc.setInstant(ps, 1, s.now().plus(ttl));
            ps.executeUpdate();
          }
          return true;
        });
  }

  @Override
  public void release(String holder, long epoch) {
    requireHolder(holder);
    jdbc.write(
        RS_LEASE,
        holder,
        null,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "update rs_lease set holder = null, expires_at = null"
                      + " where lease_id = 1 and holder = ? and epoch = ?")) {
            ps.setString(1, holder);
            ps.setLong(2, epoch);
            return ps.executeUpdate();
          }
        });
  }

  @Override
  public LeaseState read() {
    return jdbc.read(RS_LEASE, KEY, c -> row(c, false));
  }

  private static LeaseState lockRow(Connection c) throws SQLException {
    return row(c, true);
  }

  private static LeaseState row(Connection c, boolean forUpdate) throws SQLException {
    try (PreparedStatement ps =
            c.prepareStatement(
                "select holder, epoch, expires_at, current_timestamp as now from rs_lease"
                    + " where lease_id = 1"
                    + (forUpdate ? " for update" : ""));
        ResultSet rs = ps.executeQuery()) {
      if (!rs.next()) {
        throw new SQLException("rs_lease has no row (the RSSD's migration V4 inserts it)");
      }
      return new LeaseState(
          Optional.ofNullable(rs.getString("holder")),
          rs.getLong("epoch"),
          Optional.ofNullable(Jdbc.getInstant(rs, "expires_at")),
          Jdbc.getInstant(rs, "now"));
    }
  }

  private static void requireHolder(String holder) {
    Objects.requireNonNull(holder, "holder");
    if (holder.isBlank() || holder.length() > 255) {
      throw new IllegalArgumentException(
          "a lease holder is 1..255 characters, got '" + holder + "'");
    }
  }
}
