package io.openrs.dsi;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;

/**
 * Reads a PostgreSQL primary table's replica identity ({@code pg_class.relreplident}), so the
 * server warns about a where clause on non-key columns only where PostgreSQL would not send their
 * old values. The server reaches databases only through this module.
 */
public final class ReplicaIdentity {
  /** Seconds a check may wait to connect or for its answer: it runs inside an admin command. */
  static final int TIMEOUT_SECONDS = 5;

  private ReplicaIdentity() {}

  /**
   * Whether {@code schema.table} at the PostgreSQL database {@code primary} has {@code REPLICA
   * IDENTITY FULL}; empty when that cannot be told (not PostgreSQL, the database unreachable, no
   * such table).
   */
  public static Optional<Boolean> isFull(DsiTarget primary, String schema, String table) {
    if (!primary.dialect().equals("postgresql")) {
      return Optional.empty();
    }
    Properties p = new Properties();
    p.setProperty("user", primary.user());
    p.setProperty("password", primary.password());
    p.setProperty("connectTimeout", Integer.toString(TIMEOUT_SECONDS));
    p.setProperty("socketTimeout", Integer.toString(TIMEOUT_SECONDS));
    try (Connection c = DriverManager.getConnection(primary.jdbcUrl(), p);
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT c.relreplident FROM pg_class c"
                    + " JOIN pg_namespace n ON n.oid = c.relnamespace"
                    + " WHERE n.nspname = ? AND c.relname = ?")) {
      ps.setString(1, schema);
      ps.setString(2, table);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of("f".equals(rs.getString(1))) : Optional.empty();
      }
    } catch (SQLException e) {
      return Optional.empty();
    }
  }
}
