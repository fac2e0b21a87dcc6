package io.openrs.config.rssd;

import io.openrs.config.secret.SecretBox;
import io.openrs.config.secret.Secrets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seals, at open, the secret settings of {@code rs_config} that an older server stored in clear,
 * and purges the clear copies the database keeps of the rows it rewrote. Runs once per open, on the
 * opening thread, before the pool starts.
 */
final class ClearSecrets {
  private static final Logger LOG = LoggerFactory.getLogger(ClearSecrets.class);

  private record Row(int objid, String name, String value) {}

  private ClearSecrets() {}

  /**
   * Seals every secret setting stored neither sealed nor as a reference, in one transaction.
   *
   * @return how many rows were sealed
   */
  static int seal(Connection c, Optional<String> schema, Secrets secrets) throws SQLException {
    String table = schema.map(s -> s + ".").orElse("") + "rs_config";
    List<Row> clear = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("select objid, optionname, charvalue from " + table)) {
      while (rs.next()) {
        Row r = new Row(rs.getInt(1), rs.getString(2), rs.getString(3));
        if (Secrets.isSecretName(r.name())
            && r.value() != null
            && !r.value().isEmpty()
            && !SecretBox.isSealed(r.value())
            && !Secrets.isReference(r.value())) {
          clear.add(r);
        }
      }
    }
    if (clear.isEmpty()) {
      return 0;
    }
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false);
    try (PreparedStatement ps =
        c.prepareStatement(
            "update " + table + " set charvalue = ? where objid = ? and optionname = ?")) {
      for (Row r : clear) {
        ps.setString(1, secrets.forStorage(r.value(), Secrets.configContext(r.objid(), r.name())));
        ps.setInt(2, r.objid());
        ps.setString(3, r.name());
        ps.executeUpdate();
      }
      c.commit();
    } catch (SQLException | RuntimeException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(autoCommit);
    }
    LOG.info(
        "sealed {} secret setting(s) the RSSD held in clear: {}",
        clear.size(),
        clear.stream().map(r -> r.objid() + "/" + r.name()).toList());
    return clear.size();
  }

  /**
   * Purges the clear copies of rewritten rows from the database's files: an embedded H2 database is
   * compacted ({@code SHUTDOWN COMPACT}, which closes it; the pool opens it again), PostgreSQL
   * rewrites {@code rs_config} ({@code VACUUM FULL}). PostgreSQL's write-ahead log, its archives
   * and backups taken before keep the old values: change those passwords where that matters. A
   * failure is logged and the start goes on.
   */
  static void purgeOldCopies(Connection c, RssdSettings settings) {
    boolean h2 = settings.jdbcUrl().startsWith("jdbc:h2:");
    String sql =
        h2
            ? "shutdown compact"
            : "vacuum full " + settings.schema().map(s -> s + ".").orElse("") + "rs_config";
    try (Statement st = c.createStatement()) {
      st.execute(sql);
      LOG.info("purged the clear copies of the sealed settings from the RSSD ({})", sql);
    } catch (SQLException e) {
      LOG.warn(
          "could not purge the clear copies of the sealed settings from the RSSD at {} ({}): {};"
              + " old copies may stay in its files until the database reuses the space",
          settings.redactedUrl(),
          sql,
          Jdbc.describe(e));
    }
  }
}
