package io.openrs.config.rssd;

import static io.openrs.config.rssd.SystemTable.RS_LOCATER;

import io.openrs.config.rssd.RssdException.Reason;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** {@link LocatorsTable} on {@code rs_locater}. */
final class SqlLocatorsTable implements LocatorsTable {
  private final Jdbc jdbc;
  private final Clock clock;

  SqlLocatorsTable(Jdbc jdbc, Clock clock) {
    this.jdbc = jdbc;
    this.clock = clock;
  }

  private static String key(int originConnectionId) {
    return "origin " + originConnectionId;
  }

  @Override
  public Optional<Locator> find(int originConnectionId) {
    return jdbc.read(
        RS_LOCATER,
        key(originConnectionId),
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "select locater, resume_blob, updated from rs_locater where sender = ?")) {
            ps.setInt(1, originConnectionId);
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                return Optional.empty();
              }
              return Optional.of(
                  new Locator(
                      originConnectionId,
                      rs.getBytes("locater"),
                      rs.getBytes("resume_blob"),
                      Jdbc.getInstant(rs, "updated")));
            }
          }
        });
  }

  @Override
  public void save(int originConnectionId, byte[] oqid, byte[] resumeBlobOrNull) {
    Objects.requireNonNull(oqid, "oqid");
    byte[] newOqid = oqid.clone();
    byte[] newBlob = resumeBlobOrNull == null ? null : resumeBlobOrNull.clone();
    jdbc.write(
        RS_LOCATER,
        key(originConnectionId),
        null,
        c -> {
          Instant now = clock.instant();
          byte[] stored = lockStored(c, originConnectionId);
          if (stored == null) {
            Savepoint savepoint = c.setSavepoint();
            try {
              insert(c, originConnectionId, newOqid, newBlob, now);
              c.releaseSavepoint(savepoint);
              return null;
            } catch (SQLException e) {
              if (Jdbc.isForeignKeyViolation(e)) {
                throw new RssdException(
                    Reason.NOT_FOUND,
                    RS_LOCATER.sqlName(),
                    key(originConnectionId),
                    "no connection with id " + originConnectionId + " in rs_connections",
                    e);
              }
              if (!Jdbc.isUniqueViolation(e)) {
                throw e;
              }
              // A concurrent save inserted the row first: compare with it.
              c.rollback(savepoint);
              stored = lockStored(c, originConnectionId);
              if (stored == null) {
                throw e;
              }
            }
          }
          if (Bytes.compareOqids(newOqid, stored) < 0) {
            return null;
          }
          update(c, originConnectionId, newOqid, newBlob, now);
          return null;
        });
  }

  private static byte[] lockStored(Connection c, int originConnectionId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("select locater from rs_locater where sender = ? for update")) {
      ps.setInt(1, originConnectionId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getBytes(1) : null;
      }
    }
  }

  private static void insert(Connection c, int origin, byte[] oqid, byte[] blob, Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into rs_locater (sender, locater, resume_blob, updated) values (?, ?, ?, ?)")) {
      ps.setInt(1, origin);
      ps.setBytes(2, oqid);
      ps.setBytes(3, blob);
      Jdbc.setInstant(ps, 4, now);
      ps.executeUpdate();
    }
  }

  private static void update(Connection c, int origin, byte[] oqid, byte[] blob, Instant now)
      throws SQLException {
    String sql =
        blob == null
            ? "update rs_locater set locater = ?, updated = ? where sender = ?"
            : "update rs_locater set locater = ?, updated = ?, resume_blob = ? where sender = ?";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      int i = 1;
      ps.setBytes(i++, oqid);
      Jdbc.setInstant(ps, i++, now);
      if (blob != null) {
        ps.setBytes(i++, blob);
      }
      ps.setInt(i, origin);
      ps.executeUpdate();
    }
  }

  @Override
  public boolean reset(int originConnectionId) {
    return jdbc.write(
        RS_LOCATER,
        key(originConnectionId),
        null,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("delete from rs_locater where sender = ?")) {
            ps.setInt(1, originConnectionId);
            return ps.executeUpdate() > 0;
          }
        });
  }
}
