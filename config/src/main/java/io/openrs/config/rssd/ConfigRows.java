package io.openrs.config.rssd;

import io.openrs.config.rssd.RssdException.Reason;
import io.openrs.config.secret.SecretException;
import io.openrs.config.secret.Secrets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/** Reads and writes {@code rs_config} rows of one object (0 = server, else a connection id). */
final class ConfigRows {
  /** {@code objid} of server-level rows. */
  static final int SERVER = 0;

  private ConfigRows() {}

  static Map<String, String> load(Connection c, int objid) throws SQLException {
    Map<String, String> values = new TreeMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "select optionname, charvalue from rs_config where objid = ? order by optionname")) {
      ps.setInt(1, objid);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          values.put(rs.getString(1), rs.getString(2));
        }
      }
    }
    return Collections.unmodifiableMap(values);
  }

  /**
   * Inserts or replaces one row; a value under a secret name ({@link Secrets#isSecretName}) is
   * stored as {@link Secrets#forStorage} says (sealed, or the reference as written).
   */
  static void put(Connection c, int objid, String name, String value, Instant now, Secrets secrets)
      throws SQLException {
    String stored = stored(objid, name, value, secrets);
    Jdbc.upsert(
        c,
        conn -> {
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "update rs_config set charvalue = ?, updated = ? where objid = ? and optionname = ?")) {
            ps.setString(1, stored);
            Jdbc.setInstant(ps, 2, now);
            ps.setInt(3, objid);
            ps.setString(4, name);
            return ps.executeUpdate();
          }
        },
        conn -> {
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "insert into rs_config (objid, optionname, charvalue, updated) values (?, ?, ?, ?)")) {
            ps.setInt(1, objid);
            ps.setString(2, name);
            ps.setString(3, stored);
            Jdbc.setInstant(ps, 4, now);
            return ps.executeUpdate();
          }
        });
  }

  /**
   * What the row (objid, name) stores for {@code value}.
   *
   * @throws RssdException {@code INVALID} for a malformed reference or a secret that cannot be
   *     sealed (no key)
   */
  static String stored(int objid, String name, String value, Secrets secrets) {
    if (!Secrets.isSecretName(name)) {
      return value;
    }
    try {
      return secrets.forStorage(value, Secrets.configContext(objid, name));
    } catch (IllegalArgumentException | SecretException e) {
      throw new RssdException(
          Reason.INVALID, SystemTable.RS_CONFIG.sqlName(), objid + "/" + name, e.getMessage(), e);
    }
  }

  static boolean remove(Connection c, int objid, String name) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("delete from rs_config where objid = ? and optionname = ?")) {
      ps.setInt(1, objid);
      ps.setString(2, name);
      return ps.executeUpdate() > 0;
    }
  }

  static void removeAll(Connection c, int objid) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("delete from rs_config where objid = ?")) {
      ps.setInt(1, objid);
      ps.executeUpdate();
    }
  }
}
