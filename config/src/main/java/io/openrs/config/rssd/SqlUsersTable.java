package io.openrs.config.rssd;

import static io.openrs.config.rssd.SystemTable.RS_CONNECT_SOURCE;
import static io.openrs.config.rssd.SystemTable.RS_USERS;

import io.openrs.config.rssd.RssdException.Reason;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link UsersTable} on {@code rs_users} and {@code rs_connect_source} (a grant for every origin is
 * the row whose {@code dsname} and {@code dbname} are both empty).
 */
final class SqlUsersTable implements UsersTable {
  private static final String SELECT = "select username, user_role, scram_secret from rs_users";
  private static final String SELECT_GRANTS =
      "select username, dsname, dbname from rs_connect_source";

  private final Jdbc jdbc;
  private final Clock clock;

  SqlUsersTable(Jdbc jdbc, Clock clock) {
    this.jdbc = jdbc;
    this.clock = clock;
  }

  @Override
  public void create(RssdUser user) {
    String name = user.name();
    Jdbc.requireName(RS_USERS, name, "user name", name);
    requireVerifier(name, user.scramSha256());
    jdbc.write(
        RS_USERS,
        name,
        RS_USERS,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "insert into rs_users (username, user_role, scram_secret, created)"
                      + " values (?, ?, ?, ?)")) {
            ps.setString(1, name);
            ps.setString(2, user.role().name());
            ps.setString(3, user.scramSha256());
            Jdbc.setInstant(ps, 4, clock.instant());
            ps.executeUpdate();
          } catch (SQLException e) {
            if (Jdbc.isUniqueViolation(e)) {
              throw new RssdException(
                  Reason.DUPLICATE,
                  RS_USERS.sqlName(),
                  name,
                  "user " + name + " already exists",
                  e);
            }
            throw e;
          }
          return null;
        });
  }

  private static void requireVerifier(String name, String verifier) {
    try {
      ScramVerifier.parse(verifier);
    } catch (IllegalArgumentException e) {
      throw new RssdException(
          Reason.INVALID,
          RS_USERS.sqlName(),
          name,
          "secret of user " + name + " is not a SCRAM-SHA-256 verifier: " + e.getMessage(),
          e);
    }
  }

  @Override
  public Optional<RssdUser> find(String name) {
    return jdbc.read(RS_USERS, name, c -> load(c, " where username = ?", name)).stream()
        .findFirst();
  }

  @Override
  public List<RssdUser> all() {
    return jdbc.read(RS_USERS, "*", c -> load(c, ""));
  }

  private static List<RssdUser> load(Connection c, String where, Object... params)
      throws SQLException {
    Map<String, List<SourceGrant>> grants = new HashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(SELECT_GRANTS + where + " order by username, dsname, dbname")) {
      bind(ps, params);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String ds = rs.getString(2);
          grants
              .computeIfAbsent(rs.getString(1), u -> new ArrayList<>())
              .add(
                  ds.isEmpty()
                      ? SourceGrant.everyOrigin()
                      : SourceGrant.origin(ds, rs.getString(3)));
        }
      }
    }
    List<RssdUser> users = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(SELECT + where + " order by username")) {
      bind(ps, params);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String name = rs.getString(1);
          users.add(
              new RssdUser(
                  name,
                  UserRole.valueOf(rs.getString(2)),
                  rs.getString(3),
                  grants.getOrDefault(name, List.of())));
        }
      }
    }
    return List.copyOf(users);
  }

  private static void bind(PreparedStatement ps, Object... params) throws SQLException {
    for (int i = 0; i < params.length; i++) {
      ps.setObject(i + 1, params[i]);
    }
  }

  @Override
  public boolean grantSource(String name, SourceGrant grant) {
    return jdbc.write(
        RS_CONNECT_SOURCE,
        name,
        RS_CONNECT_SOURCE,
        c -> {
          requireUser(c, name);
          // A savepoint keeps a PostgreSQL transaction usable after a duplicate grant.
          java.sql.Savepoint savepoint = c.setSavepoint();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "insert into rs_connect_source (username, dsname, dbname, granted)"
                      + " values (?, ?, ?, ?)")) {
            ps.setString(1, name);
            ps.setString(2, grant.origin().map(SourceGrant.Origin::dataserver).orElse(""));
            ps.setString(3, grant.origin().map(SourceGrant.Origin::database).orElse(""));
            Jdbc.setInstant(ps, 4, clock.instant());
            ps.executeUpdate();
            c.releaseSavepoint(savepoint);
            return true;
          } catch (SQLException e) {
            if (Jdbc.isUniqueViolation(e)) {
              c.rollback(savepoint);
              return false;
            }
            throw e;
          }
        });
  }

  @Override
  public boolean revokeSource(String name, SourceGrant grant) {
    return jdbc.write(
        RS_CONNECT_SOURCE,
        name,
        RS_CONNECT_SOURCE,
        c -> {
          requireUser(c, name);
          try (PreparedStatement ps =
              c.prepareStatement(
                  "delete from rs_connect_source where username = ? and dsname = ? and dbname = ?")) {
            ps.setString(1, name);
            ps.setString(2, grant.origin().map(SourceGrant.Origin::dataserver).orElse(""));
            ps.setString(3, grant.origin().map(SourceGrant.Origin::database).orElse(""));
            return ps.executeUpdate() > 0;
          }
        });
  }

  @Override
  public int revokeAllSources(String name) {
    return jdbc.write(
        RS_CONNECT_SOURCE,
        name,
        RS_CONNECT_SOURCE,
        c -> {
          requireUser(c, name);
          try (PreparedStatement ps =
              c.prepareStatement("delete from rs_connect_source where username = ?")) {
            ps.setString(1, name);
            return ps.executeUpdate();
          }
        });
  }

  private static void requireUser(Connection c, String name) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("select 1 from rs_users where username = ?")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw notFound(name);
        }
      }
    }
  }

  @Override
  public void setSecret(String name, String scramSha256) {
    requireVerifier(name, scramSha256);
    updateOne(name, "scram_secret", scramSha256);
  }

  @Override
  public void setRole(String name, UserRole role) {
    Objects.requireNonNull(role, "role");
    updateOne(name, "user_role", role.name());
  }

  private void updateOne(String name, String column, String value) {
    jdbc.write(
        RS_USERS,
        name,
        RS_USERS,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("update rs_users set " + column + " = ? where username = ?")) {
            ps.setString(1, value);
            ps.setString(2, name);
            if (ps.executeUpdate() == 0) {
              throw notFound(name);
            }
          }
          return null;
        });
  }

  @Override
  public void drop(String name) {
    jdbc.write(
        RS_USERS,
        name,
        RS_USERS,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("delete from rs_users where username = ?")) {
            ps.setString(1, name);
            if (ps.executeUpdate() == 0) {
              throw notFound(name);
            }
          }
          return null;
        });
  }

  private static RssdException notFound(String name) {
    return new RssdException(Reason.NOT_FOUND, RS_USERS.sqlName(), name, "no user " + name);
  }
}
